#!/bin/sh
# tools/apps/ga-runner.sh (the LOG_COMPILER tools/apps/ga.sh gives GA's make
# check): MA's serial tests run directly, every other test under the
# launcher with GA_NPROCS ranks, and a test past the limit fails.
runner=$(cd "${TESTS_SRCDIR:-tests}/../tools/apps" && pwd)/ga-runner.sh
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
out=$(GA_MPIEXEC="echo launch -n" GA_NPROCS=6 sh "$runner" ./global/testing/test.x a b)
expect "parallel test" "$out" "launch -n 6 ./global/testing/test.x a b"
out=$(GA_MPIEXEC="echo launch -n" sh "$runner" global/testing/test.x)
expect "default rank count" "$out" "launch -n 4 global/testing/test.x"
out=$(GA_MPIEXEC="echo launch -n" GA_RANK_PRELOAD=/x/shim.so sh "$runner" global/testing/test.x 1)
expect "a library the ranks preload" "$out" "launch -n 4 env LD_PRELOAD=/x/shim.so global/testing/test.x 1"
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

# the pieces ga.sh and nwchem.sh share: each mode's environment and process
# count, and the check of GA's optional ARMCI functions
apps=$(dirname "$runner")
. "$apps/modes.sh"
. "$apps/ga-src.sh"
mode_env vn2 4 armci
expect "vn2" "$ARMCI_NODE_LOCAL $ARMCI_VIRTUAL_NODE_SIZE $mode_np" "on 2 4"
mode_env vn1 2 armci
expect "vn1" "$ARMCI_NODE_LOCAL $ARMCI_VIRTUAL_NODE_SIZE $mode_np" "on 1 2"
mode_env vn0 2 armci 2>/dev/null
expect "vn0 (no such node size)" "$?" 2
mode_env ghost-auto 4 armci
expect "ghost-auto" "$ARMCI_VIRTUAL_NODE_SIZE $ARMCI_GHOSTS_PER_NODE $ARMCI_GHOST_ASYNC $mode_np ${ARMCI_NODE_LOCAL:-unset}" \
    "2 1 auto 6 unset"
mode_env ghost-default-vn2 4 armci
expect "ghost-default-vn2" "$ARMCI_VIRTUAL_NODE_SIZE $ARMCI_GHOSTS_PER_NODE ${ARMCI_GHOST_ASYNC:-unset} $mode_np" \
    "2 1 unset 6"
mode_env ghost-on-vn1 4 armci
expect "ghost-on-vn1" "$ARMCI_VIRTUAL_NODE_SIZE ${ARMCI_GHOST_ASYNC:-unset} $mode_np" "1 on 8"
mode_env native 4 mpi-pr
expect "MPI-PR's progress rank" "$mode_np ${ARMCI_GHOST_ASYNC:-unset}" "5 unset"
# ga.sh runs `mode_env ... || exit 2` under set -e: every known mode must
# return 0 (MPI-TS's native mode returned 1 and ga.sh left without a word)
mode_env native 4 mpi-ts
expect "MPI-TS's native mode" "$?:$mode_np" "0:4"
mode_env bogus 4 armci 2>/dev/null
expect "an unknown mode" "$?" 2
mode_env native-vn1 4 mpi-ts
expect "MPI-TS with a node per rank" "$?:$mode_np:${PROCNAME_SHIM_PER_NODE:-unset}" "0:4:1"
mode_env on 4 armci
expect "the next mode drops the node size" "${PROCNAME_SHIM_PER_NODE:-unset}" unset
mode_env native-vn2 4 mpi-pr
expect "MPI-PR, nodes of 2 users and a progress rank" "$?:$mode_np:${PROCNAME_SHIM_PER_NODE:-unset}" "0:6:3"
mode_env native-vn3 4 mpi-pr 2>/dev/null
expect "MPI-PR, 4 users are not nodes of 3" "$?" 2
mode_env native-vn1 4 armci 2>/dev/null
expect "native-vnK on this library" "$?" 2
h=${TMPDIR:-/tmp}/ga_runner.$$/config.h
for f in GROUP_COMM INITIALIZED STRIDE_INFO_INIT NOTIFY MSG_INIT MSG_FINALIZE; do
    echo "#define HAVE_ARMCI_$f 1"
done >"$h"
ga_check_optional "$h" >/dev/null
expect "all six found" "$?" 0
sed -i 's/^#define HAVE_ARMCI_NOTIFY 1/\/* #undef HAVE_ARMCI_NOTIFY *\//' "$h"
out=$(ga_check_optional "$h" 2>&1)
expect "one missing" "$?:$out" "1:GA's configure did not find: NOTIFY ($h)"
# a test GA's harness passed but whose log prints a failed check
l=${TMPDIR:-/tmp}/ga_runner.$$/logs
mkdir -p "$l/global/testing"
printf 'PASS: global/testing/a.x\nPASS: global/testing/b.x\nFAIL: global/testing/c.x\n' >"$l/make-check.out"
printf 'Put test OK\n\nGet test failed\n' >"$l/global/testing/a.x.tmp" && mv "$l/global/testing/a.x.tmp" "$l/global/testing/a.log"
printf 'all checks passed\n' >"$l/global/testing/b.log"
printf 'Read mismatch for [1,2]\n' >"$l/global/testing/c.log"
expect "passed but printed a failure" "$(ga_printed_failures "$l")" "global/testing/a.x"
printf 'PASS: global/testing/b.x\n' >"$l/make-check.out"
expect "nothing printed" "$(ga_printed_failures "$l" </dev/null)" ""
rm -rf "${TMPDIR:-/tmp}/ga_runner.$$"
[ $fail -eq 0 ] && echo "PASS test_ga_runner"
exit $fail
