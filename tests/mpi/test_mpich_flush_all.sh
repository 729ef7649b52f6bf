#!/bin/sh
# Probes the MPI for gets left in flight by MPI_Win_flush_all
# (tests/mpi/mpich_flush_all_repro.c: MPICH 4.0.2 on MPI_Win_allocate and
# MPI_Win_create windows) and records the result.  Fails when what the
# library relies on does not hold: a flush per rank (its workaround on
# those windows, armcii_gmr_flush_all) must complete every get, and shared
# windows, which keep flush_all, must lose none.  Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
rounds=2000
# Exit 1 is the reproducer's "incomplete"; anything else is no answer.
run() {
    timeout -k 5 120 $runner 2 "$dir/mpich_flush_all_repro" "$@" $rounds
}
for kind in allocate create; do
    run $kind all
    case $? in
    0) echo "recorded: flush_all completed every get on $kind windows" ;;
    1) echo "recorded: flush_all left gets in flight on $kind windows (flushed per rank by the library)" ;;
    *) echo "FAIL: the $kind/all probe gave no answer"; exit 1 ;;
    esac
    if ! run $kind each; then
        echo "FAIL: a flush per rank left gets in flight on $kind windows: the workaround does not help"
        exit 1
    fi
done
if ! run shared all; then
    echo "FAIL: flush_all left gets in flight on shared windows, which the library flushes with it"
    exit 1
fi
echo "PASS test_mpich_flush_all"
