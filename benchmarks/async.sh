#!/bin/sh
# bench_async with ghosts on every transport each given ghost build has,
# each with redirection on and off (ARMCI_GHOST_ASYNC), 2 virtual nodes x
# (1 user + 1 ghost), side by side in one file.  A build on Open MPI runs
# its stock components and each of osc ucx and osc pt2pt that its Open MPI
# has and that creates windows here (tests/ompi_only.sh: 5.0 has no
# pt2pt, and its osc/ucx over a UCX without RMA transports refuses every
# window); any other MPI runs once.  Each build runs with the launcher its
# configure chose (its Makefile's TEST_RUNNER), so Open MPI 5 and MPICH 4.3
# built from source go beside Debian's.  Writes
# RESULTS/bench_async.ghosts.txt (bench_async.ghosts.unpinned.txt when
# unpinned), or OUT.
#
# With fewer cores than the 4 processes, PIN (default "0 0 1 0") pins
# them through benchmarks/pin.sh: the computing target user (world rank
# 2) alone on core 1, the origin and both ghosts on core 0, so that the
# target's ghost shares no core with the computation it has to overlap
# (what a node with a core per process gives).  PIN=none runs unpinned.
#
# usage: async.sh [LABEL=]GHOST_BUILD ... [REPS]
#   LABEL defaults to the build's MPI ("Open MPI 4.1.4"); REPS (a bare
#   number, default 7) is bench_async's repetitions.
# env: RESULTS (benchmarks/results), OUT, T_MS (100), K (10), PIN, MPIEXEC
#      (Open MPI launcher replacing the builds' own, for a bundle's:
#      see mpi-bundle.sh)
set -e
[ $# -ge 1 ] || { echo "usage: async.sh [LABEL=]GHOST_BUILD ... [REPS]" >&2; exit 2; }
reps=7
builds=""
for a in "$@"; do
    case $a in
    *[!0-9]*|"") builds="$builds $a" ;;
    *) reps=$a ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
results=${RESULTS:-$here/results}
pin=${PIN:-"0 0 1 0"}
[ "$(nproc)" -ge 4 ] && [ -z "${PIN:-}" ] && pin=none
[ "$pin" = none ] && pin=
out=$results/bench_async.ghosts.txt
[ -z "$pin" ] && out=$results/bench_async.ghosts.unpinned.txt
out=${OUT:-$out}
mkdir -p "$(dirname "$out")"
args="${T_MS:-100} $reps ${K:-10}"
# A bundle (mpi-bundle.sh) has no Makefile: Open MPI, MPIEXEC's launcher,
# every component tried.
mkvar() { [ ! -f "$1/Makefile" ] || sed -n "s/^$2 = //p" "$1/Makefile"; }
for b in $builds; do
    d=${b#*=}
    [ -x "$d/benchmarks/bench_async" ] ||
        { echo "async.sh: $d/benchmarks/bench_async missing (make -C $d bench_async)" >&2; exit 1; }
    [ ! -f "$d/Makefile" ] || [ "$(mkvar "$d" ARMCI_GHOST_PROGRESS)" = 1 ] ||
        { echo "async.sh: $d is not a ghost build (--enable-ghost-progress)" >&2; exit 1; }
done
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# ARMCI_VIRTUAL_NODE_SIZE=1, 4 processes = 2 x (1 user + 1 ghost); bench_async $args"
    echo "# pinning (benchmarks/pin.sh PIN_MAP, core per world rank): ${pin:-none}"
} > "$out"
run() { # label, build, launcher...
    run_label=$1 run_build=$2
    shift 2
    for mode in on off; do
        echo "## $run_label, ARMCI_GHOST_ASYNC=$mode" >> "$out"
        log=$out.log.tmp
        PIN_MAP="$pin" ARMCI_GHOST_ASYNC=$mode ARMCI_VIRTUAL_NODE_SIZE=1 \
            timeout 300 "$@" "$here/pin.sh" "$run_build/benchmarks/bench_async" $args \
            > "$log" 2>&1 || { cat "$log"; rm -f "$log"; echo "async.sh: $run_label failed" >&2; exit 1; }
        grep -E '^# bench_async|median' "$log" >> "$out"
        rm -f "$log"
    done
}
for b in $builds; do
    d=$(cd "${b#*=}" && pwd)
    mpi=$(mkvar "$d" MPI_VERSION_STR)
    mpi=${mpi:-Open MPI}
    case $b in *=*) label=${b%%=*} ;; *) label=$mpi ;; esac
    runner=$(mkvar "$d" TEST_RUNNER)
    if [ "$(mkvar "$d" MPI_FLAVOR)" = mpich ]; then
        run "$label" "$d" $runner 4
        continue
    fi
    [ -n "${MPIEXEC:-}" ] && runner="$MPIEXEC --allow-run-as-root --oversubscribe -n"
    if [ -f "$d/Makefile" ]; then
        # What the build's tests know of its Open MPI's components.
        MPI_BINDIR=$(mkvar "$d" MPI_BINDIR)
        [ -n "${MPIEXEC:-}" ] && MPI_BINDIR=$(dirname "$MPIEXEC")
        TESTS_BUILDDIR=$d/tests TEST_RUNNER=$runner
        export MPI_BINDIR TESTS_BUILDDIR TEST_RUNNER
        . "$here/../tests/ompi_only.sh"
        oscs=" $(ompi_osc_list) "
    else
        oscs=" ucx pt2pt "
        ompi_osc_usable() { true; }
    fi
    stock=""
    # As the test modes do: a listed osc/ucx that creates no window prints
    # an error at every window creation; it could not have been chosen.
    case $oscs in *" ucx "*) ompi_osc_usable ucx || stock="--mca osc ^ucx" ;; esac
    run "$label, stock components" "$d" $runner 4 --bind-to none $stock
    for osc in ucx pt2pt; do
        case $oscs in *" $osc "*) ;; *) echo "# $label: no osc $osc" >> "$out"; continue ;; esac
        if ! ompi_osc_usable "$osc"; then
            echo "# $label: osc $osc creates no window here: $(cat "$TESTS_BUILDDIR/osc-usable.$osc")" >> "$out"
            continue
        fi
        run "$label, osc $osc" "$d" $runner 4 --bind-to none --mca osc "$osc"
    done
done
cat "$out"
