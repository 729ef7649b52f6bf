#!/bin/sh
# tools/apps/ga-runner.sh (the LOG_COMPILER tools/apps/ga.sh gives GA's make
# check): MA's serial tests run directly, every other test under the
# launcher with GA_NPROCS ranks, and a test past the limit fails.
runner=$(cd "${TESTS_SRCDIR:-tests}/../tools/apps" && pwd)/ga-runner.sh
fail=0
expect() {
    if [ "$2" != "$3" ]; then
        echo "FAIL test_ga_runner: $1: got '$2', expected '$3'"; fail=1
    fi
}
out=$(GA_MPIEXEC="echo launch -n" GA_NPROCS=6 sh "$runner" ./global/testing/test.x a b)
expect "parallel test" "$out" "launch -n 6 ./global/testing/test.x a b"
out=$(GA_MPIEXEC="echo launch -n" sh "$runner" global/testing/test.x)
expect "default rank count" "$out" "launch -n 4 global/testing/test.x"
out=$(GA_MPIEXEC="echo launch -n" sh "$runner" echo ma/test-inquire.x 2>&1)
expect "a command name is not a serial test" "$out" "launch -n 4 echo ma/test-inquire.x"
mkdir -p "${TMPDIR:-/tmp}/ga_runner.$$/ma"
serial=${TMPDIR:-/tmp}/ga_runner.$$/ma/t.x
printf '#!/bin/sh\necho serial "$@"\n' >"$serial" && chmod +x "$serial"
(cd "${TMPDIR:-/tmp}/ga_runner.$$" && GA_MPIEXEC="echo launch -n" sh "$runner" ./ma/t.x 1) >"$serial.out"
expect "serial MA test" "$(cat "$serial.out")" "serial 1"
printf '#!/bin/sh\nsleep 30\n' >"$serial"
(cd "${TMPDIR:-/tmp}/ga_runner.$$" && GA_TEST_TIMEOUT=1 sh "$runner" ma/t.x)
rc=$?
expect "a hang ends in the time limit" "$rc" 124
rm -rf "${TMPDIR:-/tmp}/ga_runner.$$"
[ $fail -eq 0 ] && echo "PASS test_ga_runner"
exit $fail
