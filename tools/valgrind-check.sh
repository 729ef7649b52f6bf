#!/bin/sh
# make check-valgrind: a representative subset of the MPI tests (contiguous,
# strided, vector, nonblocking, RMW and mutexes) under valgrind memcheck, 2
# ranks, node-local path on and off.  Any memcheck error in a rank fails the
# run (--error-exitcode).  Errors whose innermost frame lies in the MPI
# stack's own libraries (Open MPI, PMIx, UCX, MPICH, hwloc, libevent), or
# system calls issued from them, are suppressed: the suppressions are
# generated here from one list of library names, so an error raised in
# libarmci's own code (its frame innermost) is always reported.
# usage: valgrind-check.sh BUILDDIR   (TEST_RUNNER as in tests/run-mode.sh;
# VALGRIND_MODES: the modes, default "on off")
set -u
build=${1:-.}
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; exit 0; }
supp=$(mktemp)
log=$(mktemp)
trap 'rm -f "$supp" "$log"' EXIT
libs="libpmix libopen-pal libopen-rte libmpi.so libucs libuct libucp libmpich libhwloc libevent libfabric"
kinds="Cond Value1 Value2 Value4 Value8 Value16 Addr1 Addr2 Addr4 Addr8 Addr16 Overlap Free"
for l in $libs; do
    for k in $kinds; do
        printf '{\n  mpi-%s-%s\n  Memcheck:%s\n  obj:*/%s*\n}\n' "$l" "$k" "$k" "$l"
    done
    # Param suppressions name the parameter (valgrind takes no wildcard there)
    for p in 'writev(vector[...])' 'write(buf)' 'sendmsg(msg.msg_iov[0])' \
        'sendmsg(msg.msg_iov[1])' 'sendto(msg)' 'pwrite64(buf)'; do
        printf '{\n  mpi-%s-param\n  Memcheck:Param\n  %s\n  ...\n  obj:*/%s*\n}\n' \
            "$l" "$p" "$l"
    done
done >"$supp"
fail=0
for mode in ${VALGRIND_MODES:-on off}; do
    for t in test_contig test_strided test_vector test_nb test_rmw test_mutex; do
        prog="$build/tests/mpi/$t"
        [ -x "$prog" ] || { echo "FAIL $t: $prog not built"; fail=1; continue; }
        ARMCI_NODE_LOCAL=$mode ARMCI_TEST_MODE=$mode TEST_ITER_DIV=4 timeout -k 5 300 \
            $runner 2 "$build/libtool" --mode=execute valgrind -q --error-exitcode=99 \
            --leak-check=no --suppressions="$supp" "$prog" >"$log" 2>&1
        rc=$?
        n=$(grep -c '^==[0-9]*== [A-Z]' "$log")
        if [ $rc -ne 0 ] || [ "$n" -ne 0 ]; then
            echo "FAIL $t [mode $mode]: exit $rc, $n memcheck line(s)"
            grep -A14 '^==[0-9]*== [A-Z]' "$log" | head -40
            fail=1
        else
            echo "ok   $t [mode $mode]: memcheck clean"
        fi
    done
done
exit $fail
