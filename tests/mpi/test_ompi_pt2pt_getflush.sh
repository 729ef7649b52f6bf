#!/bin/sh
# Probes Open MPI's osc/pt2pt for the MPI_Win_flush_local hang with gets to
# several targets (tests/mpi/ompi_pt2pt_getflush_repro.c, pure MPI) and
# records whether it is present.  The library completes reads with
# MPI_Win_flush (src/gmr/gmr_ops.c, armcii_gmr_complete_win), so it must
# stay correct either way: the flush form of the reproducer has to pass,
# and test_nb (many gets under one handle) has to pass under pt2pt.  It
# sets its own osc component, so it runs in mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
ompi_only pt2pt
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
# The reproducer names a hang itself (exit 3, tests/mpi/repro_watchdog.h);
# a launch that gives no answer fails the test (repro_hang, ompi_only.sh).
if repro_hang MPI_Win_flush_local \
    $runner "$np" --mca osc pt2pt "$dir/ompi_pt2pt_getflush_repro" local; then
    echo "osc/pt2pt: flush_local after gets to several targets completes (bug absent)"
else
    echo "osc/pt2pt: flush_local after gets to several targets hangs (bug present)"
    require_quirk NO_FLUSH_LOCAL pt2pt
fi
# flush_local of a put target while a get to another target is in flight
# (the library then completes everything with flush: NO_FLUSH_LOCAL)
if [ "$np" -ge 3 ]; then
    if repro_hang MPI_Win_flush_local \
        $runner "$np" --mca osc pt2pt "$dir/ompi_pt2pt_getflush_repro" put; then
        echo "osc/pt2pt: flush_local of a put with a get to another target in flight completes (bug absent)"
    else
        echo "osc/pt2pt: flush_local of a put with a get to another target in flight hangs (bug present)"
        require_quirk NO_FLUSH_LOCAL pt2pt
    fi
fi
if ! timeout -k 5 60 $runner "$np" --mca osc pt2pt "$dir/ompi_pt2pt_getflush_repro" remote; then
    echo "FAIL: MPI_Win_flush after gets to several targets did not complete correctly"
    exit 1
fi
if ! timeout -k 5 120 $runner "$np" --mca osc pt2pt "$dir/test_nb"; then
    echo "FAIL: test_nb under osc/pt2pt (the library's read completion)"
    exit 1
fi
echo "library reads complete with MPI_Win_flush: correct under osc/pt2pt"
