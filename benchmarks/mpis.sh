#!/bin/sh
# mpis.sh - the same benchmarks over several MPIs, side by side.
#
# Each LABEL=BUILDDIR is a configured and built tree of this library on one
# MPI (build/ on Debian's Open MPI, build-mpich/ with CC=mpicc.mpich, a
# tree configured with MPICC=/opt/ompi5/bin/mpicc, ...).  The benchmarks
# are run with that tree's own launcher (its Makefile's TEST_RUNNER), 2
# ranks, alternating over the trees round by round (A B C A B C ...), so
# that load on a shared machine hits every MPI alike; the table holds the
# median over rounds of each run's median time.
#   bench_contig   put/get/acc at 8 B and 64 KiB, and the raw MPI rows,
#                  node-local path on and off (off: every op through MPI RMA)
#   bench_rmw      fetch-and-add on a hot and an own counter, and raw MPI
#   bench_strided  node-local path off: 16 B x 1024 strided accumulate with
#                  the per-block split forced (DIRECT/split) and with one
#                  datatype (DIRECT/dtype), and put, against raw MPI
# With -g LABEL=GHOST_BUILDDIR (repeatable; configure --enable-ghost-progress
# on each MPI), after the rounds: bench_async through async.sh (ghosts on
# and off, every transport each MPI has, pinned as async.sh pins) and
# bench_multiphase through multiphase.sh (each MPI's default component),
# summarised below the table; their reports go to raw-mpis/.
# usage: mpis.sh [-r ROUNDS] [-o OUT] [-g LABEL=GHOST_BUILDDIR]... LABEL=BUILDDIR ...
#   ROUNDS default 3; OUT default benchmarks/results/mpis.txt (raw outputs in
#   OUT's directory, raw-mpis/).  Run on a quiet machine: nothing else
#   running (a build or a test suite beside it changes times 1.5-4x).
set -u
rounds=3
out=benchmarks/results/mpis.txt
ghosts=""
here=$(cd "$(dirname "$0")" && pwd)
while getopts r:o:g: o; do
    case $o in
    r) rounds=$OPTARG ;;
    o) out=$OPTARG ;;
    g) ghosts="$ghosts $OPTARG" ;;
    *) echo "usage: mpis.sh [-r ROUNDS] [-o OUT] [-g LABEL=GHOST_BUILDDIR]... LABEL=BUILDDIR ..." >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "mpis.sh: name at least one LABEL=BUILDDIR" >&2; exit 2; }
