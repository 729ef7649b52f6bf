#!/bin/sh
# The performance summary table of docs/performance.md, made from the
# results files (never typed by hand): for each MPI that has them, NWChem's
# QA set and the GA kernels across virtual nodes, this library (plain and
# ghost builds) against GA's MPI-PR and MPI-TS on the same virtual nodes.
# usage: benchmarks/summary.sh [RESULTS_DIR]     (default benchmarks/results)
# Prints a markdown table; `benchmarks/summary.sh > /tmp/t` and paste, or
# check that docs/performance.md holds its rows (tests/unit/test_summary.sh).
set -eu
dir=${1:-$(cd "$(dirname "$0")" && pwd)/results}
echo "| workload | MPI | this library, plain | this library, ghosts | MPI-PR | MPI-TS | results file |"
echo "|---|---|---|---|---|---|---|"
# NWChem: the sum and tce_h2o rows of nwchem-compare's table, one per
# layout; nwchem_rows FILE SET LAYOUT... where SET names the tests ("QA",
# "TCE") and LAYOUT is "LABEL|PLAIN|GHOSTS|MPI-PR|MPI-TS", each a column of
# the table ("-": none)
nwchem_rows() {
    f=$1
    set=$2
    shift 2
    [ -f "$f" ] || return 0
    awk -v mpi="$(basename "$f" | cut -d. -f2)" -v file="$(basename "$f")" -v set="$set" \
        -v layouts="$(printf '%s;' "$@")" '
        BEGIN { nl = split(layouts, lay, ";") - 1 }
        /^test / { for (i = 2; i <= NF; i++) col[$i] = i }
        function cell(c, off) { return c ? $(c + off) " s" : "-" }
        function row(what, off,    k, x, a, p) {
            for (k = 1; k <= nl; k++) {
                split(lay[k], x, "|"); a = col[x[2]]; p = col[x[4]]
                # a layout applies to a file that has every column it names
                if (!a || (x[3] != "-" && !col[x[3]]) || (x[4] != "-" && !p)) continue
                printf "| NWChem %s, %s | %s | %s | %s | %s | %s | %s |\n", what, x[1], mpi,
                    cell(a, off), cell(col[x[3]], off), cell(p, off), cell(col[x[5]], off), file } }
        # the coupled-cluster test whose task counter dominates across nodes
        $1 == "tce_h2o" { tce = $0 }
        /^sum \(/ { n = $2; sub(/\(/, "", n); row(set ", " n " tests, sum of medians", 2)
            if (tce != "") { $0 = tce; row("tce_h2o, median", 0) } }' "$f"
}
# (MPICH's file: the ghost build's default setting, and no MPI-PR or MPI-TS
# column: under MPICH on the 2-core host they finished no test in the limit)
for f in "$dir"/nwchem_vnodes.*.2core.txt; do
    nwchem_rows "$f" QA \
        "4 processes as 2 nodes of 2|armci:vn2|armci:ghost-on-vn2|mpi-pr:native-vn2|mpi-ts:native-vn2" \
        "4 processes as 4 nodes of 1|armci:vn1|armci:ghost-on-vn1|mpi-pr:native-vn1|mpi-ts:native-vn1" \
        "4 processes as 2 nodes of 2, ghost build's default|armci:vn2|armci:ghost-default-vn2|-|-" \
        "4 processes as 4 nodes of 1, ghost build's default|armci:vn1|armci:ghost-default-vn1|-|-"
done
# the lent 16-core machine: the ghost build with redirection on
# (nwchem-bundle-run.sh's table)
for f in "$dir"/nwchem_ghosts.*.16core.txt; do
    nwchem_rows "$f" QA "14 processes as 2 nodes of 7, 16 cores|ours-vn7|ghost-on-vn7|mpi-pr-vn7|-"
done
# the five TCE tests alone (a later run than the QA set's); MPICH's file has
# the ghost build's default (automatic on the 2-core host) and no MPI-PR
# column (GA's runtimes finished no test under MPICH on that host)
for f in "$dir"/nwchem_tce_vnodes.*.2core.txt; do
    nwchem_rows "$f" TCE \
        "4 processes as 2 nodes of 2|armci:vn2|armci:ghost-on-vn2|mpi-pr:native-vn2|-" \
        "4 processes as 4 nodes of 1|armci:vn1|armci:ghost-on-vn1|mpi-pr:native-vn1|-" \
        "4 processes as 2 nodes of 2, ghosts automatic|armci:vn2|armci:ghost-auto-vn2|-|-" \
        "4 processes as 2 nodes of 2, ghost build's default|armci:vn2|armci:ghost-default-vn2|-|-"
done
# GA kernels: a few rows of ga-compare's table (4 processes)
for f in "$dir"/ga_vnodes.*.2core.txt; do
    [ -f "$f" ] || continue
    mpi=$(basename "$f" | cut -d. -f2)
    awk -v mpi="$mpi" -v file="$(basename "$f")" '
        /^procs / { for (i = 4; i <= NF; i++) { c = $i; sub(/_s$/, "", c); col[c] = i } }
        $1 == 4 && (($2 == "scf" && ($3 == "512/16" || $3 == "512/64")) ||
                    $2 == "spmv_gather" || $2 == "spmv_scatter_acc" ||
                    ($2 == "acc_strided" && $3 == "2048") || $2 == "read_inc") {
            for (vn = 2; vn >= 1; vn--) {
                a = col["vn" vn]; g = col["ghost-vn" vn]; p = col["mpi-pr-vn" vn]; t = col["mpi-ts-vn" vn]
                if (!a || !p) continue
                printf "| GA %s %s, %d nodes of %d | %s | %s | %s | %s | %s | %s |\n",
                    $2, $3, 4 / vn, vn, mpi, sec($a), g ? sec($g) : "-", sec($p),
                    t ? sec($t) : "-", file } }
        # a cell without a figure (every round failed or hit the time limit;
        # the results file lists the runs) stays "-"
        function sec(v) { return v == "-" ? "-" : v " s" }' "$f"
done
