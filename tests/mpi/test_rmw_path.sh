#!/bin/sh
# Which completion ARMCI_Rmw's fetch-and-adds take between virtual nodes
# (ARMCII_QUIRK_FOP_BY_REQUEST, src/common/common_quirks.c): runs test_rmw
# (which checks that reads, puts, accumulates and atomics right after a
# fetch-and-add see it) with ARMCI_VERBOSE=2, and fails unless the regions
# say "fetch-and-adds by request" exactly where the library identified Open
# MPI 4 with osc/rdma as the component, and nowhere else (MPICH, osc/ucx,
# osc/pt2pt keep MPI_Fetch_and_op + MPI_Win_flush).  Mode vn2 only: the
# other modes' regions are node-shared windows or forced components, which
# test_rmw itself covers.
case ${ARMCI_TEST_MODE:-on} in vn2) ;; *) echo "SKIP: runs in mode vn2"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
env ARMCI_VERBOSE=2 timeout -k 5 120 $runner "${NPROCS:-4}" $MPI_MCA "$dir/test_rmw" >"$log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL test_rmw with ARMCI_VERBOSE=2: exit status $rc"
    grep -v '^ *$' "$log" | grep -v 'ARMCI: ' | head -12
    exit 1
fi
if grep -q 'ARMCI: MPI: .*(Open MPI 4\.' "$log" && grep -q 'RMA component: osc/rdma' "$log"; then
    want=1
else
    want=0
fi
regions=$(grep -c 'ARMCI_Malloc: region' "$log")
byreq=$(grep -c 'ARMCI_Malloc: region.*fetch-and-adds by request' "$log")
if [ "$regions" -eq 0 ]; then
    echo "FAIL: no region was logged (ARMCI_VERBOSE=2)"
    exit 1
fi
if [ $want = 1 ] && [ "$byreq" -ne "$regions" ]; then
    echo "FAIL: Open MPI 4 with osc/rdma, but $byreq of $regions region logs say" \
         "'fetch-and-adds by request'"
    grep 'ARMCI_Malloc: region' "$log" | head -3
    exit 1
fi
if [ $want = 0 ] && [ "$byreq" -ne 0 ]; then
    echo "FAIL: $byreq region logs say 'fetch-and-adds by request' on an MPI or component" \
         "without the quirk"
    grep 'ARMCI: MPI: \|RMA component' "$log" | head -2
    exit 1
fi
echo "ok   test_rmw passed; $byreq of $regions regions complete fetch-and-adds by request" \
     "(expected: $([ $want = 1 ] && echo all || echo none))"
