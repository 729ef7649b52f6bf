#!/bin/sh
# Builds Global Arrays from a source tree on an installed libarmci (GA's
# `--with-armci=PREFIX`, the way GA users and NWChem's ARMCI_NETWORK=ARMCI
# build it), or on one of GA's own runtimes for comparison, and runs GA's
# own `make check` in the transport modes that apply.  Nothing is
# downloaded: GA_SRC is a GA source tree (a release or a git checkout; the
# git tree has no configure, so it is regenerated with Debian's
# `autoreconf -fi` in a copy, never in GA_SRC itself).
#
# usage: tools/apps/ga.sh [options] GA_SRC [ARMCI_PREFIX]
#   -r RUNTIME  armci (default; ARMCI_PREFIX required), ghost (ARMCI_PREFIX
#               is a --enable-ghost-progress install), mpi-ts, mpi-pr (GA's
#               own runtimes, built from the same tree)
#   -m MPI      ompi (Debian Open MPI, default), mpich (Debian MPICH), or the
#               prefix of another MPI installation (PREFIX/bin/mpicc, ...)
#   -M MODES    modes to run `make check` in; default: armci "on off vn2",
#               ghost "ghost-on ghost-auto", GA runtimes "native"; vnK:
#               virtual nodes of K ranks (vn1: each rank alone); GA's
#               runtimes also native-vnK (every K computing ranks a node,
#               under MPI-PR with its progress rank: procname_shim.c)
#   -n NPROCS   computing processes per test (default 4; ghost modes run
#               2 virtual nodes of NPROCS/2 users + 1 ghost each; mpi-pr
#               adds its progress rank)
#   -T TESTS    run only these of GA's tests (paths as in GA's Makefile,
#               e.g. "global/testing/test.x"); default: all that GA runs
#   -B          build only (no `make check`)
#   -j JOBS     parallel make jobs (default: nproc)
# Environment: GA_WORK (cache of copies, builds and logs; default
# $HOME/.cache/libarmci-apps), GA_TEST_TIMEOUT (seconds per test, 300),
# GA_NAME (the runtime's part of the build's name; e.g. armci-mpi for GA on
# another ARMCI install, so it does not reuse this library's build),
# GA_CPPFLAGS (GA's preprocessor flags; default for this library's builds
# -DPTHREADS: GA's internal lock around its one-sided calls, which GA's
# configure turns on for its own runtimes only, and which GA's threaded
# programs need -- docs/ga-nwchem.md; a build is redone when they change).
# Prints one summary line per mode and exits non-zero if a test that GA
# runs failed in any mode (or passed but printed a failed check, which some
# of GA's programs do and exit 0), or if GA's configure missed an optional
# ARMCI function.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/modes.sh"
app_options 10,39 "$@"
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '10,39p' "$0"; exit 2; }
ga_src=$(cd "$1" && pwd)
armci_prefix=${2:-}
case $runtime in
armci | ghost)
    [ -n "$armci_prefix" ] && [ -f "$armci_prefix/include/armci.h" ] ||
        { echo "ga.sh: runtime $runtime needs ARMCI_PREFIX with include/armci.h" >&2; exit 2; }
    armci_prefix=$(cd "$armci_prefix" && pwd) ;;
mpi-ts | mpi-pr) ;;
*) echo "ga.sh: unknown runtime $runtime" >&2; exit 2 ;;
esac

. "$here/mpi-env.sh"
. "$here/ga-src.sh"
mpi_env "$mpi"

work=${GA_WORK:-$HOME/.cache/libarmci-apps}
ver=$(basename "$ga_src")
src=$work/src-$ver
tag=$ver-${GA_NAME:-$runtime}-$mpi_tag
build=$work/build-$tag
mkdir -p "$work"

# A private copy of the tree, regenerated once (GA_SRC stays untouched).
ga_copy "$ga_src" "$src"

