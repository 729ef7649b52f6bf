#!/bin/sh
# tools/apps/peer-tests.sh judges each of the peer's programs by its exit
# status (test_assert: by a clean ARMCI_Error), counts per mode, and exits
# non-zero when one fails or hangs.  A fake MPI (mpicc writes a shell
# script, mpiexec runs it) and a fake peer tree stand in for the real ones.
apps=$(cd "${TESTS_SRCDIR:-tests}/../tools/apps" && pwd)
t=${TMPDIR:-/tmp}/peer_tests.$$
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
mkdir -p "$t/mpi/bin" "$t/pfx/include" "$t/peer/tests" "$t/work"
echo '#define ARMCI_GHOST_PROGRESS 0' >"$t/pfx/include/armciconf.h"
: >"$t/pfx/include/armci.h"
# every source the script names exists (their content is never read here)
sed -n 's/^[A-Za-z0-9_-]*|\([^|]*\)|.*/\1/p' "$apps/peer-tests.sh" | tr ' ' '\n' |
    while read -r s; do mkdir -p "$t/peer/tests/$(dirname "$s")" && : >"$t/peer/tests/$s"; done
# the fake compiler: the program a name becomes behaves as FAKE_* say
cat >"$t/mpi/bin/mpicc" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
name=$(basename "$out")
cat >"$out" <<EOS
#!/bin/sh
if [ "$name" = test_assert ] && [ -z "\$FAKE_ASSERT_QUIET" ]; then
    echo "[0] ARMCI Error in ARMCI_Get: local buffer is NULL"; exit 1
fi
[ "\$FAKE_FAIL" = "$name" ] && exit 3
[ "\$FAKE_HANG" = "$name" ] && exec sleep 30
exit 0
EOS
chmod +x "$out"
EOF
printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$t/mpi/bin/mpiexec"
chmod +x "$t/mpi/bin/mpicc" "$t/mpi/bin/mpiexec"
n=$(sed -n 's/^[A-Za-z0-9_-]*|[^|]*|[^|]*|\(ok\|abort:.*\)$/x/p' "$apps/peer-tests.sh" | wc -l)
run() { GA_WORK=$t/work sh "$apps/peer-tests.sh" -m "$t/mpi" -M on "$@" "$t/peer" "$t/pfx" 2>&1; }

out=$(run)
expect "all pass" "$?:$(echo "$out" | sed -n 's/.*mode on ([0-9]* ranks, [0-9]* s): //p')" "0:pass $n fail 0"
out=$(FAKE_FAIL=test_putv run)
expect "a failure counts" "$?:$(echo "$out" | sed -n 's/.* fail \([0-9]*\) failed: /\1 /p')" "1:1 test_putv(rc=3)"
out=$(FAKE_ASSERT_QUIET=1 run -T "test_assert test_puts")
expect "an abort without ARMCI_Error is a failure" "$?:$(echo "$out" | sed -n 's/.*: pass \([0-9]*\) fail \([0-9]*\) failed: /\1 \2 /p')" \
    "1:1 1 test_assert(rc=0)"
out=$(PEER_TEST_TIMEOUT=1 FAKE_HANG=lu run -T lu)
expect "a hang ends in the limit and fails" "$?:$(echo "$out" | sed -n 's/.*failed: //p')" "1:lu(rc=124)"
out=$(run "$t/peer" 2>&1)
expect "wrong argument count" "$?" 2
rm -rf "$t"
[ $fail -eq 0 ] && echo "PASS test_peer_tests"
