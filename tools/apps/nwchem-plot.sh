#!/bin/sh
# Draws a table of tools/apps/nwchem-compare.sh (or the table part of a
# results file) as clustered bars: seconds per test and configuration, on a
# log scale, so runtimes a few times apart stay readable side by side.
# usage: tools/apps/nwchem-plot.sh TABLE PNG [TITLE]
#   TABLE  a file holding nwchem-compare's table (header "test CONFIG...")
# Needs gnuplot (pngcairo).
set -eu
[ $# -ge 2 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
table=$1 png=$2 title=${3:-NWChem QA tests, median seconds}
command -v gnuplot >/dev/null 2>&1 || { echo "nwchem-plot: gnuplot not found" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the configs are the header's words up to the first ratio column (rN)
awk '/^test / { nc = 0; for (i = 2; i <= NF && $i !~ /^r[0-9]+$/; i++) nc++
                 printf "test"; for (i = 2; i <= nc + 1; i++) printf " %s", $i; printf "\n"; go = 1; next }
     go && /^sum \(/ { exit }
     go && NF > 1 && $1 !~ /^#/ { printf "%s", $1
                 for (i = 2; i <= nc + 1; i++) printf " %s", ($i == "-" ? "?" : $i); printf "\n" }' \
    "$table" >"$work/data"
nc=$(head -1 "$work/data" | awk '{ print NF - 1 }')
nt=$(($(wc -l <"$work/data") - 1))
[ "$nc" -ge 1 ] && [ "$nt" -ge 1 ] || { echo "nwchem-plot: no table in $table" >&2; exit 1; }
cat >"$work/plot.gp" <<GP
set terminal pngcairo size 1600,800 noenhanced
set output '$png'
set title '$title'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel 'seconds (log scale)'
set xtics rotate by -35 scale 0
set key outside right top
set grid ytics
set datafile missing '?'
# gnuplot's default palette repeats after 8: one distinct colour per config
array col[12] = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666', '#1f78b4', '#b2df8a', '#fb9a99', '#cab2d6']
plot for [c=2:$((nc + 1))] '$work/data' using c:xtic(1) title columnheader(c) lc rgb col[(c - 2) % 12 + 1]
GP
gnuplot "$work/plot.gp"
echo "nwchem-plot: $png ($nt tests, $nc configurations)"