case $runtime in
armci | ghost) net="--with-armci=$armci_prefix" ;;
mpi-ts) net=--with-mpi-ts ;;
mpi-pr) net=--with-mpi-pr ;;
esac
# GA's own runtimes define PTHREADS themselves (m4/armci_setup.m4)
case $runtime in
armci | ghost) ga_cppflags=${GA_CPPFLAGS--DPTHREADS} ;;
*) ga_cppflags=${GA_CPPFLAGS-} ;;
esac
t0=$(date +%s)
if [ ! -f "$build/.built" ] || [ "$(cat "$build/.cppflags" 2>/dev/null)" != "$ga_cppflags" ]; then
    rm -rf "$build" && mkdir -p "$build"
    echo "ga.sh: configuring GA $ver ($runtime, $mpi_tag) in $build"
    (cd "$build" && "$src/configure" $net --prefix="$build/install" \
        MPICC="$MPICC" MPICXX="$MPICXX" MPIF77="$MPIFC" LDFLAGS="$MPI_LDFLAGS" \
        ${ga_cppflags:+CPPFLAGS="$ga_cppflags"} \
        >configure.out 2>&1) || { tail -30 "$build/configure.out"; exit 1; }
    echo "ga.sh: building (make -j$jobs)"
    (cd "$build" && make -j"$jobs" >make.out 2>&1 && make install >install.out 2>&1) ||
        { grep -E 'error|Error' "$build/make.out" | head -20; exit 1; }
    echo "ga.sh: building GA's test programs"
    (cd "$build" && make -j"$jobs" check TESTS= >make-check.out 2>&1) ||
        { grep -E 'error|Error' "$build/make-check.out" | head -20; exit 1; }
    echo $(($(date +%s) - t0)) >"$build/.built"
    printf '%s\n' "$ga_cppflags" >"$build/.cppflags"
fi
echo "ga.sh: GA $ver ($runtime, $mpi_tag) built in $(cat "$build/.built") s: $build/install"

if [ "$runtime" = armci ] || [ "$runtime" = ghost ]; then
    ga_check_optional "$build/config.h" || exit 1
fi
[ "$check" = 1 ] || exit 0

[ -n "$modes" ] || case $runtime in
    armci) modes="on off vn2" ;; ghost) modes="ghost-on ghost-auto" ;; *) modes=native ;;
esac
status=0
for mode in $modes; do
    mode_env "$mode" "$nprocs" "$runtime" || exit 2
    np=$mode_np
    preload=
    case $mode in
    native-vn*)
        preload=$(procname_shim "$work" "$here/procname_shim.c") || exit 1 ;;
    esac
    logs=$work/logs-$tag/$mode
    rm -rf "$logs" && mkdir -p "$logs" && touch "$logs/.start"
    set -- # a TESTS override that keeps its spaces
    [ -z "$tests" ] || set -- "TESTS=$tests"
    t0=$(date +%s)
    (cd "$build" && GA_MPIEXEC="$MPIEXEC" GA_NPROCS=$np GA_RANK_PRELOAD=$preload \
        make -k check LOG_COMPILER="$here/ga-runner.sh" "$@" \
        >"$logs/make-check.out" 2>&1) || true
    secs=$(($(date +%s) - t0))
    # each test's own log, written during this mode's run (GA's tests are
    # under global/, ma/ and pario/; names repeat, so keep the paths)
    (cd "$build" && find . -name '*.log' ! -name config.log -newer "$logs/.start" |
        tar -cf - -T - | tar -xf - -C "$logs") 2>/dev/null || true
    counts=$(grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$logs/make-check.out" |
        sed 's/^# //; s/: */ /' | tr '\n' ' ')
    fails=$(grep -E '^(FAIL|ERROR|XPASS): ' "$logs/make-check.out" | sed 's/^[A-Z]*: //' | tr '\n' ' ')
    printed=$(ga_printed_failures "$logs")
    echo "ga.sh: GA $ver $runtime $mpi_tag mode $mode ($np ranks, $secs s): $counts${fails:+ failed: $fails}${printed:+ passed but printed a failed check: $printed}"
    [ -z "$printed" ] || status=1
    case $counts in
    *"TOTAL "*) echo "$counts" | grep -qE '(^| )(FAIL|ERROR|XPASS) [1-9]' && status=1 ;;
    *) echo "ga.sh: no test summary; see $logs/make-check.out" >&2; status=1 ;;
    esac
done
exit $status
