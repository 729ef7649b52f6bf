#!/bin/bash
# ARMCI_WAIT_SPIN side by side: how many tests a yielding wait makes before
# its first yield, on the three patterns it trades between, in rounds that
# alternate the settings:
#   bench_contig    vn1, rank 0 drives 8-byte put/get/acc at rank 1 while
#                   the others wait in a barrier (the target has a core),
#                   raw MPI_Put/Get/Accumulate + flush_local beside them;
#   bench_gakernel  vn2, the NWChem-shaped kernel (task counter on rank 0,
#                   patch gets and accumulates; every process busy);
#   bench_rmw       vn2, fetch-and-adds, one counter per process (own) and
#                   one hot counter on rank 0 (hot).
# Waits yield only where ARMCI_WAIT_YIELD says so (AUTO: a crowded host
# under an MPI that spins, e.g. 4 MPICH ranks on 2 cores); elsewhere the
# setting changes nothing.  Prints per program, row and setting the median
# over the rounds of each row's median ns, the ratio to the first setting,
# then the raw runs.
#
# usage: benchmarks/wait_spin.sh [-r ROUNDS] [-k "K1 K2 ..."] [-l LAUNCHER] BUILD_DIR
#   BUILD_DIR  a configured build of this library (make bench is run there)
#   -r ROUNDS  default 3
#   -k LIST    ARMCI_WAIT_SPIN values, default "0 50"; ratios are to the first
#   -l LAUNCHER  mpiexec command before the rank count (default "mpiexec";
#              e.g. "mpiexec.mpich")
#        benchmarks/wait_spin.sh -t RAW
#            only the summary of raw output this script printed before
# Time nothing else beside it: the host's other load moves every number.
set -eu
usage() { sed -n '2,27p' "$0" >&2; exit 2; }
rounds=3 spins="0 50" launcher=mpiexec table=""
while getopts r:k:l:t: opt; do
    case $opt in
    r) rounds=$OPTARG ;; k) spins=$OPTARG ;; l) launcher=$OPTARG ;; t) table=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

# summary RAW: per program, row and bytes, the median over the rounds of the
# row's median ns for each setting, in the order the settings first ran
summary() {
awk '
    /^## round/ { prog = $5; k = substr($4, 3); if (!(k in ks)) { ks[k] = 1; kord[++nk] = k }; next }
    /^#/ || NF < 5 || $2 !~ /^[0-9]+$/ || $5 !~ /^[0-9.]+$/ { next }
    { row = prog SUBSEP $1 SUBSEP $2; c = row SUBSEP k; n[c]++; v[c, n[c]] = $5
      if (!(row in seen)) { seen[row] = 1; rord[++nr] = row } }
    function med(c,    i, j, t, m, a) {
        m = n[c]; if (!m) return -1; for (i = 1; i <= m; i++) a[i] = v[c, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    END {
        if (!nr) { print "wait_spin.sh: no benchmark rows in the raw output" > "/dev/stderr"; exit 1 }
        printf "# median over the rounds of each row\047s median ns per ARMCI_WAIT_SPIN value; r_K = K / K=%s\n", kord[1]
        printf "%-14s %-14s %7s", "program", "row", "bytes"
        for (i = 1; i <= nk; i++) printf " %12s", "K=" kord[i]
        for (i = 2; i <= nk; i++) printf " %7s", "r_" kord[i]
        printf "\n"
        for (r = 1; r <= nr; r++) {
            split(rord[r], p, SUBSEP); printf "%-14s %-14s %7s", p[1], p[2], p[3]
            for (i = 1; i <= nk; i++) { md[i] = med(rord[r] SUBSEP kord[i]); printf " %12.1f", md[i] }
            for (i = 2; i <= nk; i++) printf " %7s", (md[1] > 0 && md[i] >= 0 ? sprintf("%.3f", md[i] / md[1]) : "-")
            printf "\n" } }
' "$1"
}

# -t re-summarises a saved raw output and runs nothing
[ -z "$table" ] || { [ $# -eq 0 ] || usage; summary "$table"; exit; }
[ $# -eq 1 ] || usage
build=$1 raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
make -C "$build" bench >/dev/null || { echo "wait_spin.sh: make bench failed in $build" >&2; exit 1; }
# run R K PROG ENV...: one program at one setting, appended to the raw output
run() {
    echo "## round $1 K=$2 $3" >>"$raw"
    # shellcheck disable=SC2086 # the launcher is a command line
    env ARMCI_WAIT_SPIN="$2" "${@:4}" $launcher -n 4 "$build/benchmarks/$3" >>"$raw" 2>&1 ||
        { tail -30 "$raw" >&2; echo "wait_spin.sh: round $1 K=$2 $3 failed" >&2; exit 1; }
}
for r in $(seq "$rounds"); do
    for k in $spins; do
        run "$r" "$k" bench_contig ARMCI_VIRTUAL_NODE_SIZE=1 BENCH_MAXSIZE=8 BENCH_REPS=30 \
            BENCH_OPS=put,get,acc,mpi_put,mpi_get,mpi_acc
        run "$r" "$k" bench_gakernel ARMCI_VIRTUAL_NODE_SIZE=2 BENCH_REPS=3 BENCH_GA_NB=32,64
        run "$r" "$k" bench_rmw ARMCI_VIRTUAL_NODE_SIZE=2 BENCH_REPS=5 BENCH_ITERS=5 \
            BENCH_OPS=fadd_own,fadd_long_own
    done
done
summary "$raw"
echo
echo "# raw runs"
cat "$raw"
