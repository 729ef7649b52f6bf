#!/bin/sh
# compare.sh - side-by-side comparison of this libarmci with another ARMCI.
#
# Builds each benchmark source twice, in separate directories: once against
# this library (our include/ and the static libarmci.a of a configured and
# built tree) and once against another ARMCI (default: Debian's ARMCI-MPI
# 0.3.1, package libarmci-mpi-dev: /usr/include/armci.h and
# -larmci-openmpi).  Then runs the configurations below alternately
# (A B C D A B C D ...) for several repetitions, each with its own
# environment, and writes:
#   $RESULTS/compare.txt      medians over repetitions and ratios ours/theirs
#                             (times: below 1 = we are faster)
#   $RESULTS/latency.png      latency vs size (put, get, acc, nbput)
#   $RESULTS/bandwidth.png    bandwidth vs size (put, get, acc, nbput)
#   $RESULTS/raw/             every run's output
# Configurations:
#   ours      this library, node-local path on (default)
#   ours_off  this library, ARMCI_NODE_LOCAL=off (every op through MPI RMA)
#   deb_at1   the other ARMCI with ARMCI_RMA_ATOMICITY=1 (0.3.1's default)
#   deb_at0   the other ARMCI with ARMCI_RMA_ATOMICITY=0 (newer default)
#
# usage: compare.sh [-r REPS] [-n NPROCS] [-t NAME] [-o RESULTS_DIR] [BENCH ...]
#   -n ranks per run (default $BENCH_NPROCS or 2); -t the table's name
#   (default compare: $RESULTS/compare.txt), e.g. -n 4 -t compare-np4 bench_rmw
#   BENCH: benchmark names (default: every benchmarks/bench_*.c that uses
#   bench_common.h and no internal header).  Environment: top_srcdir,
#   top_builddir (default ./build), MPICC (mpicc), BENCH_CFLAGS (-O2),
#   LTO_FLAGS (the build's, from its Makefile), THEIRS_CPPFLAGS
#   (-I/usr/include), THEIRS_LIBS (-larmci-openmpi), BENCH_RUNNER
#   ("mpiexec --allow-run-as-root --oversubscribe -n"), BENCH_NPROCS (2);
#   BENCH_REPS etc. are passed through to the programs (bench_common.h).
# Plots need gnuplot (Debian: apt-get install -y gnuplot-nox).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(dirname "$here")}
top_builddir=${top_builddir:-$top_srcdir/build}
MPICC=${MPICC:-mpicc}
BENCH_CFLAGS=${BENCH_CFLAGS:--O2}
LTO_FLAGS=${LTO_FLAGS-$(sed -n 's/^LTO_FLAGS = //p' "$top_builddir/Makefile" 2>/dev/null)}
THEIRS_CPPFLAGS=${THEIRS_CPPFLAGS:--I/usr/include}
THEIRS_LIBS=${THEIRS_LIBS:--larmci-openmpi}
BENCH_RUNNER=${BENCH_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
BENCH_NPROCS=${BENCH_NPROCS:-2}
reps=5
results=$top_srcdir/benchmarks/results
name=compare

while getopts r:o:n:t: opt; do
    case $opt in
    r) reps=$OPTARG ;;
    n) BENCH_NPROCS=$OPTARG ;;
    t) name=$OPTARG ;;
    o) results=$OPTARG ;;
    *) sed -n '2,32p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

die() { echo "compare.sh: $*" >&2; exit 1; }

ourlib=$top_builddir/.libs/libarmci.a
[ -f "$ourlib" ] || die "$ourlib not found: configure and build the library first (top_builddir=$top_builddir)"
[ -f "$top_builddir/include/armciconf.h" ] || die "$top_builddir/include/armciconf.h missing"

