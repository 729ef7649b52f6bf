#!/bin/sh
# Ghost build: a user that ends without MPI_Finalize takes the job down
# through its ghost (src/ghost/ghost_init.c, check_users) instead of
# leaving the ghost serving: the job must end well before the others'
# 60 s sleep, non-zero, with the ghost's message.  Other builds: skip.
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ! ghost_build; then
    echo "SKIP: not a ghost-progress build"
    exit 77
fi
[ -n "$ARMCI_VIRTUAL_NODE_SIZE" ] || { echo "SKIP: needs virtual nodes (make check-ghost)"; exit 77; }
fail=0
# MPICH's hydra takes down a job one of whose processes exits without
# MPI_Finalize, at once and before the ghost's check (10 a second) sees
# it, with its own banner: there the banner names the death.
exit_alt=
[ "${MPI_FLAVOR:-}" = mpich ] && exit_alt="|BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES"
for how in exit kill; do
    t0=$(date +%s)
    # argv[2] (ignored by the program) marks this job's processes for pgrep:
    # make check-ghost may run this script in two modes at once
    out=$(timeout -k 5 50 $runner "$np" $MPI_MCA "$dir/ghost_userdeath" $how "tag$$" 2>&1 </dev/null)
    rc=$?
    dt=$(($(date +%s) - t0))
    sleep 1
    left=$(pgrep -f "ghost_userdeath $how tag$$" | tr '\n' ' ')
    # 137 is also the status of a job whose rank was killed: judge a hang by
    # the time (the limit is 50 s, the survivors sleep 60 s)
    if [ $rc -eq 0 ] && [ -n "$exit_alt" ] && [ $how = exit ] && [ $dt -lt 45 ] && [ -z "$left" ]; then
        # hydra sometimes ends such a job at once with status 0 and no
        # message, before any ghost can look (tests/mpi/exit0_repro.c,
        # test_launcher_exit0.sh: without ARMCI too); the job is down
        echo "ok   ghost_userdeath $how: hydra ended the job itself in $dt s with status 0 (its silent teardown, see test_launcher_exit0.sh)"
    elif [ $rc -eq 0 ] || [ $dt -ge 45 ]; then
        echo "FAIL ghost_userdeath $how: exit status $rc after $dt s (job not taken down)"
        fail=1
    elif [ -n "$left" ]; then
        echo "FAIL ghost_userdeath $how: processes left behind: $left"
        pkill -9 -f "ghost_userdeath $how tag$$"
        fail=1
    elif [ $how = exit ] &&
        ! printf '%s\n' "$out" | grep -qE "ended without MPI_Finalize; aborting the job$exit_alt"; then
        # a plain exit leaves Open MPI's launcher nothing to see: only the
        # ghost ends the job (MPICH's hydra ends it itself: exit_alt)
        echo "FAIL ghost_userdeath $how: the ghost's message is missing; output:"
        printf '%s\n' "$out" | head -8
        fail=1
    elif [ $how = kill ] && { [ $dt -gt 15 ] || ! printf '%s\n' "$out" |
        grep -qE "ended without MPI_Finalize; aborting the job|signal 9|SIGNAL: 9"; }; then
        # killed: the ghost or the launcher ends the job, whichever sees it
        # first, within 10 s of the death (15 s from launch on this host)
        # and with a message that names the death
        echo "FAIL ghost_userdeath $how: $dt s, exit status $rc, and no message naming the death; output:"
        printf '%s\n' "$out" | head -8
        fail=1
    else
        echo "ok   ghost_userdeath $how: job ended in $dt s, exit status $rc, nothing left behind"
    fi
done
exit $fail
