#!/bin/sh
# Probes Open MPI's osc/ucx for the missing target-side progress of
# software atomics (tests/mpi/ompi_ucx_rma_progress_repro.c, pure MPI): a
# process polling through RMA calls alone never serves a peer's
# MPI_Fetch_and_op.  Records whether the bug is present, requires the
# workaround's form (MPI_Iprobe while polling) to pass, and requires the
# library's own version of the scenario (test_rmw's polling case, which
# relies on src/gmr/gmr_ops.c poking MPI progress) to pass under osc/ucx.
# It sets its own osc component, so it runs in mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
ompi_only ucx
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
# The reproducer names a hang itself (exit 3, tests/mpi/repro_watchdog.h):
# the target's poll or the peer's fetch-and-op; a launch that gives no
# answer fails the test (repro_hang, ompi_only.sh).
if repro_hang "\(the target's poll\|MPI_Fetch_and_op\)" \
    $runner 2 --mca osc ucx "$dir/ompi_ucx_rma_progress_repro" fop; then
    echo "osc/ucx: a peer's fetch-and-op completes while the target polls with RMA (bug absent)"
else
    echo "osc/ucx: a peer's fetch-and-op hangs while the target polls with RMA (bug present)"
    require_quirk WIN_POKE ucx
fi
if ! timeout -k 5 60 $runner 2 --mca osc ucx "$dir/ompi_ucx_rma_progress_repro" iprobe; then
    echo "FAIL: the MPI_Iprobe polling form did not complete correctly"
    exit 1
fi
if ! timeout -k 5 120 $runner "${NPROCS:-4}" --mca osc ucx "$dir/test_rmw"; then
    echo "FAIL: test_rmw under osc/ucx (the library's progress pokes)"
    exit 1
fi
echo "the library keeps serving atomics while a process polls through it: correct under osc/ucx"
