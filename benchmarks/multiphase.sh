#!/bin/sh
# Runs bench_multiphase (ghost build) under each Open MPI osc component of
# OSCS on virtual nodes, keeps its report and the automatic mode's decisions
# (rank 0's ARMCI_VERBOSE=1 lines) in RESULTS/bench_multiphase.OSC.txt, and
# draws the per-phase medians of every mode as stacked bars, one panel per
# component, in RESULTS/bench_multiphase.png (gnuplot).
#
# usage: multiphase.sh BUILD_DIR [REPS=7]
# On an MPI other than Open MPI (the build's Makefile says which) there are
# no components to choose: one panel named after the MPI (OSCS=mpich), no
# --mca.  RUNNER defaults to the build's own launcher (its TEST_RUNNER), so
# a build on Open MPI 5 or MPICH 4.3 from source runs with its own mpiexec.
# The communication phase does MP_COMM_OPS accumulates per user and step:
# by default 2000 under pt2pt, so that it spans several decisions of the
# automatic mode (ARMCI_ADAPT_INTERVAL, 50 ms; with bench_multiphase's
# 200 a whole comm phase took 31-46 ms, less than one interval, and no
# decision could fall inside it), and 200 under ucx, whose direct path is
# 10x slower per operation (3.6 s per comm phase at 200).
#
# env: OSCS ("pt2pt"; "rdma" without pt2pt), NP (6), VNODE (2 users per virtual node: with 1 ghost
#      per node 6 ranks are 2 nodes x (2 users + 1 ghost)), RESULTS
#      (benchmarks/results under the source tree), RUNNER (mpiexec ...),
#      PLOT_ONLY (set: only redraw the plot from the kept reports), TAG
#      (appended to the names of the reports and the plot: .7users for
#      another setup), and bench_multiphase's MP_* variables.
set -e
build=${1:?usage: multiphase.sh BUILD_DIR [REPS]}
reps=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
results=${RESULTS:-$here/results}
flavor=$(sed -n 's/^MPI_FLAVOR = //p' "$build/Makefile" 2>/dev/null) || true
own=$(sed -n 's/^TEST_RUNNER = //p' "$build/Makefile" 2>/dev/null) || true
runner=${RUNNER:-${own:-mpiexec --allow-run-as-root --oversubscribe -n}}
# pt2pt by default; an Open MPI without it (5.0) takes osc rdma, which
# between (virtual) nodes also waits for the target in every class.
oscs=pt2pt
bindir=$(sed -n 's/^MPI_BINDIR = //p' "$build/Makefile" 2>/dev/null) || true
if [ -x "$bindir/ompi_info" ] && ! "$bindir/ompi_info" --parsable | grep -q '^mca:osc:pt2pt:'; then
    oscs=rdma
fi
# An MPI other than Open MPI has no components to choose (no --mca).
other=""
[ -n "$flavor" ] && [ "$flavor" != openmpi ] && other=$flavor
oscs=${OSCS:-${other:-$oscs}}
mkdir -p "$results"
panels=""
for osc in $oscs; do
    mca="--mca osc $osc"
    [ -n "$other" ] && mca=""
    panels="$panels $osc"
    [ -n "$PLOT_ONLY" ] && continue # redraw from the kept reports
    out=$results/bench_multiphase.$osc${TAG:-}.txt
    log=$results/bench_multiphase.$osc${TAG:-}.log.tmp
    ops=${MP_COMM_OPS:-}
    [ -z "$ops" ] && { [ "$osc" = ucx ] && ops=200 || ops=2000; }
    {
        echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), load $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "# MP_COMM_OPS=$ops ARMCI_VIRTUAL_NODE_SIZE=${VNODE:-2} $runner ${NP:-6} $mca bench_multiphase $reps"
        echo "# MPI: $(sed -n 's/^MPI_VERSION_STR = //p' "$build/Makefile" 2>/dev/null)"
    } > "$out"
    MP_COMM_OPS=$ops ARMCI_VERBOSE=1 ARMCI_VIRTUAL_NODE_SIZE=${VNODE:-2} \
        $runner "${NP:-6}" $mca "$build/benchmarks/bench_multiphase" "$reps" \
        > "$log" 2>&1 || { cat "$log"; rm -f "$log"; exit 1; }
    grep '^\[0\] ARMCI Warning' "$log" | sed 's/^/# /' >> "$out" || true
    grep -v '^\[' "$log" >> "$out"
    echo "# automatic mode's decisions (rank 0, ARMCI_VERBOSE=1), in run order" >> "$out"
    grep '^\[0\] ARMCI: adapt' "$log" | sed 's/^\[0\] ARMCI: adapt: /# /' >> "$out"
    rm -f "$log"
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | sed 's/^/# /' >> "$out"
    grep -v '^# decision' "$out"
done
command -v gnuplot > /dev/null 2>&1 || { echo "multiphase.sh: no gnuplot, no plot" >&2; exit 0; }
gp=${TMPDIR:-/tmp}/multiphase.$$.gp
n=$(echo $panels | wc -w)
{
    echo "set terminal pngcairo size $((520 * n)),460 font ',10'"
    echo "set termoption noenhanced"
    echo "set output '$results/bench_multiphase${TAG:-}.png'"
    echo "set style data histograms; set style histogram rowstacked; set style fill solid 0.8 border -1"
    echo "set boxwidth 0.6; set grid y; set key outside bottom center horizontal font ',9'"
    echo "set ylabel 'seconds (median per phase)'; set yrange [0:*]"
    echo "set multiplot layout 1,$n title 'bench_multiphase: ghost redirection off / on / user-guided / automatic'"
    for osc in $panels; do
        title="osc $osc"
        [ -n "$other" ] && title=$osc
        f=$results/bench_multiphase.$osc${TAG:-}.txt
        names=$(awk '$1 == "mode" { for (i = 2; i <= NF - 3; i++) print $i; exit }' "$f")
        # the table's rows only (the per-step settings below start alike)
        awk '$1 == "mode" { t = 1; next } /^#/ { t = 0 } t' "$f" > "$gp.$osc.dat"
        echo "set title '$title'"
        printf "plot "
        c=2
        for name in $names; do
            [ $c -gt 2 ] && printf ", "
            printf "'%s' using %d:xtic(1) title '%s'" "$gp.$osc.dat" "$c" "$name"
            c=$((c + 1))
        done
        echo
    done
    echo "unset multiplot"
} > "$gp"
gnuplot "$gp" && echo "multiphase.sh: wrote $results/bench_multiphase${TAG:-}.png" >&2
rm -f "$gp" "$gp".*.dat
