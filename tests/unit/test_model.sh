#!/bin/sh
# benchmarks/model.py on a synthetic profile whose prediction is worked out
# by hand: one test, 10 s on one node by its profile (8 s computing, 2 s
# communicating) and 11 s measured (launch and start-up), 100
# fetch-and-adds and 1000 gets of 800 bytes per process.
top=${TESTS_SRCDIR:-tests}/..
# a package build (Debian, Spack) may have no Python: the model is a script for users who do
command -v python3 >/dev/null 2>&1 || { echo "SKIP test_model: no python3"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat >"$d/prof" <<'X'
on T1 wall 10 comm 2 comp 8
on T1 class rmw ops 400 bytes 3200 calls 400 T 0.1 W 0 C 0
on T1 class get ops 4000 bytes 3200000 calls 4000 T 1 W 0 C 0
X
cat >"$d/costs" <<'X'
procs kernel size on_s vn2_s vn1_s ghost-vn2_s ghost-vn1_s
4 read_inc 1 0.000001 0.000021 0.000031 0.000006 0.000011
4 get 1024 0.000002 0.002002 0.000022 0.000007 0.000012
4 get 65536 0.1 0.2 0.3 0.4 0.5
X
cat >"$d/meas" <<'X'
1 armci:on T1 pass 11.0
1 armci:vn2 T1 pass 9.0
2 armci:vn2 T1 pass 13.0
3 armci:vn2 T1 pass 11.3
1 armci:vn1 T1 pass 10.0
1 armci:ghost-on-vn2 T1 pass 15.0
1 armci:ghost-on-vn1 T1 pass 20.0
X
out=$(python3 "$top/benchmarks/model.py" "$d/prof" "$d/costs" "$d/meas" --cores=2 --ppn-cluster=16) ||
    { echo "FAIL test_model: model.py failed"; exit 1; }
fail=0
expect() {   # $1: what, $2: extended regex the output must hold
    echo "$out" | grep -Eq -- "$2" || { echo "test_model: wrong $1 (want /$2/)"; fail=1; }
}
# vn2: 11 s measured on one node, and half the gets cross (1000 * 0.5 *
# 2 ms = 1 s; the 1 KiB cost is the nearest size to 800 bytes) and half the
# fetch-and-adds (50 * 20 us): 12.001 s; median of 9, 13, 11.3 is 11.3
expect "vn2 prediction" '^T1 +11\.3 / +12\.0 \( +\+6%\)'
# vn1: 3/4 cross, 750 * 20 us + 75 * 30 us: 11.017 s
expect "vn1 prediction" '^T1 .* 10\.0 / +11\.0 \( +\+10%\)'
# ghosts: 6 and 8 processes on 2 cores stretch computing 1.5x and 2x
# (+4 s, +8 s)
expect "ghost-vn2 prediction" '15\.0 / +15\.0 \( +\+0%\)'
expect "ghost-vn1 prediction" '20\.0 / +19\.0 \( +-5%\)'
expect "largest error" '^# largest error: \+10% \(T1 armci:vn1\)'
# 16 nodes of 16, the same problem: 4000 gets (3.2 MB) in all, 15/16 of
# them cross, spread over 16 nodes: 234 messages, 187500 bytes per node;
# 15/16 of the 400 fetch-and-adds reach the counter's node, 31 us apiece
# in vn1
expect "16-node projection" '^ +16 +256 +234 +1\.88e\+05 +375 +0\.0116$'
expect "1024-node projection" '^ +1024 +16384 .* +400 +0\.0124$'
if [ $fail -ne 0 ]; then echo "$out"; echo "FAIL test_model"; exit 1; fi
echo "PASS test_model"
