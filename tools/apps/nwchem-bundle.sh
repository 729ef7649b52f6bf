#!/bin/sh
# nwchem-bundle.sh - packs NWChem QA runs for a machine with no compiler,
# no MPI and no Perl (the lent 16-core machine): the NWChem binary built on
# this library (tools/apps/nwchem.sh), the one relinked on MPI-PR
# (nwchem.sh -r mpi-pr -L), this host's Open MPI (benchmarks/mpi-bundle.sh),
# the plain and the ghost build's libarmci.so (one soname: the ghost one
# goes to lib-ghost/, chosen at run time by BUNDLE_LIBPATH), the processor
# name shim for MPI-PR on virtual nodes, NWChem's basis library and the
# tests' inputs.  nwchem-bundle-run.sh runs it there; nwchem-bundle-check.sh
# checks the outputs here with NWChem's own comparison (nwparse.pl).
#
# usage: nwchem-bundle.sh BUNDLE NWCHEM_TOP ARMCI_PREFIX GHOST_PREFIX \
#            MPIPR_NWCHEM_TOP SHIM_SO TEST...
#   NWCHEM_TOP        the armci build's tree (bin/LINUX64/nwchem, QA/,
#                     src/basis/libraries/)
#   ARMCI_PREFIX      the plain library's install (lib/libarmci.so.*)
#   GHOST_PREFIX      the --enable-ghost-progress build's install
#   MPIPR_NWCHEM_TOP  the MPI-PR relink's tree
#   SHIM_SO           tools/apps/procname_shim.c built for Open MPI
# Then BUNDLE.tar.xz holds it all (binaries stripped).
set -eu
[ $# -ge 7 ] || { sed -n '12,20p' "$0"; exit 2; }
bundle=$1 top=$2 armci=$3 ghost=$4 prtop=$5 shim=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$top/bin/LINUX64/nwchem" "$work/nwchem.armci"
cp "$prtop/bin/LINUX64/nwchem" "$work/nwchem.mpi-pr"
strip "$work/nwchem.armci" "$work/nwchem.mpi-pr"
MPI_BUNDLE_LIBPATH=$armci/lib sh "$here/../../benchmarks/mpi-bundle.sh" "$bundle" \
    "$work/nwchem.armci" "$work/nwchem.mpi-pr"
# the plain build's libarmci went to lib/ with the other libraries
[ -f "$bundle/lib/libarmci.so.1" ] || { echo "nwchem-bundle.sh: no libarmci.so.1 in $bundle/lib" >&2; exit 1; }
mkdir -p "$bundle/lib-ghost" "$bundle/lib-shim" "$bundle/qa"
cp -L "$ghost/lib/libarmci.so.1" "$bundle/lib-ghost/"
cp -L "$shim" "$bundle/lib-shim/procname_shim.so"
cp -a "$top/src/basis/libraries" "$bundle/basis"
for t in "$@"; do
    d=$top/QA/tests/$t
    [ -f "$d/$t.nw" ] || { echo "nwchem-bundle.sh: no test $d/$t.nw" >&2; exit 1; }
    mkdir -p "$bundle/qa/$t"
    # the inputs runtests.mpi.unix copies to its scratch directory; the
    # reference outputs stay here
    find "$d" -maxdepth 1 -type f ! -name '*.out' ! -name '*.out-*' -exec cp {} "$bundle/qa/$t/" \;
done
cp "$here/nwchem-bundle-run.sh" "$bundle/"
(cd "$(dirname "$bundle")" && tar -cf - "$(basename "$bundle")" | xz -T2 -9 > "$(basename "$bundle").tar.xz")
du -sh "$bundle" "$bundle.tar.xz"
