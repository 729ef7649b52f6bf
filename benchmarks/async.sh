#!/bin/sh
# bench_async with ghosts, every transport: Open MPI's stock components,
# osc ucx and osc pt2pt (ghost build OMPI_BUILD) and MPICH (ghost build
# MPICH_BUILD, optional), each with redirection on and off
# (ARMCI_GHOST_ASYNC), 2 virtual nodes x (1 user + 1 ghost).  Writes
# RESULTS/bench_async.ghosts.txt (bench_async.ghosts.unpinned.txt
# when unpinned).
#
# With fewer cores than the 4 processes, PIN (default "0 0 1 0") pins
# them through benchmarks/pin.sh: the computing target user (world rank
# 2) alone on core 1, the origin and both ghosts on core 0, so that the
# target's ghost shares no core with the computation it has to overlap
# (what a node with a core per process gives).  PIN=none runs unpinned.
#
# usage: async.sh OMPI_BUILD [MPICH_BUILD] [REPS=7]
# env: RESULTS (benchmarks/results), T_MS (100), K (10), PIN, MPIEXEC
#      (Open MPI's launcher, mpiexec; a bundle's, see mpi-bundle.sh)
set -e
ompi=${1:?usage: async.sh OMPI_BUILD [MPICH_BUILD] [REPS]}
mpich=${2:-}
reps=${3:-7}
here=$(cd "$(dirname "$0")" && pwd)
results=${RESULTS:-$here/results}
pin=${PIN:-"0 0 1 0"}
[ "$(nproc)" -ge 4 ] && [ -z "${PIN:-}" ] && pin=none
[ "$pin" = none ] && pin=
out=$results/bench_async.ghosts.txt
[ -z "$pin" ] && out=$results/bench_async.ghosts.unpinned.txt
mkdir -p "$results"
args="${T_MS:-100} $reps ${K:-10}"
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# ARMCI_VIRTUAL_NODE_SIZE=1, 4 processes = 2 x (1 user + 1 ghost); bench_async $args"
    echo "# pinning (benchmarks/pin.sh PIN_MAP, core per world rank): ${pin:-none}"
} > "$out"
run() { # label, build, launcher...
    label=$1 build=$2
    shift 2
    for mode in on off; do
        echo "## $label, ARMCI_GHOST_ASYNC=$mode" >> "$out"
        log=$out.log.tmp
        PIN_MAP="$pin" ARMCI_GHOST_ASYNC=$mode ARMCI_VIRTUAL_NODE_SIZE=1 \
            timeout 300 "$@" "$here/pin.sh" "$build/benchmarks/bench_async" $args \
            > "$log" 2>&1 || { cat "$log"; rm -f "$log"; echo "async.sh: $label failed" >&2; exit 1; }
        grep -E '^# bench_async|median' "$log" >> "$out"
        rm -f "$log"
    done
}
ompirun="${MPIEXEC:-mpiexec} --allow-run-as-root --oversubscribe --bind-to none -n 4"
run "Open MPI, stock components" "$ompi" $ompirun
run "Open MPI, osc ucx" "$ompi" $ompirun --mca osc ucx
run "Open MPI, osc pt2pt" "$ompi" $ompirun --mca osc pt2pt
[ -n "$mpich" ] && run "MPICH" "$mpich" mpiexec.mpich -n 4
cat "$out"