targets="$*"
raw=$(dirname "$out")/raw-mpis
mkdir -p "$raw" || exit 1
for t in "$@"; do
    d=${t#*=}
    for b in bench_contig bench_rmw bench_strided; do
        [ -x "$d/benchmarks/$b" ] || { echo "mpis.sh: $d/benchmarks/$b missing (make -C $d $b)" >&2; exit 1; }
    done
done
# run LABEL DIR NAME PROG ENV...: one run into $raw/NAME.LABEL.ROUND.txt
run() {
    label=$1 dir=$2 name=$3 prog=$4
    shift 4
    runner=$(sed -n 's/^TEST_RUNNER = //p' "$dir/Makefile")
    f=$raw/$name.$label.$r.txt
    if ! env "$@" timeout -k 5 600 $runner 2 "$prog" >"$f" 2>&1; then
        echo "mpis.sh: $name on $label failed (round $r):" >&2; tail -5 "$f" >&2; exit 1
    fi
}
# The ghost builds' benchmarks, run after the rounds; prints the summary.
ghost_section() {
    OUT=$raw/bench_async.txt sh "$here/async.sh" $ghosts >/dev/null ||
        { echo "mpis.sh: async.sh failed" >&2; exit 1; }
    echo "# bench_async (ghost builds, async.sh: 2 x (1 user + 1 ghost), target computing;"
    echo "# $(sed -n 3p "$raw/bench_async.txt" | sed 's/^# //'))"
    echo "# ms, median of the run's repetitions, ghosts on / off (ARMCI_GHOST_ASYNC)"
    awk '/^## /{ sub(/^## /, ""); split($0, p, ", ARMCI_GHOST_ASYNC="); key = p[1]; m = p[2]
                 if (!(key in seen)) { seen[key] = 1; order[++k] = key }; next }
         / median / { name = $0; sub(/ +median.*/, "", name)
                      for (i = 1; i <= NF; i++) if ($i == "median") v[key, name, m] = $(i + 1) }
         END { split("acc+fence|put+fence|get|fetch-and-add|strided acc+fence", ops, "|")
               printf "%-36s", "transport"
               for (o = 1; o <= 5; o++) printf " %19s", ops[o]
               print ""
               for (j = 1; j <= k; j++) {
                   printf "%-36s", order[j]
                   for (o = 1; o <= 5; o++)
                       printf " %19s", v[order[j], ops[o], "on"] " / " v[order[j], ops[o], "off"]
                   print ""
               } }' "$raw/bench_async.txt"
    grep '^# .*: \(no osc\|osc .* creates no window\)' "$raw/bench_async.txt"
    echo "# bench_multiphase (ghost builds, multiphase.sh: 2 x (2 users + 1 ghost); s, total"
    echo "# per run, median of 7): redirection off / on / user-guided / automatic"
    for g in $ghosts; do
        label=${g%%=*} d=${g#*=}
        RESULTS=$raw TAG=.$label sh "$here/multiphase.sh" "$d" 7 >/dev/null 2>&1 ||
            { echo "mpis.sh: multiphase.sh on $label failed" >&2; exit 1; }
        for f in "$raw"/bench_multiphase.*."$label".txt; do
            osc=${f#"$raw"/bench_multiphase.}
            osc=${osc%."$label".txt}
            printf '%-36s' "$label ($osc)"
            awk '$1 == "mode" { t = 1; next } /^#/ { t = 0 } t { printf " %s %s", $1, $6 }' "$f"
            echo
        done
    done
}
r=1
while [ $r -le "$rounds" ]; do
    for t in "$@"; do
        label=${t%%=*} dir=${t#*=}
        echo "round $r: $label"
        run "$label" "$dir" contig_on "$dir/benchmarks/bench_contig" ARMCI_NODE_LOCAL=on
        run "$label" "$dir" contig_off "$dir/benchmarks/bench_contig" ARMCI_NODE_LOCAL=off
        run "$label" "$dir" rmw_on "$dir/benchmarks/bench_rmw" ARMCI_NODE_LOCAL=on
        run "$label" "$dir" strided_off "$dir/benchmarks/bench_strided" ARMCI_NODE_LOCAL=off BENCH_REPS=9
    done
    r=$((r + 1))
done
# Medians over rounds: rows "name label key value".
{
    echo "# mpis.sh: $rounds rounds, 2 ranks, alternating; median over rounds of each run's median"
    echo "# $(date -u +%Y-%m-%d) on $(nproc) cores; the trees:"
    for t in "$@"; do
        d=${t#*=}
        echo "#   ${t%%=*}: $(sed -n 's/^MPI_VERSION_STR = //p' "$d/Makefile") ($d)"
    done
    echo "# ns per operation (bench_strided: us per 16 B x 1024 transfer)"
    printf '%-34s' "row"
    for t in "$@"; do printf ' %16s' "${t%%=*}"; done
    echo
    for row in "contig_on put 8" "contig_on get 8" "contig_on acc 8" "contig_on put 65536" \
               "contig_off put 8" "contig_off get 8" "contig_off acc 8" "contig_off mpi_put 8" \
               "contig_off mpi_acc 8" "contig_off put 65536" "contig_off mpi_put 65536" \
               "rmw_on fadd_hot 4" "rmw_on mpi_fop_hot 8" "rmw_on fadd_own 4" \
               "strided_off DIRECT/split:acc 16" "strided_off DIRECT/dtype:acc 16" \
               "strided_off DIRECT:put 16" "strided_off MPI:acc 16" "strided_off MPI:put 16"; do
        set -- $row
        name=$1 op=$2 bytes=$3
        printf '%-34s' "$name $op $bytes"
        for t in $targets; do
            label=${t%%=*}
            vals=$(for f in "$raw"/$name.$label.*.txt; do
                case $op in
                *:*) awk -v m="${op%%:*}" -v o="${op#*:}" -v s="$bytes" \
                         '$1 == m && $2 == o && $3 == s && $4 == 1024 { print $6 }' "$f" ;;
                *) awk -v o="$op" -v s="$bytes" '$1 == o && $2 == s { print $5 }' "$f" ;;
                esac
            done | sort -n)
            n=$(echo "$vals" | grep -c .)
            if [ "$n" -eq 0 ]; then printf ' %16s' "-"
            else printf ' %16s' "$(echo "$vals" | sed -n "$(((n + 1) / 2))p")"; fi
        done
        echo
    done
} > "$out.tmp" && mv "$out.tmp" "$out"
[ -z "$ghosts" ] || ghost_section >> "$out"
cat "$out"
