#!/bin/sh
# Ghost build: a user that ends without MPI_Finalize takes the job down
# through its ghost (src/ghost/ghost_init.c, check_users) instead of
# leaving the ghost serving: the job must end well before the others'
# 60 s sleep, non-zero, with the ghost's message.  Other builds: skip.
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
if ! grep -q 'ARMCII_GHOSTS 1' "${TESTS_BUILDDIR:-tests}/../src/config.h" 2>/dev/null; then
    echo "SKIP: not a ghost-progress build"
    exit 77
fi
[ -n "$ARMCI_VIRTUAL_NODE_SIZE" ] || { echo "SKIP: needs virtual nodes (make check-ghost)"; exit 77; }
fail=0
for how in exit kill; do
    t0=$(date +%s)
    out=$(timeout -k 5 50 $runner "$np" $MPI_MCA "$dir/ghost_userdeath" $how 2>&1 </dev/null)
    rc=$?
    dt=$(($(date +%s) - t0))
    # 137 is also the status of a job whose rank was killed: judge a hang by
    # the time (the limit is 50 s, the survivors sleep 60 s)
    if [ $rc -eq 0 ] || [ $dt -ge 45 ]; then
        echo "FAIL ghost_userdeath $how: exit status $rc after $dt s (job not taken down)"
        fail=1
    elif ! printf '%s\n' "$out" | grep -q "ended without MPI_Finalize; aborting the job" &&
        [ $how = exit ]; then
        # killed: the launcher may end the job first; a plain exit is ours
        echo "FAIL ghost_userdeath $how: the ghost's message is missing; output:"
        printf '%s\n' "$out" | head -8
        fail=1
    else
        echo "ok   ghost_userdeath $how: job ended in $dt s, exit status $rc"
    fi
done
exit $fail
