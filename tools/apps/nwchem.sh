#!/bin/bash
# Builds NWChem from a source tree the way NWChem users pick an ARMCI
# (ARMCI_NETWORK=ARMCI EXTERNAL_ARMCI_PATH=PREFIX; or GA's own MPI-PR /
# MPI-TS runtimes for comparison), with Global Arrays taken from a given GA
# source tree (NWChem would download it), Debian's BLAS/LAPACK, and runs
# NWChem's QA tests with NWChem's own comparison (QA/runtests.mpi.unix and
# nwparse.pl).  Nothing is downloaded.
#
# usage: tools/apps/nwchem.sh [options] NWCHEM_SRC GA_SRC [ARMCI_PREFIX]
#   NWCHEM_SRC  an NWChem source tree (release v7.3.x; needs src/ and QA/)
#   GA_SRC      a Global Arrays source tree (5.9.2, as NWChem 7.3 uses);
#               regenerated with `autoreconf -fi` in a copy if it has no
#               configure
#   -r RUNTIME  armci (default; ARMCI_PREFIX required), mpi-pr, mpi-ts
#   -m MPI      ompi (default), mpich, or an MPI prefix (see mpi-env.sh)
#   -M MODES    modes the QA runs in: on off vn2 (plain library), ghost-on
#               ghost-auto (ARMCI_GHOST_PREFIX's library, 2 virtual nodes of
#               NPROCS/2 users + 1 ghost), vnK (virtual nodes of K), native
#               and native-vnK (GA runtimes; native-vnK: every K computing
#               ranks a node, MPI-PR with a progress rank each, through
#               tools/apps/procname_shim.c); default "on vn2" for armci,
#               "native" otherwise
#   -n NPROCS   computing processes (default 4; mpi-pr adds its progress rank)
#   -T TESTS    QA tests (default: QA/doafewqmtests.mpi's list, tce_h2o and
#               tce_ccsd_t_h2o)
#   -B          build only
#   -L          (mpi-pr, mpi-ts) relink: take NWChem's compiled modules
#               from the armci build of the same tree and MPI, build only GA
#               for this runtime (NWChem's own ARMCI_NETWORK switch in
#               src/tools) and relink nwchem: minutes instead of an hour
#   -j JOBS     parallel make jobs (default: nproc)
# Environment: NWCHEM_WORK (builds, logs; default $HOME/.cache/libarmci-apps),
# NWCHEM_MODULES (default "nwdft driver property solvation tce python": with
# their dependencies they cover the default tests; python, for pyqa3, needs
# python3-dev; a tree built with another set is reconfigured and rebuilt
# incrementally), ARMCI_GHOST_PREFIX (install of the --enable-ghost-progress
# build, for the ghost modes: the same NWChem binary runs on it through
# LD_LIBRARY_PATH, as a drop-in shared library must allow),
# ARMCI_RUN_PREFIX (another install of the plain build, whose library the
# plain modes run on instead of ARMCI_PREFIX's, the same way: two library
# versions side by side on one NWChem binary, e.g. in nwchem-compare.sh as
# armci:vn2,ARMCI_RUN_PREFIX=OLD),
# NWCHEM_TEST_TIMEOUT (seconds per test, default 1800).
# Prints one line per test and mode (pass/fail, seconds) and a summary per
# mode to stdout and to the mode's results file; exits non-zero if a test
# failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '9,46p' "$0"; exit 2; }
. "$here/modes.sh"
app_options 9,46 "$@"
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
nw_src=$(cd "$1" && pwd)
ga_src=$(cd "$2" && pwd)
armci_prefix=${3:-}
[ -d "$nw_src/src/tools" ] && [ -x "$nw_src/QA/runtests.mpi.unix" ] ||
    { echo "nwchem.sh: $nw_src is not an NWChem source tree" >&2; exit 2; }
case $runtime in
armci)
    [ -n "$armci_prefix" ] && [ -f "$armci_prefix/include/armci.h" ] ||
        { echo "nwchem.sh: runtime armci needs ARMCI_PREFIX with include/armci.h" >&2; exit 2; }
    armci_prefix=$(cd "$armci_prefix" && pwd)
    network="ARMCI_NETWORK=ARMCI EXTERNAL_ARMCI_PATH=$armci_prefix" ;;
