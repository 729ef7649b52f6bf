#!/bin/sh
# Runs test_strided and test_vector under every strided/IOV method (the
# configuration is read at init, so each method is a separate job) and
# fails if any run fails.  Environment from tests/run-mode.sh: TEST_RUNNER,
# NPROCS, MPI_MCA, TESTS_BUILDDIR and the mode's ARMCI_* variables.
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
fail=0
n=0
run() {
    prog=$1
    shift
    n=$((n + 1))
    out=$(env "$@" timeout -k 5 120 $runner "$np" $MPI_MCA "$dir/$prog" 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $prog with $*: exit status $rc"
        printf '%s\n' "$out" | grep -v '^ *$' | head -12
        fail=$((fail + 1))
    else
        echo "ok   $prog with $*"
    fi
}
for iov in AUTO CONSRV BATCHED DIRECT; do
    run test_strided ARMCI_STRIDED_METHOD=IOV ARMCI_IOV_METHOD=$iov
    run test_vector ARMCI_IOV_METHOD=$iov
done
run test_strided ARMCI_STRIDED_METHOD=DIRECT ARMCI_IOV_METHOD=AUTO
run test_strided ARMCI_STRIDED_METHOD=DIRECT ARMCI_IOV_METHOD=CONSRV
# a small batch limit forces completions in the middle of a descriptor
run test_vector ARMCI_IOV_METHOD=BATCHED ARMCI_IOV_BATCHED_LIMIT=3
run test_strided ARMCI_STRIDED_METHOD=IOV ARMCI_IOV_METHOD=BATCHED ARMCI_IOV_BATCHED_LIMIT=5
echo "iov methods: $((n - fail)) of $n runs passed"
[ $fail -eq 0 ]
