#!/bin/sh
# Records whether this MPI completes RMA to a target that makes no MPI
# calls (tests/mpi/rma_target_progress_repro.c, pure MPI), for both window
# kinds the library uses; fails only if a put is lost.  The answer decides
# whether Put_flag targets must call ARMCIX_Progress (docs/mpi-notes.md).  Mode "on"
# only (77 = skip): it sets no osc component of its own.
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
fail=0
for kind in shared allocate; do
    if ! timeout -k 5 60 $runner 2 "$dir/rma_target_progress_repro" $kind; then
        echo "FAIL: a put to an idle target was lost ($kind window)"; fail=1
    fi
done
[ $fail -eq 0 ] && echo "PASS test_rma_target_progress"
exit $fail
