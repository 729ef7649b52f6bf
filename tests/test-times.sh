#!/bin/sh
# Lists the slowest MPI tests of a build's last check run, from the
# "run-mode: MODE PROG: exit RC after N s" line tests/run-mode.sh ends
# every log with, then the sum over all tests (with make -j2 the wall time
# is about half of it); for keeping CI inside its time.
# usage: tests/test-times.sh [BUILD_DIR] [COUNT]
dir=${1:-.}
count=${2:-20}
[ -d "$dir/modes" ] || { echo "test-times.sh: no modes/ under $dir (run make check first)" >&2; exit 1; }
times=$(find "$dir/modes" -name '*.log' -exec grep -h '^run-mode: ' {} + |
    awk '{ sub(/:$/, "", $3); print $(NF - 1), $2, $3 }' | sort -rn)
[ -n "$times" ] || { echo "test-times.sh: no timed logs under $dir/modes" >&2; exit 1; }
echo "$times" | head -n "$count"
echo "$times" | awk '{ s += $1 } END { print s, "s in", NR, "test runs" }'
