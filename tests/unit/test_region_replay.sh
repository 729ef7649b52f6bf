#!/bin/sh
# benchmarks/region_replay.py on a synthetic ARMCI_VERBOSE=2 log: the same
# array asked for twice, one process a few bytes over the others each time
# but not the same process, makes two windows with byte-exact slices and
# one with slices in whole KiB; an allocation with no bytes anywhere and a
# group's region make none; a log whose processes disagree on the call
# sequence is refused.
top=${TESTS_SRCDIR:-tests}/..
command -v python3 >/dev/null 2>&1 || { echo "SKIP test_region_replay: no python3"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
fail=0
expect() { # name got want
    [ "$2" = "$3" ] || { echo "FAIL test_region_replay: $1: got '$2', expected '$3'"; fail=1; }
}
log() { # rank size-of-first size-of-second (a group region of 2 first: left out)
    cat <<X
[$1] ARMCI: ARMCI_Malloc_group: region of 2 ranks, 64 bytes here, node-shared window
[$1] ARMCI: region of 2 ranks, 64 bytes here, freed
[$1] ARMCI: ARMCI_Malloc: region of 4 ranks, 0 bytes here, node-shared window
[$1] ARMCI: ARMCI_Malloc: region of 4 ranks, $2 bytes here, node-shared window, direct accumulates
[$1] ARMCI: region of 4 ranks, $2 bytes here, kept for reuse
[$1] ARMCI: ARMCI_Malloc: region of 4 ranks, $3 bytes here, node-shared window, direct accumulates, reused
[$1] ARMCI: region of 4 ranks, $3 bytes here, kept for reuse
X
}
{ log 0 4512 4504; log 1 4504 4512; log 2 4504 4504; log 3 4504 4504; } >"$d/ok.log"
out=$(python3 "$top/benchmarks/region_replay.py" "$d/ok.log" 1 1024) ||
    { echo "FAIL test_region_replay: exit status $? on a good log"; fail=1; }
expect "the count" "$(echo "$out" | sed -n 1p | sed 's/.*: //')" \
    "2 allocations over all 4 processes, 2 frees"
expect "byte-exact slices" "$(echo "$out" | grep '^grain      1 bytes' | awk '{print $4, $9}')" "2 1"
expect "slices in whole KiB" "$(echo "$out" | grep '^grain   1024 bytes' | awk '{print $4, $9}')" "1 1"
{ log 0 4512 4504; log 1 4504 4512; log 2 4504 4504; echo "[3] ARMCI: region of 4 ranks, 8 bytes here, kept for reuse"; log 3 4504 4504; } >"$d/bad.log"
python3 "$top/benchmarks/region_replay.py" "$d/bad.log" >"$d/bad.out" 2>&1
expect "disagreeing processes: exit status" "$?" 1
expect "disagreeing processes: named" "$(grep -c 'the ranks disagree' "$d/bad.out")" 1
[ $fail = 0 ] && echo "PASS test_region_replay"
exit $fail
