#!/bin/sh
# tools/apps/nwchem-bundle-run.sh and nwchem-bundle-check.sh on a fake
# bundle (an "mpiexec" that runs the program once with the -x settings, a
# "program" that prints an energy and its process count): every config of
# the plan on every test, rounds rotating, "@" standing for the bundle, the
# deadline stopping new runs; then the check passes the right answers and
# fails a wrong energy, a wrong process count and a failed run.
apps=$(cd "${TESTS_SRCDIR:-tests}/../tools/apps" && pwd)
dir=${TMPDIR:-/tmp}/nwchem_bundle.$$
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
command -v perl >/dev/null || { echo "FAIL test_nwchem_bundle: perl not found"; exit 1; }
b=$dir/bundle
mkdir -p "$b/benchmarks" "$b/qa/t1" "$b/qa/t2"
# mpiexec [--oversubscribe] -n N [-x NAME=VALUE | -x NAME]... PROGRAM ARGS
cat >"$b/mpiexec" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
    case $1 in
    --oversubscribe) shift ;;
    -n) NP=$2; export NP; shift 2 ;;
    -x) case $2 in *=*) export "${2?}" ;; esac; shift 2 ;;
    *) break ;;
    esac
done
exec "$@"
EOF
# the "NWChem" run: the input's energy, the launched count less GHOSTS,
# and FAKE_EXIT as its exit status
cat >"$b/benchmarks/fake" <<'EOF'
#!/bin/sh
echo "    nproc           =       $((NP - ${GHOSTS:-0}))"
echo "Total energy = $(cat "$1")"
echo "libpath $BUNDLE_LIBPATH" >&2
exit "${FAKE_EXIT:-0}"
EOF
chmod +x "$b/mpiexec" "$b/benchmarks/fake"
echo "-1.5" >"$b/qa/t1/t1.nw"
echo "-2.5" >"$b/qa/t2/t2.nw"
cat >"$dir/plan" <<'EOF'
# comment
a|2|BUNDLE_LIBPATH=@/lib-a|fake
g|3|GHOSTS=1 BUNDLE_LIBPATH=@/lib-g|fake
EOF
out=$(sh "$apps/nwchem-bundle-run.sh" "$b" "$dir/res" "$dir/plan" 2 100 t1 t2)
expect "runner exit" "$?" 0
expect "raw: every config and test, rounds rotating" "$(cut -d' ' -f1-4 "$dir/res/raw.txt" | tr '\n' ,)" \
    "1 a t1 0,1 g t1 0,1 a t2 0,1 g t2 0,2 g t1 0,2 a t1 0,2 g t2 0,2 a t2 0,"
tar -xzf "$dir/res/outputs.tar.gz" -C "$dir"
expect "@ is the bundle" "$(cat "$dir/runs/r1.g.t2.err")" "libpath $b/lib-g"
expect "output kept" "$(grep -c 'Total energy = -2.5' "$dir/runs/r2.a.t2.out")" 1
out=$(sh "$apps/nwchem-bundle-run.sh" "$b" "$dir/late" "$dir/plan" 3 0 t1 t2)
expect "deadline 0: no run" "$(wc -l <"$dir/late/raw.txt")" 0
expect "deadline reported" "$(echo "$out" | grep -c '^deadline: stopped in round 1')" 1

# A QA tree: reference outputs and an nwparse.pl stand-in that, like
# NWChem's, writes FILE.nwparse with the lines it compares
mkdir -p "$dir/QA/tests/t1" "$dir/QA/tests/t2"
printf '    nproc = 2\nTotal energy = -1.5\n' >"$dir/QA/tests/t1/t1.out"
printf '    nproc = 2\nTotal energy = -2.5\n' >"$dir/QA/tests/t2/t2.out"
cat >"$dir/QA/nwparse.pl" <<'EOF'
open(my $in, '<', $ARGV[0]) or die; open(my $o, '>', "$ARGV[0].nwparse") or die;
while (<$in>) { print $o $_ if /Total energy/ }
EOF
check=$(EXPECT_NPROC=2 sh "$apps/nwchem-bundle-check.sh" "$dir/res" "$dir/QA" 2>"$dir/check.err")
expect "check: all right" "$?" 0
expect "check: raw for nwchem-compare" "$(echo "$check" | awk '{ print $4 }' | sort | uniq -c | awk '{ print $1, $2 }')" "8 pass"
# a wrong energy, a failed run
sed -i 's/-1.5/-1.7/' "$b/qa/t1/t1.nw"
FAKE_EXIT=0 sh "$apps/nwchem-bundle-run.sh" "$b" "$dir/bad" "$dir/plan" 1 100 t1 >/dev/null
check=$(sh "$apps/nwchem-bundle-check.sh" "$dir/bad" "$dir/QA" 2>"$dir/check.err")
expect "check: a wrong energy fails" "$?" 1
expect "check: both configs fail" "$(echo "$check" | awk '{ print $2, $4 }' | tr '\n' ,)" "a fail,g fail,"
expect "check: the difference shown" "$(grep -c 'Total energy = -1.7' "$dir/check.err")" 2
sed -i 's/-1.7/-1.5/' "$b/qa/t1/t1.nw"
# the ghost config counted as computing processes: the wrong library ran
sed -i 's/GHOSTS=1 //' "$dir/plan"
sh "$apps/nwchem-bundle-run.sh" "$b" "$dir/np" "$dir/plan" 1 100 t1 >/dev/null
check=$(EXPECT_NPROC=2 sh "$apps/nwchem-bundle-check.sh" "$dir/np" "$dir/QA" 2>"$dir/check.err")
expect "check: wrong process count fails" "$(echo "$check" | awk '{ print $2, $4 }' | tr '\n' ,)" "a pass,g fail,"
expect "check: process count named" "$(grep -c '3 computing processes, not 2' "$dir/check.err")" 1
FAKE_EXIT=3 sh "$apps/nwchem-bundle-run.sh" "$b" "$dir/rc" "$dir/plan" 1 100 t1 >/dev/null
check=$(sh "$apps/nwchem-bundle-check.sh" "$dir/rc" "$dir/QA" 2>"$dir/check.err")
expect "check: a failed run fails" "$(echo "$check" | awk '{ print $4 }' | tr '\n' ,)" "fail,fail,"
[ $fail = 0 ] && echo "PASS test_nwchem_bundle"
exit $fail
