#!/bin/sh
# Runs test_strided and test_vector under every strided/IOV method (the
# configuration is read at init, so each method is a separate job) and
# fails if any run fails or if the requested method did not run: with
# ARMCI_VERBOSE=3 the library logs the method of every operation, and each
# run must show its method (a fallback only for its documented reasons).
# Environment from tests/run-mode.sh: TEST_RUNNER, NPROCS, MPI_MCA,
# TESTS_BUILDDIR, ARMCI_TEST_MODE and the mode's ARMCI_* variables.
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
fail=0
n=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Each method run does a quarter of the programs' randomized iterations
# (TEST_ITER_DIV): the plain test_strided/test_vector runs keep the full
# coverage, and CONSERVATIVE (one flush per segment) under MPICH took 58 s
# for the full test_strided.
# Under MPICH an eighth: its spinning ranks made this the slowest test of
# CI's MPICH stage (benchmarks/results/ci_times.txt).  IOV_ITER_DIV sets it
# (the sanitizer stage: 8, where this is its slowest test).
div=4
[ "${MPI_FLAVOR:-openmpi}" != mpich ] || div=8
div=${IOV_ITER_DIV:-$div}
# run PROG "REGEX THE LOG MUST MATCH" VAR=VALUE...
run() {
    prog=$1
    want=$2
    shift 2
    n=$((n + 1))
    env ARMCI_VERBOSE=3 TEST_ITER_DIV=$div "$@" timeout -k 5 120 $runner "$np" $MPI_MCA "$dir/$prog" >"$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $prog with $*: exit status $rc"
        grep -v '^ *$' "$log" | grep -v 'ARMCI: .* method' | head -12
        fail=$((fail + 1))
    elif ! grep -Eq "$want" "$log"; then
        echo "FAIL $prog with $*: no operation logged /$want/ (the method did not run)"
        grep 'method' "$log" | sort | uniq -c | sort -rn | head -5
        fail=$((fail + 1))
    elif [ -n "${deny:-}" ] && grep -Eq "$deny" "$log"; then
        echo "FAIL $prog with $*: $(grep -Ec "$deny" "$log") operations logged /$deny/"
        grep -E "$deny" "$log" | head -3
        fail=$((fail + 1))
    else
        echo "ok   $prog with $*: $(grep -Ec "$want" "$log") operations /$want/"
    fi
}
# DIRECT serves a node-local target with BATCHED (load/store); where some
# targets are remote (every mode but "on") it must really run.
case ${ARMCI_TEST_MODE:-on} in
on) direct='IOV method DIRECT(,| -> BATCHED \(node-local target\))' ;;
*) direct='IOV method DIRECT,' ;;
esac
for iov in AUTO CONSRV BATCHED DIRECT; do
    case $iov in
    AUTO) want='IOV method AUTO -> (BATCHED|CONSERVATIVE)' ;;
    CONSRV) want='IOV method CONSERVATIVE,' ;;
    BATCHED) want='IOV method BATCHED,' ;;
    DIRECT) want=$direct ;;
    esac
    run test_strided "$want" ARMCI_STRIDED_METHOD=IOV ARMCI_IOV_METHOD=$iov
    run test_vector "$want" ARMCI_IOV_METHOD=$iov
done
# AUTO builds the conflict tree only where it can pay: an ascending written
# side is disjoint without it, and a node-local target's segments run in
# order (GA's gather and scatter_acc spent half their time in the tree).
# Where every target is node-local (mode on, with the node-local path on:
# the verbose log of the runs above says) the tree must never decide.
nl=off
grep -q 'node-local path: on' "$log" && nl=on
if [ "${ARMCI_TEST_MODE:-on}" = on ] && [ "$nl" = on ]; then
    deny='IOV method AUTO -> [A-Z]+ \((disjoint|overlapping) segments\)'
    run test_vector 'IOV method AUTO -> CONSERVATIVE \(node-local target\)' ARMCI_IOV_METHOD=AUTO
    deny=
    run test_vector 'IOV method AUTO -> BATCHED \(ascending segments\)' ARMCI_IOV_METHOD=AUTO
else
    run test_vector 'IOV method AUTO -> CONSERVATIVE \(overlapping segments\)' ARMCI_IOV_METHOD=AUTO
fi
run test_strided 'strided method DIRECT' ARMCI_STRIDED_METHOD=DIRECT ARMCI_IOV_METHOD=AUTO
run test_strided 'strided method DIRECT' ARMCI_STRIDED_METHOD=DIRECT ARMCI_IOV_METHOD=CONSRV
# a small batch limit forces completions in the middle of a descriptor
run test_vector 'IOV method BATCHED,' ARMCI_IOV_METHOD=BATCHED ARMCI_IOV_BATCHED_LIMIT=3
run test_strided 'IOV method BATCHED,' ARMCI_STRIDED_METHOD=IOV ARMCI_IOV_METHOD=BATCHED \
    ARMCI_IOV_BATCHED_LIMIT=5
# ARMCI_ACC_DTYPE_SPLIT: "on" issues a remote strided accumulate as one
# contiguous accumulate per block, "off" as one datatype accumulate (the
# node-local path of mode "on" uses neither)
case ${ARMCI_TEST_MODE:-on} in
on) ;;
*) run test_strided 'ARMCI_AccS: strided method DIRECT -> IOV \(acc_dtype_split\)' ARMCI_ACC_DTYPE_SPLIT=on
   run test_strided 'ARMCI_AccS: strided method DIRECT, [0-9]+ blocks' ARMCI_ACC_DTYPE_SPLIT=off ;;
esac
# Sieved gets (src/iov/iov_sieve.c): test_sieve's crowded strided and
# vector gets to other nodes must be read as one range each, node-local
# ones never, and with ARMCI_IOV_SIEVE=0 the datatype get serves them.
case ${ARMCI_TEST_MODE:-on} in
on) deny='sieved'
    run test_sieve 'IOV method AUTO' ;;
*) run test_sieve 'sieved strided get'
   if [ $rc -eq 0 ] && ! grep -q 'sieved get,' "$log"; then
       echo "FAIL test_sieve: no vector get was sieved"
       fail=$((fail + 1))
   fi
   deny='sieved'
   run test_sieve 'ARMCI_GetS: strided method DIRECT,' ARMCI_IOV_SIEVE=0 ;;
esac
deny=
echo "iov methods: $((n - fail)) of $n runs passed"
[ $fail -eq 0 ]
