#!/bin/sh
# Probes Open MPI's osc/ucx dynamic windows (tests/mpi/ompi_ucx_dynwin_repro.c,
# pure MPI) for the limits that make the ghost backend leave osc/ucx of
# Open MPI < 5 alone (src/common/common_quirks.c): at most 32 attached
# regions per window, and a crash in MPI_Win_free while memory is attached.
# Records what this MPI does, and requires the form the ghosts use
# (refusals come back as error codes; detach everything, then free) to
# work.  Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
ompi_only ucx
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
run() { timeout -k 5 60 $runner 2 --mca osc ucx "$dir/ompi_ucx_dynwin_repro" "$@" >/dev/null 2>&1; }
# A crash (or an error code) is what these forms probe for; a launch that
# was killed by the timeout gave no answer and fails the test.
no_answer() {
    echo "FAIL: no answer from the $1 form: killed after 60 s (exit $2); a timeout is not a crash"
    exit 1
}
run limit 40
rc=$?
case $rc in
0) echo "osc/ucx: 40 regions attached to one dynamic window (no limit seen)" ;;
3) echo "osc/ucx: MPI_Win_attach refuses regions beyond a limit (error code, window intact)" ;;
124|137) no_answer limit $rc ;;
*) echo "osc/ucx: MPI_Win_attach refuses regions beyond a limit and the window is broken after it (exit $rc)" ;;
esac
run attached-free
rc=$?
case $rc in
0) echo "osc/ucx: MPI_Win_free with attached memory works" ;;
124|137) no_answer attached-free $rc ;;
*) echo "osc/ucx: MPI_Win_free with attached memory fails (exit $rc; bug present)" ;;
esac
if ! run detached-free; then
    echo "FAIL: detach-then-free (the library's form) did not work under osc/ucx"
    exit 1
fi
echo "osc/ucx dynamic windows: the library's usage works"
