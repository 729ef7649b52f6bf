#!/bin/sh
# Probes the MPI for MPI_Rget requests that complete before their data
# arrives (tests/mpi/rget_dtype_repro.c: MPICH 4.0.2 with derived
# datatypes, on both sides or the target's only) and records the result.
# Fails when what the library relies on does not hold: after the
# request's wait, MPI_Win_flush must complete every get
# (armcii_gmr_complete_win flushes after waiting, where waits yield), and
# a contiguous get's request must complete it, and so must a derived
# get's as MPI_Rget_accumulate with MPI_NO_OP (form gacc: how the library
# issues such gets where waits yield and the MPI has the quirk).
# Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
run() { timeout -k 5 120 $runner 2 "$dir/rget_dtype_repro" "$@" 100; }
for form in vector tvec; do
    run $form
    case $? in
    0) echo "recorded: a $form MPI_Rget is complete when its request is" ;;
    1) echo "recorded: a $form MPI_Rget's request completes before its data arrives (the library flushes after waiting, and where waits yield gets such a transfer as MPI_Rget_accumulate)" ;;
    2) echo "FAIL: a $form MPI_Rget was incomplete even after MPI_Win_flush"; exit 1 ;;
    *) echo "FAIL: the $form probe gave no answer"; exit 1 ;;
    esac
done
if ! run contig; then
    echo "FAIL: a contiguous MPI_Rget was incomplete after its request or the flush"
    exit 1
fi
if ! run gacc; then
    echo "FAIL: a vector MPI_Rget_accumulate(MPI_NO_OP) was incomplete after its request or the flush"
    exit 1
fi
echo "PASS test_rget_dtype"
