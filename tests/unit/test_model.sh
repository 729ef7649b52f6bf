#!/bin/sh
# benchmarks/model.py on a synthetic profile whose prediction is worked out
# by hand: T1, 10 s on one node by its profile (8 s computing, 2 s
# communicating) and 11 s measured (launch and start-up), 100
# fetch-and-adds and 1000 gets of 800 bytes per process; T2, the same
# operations in 5 s, with half its gets aimed by each process at itself
# (the profiler's "where" line); T3, a counter-driven test, 10 s on one
# node, a million fetch-and-adds per process with 9 us of work each.
top=${TESTS_SRCDIR:-tests}/..
# a package build (Debian, Spack) may have no Python: the model is a script for users who do
command -v python3 >/dev/null 2>&1 || { echo "SKIP test_model: no python3"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat >"$d/prof" <<'X'
on T1 wall 10 comm 2 comp 8
on T1 class rmw ops 400 bytes 3200 calls 400 T 0.1 W 0 C 0
on T1 class get ops 4000 bytes 3200000 calls 4000 T 1 W 0 C 0
on T2 wall 5 comm 1 comp 4
on T2 class rmw ops 400 bytes 3200 calls 400 T 0.1 W 0 C 0
on T2 class get ops 4000 bytes 3200000 calls 4000 T 1 W 0 C 0
on T2 where get self 2000 node 2000 off 0
on T3 wall 10 comm 2 comp 8
on T3 class rmw ops 4000000 bytes 32000000 calls 4000000 T 1 W 0 C 0
X
# another run's where lines: T2's shares again, and vn2's off-node counts
cat >"$d/where" <<'X'
on T2 where get self 2000 node 2000 off 0
vn2 T1 where get self 1000 node 1000 off 2000
vn2 T2 where get self 2000 node 666 off 1334
X
cat >"$d/costs" <<'X'
procs kernel size on_s vn2_s vn1_s ghost-vn2_s ghost-vn1_s
4 read_inc 1 0.000001 0.000021 0.000031 0.000006 0.000011
4 get 1024 0.000002 0.002002 0.000022 0.000007 0.000012
4 get 65536 0.1 0.2 0.3 0.4 0.5
4 acc 32 0.000001 0.000001 0.000001 0.000005 0.00001
X
cat >"$d/meas" <<'X'
1 armci:on T1 pass 11.0
1 armci:vn2 T1 pass 9.0
2 armci:vn2 T1 pass 13.0
3 armci:vn2 T1 pass 11.3
1 armci:vn1 T1 pass 10.0
1 armci:ghost-on-vn2 T1 pass 15.0
1 armci:ghost-on-vn1 T1 pass 20.0
1 armci:on T2 pass 5.0
1 armci:vn2 T2 pass 5.0
1 armci:vn1 T2 pass 5.0
1 armci:ghost-on-vn2 T2 pass 7.0
1 armci:ghost-on-vn1 T2 pass 9.0
1 armci:on T3 pass 10.0
1 armci:vn2 T3 pass 30.0
1 armci:vn1 T3 pass 40.0
1 armci:ghost-on-vn2 T3 pass 14.0
1 armci:ghost-on-vn1 T3 pass 22.0
X
out=$(python3 "$top/benchmarks/model.py" "$d/prof" "$d/costs" "$d/meas" --cores=2 --ppn-cluster=16 \
    --where="$d/where") ||
    { echo "FAIL test_model: model.py failed"; exit 1; }
fail=0
expect() {   # $1: what, $2: extended regex the output must hold
    echo "$out" | grep -Eq -- "$2" || { echo "test_model: wrong $1 (want /$2/)"; fail=1; }
}
# vn2: 11 s measured on one node; a get crosses where it is aimed at
# another process (3/4 without a where line) on the other node (2 of the 3
# others): 1000 * 1/2 * 2 ms = 1 s (the 1 KiB cost is the nearest size to
# 800 bytes); every fetch-and-add takes the MPI path (100 * 20 us):
# 12.002 s; the median of 9, 13, 11.3 is 11.3
expect "vn2 prediction" '^T1 +11\.3 / +12\.0 \( +\+6%\)'
# vn1: 3/4 cross, 750 * 20 us + 100 * 30 us: 11.018 s
expect "vn1 prediction" '^T1 .* 10\.0 / +11\.0 \( +\+10%\)'
# ghosts: T1's gets cross as on the plain build, at 7 and 12 us
# (+2.5 ms, +7.5 ms); its fetch-and-adds, 9.9 ms of work apart, hardly
# shift the tasks (+0.25 ms, +0.75 ms), and the ghosts serve too few
# messages to slow computing: 11.0 s
expect "ghost-vn2 prediction" '^T1 .* 15\.0 / +11\.0 \( +-27%\)'
expect "ghost-vn1 prediction" '^T1 .* 20\.0 / +11\.0 \( +-45%\)'
# T3, self-scheduled: the plain build pays every add's cost (10 s + a
# million adds * 20 us, 30 us); with ghosts the counter's node adds at the
# one-node cost (9 + 1 us a task) and the others through the ghost (9 + 6,
# 9 + 11 us): vn2 4M tasks / (2/10 + 2/15 per us) = 12 s against 10, and
# the ghost serves 4M * (2/15) / (1/3) = 1.6M adds at 5 us, 8 s of the
# users' 32 s of computing (+2 s); vn1 4M / (1/10 + 3/20) = 16 s, 2.4M adds
# at 10 us, 24 s (+6 s)
expect "counter, plain" '^T3 +30\.0 / +30\.0 \( +[-+]0%\) +40\.0 / +40\.0 \( +[-+]0%\)'
expect "counter, ghosts" '^T3 .* 14\.0 / +14\.0 \( +\+0%\) +22\.0 / +22\.0 \( +\+0%\)'
# T2, half its gets to self: vn2 1000 * 1/2 * 2/3 * 2 ms + 100 * 20 us
# = 0.669 s more; vn1 500 * 20 us + 100 * 30 us
expect "T2 with self shares" '^T2 +5\.0 / +5\.7 \( +\+13%\) +5\.0 / +5\.0 \( +\+0%\)'
expect "largest error" '^# largest error: -45% \(T1 armci:ghost-on-vn1\)'
# the gets to other nodes in vn2: 2000 + 1333.3 predicted, 3334 counted
expect "off-node check" '^# vn2 get +ops to other nodes: predicted 3333, counted 3334 \(-0%\)'
# 16 nodes of 16, the same problem: the gets aimed at other processes
# (3000 of T1's, 2000 of T2's, 800 bytes each), 240/255 of them to other
# nodes, spread over 16 nodes: 294 messages, 235294 bytes per node; 15/16
# of the 4000800 fetch-and-adds reach the counter's node, 31 us apiece in
# vn1 (116.3 s, printed to 3 digits)
expect "16-node projection" '^ +16 +256 +294 +2\.35e\+05 +3\.75e\+06 +116$'
expect "1024-node projection" '^ +1024 +16384 .* +4e\+06 +124$'
if [ $fail -ne 0 ]; then echo "$out"; echo "FAIL test_model"; exit 1; fi
# a measured file with the plain build only (MPICH's 15-test run): those
# columns, the same predictions, no ghost columns
grep -v ghost "$d/meas" >"$d/meas-plain"
out=$(python3 "$top/benchmarks/model.py" "$d/prof" "$d/costs" "$d/meas-plain" --cores=2 \
    --where="$d/where") ||
    { echo "FAIL test_model: model.py failed on plain-only measurements"; exit 1; }
expect "plain-only header" '^test +armci:vn2 +armci:vn1$'
expect "plain-only vn2 prediction" '^T1 +11\.3 / +12\.0 \( +\+6%\) +10\.0 / +11\.0 \( +\+10%\)$'
# the barrier term: T1 makes 100,000 barriers per process (GA_Sync's, the
# profile's no-data line), each 20 us dearer over 2 nodes than on one:
# vn2 12.002 + 2 = 14.0 s; vn1 has no barrier cost given, so no term
cp "$d/prof" "$d/prof-bar"
echo "on T1 nodata armci_msg_barrier calls 400000 secs 3.0 max 3.1" >>"$d/prof-bar"
out=$(python3 "$top/benchmarks/model.py" "$d/prof-bar" "$d/costs" "$d/meas-plain" --cores=2 \
    --where="$d/where" --barrier-us=on:10,vn2:30) ||
    { echo "FAIL test_model: model.py failed with --barrier-us"; exit 1; }
expect "barrier term, vn2 only" '^T1 +11\.3 / +14\.0 \( +\+24%\) +10\.0 / +11\.0 \( +\+10%\)$'
expect "barrier term line" '^# barrier term: on 10\.0 us, vn2 30\.0 us$'
expect "T2 without barriers" '^T2 +5\.0 / +5\.7 \( +\+13%\)'
if python3 "$top/benchmarks/model.py" "$d/prof-bar" "$d/costs" "$d/meas-plain" \
    --barrier-us=vn2:30 >"$d/bar.out" 2>&1 || ! grep -q "needs the one-node cost" "$d/bar.out"; then
    echo "test_model: --barrier-us without on: want an error, got:"; cat "$d/bar.out"; fail=1
fi
# and none of the configurations: a message, not a traceback
grep armci:on "$d/meas" >"$d/meas-none"
if python3 "$top/benchmarks/model.py" "$d/prof" "$d/costs" "$d/meas-none" >"$d/none.out" 2>&1 ||
    ! grep -q "has none of the configurations" "$d/none.out"; then
    echo "test_model: no configuration measured: want an error naming them, got:"
    cat "$d/none.out"; fail=1
fi
if [ $fail -ne 0 ]; then echo "$out"; echo "FAIL test_model"; exit 1; fi
echo "PASS test_model"
