#!/bin/sh
# Do ghosts cost anything when nothing is redirected to them?  bench_multiphase
# with redirection off (MP_MODES=off), 4 users on 2 virtual nodes, three ways:
#   plain       the default build, 4 processes
#   ghost-off   the ghost build, 2 x (2 users + 1 ghost), redirection switched
#               off at run time (ARMCI_GHOST_ASYNC=ON at start, so regions
#               live in the ghosts' pools: MPI_Win_create windows)
#   ghost-env   the ghost build, same layout, ARMCI_GHOST_ASYNC=OFF from the
#               start (regions are the plain build's windows; ghosts idle)
# per transport: Open MPI's osc pt2pt and osc ucx, and MPICH when MPICH
# builds are given.  The three run alternately, ROUNDS times; each job's
# total is bench_multiphase's median of REPS repetitions; the table gives
# the median over rounds and the ratios to plain.
#
# usage: idle_ghosts.sh PLAIN_BUILD GHOST_BUILD [MPICH_PLAIN MPICH_GHOST]
# env: ROUNDS (3), REPS (3), OSCS ("pt2pt ucx"), OUT (results file,
#      benchmarks/results/bench_multiphase.idle_ghosts.txt), MP_COMM_OPS per
#      transport: OPS_pt2pt (2000), OPS_ucx (200), OPS_mpich (50).
set -e
plain=${1:?usage: idle_ghosts.sh PLAIN_BUILD GHOST_BUILD [MPICH_PLAIN MPICH_GHOST]}
ghost=${2:?usage: idle_ghosts.sh PLAIN_BUILD GHOST_BUILD [MPICH_PLAIN MPICH_GHOST]}
mplain=${3:-}
mghost=${4:-}
rounds=${ROUNDS:-3}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/results/bench_multiphase.idle_ghosts.txt}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idle_ghosts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# run TRANSPORT SETUP: one job; appends its total to $tmp/TRANSPORT.SETUP
run() {
    t=$1 s=$2
    case $t in
    mpich) launch="mpiexec.mpich -n" b=$mplain gb=$mghost ops=${OPS_mpich:-50} ;;
    *) launch="mpiexec --oversubscribe --mca osc $t -n" b=$plain gb=$ghost
       eval "ops=\${OPS_$t:-}"; [ -n "$ops" ] || { [ "$t" = ucx ] && ops=200 || ops=2000; } ;;
    esac
    case $s in
    plain) n=4 dir=$b env= ;;
    ghost-off) n=6 dir=$gb env=ARMCI_GHOST_ASYNC=ON ;;
    ghost-env) n=6 dir=$gb env=ARMCI_GHOST_ASYNC=OFF ;;
    esac
    echo "$t ops=$ops" > "$tmp/$t.ops"
    env $env MP_MODES=off MP_COMM_OPS=$ops ARMCI_VIRTUAL_NODE_SIZE=2 \
        timeout -k 5 600 $launch $n "$dir/benchmarks/bench_multiphase" "$reps" > "$tmp/log" 2>&1 ||
        { echo "idle_ghosts.sh: $t $s failed:" >&2; tail -20 "$tmp/log" >&2; exit 1; }
    awk '$1 == "off" && $NF ~ /^[0-9]+\.[0-9]+$/ { print $(NF - 2) }' "$tmp/log" >> "$tmp/$t.$s"
}

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

transports=${OSCS:-"pt2pt ucx"}
[ -n "$mplain" ] && [ -n "$mghost" ] && transports="$transports mpich"
for r in $(seq "$rounds"); do
    for t in $transports; do
        # rotate the order so that no setup always runs first
        case $((r % 3)) in
        1) order="plain ghost-off ghost-env" ;;
        2) order="ghost-off ghost-env plain" ;;
        *) order="ghost-env plain ghost-off" ;;
        esac
        for s in $order; do run "$t" "$s"; done
    done
done
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# benchmarks/idle_ghosts.sh: bench_multiphase MP_MODES=off, 4 users on 2 virtual nodes;"
    echo "# total s (comp, comm, comp, comm phases), median of $rounds alternating rounds of one job each"
    echo "# (each job: median of $reps repetitions); ratio = setup / plain"
    printf "%-8s %-10s %9s %9s %9s   %s\n" transport setup total min max "ratio to plain"
    for t in $transports; do
        p=$(median "$tmp/$t.plain")
        for s in plain ghost-off ghost-env; do
            m=$(median "$tmp/$t.$s")
            lo=$(sort -n "$tmp/$t.$s" | head -1) hi=$(sort -n "$tmp/$t.$s" | tail -1)
            printf "%-8s %-10s %9.3f %9.3f %9.3f   %.2f\n" "$t" "$s" "$m" "$lo" "$hi" \
                "$(echo "$m $p" | awk '{ print $1 / $2 }')"
        done
    done
    for t in $transports; do echo "# $(cat "$tmp/$t.ops") (MP_COMM_OPS)"; done
} | tee "$out"
