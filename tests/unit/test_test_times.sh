#!/bin/sh
# tests/test-times.sh: reads the last line tests/run-mode.sh writes into
# each log, lists the runs slowest first (mode, test, seconds) with their
# sum, and fails on a build directory without timed logs.
script=${TESTS_SRCDIR:-tests}/test-times.sh
dir=${TMPDIR:-/tmp}/test_times.$$
trap 'rm -rf "$dir"' EXIT
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
mkdir -p "$dir/modes/on/tests/mpi" "$dir/modes/vn2/tests/mpi"
printf 'PASS x\nrun-mode: on tests/mpi/test_a: exit 0 after 3 s\n' >"$dir/modes/on/tests/mpi/test_a.log"
printf 'run-mode: vn2 tests/mpi/test_a: exit 0 after 12 s\n' >"$dir/modes/vn2/tests/mpi/test_a.log"
printf 'noise\nrun-mode: on ../tests/mpi/t.sh: exit 1 after 7 s\n' >"$dir/modes/on/tests/mpi/t.sh.log"
printf 'an untimed log\n' >"$dir/modes/on/tests/mpi/old.log"
out=$(sh "$script" "$dir" 2)
expect "exit status" "$?" 0
expect "slowest two, then the sum" "$(echo "$out" | tr '\n' '|')" \
    "12 vn2 tests/mpi/test_a|7 on ../tests/mpi/t.sh|22 s in 3 test runs|"
sh "$script" "$dir/modes/on" >/dev/null 2>&1
expect "a directory without modes/: exit status" "$?" 1
rm -f "$dir"/modes/*/tests/mpi/test_a.log "$dir/modes/on/tests/mpi/t.sh.log"
sh "$script" "$dir" >/dev/null 2>&1
expect "no timed logs: exit status" "$?" 1
[ $fail -eq 0 ] && echo "PASS test_test_times"
exit $fail
