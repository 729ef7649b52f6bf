#!/bin/sh
# Probes Open MPI's session-directory race (tests/mpi/session_dir_repro.c):
# rounds of one-process jobs (singletons, no launcher) started together in
# one fresh shared TMPDIR, and records how many lost the race to create it
# (and how many failed otherwise: the same directory is also removed when
# a job ends, so a race can show in other ways; recorded, not failed).
# Then the same rounds with a TMPDIR per job, as tests/run-mode.sh gives
# every test job: there any failed job fails the test, since that is the
# workaround `make check` relies on.  Other MPIs run it too (none is known
# to race; a count above 0 there is recorded the same way).  Mode "on"
# only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
prog=${TESTS_BUILDDIR:-tests}/mpi/session_dir_repro
rounds=${SESSION_DIR_ROUNDS:-10} jobs=6
base=$(mktemp -d "${TMPDIR:-/tmp}/sdrepro.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
# $1: shared | private.  Prints "raced other" counts over all rounds.
run_rounds() {
    raced=0 other=0
    for r in $(seq 1 "$rounds"); do
        for j in $(seq 1 $jobs); do
            d=$base/$1.$r
            [ "$1" = private ] && d=$d.$j
            mkdir -p "$d"
            (TMPDIR=$d timeout -k 5 60 "$prog" >"$base/out.$1.$r.$j" 2>&1
             echo $? >"$base/rc.$1.$r.$j") &
        done
        wait
        for j in $(seq 1 $jobs); do
            rc=$(cat "$base/rc.$1.$r.$j") out=$base/out.$1.$r.$j
            if [ "$rc" = 0 ] && grep -q "^session_dir_repro: ok" "$out"; then
                continue
            elif grep -q "unable to create the desired directory" "$out"; then
                raced=$((raced + 1))
            else
                other=$((other + 1))
                echo "job $j of round $r ($1 TMPDIR): exit $rc" >&2
                head -5 "$out" >&2
            fi
        done
    done
    echo "$raced $other"
}
set -- $(run_rounds shared)
echo "recorded: $1 of $((rounds * jobs)) jobs started together in one fresh TMPDIR lost the mkdir race, $2 failed otherwise"
fail=0
set -- $(run_rounds private)
if [ "$1" -ne 0 ]; then
    echo "FAIL: $1 jobs with a TMPDIR of their own still lost the mkdir race"
    fail=$((fail + $1))
fi
fail=$((fail + $2))
[ $fail -eq 0 ] || { echo "FAIL: $fail jobs failed"; exit 1; }
echo "PASS test_ompi_session_dir"
