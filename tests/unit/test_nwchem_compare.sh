#!/bin/sh
# tools/apps/nwchem-compare.sh -t: medians per test and config over rounds,
# ratios to the first config, sums only over tests every config ran, and a
# failed run makes the exit status non-zero and is named; nw_tests reads
# NWChem's QA list; a run (against a stand-in nwchem.sh) alternates the
# configs' order by round and puts a config's VAR=VALUE pairs into that
# config's environment only; a pair that is not VAR=VALUE stops the run
# before anything runs.
apps=$(cd "${TESTS_SRCDIR:-tests}/../tools/apps" && pwd)
dir=${TMPDIR:-/tmp}/nwchem_compare.$$
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
cat >"$dir/ok.raw" <<'RAW'
1 a:on t1 pass 4.0
1 b:native t1 pass 9.0
2 b:native t1 pass 5.0
2 a:on t1 pass 2.0
3 a:on t1 pass 3.0
3 b:native t1 pass 7.0
1 a:on t2 pass 1.0
1 b:native t2 pass 1.5
2 a:on t3 pass 10.0
RAW
out=$(bash "$apps/nwchem-compare.sh" -t "$dir/ok.raw" a:on b:native)
rc=$?
expect "all passed: exit status" "$rc" 0
expect "t1: medians 3.0 and 7.0, ratio" "$(echo "$out" | awk '$1 == "t1" { print $2, $3, $4 }')" "3.0 7.0 2.33"
expect "t2: one round" "$(echo "$out" | awk '$1 == "t2" { print $2, $3, $4 }')" "1.0 1.5 1.50"
expect "t3: a config that did not run" "$(echo "$out" | awk '$1 == "t3" { print $2, $3, $4 }')" "10.0 - -"
expect "sum over t1 and t2 only" "$(echo "$out" | awk '$1 == "sum" { print $2, $3, $4, $5, $6 }')" "(2 tests) 4.0 8.5 2.12"
expect "rounds counted" "$(echo "$out" | sed -n 's/.*(\([0-9]*\) rounds).*/\1/p')" 3
sed 's/^2 b:native t1 pass 5.0/2 b:native t1 fail 5.0/' "$dir/ok.raw" >"$dir/bad.raw"
out=$(bash "$apps/nwchem-compare.sh" -t "$dir/bad.raw" a:on b:native)
rc=$?
expect "a failed run: exit status" "$rc" 1
expect "a failed run is named" "$(echo "$out" | grep -c '^# FAILED: 2 b:native t1 fail')" 1

mkdir -p "$dir/QA"
printf '%s\n' '#!/bin/csh' './runtests.mpi.unix procs $np h2o_opt' \
    './runtests.mpi.unix procs $np dft_he2+' 'echo done' >"$dir/QA/doafewqmtests.mpi"
. "$apps/nwchem-tests.sh"
expect "QA list" "$(nw_tests "$dir/QA")" "h2o_opt dft_he2+ tce_h2o tce_ccsd_t_h2o"
# A run: the stand-in reports the environment it was given as its time,
# and records the process count it was asked for.
mkdir -p "$dir/apps"
cp "$apps/nwchem-compare.sh" "$apps/nwchem-tests.sh" "$dir/apps/"
cat >"$dir/apps/nwchem.sh" <<'FAKE'
#!/bin/sh
while getopts m:n:r:M:T:L opt; do
    case $opt in T) test=$OPTARG ;; n) echo "$OPTARG" >>"$(dirname "$0")/nprocs.seen" ;; esac
done
echo "$test pass ${XA:-0}.${XB:-0}"
FAKE
chmod +x "$dir/apps/nwchem.sh"
out=$(bash "$dir/apps/nwchem-compare.sh" -R 2 -T t1 -o "$dir/run.raw" "$dir" "$dir" "$dir" \
    a:on a:on,XA=7 a:on,XA=3,XB=4 2>&1)
rc=$?
expect "a run: exit status" "$rc" 0
expect "a run: configs' order rotates by round, each with its own environment" \
    "$(cut -d' ' -f1,2,5 "$dir/run.raw" | tr '\n' ';')" \
    "1 a:on 0.0;1 a:on,XA=7 7.0;1 a:on,XA=3,XB=4 3.4;2 a:on,XA=7 7.0;2 a:on,XA=3,XB=4 3.4;2 a:on 0.0;"
expect "a run: every run on nwchem.sh's default 4 processes" "$(sort -u "$dir/apps/nprocs.seen")" 4
rm -f "$dir/apps/nprocs.seen"
bash "$dir/apps/nwchem-compare.sh" -n 2 -R 2 -T t1 -o "$dir/np2.raw" "$dir" "$dir" "$dir" \
    a:on a:vn1 >/dev/null 2>&1
expect "-n 2: every run asked for 2 processes" \
    "$(sort "$dir/apps/nprocs.seen" | uniq -c | awk '{print $1 "x" $2}')" 4x2
out=$(bash "$dir/apps/nwchem-compare.sh" -R 1 -T t1 -o "$dir/badpair.raw" "$dir" "$dir" "$dir" \
    a:on a:on,XA 2>&1)
rc=$?
expect "a pair without '=': exit status" "$rc" 2
expect "a pair without '=' is named" "$(echo "$out" | grep -c "'XA' is not VAR=VALUE")" 1
expect "a pair without '=': nothing ran" "$(cat "$dir/badpair.raw" 2>/dev/null | wc -l)" 0
out=$(bash "$dir/apps/nwchem-compare.sh" -R 1 -T t1 -o "$dir/badpair.raw" "$dir" "$dir" "$dir" \
    :on,XA=1 2>&1)
expect "a config without a runtime: exit status" "$?" 2
expect "a config without a runtime is named" "$(echo "$out" | grep -c '^nwchem-compare.sh: :on,XA=1: a config is')" 1
[ $fail = 0 ] && echo "PASS test_nwchem_compare"
exit $fail
