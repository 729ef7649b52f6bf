#!/bin/sh
# GA-level benchmarks across virtual nodes, every runtime side by side
# (issue 56 item 1): 4 computing processes as 2 nodes of 2 (vn2) and as 4
# nodes of 1 (vn1) for this library (plain build, and the ghost build with
# a ghost per node, redirection on), GA's MPI-PR (a progress rank per
# virtual node) and MPI-TS (both through tools/apps/procname_shim.c), and
# this library on one node as the reference; 3 rounds in rotated order,
# medians (benchmarks/ga/ga-compare.sh, which also draws the plots).
# The installs are tools/apps/ga.sh's: GA_WORK/build-<ga>-<runtime>-<mpi>/install.
# usage: benchmarks/ga/ga-vnodes.sh MPI GA_VERSION ARMCI_PREFIX GHOST_PREFIX [OUT]
#   MPI          ompi or mpich (as tools/apps/mpi-env.sh)
#   GA_VERSION   the GA tree's directory name, e.g. ga-5.9.2
#   ARMCI_PREFIX, GHOST_PREFIX  installs of this library, plain and
#                --enable-ghost-progress, built for that MPI
#   OUT          results (default benchmarks/results/ga_vnodes.MPI.2core.txt)
# Environment: GA_WORK (default ~/.cache/libarmci-apps), ROUNDS (3),
# GA_VNODES_PROGS (ga-compare -p options; default: each program's defaults).
set -eu
[ $# -ge 4 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mpi=$1 ga=$2 armci=$3 ghost=$4
out=${5:-$here/../results/ga_vnodes.$mpi.2core.txt}
W=${GA_WORK:-$HOME/.cache/libarmci-apps}
inst() { echo "$W/build-$ga-$1-$mpi/install"; }
for r in armci mpi-pr mpi-ts; do
    [ -f "$(inst $r)/lib/libga.a" ] || { echo "ga-vnodes: no $(inst $r) (tools/apps/ga.sh -B -m $mpi -r $r)" >&2; exit 2; }
done
# shellcheck disable=SC2086 # GA_VNODES_PROGS is a word list of -p options
exec "$here/ga-compare.sh" -m "$mpi" -n 4 -r "${ROUNDS:-3}" -b vn2 -o "$out" \
    -R on="$(inst armci)" -A on="$armci" \
    -R vn2="$(inst armci)" -A vn2="$armci" -V vn2=2 \
    -R vn1="$(inst armci)" -A vn1="$armci" -V vn1=4 \
    -R ghost-vn2="$(inst armci)" -A ghost-vn2="$ghost" -V ghost-vn2=2 -x ghost-vn2=1 \
        -E ghost-vn2=ARMCI_GHOST_ASYNC=on \
    -R ghost-vn1="$(inst armci)" -A ghost-vn1="$ghost" -V ghost-vn1=4 -x ghost-vn1=1 \
        -E ghost-vn1=ARMCI_GHOST_ASYNC=on \
    -R mpi-pr-vn2="$(inst mpi-pr)" -V mpi-pr-vn2=2 -x mpi-pr-vn2=1 \
    -R mpi-pr-vn1="$(inst mpi-pr)" -V mpi-pr-vn1=4 -x mpi-pr-vn1=1 \
    -R mpi-ts-vn2="$(inst mpi-ts)" -V mpi-ts-vn2=2 \
    -R mpi-ts-vn1="$(inst mpi-ts)" -V mpi-ts-vn1=4 \
    ${GA_VNODES_PROGS:-}