mpi-pr) network=ARMCI_NETWORK=MPI-PR ;;
mpi-ts) network=ARMCI_NETWORK=MPI-TS ;;
*) echo "nwchem.sh: unknown runtime $runtime" >&2; exit 2 ;;
esac

. "$here/mpi-env.sh"
. "$here/ga-src.sh"
mpi_env "$mpi"

work=${NWCHEM_WORK:-$HOME/.cache/libarmci-apps}
nw_ver=$(basename "$nw_src")
ga_ver=$(cd "$ga_src" && sh ./version.sh | tr -d "[:space:]")
tag=$nw_ver-$runtime-$mpi_tag
top=$work/build-$tag
modules=${NWCHEM_MODULES:-nwdft driver property solvation tce python}
case " $modules " in
*" python "*) command -v python3-config >/dev/null ||
    { echo "nwchem.sh: NWChem's python module needs python3-config (apt-get install python3-dev)" >&2; exit 2; } ;;
esac

# NWChem finds MPI through the wrapper names on PATH (src/tools/guess-mpidefs
# asks `mpif90 -show`); Debian has two MPIs, so name the chosen one's.
wrap=$top/mpi-bin
# The integer size of the BLAS/LAPACK a tree is built with: the one it
# recorded when copied (trees from before the record, and relinked copies
# of them, were converted for 4-byte integers), else 8 where Debian's
# 8-byte libraries are installed.
has_lib() { [ "$(gcc -print-file-name="$1")" != "$1" ]; }
tree_blas_size() {
    if [ -f "$top/.blas_size" ]; then
        cat "$top/.blas_size"
    elif [ -f "$top/.copied" ]; then
        echo 4
    elif has_lib libblas64.so && has_lib liblapack64.so; then
        echo 8
    else
        echo 4
    fi
}
nw_env() {
    blas_size=$(tree_blas_size)
    mkdir -p "$wrap"
    ln -sf "$(command -v "$MPIFC")" "$wrap/mpif90"
    ln -sf "$(command -v "$MPICC")" "$wrap/mpicc"
    ln -sf "$(command -v "$MPICXX")" "$wrap/mpicxx"
    export PATH="$wrap:$PATH"
    export NWCHEM_TOP=$top NWCHEM_TARGET=LINUX64 NWCHEM_MODULES="$modules"
    export USE_MPI=y USE_MPIF=y USE_MPIF4=y FC=gfortran CC=gcc
    # Debian's reference BLAS/LAPACK: with 8-byte integers (libblas64-dev,
    # liblapack64-dev) where installed, since the 4-byte ones need NWChem's
    # 64_to_32 rewrite of about 9400 sources first, which took hours on a
    # 2-core host; the same reference code either way
    if [ "$blas_size" = 8 ]; then
        export BLASOPT="-llapack64 -lblas64" LAPACK_LIB="-llapack64" BLAS_SIZE=8
        unset USE_64TO32
    else
        export BLASOPT="-llapack -lblas" LAPACK_LIB="-llapack" BLAS_SIZE=4 USE_64TO32=y
    fi
    # no ScaLAPACK: NWChem insists on being told to use its serial solvers
    export USE_SERIALEIGENSOLVERS=y
    export GA_RELEASE_NO=$ga_ver
    # shellcheck disable=SC2163,SC2086 # "NAME=value" words on purpose
    export $network
}

exe=$top/bin/LINUX64/nwchem

# A tree built with another module set (a missing record means the set
# before python joined the default) is reconfigured: NWChem's make then
# builds the added modules, recompiles the stubs and relinks, in minutes.
if [ -f "$top/.built" ] && [ "$(cat "$top/.modules" 2>/dev/null)" != "$modules" ]; then
    echo "nwchem.sh: $top was built with modules '$(cat "$top/.modules" 2>/dev/null || echo "nwdft driver property solvation tce")'; rebuilding with '$modules'"
    rm -f "$top/.built" "$top/src/config/nwchem_config.h"
fi

