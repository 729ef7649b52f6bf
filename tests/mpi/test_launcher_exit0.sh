#!/bin/sh
# Probes the launcher with tests/mpi/exit0_repro (a rank that _exit(0)s
# without MPI_Finalize while the others sleep 60 s) and records how often
# it ends such a job with status 0 and no message: MPICH 4.0.2's hydra
# does so in some runs, which is why test_ghost_userdeath.sh accepts that
# outcome there (the job is down before the ghost's check can see the
# death).  Fails only if a job is not taken down (it runs into the 50 s
# limit) or leaves a process behind.  Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
# 8 runs where hydra's outcome varies (MPICH); 3 elsewhere, where only a
# job left up or a process left behind would fail (CI's time)
runs=8
[ "${MPI_FLAVOR:-openmpi}" = mpich ] || runs=3
runs=${EXIT0_RUNS:-$runs} silent=0 fail=0
for i in $(seq 1 "$runs"); do
    t0=$(date +%s)
    out=$(timeout -k 5 50 $runner 4 "$dir/exit0_repro" "tag$$" 2>&1 </dev/null)
    rc=$? dt=$(($(date +%s) - t0))
    sleep 1
    left=$(pgrep -f "exit0_repro tag$$" | tr '\n' ' ')
    if [ $dt -ge 45 ]; then
        echo "FAIL run $i: the launcher did not take the job down (status $rc after $dt s)"
        fail=1
    elif [ -n "$left" ]; then
        echo "FAIL run $i: processes left behind: $left"
        pkill -9 -f "exit0_repro tag$$"
        fail=1
    elif [ $rc -eq 0 ]; then
        silent=$((silent + 1))
        printf '%s\n' "$out" | grep -v "rank 1 ends" | head -3
    fi
done
echo "recorded: the launcher ended $silent of $runs such jobs with status 0"
[ $fail = 0 ] && echo "PASS test_launcher_exit0"
exit $fail
