#!/bin/sh
# Processes that die (tests/mpi/death.c): rank 1 killed (SIGKILL) in the
# middle of puts and accumulates, inside ARMCI_Barrier, holding a mutex
# others wait for; in the ghost build also a ghost killed while users send
# accumulates through it.  For each, the job must
#   - end within DEATH_LIMIT (10) s of the kill, with a non-zero status;
#   - print a message that names the death: the launcher's (Open MPI: the
#     dead process's launcher rank and signal 9; MPICH: "BAD TERMINATION"
#     and "Killed (signal 9)"), the ghost's ("user process R (pid P)
#     ended without MPI_Finalize") or the library's on a failed MPI call
#     ("... (launcher rank R, pid P) is gone: killed or crashed") -- a bare
#     non-zero exit does not pass;
#   - leave no process of the job (all carry a unique argv tag);
#   - leave no new file in /dev/shm: Open MPI's vader_segment.*.<job id>.*
#     of this job, the library's armci.* names, or any other new file that
#     no live process still maps or holds open.
# Runs in mode vn2 (two nodes: traffic through MPI RMA and shared memory,
# and in the ghost build through ghosts); other modes skip.
# Prints one line per scenario: the numbers of the death table.
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
flavor=${MPI_FLAVOR:-openmpi}
limit=${DEATH_LIMIT:-10}
if [ "${ARMCI_TEST_MODE:-vn2}" != vn2 ]; then
    echo "SKIP: runs in mode vn2"
    exit 77
fi
[ -n "$ARMCI_VIRTUAL_NODE_SIZE" ] || { ARMCI_VIRTUAL_NODE_SIZE=2; export ARMCI_VIRTUAL_NODE_SIZE; }
scenarios=${DEATH_SCENARIOS:-comm barrier mutex}
build=plain
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
sanitizer_no_leak_check   # every job here ends in an abort or a kill
if ghost_build; then
    build=ghost
    scenarios=${DEATH_SCENARIOS:-comm barrier mutex ghost}
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# New names in /dev/shm ($1: listing before, $2: after) that this job left:
# vader segments with its Open MPI job id ($3, hex), the library's armci.*,
# and other new files that no live process maps or holds open.
shm_left() {
    for f in $(comm -13 "$1" "$2"); do
        case $f in
        vader_segment.*."$3".*) echo "$f" ;;
        vader_segment.*) ;; # another Open MPI job's (other job id)
        armci.*) echo "$f" ;;
        *) # new, in use by nobody: this job's, or one's that ended meanwhile
           grep -qs "/dev/shm/$f" /proc/[0-9]*/maps ||
               ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q "/dev/shm/$f" ||
               echo "$f(this-job-or-one-that-ended-meanwhile)" ;;
        esac
    done | tr '\n' ' '
}

# Processes still carrying this run's tag, waited for up to 2 s.
left_procs() {
    for i in 1 2 3 4; do
        pids=$(pgrep -f "death $1 $2")
        [ -z "$pids" ] && return 0
        sleep 0.5
    done
    echo $pids
}

fail=0
for s in $scenarios; do
    tag="tag$$.$s"
    ls -A /dev/shm | sort >"$tmp/before"
    timeout -k 5 40 $runner "$np" $MPI_MCA "$dir/death" $s "$tag" >"$tmp/out" 2>&1 </dev/null
    rc=$?
    t_end=$(date +%s.%N)
    left=$(left_procs $s "$tag")
    [ -n "$left" ] && kill -9 $left 2>/dev/null
    ls -A /dev/shm | sort >"$tmp/after"
    # -a: Open MPI 5's output there can hold bytes that make grep call it binary.
    # Not anchored: another process's partial line can precede ours (CI once
    # read "[vm:death: killing rank 1 ...": a "[vm:PID] Wrote -1" cut in two;
    # a ghost's is "death: killing a ghost ...").
    kline=$(grep -a -m1 -o 'death: killing .*' "$tmp/out")
    jobid=$(sed -n 's/^.*death: .*jobid \([0-9][0-9]*\)$/\1/p' "$tmp/out" | head -1)
    hex=$([ -n "$jobid" ] && printf '%x' "$jobid")
    shm=$(shm_left "$tmp/before" "$tmp/after" "${hex:-none}")
    what="death $s ($flavor, $build build)"
    if [ -z "$kline" ]; then
        echo "FAIL $what: the victim was never killed (exit status $rc); output:"
        grep -av 'Wrote -1\|Read -1' "$tmp/out" | head -12
        fail=1
        continue
    fi
    vpid=$(echo "$kline" | sed -n 's/.* pid \([0-9]*\) .*/\1/p')
    vrank=$(echo "$kline" | sed -n 's/.*(launcher rank \(-*[0-9]*\)).*/\1/p')
    t_kill=$(echo "$kline" | sed -n 's/.* at \([0-9.]*\) (.*/\1/p')
    dt=$(awk -v a="$t_end" -v b="$t_kill" 'BEGIN { printf "%.2f", a - b }')
    late=$(awk -v d="$dt" -v l="$limit" 'BEGIN { print (d > l) }')
    # the library's own: a ghost on a dead user, or a failed MPI call that
    # names the process of its host that is gone (user or ghost; the
    # library's abort can beat the launcher's report, as in CI once, when
    # "MPI_Accumulate failed: MPI_ERR_OTHER" ended the job first)
    ghostmsg="user process [0-9]+ \\(pid $vpid\\) ended without MPI_Finalize"
    ghostmsg="$ghostmsg|(ghost|process) \\(launcher rank $vrank, pid $vpid\\) is gone: killed or crashed"
    case $flavor in
    mpich) named="BAD TERMINATION OF ONE OF YOUR APPLICATION|$ghostmsg"
           signal="Killed \\(signal 9\\)|$ghostmsg" ;;
    *) named="process rank $vrank with PID [0-9]+ on node [^ ]+ exited on signal 9|$ghostmsg"
       signal=$named ;;
    esac
    echo "$what: ended ${dt} s after the kill, exit status $rc," \
        "processes left: ${left:-none}, /dev/shm left: ${shm:-none}"
    if [ $rc -eq 0 ] || [ "$late" = 1 ]; then
        echo "FAIL $what: exit status $rc ${dt} s after the kill (limit $limit s)"
        fail=1
    # matched on the output as one line: Open MPI 5's prterun wraps its
    # "... exited on" / "signal 9 (Killed)." over two
    elif ! tr '\n' ' ' <"$tmp/out" | grep -aqE "$named" ||
         ! tr '\n' ' ' <"$tmp/out" | grep -aqE "$signal"; then
        echo "FAIL $what: no message names the death of pid $vpid (launcher rank $vrank); output:"
        grep -av 'Wrote -1\|Read -1' "$tmp/out" | head -16
        fail=1
    # a survivor's failed MPI call must say who died (common_death.c)
    elif grep -aE 'ARMCI Error in [^:]*: MPI_[A-Za-z_]* failed' "$tmp/out" |
         grep -avqE "is gone: killed or crashed"; then
        echo "FAIL $what: a failed MPI call's error does not name the dead process:"
        grep -aE 'ARMCI Error in [^:]*: MPI_[A-Za-z_]* failed' "$tmp/out" | head -4
        fail=1
    fi
    if [ -n "$left" ]; then
        echo "FAIL $what: processes left behind (killed now): $left"
        fail=1
    fi
    if [ -n "$shm" ]; then
        echo "FAIL $what: files left in /dev/shm: $shm"
        fail=1
    fi
done
exit $fail
