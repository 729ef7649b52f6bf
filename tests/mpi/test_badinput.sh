#!/bin/sh
# Each bad-input case must abort (non-zero exit, no hang) with
# "ARMCI Error in <call>: <reason>".  Cases: "name|call|reason substring".
# Environment from tests/run-mode.sh: TEST_RUNNER, NPROCS, MPI_MCA.
# Argument validation and the abort path do not depend on the one-sided
# component, so the catalogue runs in the modes of BADINPUT_MODES (default:
# on and off, the node-local and the MPI path; the ghost build's off mode
# covers aborts with ghosts) and is skipped in the others.
case " ${BADINPUT_MODES:-on off} " in
*" ${ARMCI_TEST_MODE:-on} "*) ;;
*) echo "SKIP: the bad-input catalogue runs in modes ${BADINPUT_MODES:-on off}"; exit 77 ;;
esac
prog=${TESTS_BUILDDIR:-tests}/mpi/badinput
# The ghost build (NPROCS = 2 virtual nodes x (users + 1 ghost)) runs the
# catalogue on half the job, one virtual node with its ghost: every case
# aborts in validation or at init, before anything crosses nodes, and the
# abort path still has a ghost to take down.  Under MPICH, whose processes
# spin, 6 oversubscribed processes took 3x as long as 3
# (benchmarks/results/ci_times.txt).
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
sanitizer_no_leak_check   # every job here ends in an abort or a kill
# The ghost build under Open MPI runs the core cases and, of the areas'
# cases (badinput_*.cases), the redirection call's: the others validate in
# code the two builds share, which the plain build's catalogue covers in
# modes on and off; what the ghost build adds is the abort path with ghosts
# and the environment read in MPI_Init, both in the core cases (the areas'
# 50 launches were most of this test's CI time:
# benchmarks/results/ci_times.txt).  Under MPICH the ghost build's mode off
# is where CI runs the whole catalogue (the plain MPICH stage leaves it out).
area_calls='*'
if ghost_build && [ "${MPI_FLAVOR:-openmpi}" = openmpi ]; then
    area_calls='ARMCIX_Async_phase'
    echo "ghost build: core cases and $area_calls's (the other areas' cases run in the plain build)"
fi
if ghost_build &&
   [ "${NPROCS:-4}" -ge 6 ]; then
    NPROCS=$((NPROCS / 2))
    echo "ghost build: the catalogue runs on $NPROCS processes (one virtual node and its ghost)"
elif [ "${NPROCS:-4}" -gt 2 ]; then
    # The plain build: 2 processes, for the same reason (each case aborts on
    # the calling process, and the abort still has a peer to take down).
    # Each case is a launch, and 4 processes sharing CI's 2 cores cost twice
    # as much (benchmarks/results/ci_times.txt).
    NPROCS=2
    echo "the catalogue runs on 2 processes"
fi
fail=0
n=0
check() {
    name=$1 call=$2 reason=$3
    shift 3
    check_prog "$prog" "$name" "$call" "$reason" "$@"
}
# One run of case $name of program $p with the environment settings "$@":
# sets out and rc.
run_case() {
    out=$(env "$@" timeout -k 5 60 $TEST_RUNNER $NPROCS $MPI_MCA "$p" "$name" 2>&1 </dev/null)
    rc=$?
}
check_prog() {
    p=$1 name=$2 call=$3 reason=$4
    shift 4
    n=$((n + 1))
    run_case "$@"
    runs=1 first_rc=$rc
    # MPICH's launcher, under load, tore the job down before it had read the
    # aborting process's message (empty output, CI); the library now waits
    # for its output pipe to drain before MPI_Abort (common_error.c).  What
    # the launcher loses after reading stays possible: an abort with no
    # output at all is run once more; the rerun must show the message.
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] && [ -z "$out" ]; then
        run_case "$@"
        runs=2
    fi
    if [ $rc -eq 0 ]; then
        echo "FAIL badinput $name: exit status 0 (bad input accepted)"; fail=$((fail + 1))
    elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "FAIL badinput $name: hung (killed after 60 s); output:"
        printf '%s\n' "$out" | grep -v '^ *$' | head -8
        fail=$((fail + 1))
    elif ! printf '%s\n' "$out" | grep -q "ARMCI Error in $call: .*$reason"; then
        echo "FAIL badinput $name: message 'ARMCI Error in $call: ...$reason' not found" \
             "(runs $runs, exit $first_rc then $rc, ${#out} bytes of output):"
        printf '%s\n' "$out" | grep -v '^ *$' | head -8
        fail=$((fail + 1))
    fi
}
check put_unknown_addr ARMCI_Put "not inside an ARMCI allocation"
check put_proc_range ARMCI_Put "out of range"
check get_negative ARMCI_Get "negative size"
check put_past_end ARMCI_Put "runs past the end"
check acc_bad_type ARMCI_Acc "unknown accumulate type"
check acc_bad_bytes ARMCI_Acc "not a multiple of the element size"
check free_unknown ARMCI_Free "not inside any ARMCI allocation"
check free_local_foreign ARMCI_Free_local "not returned by ARMCI_Malloc_local"
check wait_null ARMCI_Wait "handle is NULL"
check fence_range ARMCI_Fence "out of range"
check nbget_unknown ARMCI_NbGet "not inside an ARMCI allocation"
check absolute_id_range ARMCI_Absolute_id "out of range"
check group_bad_pid ARMCI_Group_create "is not a rank of the parent group"
# The ghost build reads the environment in MPI_Init (ghost layout).
check env_bad_value '\(ARMCI_Init\|MPI_Init (ghost layout)\)' "ARMCI_NODE_LOCAL='maybe' is invalid" ARMCI_NODE_LOCAL=maybe
check env_slab_too_large ARMCI_Init "ARMCI_REGION_SLAB=2147483648 is over 1 GiB per process" \
    ARMCI_REGION_SLAB=2147483648
check thread_level_unavailable '\(ARMCI_Init_thread\|MPI_Init (ghost layout)\)' \
    "thread level 3 requested but MPI provides only"
# Open MPI's osc pt2pt refuses windows under MPI_THREAD_MULTIPLE: the case
# forces osc pt2pt itself (the catalogue's modes never do), wherever this
# Open MPI has it (Open MPI 5 has none).
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
osc_list=""
[ "${MPI_FLAVOR:-openmpi}" != openmpi ] || osc_list=$(ompi_osc_list)
case "${MPI_FLAVOR:-openmpi} $osc_list " in
openmpi*" pt2pt "*)
    saved_mca=$MPI_MCA
    MPI_MCA="--mca osc pt2pt"
    check thread_multiple '\(ARMCI_Init\|MPI_Init (ghost layout)\)' \
        "cannot create RMA windows.*THREAD_MULTIPLE"
    MPI_MCA=$saved_mca ;;
esac
# Cases of other areas: tests/mpi/badinput_*.cases, one per line:
# name|call|reason substring|program (in the tests build dir, e.g. mpi/badinput_iov)
for f in "${TESTS_SRCDIR:-tests}"/mpi/badinput_*.cases; do
    [ -f "$f" ] || continue
    while IFS='|' read -r cname ccall creason cprog; do
        case $cname in ''|'#'*) continue ;; esac
        # shellcheck disable=SC2254 # area_calls is a pattern on purpose
        case $ccall in $area_calls) ;; *) continue ;; esac
        check_prog "${TESTS_BUILDDIR:-tests}/$cprog" "$cname" "$ccall" "$creason"
    done < "$f"
done
echo "badinput: $((n - fail)) passed, $fail failed"
[ $fail -eq 0 ]