if [ $# -eq 0 ]; then
    set --
    for f in "$top_srcdir"/benchmarks/bench_*.c; do
        # in-tree-only programs (internal headers) cannot build against theirs
        grep -q 'bench_common.h' "$f" && ! grep -q '"gmr.h"' "$f" &&
            set -- "$@" "$(basename "$f" .c)"
    done
fi

work=$top_builddir/benchmarks/compare
mkdir -p "$work/ours" "$work/theirs" "$results/raw" "$results/data" || exit 1
# The static libarmci.a needs what libarmci.la records (pthread, m, ...).
ourdeps=$(sed -n "s/^dependency_libs='\(.*\)'/\1/p" "$top_builddir/libarmci.la" 2>/dev/null)

# ---- build: one source, two libraries, two output directories ----
progs=""
for b in "$@"; do
    src=$top_srcdir/benchmarks/$b.c
    [ -f "$src" ] || die "no benchmark source $src"
    ok=1
    # LTO_FLAGS: the library's link-time optimisation, as in libarmci.so
    $MPICC $BENCH_CFLAGS $LTO_FLAGS -DBENCH_LIBNAME='"ours"' -I"$top_srcdir/include" \
        -I"$top_builddir/include" -I"$top_srcdir/benchmarks" "$src" -o "$work/ours/$b" \
        "$ourlib" $ourdeps -lm 2> "$work/ours/$b.build.log" ||
        { echo "compare.sh: $b does not build against this library (see $work/ours/$b.build.log)" >&2; ok=0; }
    $MPICC $BENCH_CFLAGS -DBENCH_LIBNAME='"theirs"' $THEIRS_CPPFLAGS \
        -I"$top_srcdir/benchmarks" "$src" -o "$work/theirs/$b" $THEIRS_LIBS -lm \
        2> "$work/theirs/$b.build.log" ||
        { echo "compare.sh: $b does not build against $THEIRS_LIBS (see $work/theirs/$b.build.log)" >&2; ok=0; }
    [ $ok = 1 ] && progs="$progs $b"
done
[ -n "$progs" ] || die "nothing to run"

configs="ours ours_off deb_at1 deb_at0"
cfg_dir() { case $1 in ours*) echo ours ;; *) echo theirs ;; esac; }
cfg_env() {
    case $1 in
    ours) echo "ARMCI_NODE_LOCAL=on" ;;
    ours_off) echo "ARMCI_NODE_LOCAL=off" ;;
    deb_at1) echo "ARMCI_RMA_ATOMICITY=1" ;;
    deb_at0) echo "ARMCI_RMA_ATOMICITY=0" ;;
    esac
}

# ---- run: A B C D A B C D ... ----
rows=$work/rows.txt
: > "$rows"
for r in $(seq 1 "$reps"); do
    for b in $progs; do
        for c in $configs; do
            out=$results/raw/$b.np$BENCH_NPROCS.$c.$r.txt
            echo "compare.sh: rep $r/$reps $b $c" >&2
            env -u ARMCI_NODE_LOCAL -u ARMCI_RMA_ATOMICITY $(cfg_env $c) \
                timeout 600 $BENCH_RUNNER "$BENCH_NPROCS" "$work/$(cfg_dir $c)/$b" > "$out" 2>&1 ||
                { echo "compare.sh: $b ($c) failed, see $out" >&2; continue; }
            # prog cfg op bytes rep median_ns
            awk -v b="$b" -v c="$c" -v r="$r" \
                '!/^#/ && NF >= 7 && $2 ~ /^[0-9]+$/ { print b, c, $1, $2, r, $5 }' "$out" >> "$rows"
        done
    done
done

# ---- medians over repetitions: prog cfg op bytes median min max n ----
meds=$work/medians.txt
sort -k1,1 -k3,3 -k4,4n -k2,2 -k6,6g "$rows" | awk '
function flush() {
    if (n) {
        m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        print key, m, v[1], v[n], n
    }
    n = 0
}
{ k = $1 " " $2 " " $3 " " $4; if (k != key) { flush(); key = k } v[++n] = $6 }
END { flush() }' > "$meds"

