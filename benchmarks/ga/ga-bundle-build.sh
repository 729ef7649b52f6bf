#!/bin/sh
# ga-bundle-build.sh - builds benchmarks/ga's three programs once per GA
# runtime, each linked statically against that runtime's GA and ARMCI (so
# several ARMCI builds can share one bundle: their shared libraries have
# one soname), and packs them with this host's Open MPI into BUNDLE
# (benchmarks/mpi-bundle.sh), for ga-bundle-run.sh on a machine without
# compilers.
#
# usage: ga-bundle-build.sh BUNDLE NAME=GA_PREFIX[:ARMCI_LIB_A] ...
#   NAME          suffix of the programs (ga_scf.NAME, ...)
#   GA_PREFIX     a GA install from tools/apps/ga.sh (include/, lib/libga.a)
#   ARMCI_LIB_A   the libarmci.a GA was built on (this library: plain or
#                 ghost build); left out for GA's own runtimes (MPI-TS,
#                 MPI-PR), whose libarmci.a and libcomex.a are in GA_PREFIX/lib
# Environment: MPICC (mpicc), GA_BUNDLE_LIBS (-llapack -lblas -lgfortran -lm),
# GA_BUNDLE_EXTRA (more programs to pack, e.g. build-ghost's
# benchmarks/bench_multiphase: one bundle, one copy of Open MPI).
set -eu
bundle=${1:?usage: ga-bundle-build.sh BUNDLE NAME=GA_PREFIX[:ARMCI_LIB_A] ...}
shift
here=$(cd "$(dirname "$0")" && pwd)
cc=${MPICC:-mpicc}
extra=${GA_BUNDLE_LIBS:--llapack -lblas -lgfortran -lm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
progs=""
for spec in "$@"; do
    name=${spec%%=*}
    rest=${spec#*=}
    ga=${rest%%:*}
    armci=""
    [ "$rest" = "$ga" ] || armci=${rest#*:}
    if [ -n "$armci" ]; then
        libs="$ga/lib/libga.a $armci"
    else
        libs="$ga/lib/libga.a $ga/lib/libarmci.a"
        [ -f "$ga/lib/libcomex.a" ] && libs="$libs $ga/lib/libcomex.a"
    fi
    for p in ga_scf ga_patch ga_irreg; do
        # shellcheck disable=SC2086 # the library lists are word lists
        $cc -O2 -I"$ga/include" -o "$work/$p.$name" "$here/$p.c" $libs $extra -lrt -lpthread
        progs="$progs $work/$p.$name"
    done
done
# shellcheck disable=SC2086
sh "$here/../mpi-bundle.sh" "$bundle" $progs ${GA_BUNDLE_EXTRA:-}