# relink_from DONOR: a copy of a built NWChem tree without its GA build,
# install and binary (so that GA is configured afresh for this runtime)
relink_from() {
    [ "$runtime" != armci ] && [ -f "$1/.built" ] ||
        { echo "nwchem.sh: -L needs runtime mpi-pr or mpi-ts and a built $1" >&2; exit 2; }
    echo "nwchem.sh: relinking: NWChem's modules from $1"
    rm -rf "$top"
    cp -a "$1" "$top"
    rm -rf "$top/src/tools/build" "$top/src/tools/install" "$top/bin" "$top/.built" \
        "$top/build-seconds" "$top/make.out" "$top"/src/tools/*.DIR.stamp "$top/mpi-bin"
    mkdir -p "$top/bin/LINUX64"
    touch "$top/.relink"
}
if [ ! -x "$exe" ] || [ ! -f "$top/.built" ]; then
    t0=$(date +%s)
    if [ "$relink" = 1 ] && [ ! -f "$top/.copied" ]; then
        relink_from "$work/build-$nw_ver-armci-$mpi_tag"
    fi
    mkdir -p "$top"
    if [ ! -f "$top/.copied" ]; then
        echo "nwchem.sh: copying $nw_src (src, QA) to $top"
        (cd "$nw_src" && tar -cf - --exclude=QA/chem_library_tests src QA) |
            (cd "$top" && tar -xf -)
        # NWChem builds GA from src/tools/ga-VERSION when it is there
        ga_copy "$ga_src" "$top/src/tools/ga-$ga_ver"
        # src/tools/GNUmakefile downloads GA again unless Makefile.in,
        # configure, armci/Makefile.in and armci/configure are each newer
        # than the one before (autoreconf writes them in its own order)
        t=$(date +%s) k=4
        for f in Makefile.in configure armci/Makefile.in armci/configure; do
            touch -d "@$((t - k))" "$top/src/tools/ga-$ga_ver/$f"
            k=$((k - 1))
        done
        # through a temporary: redirecting into .blas_size itself would make
        # the file (empty) before tree_blas_size looks for it
        tree_blas_size >"$top/.blas_size.tmp"
        mv "$top/.blas_size.tmp" "$top/.blas_size"
        touch "$top/.copied"
    fi
    nw_env
    cd "$top/src"
    echo "nwchem.sh: building NWChem $nw_ver ($runtime, $mpi_tag, GA $ga_ver, modules: $modules); log $top/make.out"
    { [ -f config/nwchem_config.h ] || make nwchem_config; } >"$top/config.out" 2>&1 ||
        { tail -20 "$top/config.out"; exit 1; }
    { [ "$blas_size" = 8 ] || [ -f 64_to_32 ] || make 64_to_32; } >>"$top/config.out" 2>&1 ||
        { tail -20 "$top/config.out"; exit 1; }
    # a build spans sessions when it has to: each attempt's seconds are kept
    ok=1
    if [ -f "$top/.relink" ]; then
        # NWChem's modules do not depend on ARMCI_NETWORK (config/makefile.h
        # reads it for the link libraries only), so GA and the link are all
        # that differ between runtimes
        { make -C tools -j"$jobs" && make link; } >"$top/make.out" 2>&1 &&
            [ -x "$exe" ] || ok=0
    else
        make -j"$jobs" >"$top/make.out" 2>&1 && [ -x "$exe" ] || ok=0
    fi
    echo $(($(date +%s) - t0)) >>"$top/build-seconds"
    if [ $ok = 0 ]; then
        grep -nE 'Error|error:' "$top/make.out" | head -20
        echo "nwchem.sh: build failed; see $top/make.out" >&2
        exit 1
    fi
    echo "$modules" >"$top/.modules"
    touch "$top/.built"
fi
echo "nwchem.sh: NWChem built in $(awk '{s += $1} END {print s}' "$top/build-seconds") s (attempts: $(tr '\n' ' ' <"$top/build-seconds")): $exe"
[ "$runtime" != armci ] || ga_check_optional "$top/src/tools/build/config.h" || exit 1
[ "$check" = 1 ] || exit 0
. "$here/nwchem-qa.sh"