# ---- the table ----
table=$results/$name.txt
{
    echo "# compare.sh: medians over $reps alternating runs (A B C D ...), $BENCH_NPROCS ranks, one node"
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc 2>/dev/null || echo '?') cores; theirs = $THEIRS_LIBS"
    echo "# times in ns per operation (median of per-run medians); ratio = ours / theirs (< 1: ours faster)"
    echo "# spread = (max - min) / median of the per-run medians of ours, in %"
    echo "# ours_off = this library with ARMCI_NODE_LOCAL=off; baseline rows (mpi_*, memcpy_*, cpu_*)"
    echo "# are measured inside every run and should agree across columns (same conditions)"
    printf '%-15s %-12s %9s %11s %7s %11s %7s %11s %7s %11s\n' prog op bytes ours spread \
        deb_at1 ratio1 deb_at0 ratio0 ours_off
    awk '
    { k = $1 " " $3 " " $4; med[k, $2] = $5; lo[k, $2] = $6; hi[k, $2] = $7
      if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
    function cell(k, c) {
        if ((k, c) in med) return sprintf("%11.1f", med[k, c])
        return sprintf("%11s", "-")
    }
    function ratio(k, c) {
        if (((k, "ours") in med) && ((k, c) in med) && med[k, c] > 0)
            return sprintf("%7.3f", med[k, "ours"] / med[k, c])
        return sprintf("%7s", "-")
    }
    function spread(k) {
        if (((k, "ours") in med) && med[k, "ours"] > 0)
            return sprintf("%6.1f%%", 100 * (hi[k, "ours"] - lo[k, "ours"]) / med[k, "ours"])
        return sprintf("%7s", "-")
    }
    END {
        for (i = 1; i <= n; i++) {
            split(order[i], f, " ")
            k = order[i]
            printf "%-15s %-12s %9s %s %s %s %s %s %s %s\n", f[1], f[2], f[3], cell(k, "ours"),
                spread(k), cell(k, "deb_at1"), ratio(k, "deb_at1"), cell(k, "deb_at0"),
                ratio(k, "deb_at0"), cell(k, "ours_off")
        }
    }' "$meds"
} > "$table"
echo "compare.sh: wrote $table" >&2

# ---- plots (bench_contig only: the by-size programs) ----
if ! command -v gnuplot > /dev/null 2>&1; then
    echo "compare.sh: gnuplot not found (apt-get install -y gnuplot-nox): no plots" >&2
    exit 0
fi
case " $progs " in *" bench_contig "*) ;; *) exit 0 ;; esac
[ "$name" = compare ] || exit 0
data=$results/data
for c in $configs; do
    for op in put get acc nbput nbget mpi_put mpi_get mpi_acc memcpy_put memcpy_get cpu_acc; do
        awk -v c="$c" -v op="$op" '$1 == "bench_contig" && $2 == c && $3 == op { print $4, $5 }' \
            "$meds" > "$data/contig.$c.$op.dat"
    done
done
plot_panels() { # $1: column expression for y (latency or bandwidth)
    for op in put get acc nbput; do
        base=$op
        case $op in nb*) base=${op#nb} ;; esac
        cpu=memcpy_$base
        [ "$base" = acc ] && cpu=cpu_acc
        echo "set title '$op'"
        echo "plot '$data/contig.ours.$op.dat' using 1:$1 with linespoints lw 2 title 'ours', \\"
        echo "  '$data/contig.ours_off.$op.dat' using 1:$1 with linespoints title 'ours (NODE_LOCAL=off)', \\"
        echo "  '$data/contig.deb_at1.$op.dat' using 1:$1 with linespoints title 'Debian ARMCI-MPI (ATOMICITY=1)', \\"
        echo "  '$data/contig.deb_at0.$op.dat' using 1:$1 with linespoints title 'Debian ARMCI-MPI (ATOMICITY=0)', \\"
        echo "  '$data/contig.ours.mpi_$base.dat' using 1:$1 with lines dt 2 title 'raw MPI + flush_local', \\"
        echo "  '$data/contig.ours.$cpu.dat' using 1:$1 with lines dt 3 lw 2 title 'memcpy / CPU (limit)'"
    done
}
{
    echo "set terminal pngcairo size 1400,1000 font ',10'"
    echo "set termoption noenhanced"
    echo "set logscale xy; set grid; set key top left font ',8'"
    echo "set format x '%.0s%cB'; set xlabel 'message size (bytes)'"
    echo "set output '$results/latency.png'"
    echo "set ylabel 'latency per operation (ns)'"
    echo "set multiplot layout 2,2 title 'Contiguous latency, 2 ranks on one node (median of medians)'"
    plot_panels '2'
    echo "unset multiplot"
    echo "set output '$results/bandwidth.png'"
    echo "set key bottom right font ',8'"
    echo "set ylabel 'bandwidth (GiB/s)'"
    echo "set multiplot layout 2,2 title 'Contiguous bandwidth, 2 ranks on one node (median of medians)'"
    plot_panels '($1/$2*1e9/1073741824)'
    echo "unset multiplot"
} > "$work/plots.gp"
gnuplot "$work/plots.gp" && echo "compare.sh: wrote $results/latency.png $results/bandwidth.png" >&2
