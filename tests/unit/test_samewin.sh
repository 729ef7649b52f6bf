#!/bin/sh
# benchmarks/samewin.sh -t: per mode and size the median over the rounds of
# each row's median ns, ARMCI op / raw op ratios, "-" where a raw row is
# missing, the round count, and a non-zero exit on output with no rows.
bench=$(cd "${TESTS_SRCDIR:-tests}/../benchmarks" && pwd)
dir=${TMPDIR:-/tmp}/samewin.$$
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
. "${TESTS_SRCDIR:-tests}/unit/expect.sh"
# rows: op bytes reps iters med_ns min_ns max_ns vs_win
row() { printf '%-18s %5s %5s %6s %12s %12s %12s %8s\n' "$1" "$2" 31 1000 "$3" 1 1 -; }
{
    for r in 1 2 3; do
        echo "## round $r mode on (ARMCI_NODE_LOCAL=on)"
        echo "# bench_samewin: lib=armci ranks=2"
        row put 8 "$((10 * r))"; row get 8 5; row acc 8 40
        row win_put 8 100; row win_get 8 50; row win_acc 8 80
        echo "## round $r mode vn1 (ARMCI_VIRTUAL_NODE_SIZE=1)"
        row put 8 "$((200 + r))"; row get 8 "$((1000 * r))"; row acc 8 330
        row win_put 8 200; row win_get 8 1000; row win_acc 8 300
    done
    echo "## round 4 mode vn1 (ARMCI_VIRTUAL_NODE_SIZE=1)"
    row put 16 7.5; row get 16 1; row acc 16 1
    row win_put 16 2.5; row win_get 16 1; row win_acc 16 1
    row put 16 9.5; row win_put 16 3.5
} >"$dir/raw"
out=$(bash "$bench/samewin.sh" -t "$dir/raw")
rc=$?
expect "exit status" "$rc" 0
expect "rounds counted" "$(echo "$out" | sed -n 's/^# median over \([0-9]*\) rounds.*/\1/p')" 4
expect "on, 8 B: medians and ratios" "$(echo "$out" | awk '$1 == "on" && $2 == 8 { print $3, $4, $9, $10, $11 }')" \
    "20.0 100.0 0.200 0.100 0.500"
expect "vn1, 8 B: median of 201..203 and 1000..3000" \
    "$(echo "$out" | awk '$1 == "vn1" && $2 == 8 { print $3, $5, $9, $10, $11 }')" "202.0 2000.0 1.010 2.000 1.100"
expect "vn1, 16 B: two runs, the mean of the middle pair" \
    "$(echo "$out" | awk '$1 == "vn1" && $2 == 16 { print $3, $4, $9 }')" "8.5 3.0 2.833"
grep -v '^win_acc' "$dir/raw" >"$dir/noacc"
expect "a missing raw row gives '-'" \
    "$(bash "$bench/samewin.sh" -t "$dir/noacc" | awk '$1 == "on" && $2 == 8 { print $11 }')" "-"
: >"$dir/empty"
bash "$bench/samewin.sh" -t "$dir/empty" >/dev/null 2>"$dir/err"
rc=$?
expect "no rows: exit status" "$rc" 1
expect "no rows: says so" "$(grep -c 'no bench_samewin rows' "$dir/err")" 1
exit $fail
