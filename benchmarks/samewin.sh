#!/bin/bash
# What the MPI path adds to one operation: bench_samewin (ARMCI_Put/Get/Acc
# against raw MPI_Put/Get/Accumulate + MPI_Win_flush_local on the very
# window the library uses) on 2 ranks, rounds alternating between one node
# (mode on) and 2 virtual nodes of 1 (mode vn1: every operation on the MPI
# path).  Prints a summary (per mode and size, the median over the rounds of
# each row's median ns, and r_X = ARMCI op / raw op) and then the raw runs.
#
# usage: benchmarks/samewin.sh [-r ROUNDS] [-l LAUNCHER] BUILD_DIR
#   BUILD_DIR  a configured build of this library (bench_samewin is built
#              there if missing: make benchmarks/bench_samewin)
#   -r ROUNDS  default 3
#   -l LAUNCHER  mpiexec command for 2 ranks' worth of arguments (default
#              "mpiexec"); e.g. "mpiexec.mpich" or "/opt/ompi5/bin/mpiexec
#              --oversubscribe"
#        benchmarks/samewin.sh -t RAW
#            only the summary of raw output this script printed before
# Time nothing else beside it: the host's other load moves every number.
set -eu
usage() { sed -n '2,18p' "$0" >&2; exit 2; }
rounds=3 launcher=mpiexec table=""
while getopts r:l:t: opt; do
    case $opt in
    r) rounds=$OPTARG ;; l) launcher=$OPTARG ;; t) table=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

# summary RAW: per mode and size, the median over the runs of each row's
# median ns, and each ARMCI op's ratio to the raw op
summary() {
awk '
    /^## round/ { mode = $5; if (!($3 in r)) { r[$3] = 1; nr++ }; next }
    $1 ~ /^(win_)?(put|get|acc)$/ && $2 ~ /^[0-9]+$/ {
        k = mode SUBSEP $2 SUBSEP $1; n[k]++; v[k, n[k]] = $5
        if (!((mode, $2) in seen)) { seen[mode, $2] = 1; order[++no] = mode SUBSEP $2 } }
    function med(k,    i, j, t, m, a) {
        m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    function ratio(x, y) { return y > 0 ? sprintf("%.3f", x / y) : "-" }
    END {
        if (!no) { print "samewin.sh: no bench_samewin rows in the raw output" > "/dev/stderr"; exit 1 }
        printf "# median over %d rounds of each row\047s median ns; r_X = ARMCI op / raw MPI op\n", nr
        printf "%-5s %8s %9s %9s %9s %9s %9s %9s %6s %6s %6s\n", "mode", "bytes", "put", "win_put",
               "get", "win_get", "acc", "win_acc", "r_put", "r_get", "r_acc"
        for (i = 1; i <= no; i++) {
            split(order[i], p, SUBSEP); printf "%-5s %8s", p[1], p[2]
            for (o = 1; o <= 3; o++) {
                op = o == 1 ? "put" : o == 2 ? "get" : "acc"
                a[op] = med(order[i] SUBSEP op); w[op] = med(order[i] SUBSEP "win_" op)
                printf " %9.1f %9.1f", a[op], w[op] }
            printf " %6s %6s %6s\n", ratio(a["put"], w["put"]), ratio(a["get"], w["get"]),
                   ratio(a["acc"], w["acc"]) } }
' "$1"
}

if [ -n "$table" ]; then
    [ $# -eq 0 ] || usage
    summary "$table"
    exit
fi
[ $# -eq 1 ] || usage
build=$1
bin=$build/benchmarks/bench_samewin
[ -x "$bin" ] || make -C "$build" benchmarks/bench_samewin >/dev/null ||
    { echo "samewin.sh: cannot build $bin" >&2; exit 1; }
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for r in $(seq "$rounds"); do
    for m in on vn1; do
        if [ $m = on ]; then e=ARMCI_NODE_LOCAL=on; else e=ARMCI_VIRTUAL_NODE_SIZE=1; fi
        echo "## round $r mode $m ($e)" >>"$raw"
        # shellcheck disable=SC2086 # the launcher is a command line
        env "$e" $launcher -n 2 "$bin" >>"$raw" 2>&1 ||
            { cat "$raw" >&2; echo "samewin.sh: round $r mode $m failed" >&2; exit 1; }
    done
done
summary "$raw"
echo
echo "# ---- raw output ----"
cat "$raw"
