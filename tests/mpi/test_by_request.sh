#!/bin/sh
# Where the MPI path's operations take the request-based forms and complete
# without a flush (ARMCII_QUIRK_BY_REQUEST, src/common/common_quirks.c):
# runs test_rmw (reads, puts, accumulates and atomics right after a
# fetch-and-add must see it), test_contig and test_nb (blocking and
# nonblocking put, get and accumulate, checked) with ARMCI_VERBOSE=2, and
# fails unless the regions say "completed by request" exactly where the
# library identified Open MPI 4 with osc/rdma as the component, and nowhere
# else (MPICH, osc/ucx, osc/pt2pt keep the calls + flush).  Mode vn2 only:
# the other modes' regions are node-shared windows or forced components,
# which the three programs themselves cover.  make check-ghost runs it too:
# with ghosts the regions' own windows take the forms (operations sent to
# ghosts keep the ghosts' windows and their flushes).
case ${ARMCI_TEST_MODE:-on} in vn2) ;; *) echo "SKIP: runs in mode vn2"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail=0
for prog in test_rmw test_contig test_nb; do
    env ARMCI_VERBOSE=2 timeout -k 5 120 $runner "${NPROCS:-4}" $MPI_MCA "$dir/$prog" >"$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $prog with ARMCI_VERBOSE=2: exit status $rc"
        grep -v '^ *$' "$log" | grep -v 'ARMCI: ' | head -12
        fail=1
        continue
    fi
    if grep -q 'ARMCI: MPI: .*(Open MPI 4\.' "$log" && grep -q 'RMA component: osc/rdma' "$log"; then
        want=1
    else
        want=0
    fi
    regions=$(grep -c 'ARMCI_Malloc: region' "$log")
    byreq=$(grep -c 'ARMCI_Malloc: region.*completed by request' "$log")
    if [ "$regions" -eq 0 ]; then
        echo "FAIL $prog: no region was logged (ARMCI_VERBOSE=2)"
        fail=1
    elif [ $want = 1 ] && [ "$byreq" -ne "$regions" ]; then
        echo "FAIL $prog: Open MPI 4 with osc/rdma, but $byreq of $regions region logs say" \
             "'completed by request'"
        grep 'ARMCI_Malloc: region' "$log" | head -3
        fail=1
    elif [ $want = 0 ] && [ "$byreq" -ne 0 ]; then
        echo "FAIL $prog: $byreq region logs say 'completed by request' on an MPI or" \
             "component without the quirk"
        grep 'ARMCI: MPI: \|RMA component' "$log" | head -2
        fail=1
    else
        echo "ok   $prog passed; $byreq of $regions regions completed by request" \
             "(expected: $([ $want = 1 ] && echo all || echo none))"
    fi
done
exit $fail
