#!/bin/sh
# Validates the profiler's advisor (ARMCI_PROFILE=1, src/progress/
# progress_profile.c): the prediction of the run time with 1 ghost per node
# made from a run without ghosts, against the measured run with 1 ghost per
# node, for bench_multiphase workloads (ghost build, virtual nodes).
#
# Both runs have NP processes, N per (virtual) node: without ghosts N users
# per node; with 1 ghost, N-1 users and the ghost.  The work per node is
# fixed (strong scaling): TASKS tasks per node and step, split over the
# users, so each user of the 1-ghost run does N/(N-1) times the work.
# Computation is nanosleep (bench_multiphase, MP_COMPUTE=sleep), so a
# small host behaves like a node with a core per process.
#
# Three predictions from the 0-ghost profile (per-process averages):
#   issue:   T(1) = T_comp * N/(N-1) + T_comm - W       (the MPI+threads form)
#   scaled:  T(1) = (T_comp + T_comm - W) * N/(N-1)     (all work spread)
#   advisor: T(1) = max U * N/(N-1), U = T_comp + T_ops - W (what the
#            profiler prints: waiting at synchronization removed too)
# The runs alternate (0 ghosts, 1 ghost) REPS times; medians are reported.
#
# usage: advisor_validate.sh BUILD_DIR [REPS=5]
# env: NP (4), N (2), WORKLOADS ("comp bsp"), TASKS (4 per node and step),
#      STEPS (12), MCA ("--mca osc pt2pt"), RUNNER (mpiexec ...).
set -e
build=${1:?usage: advisor_validate.sh BUILD_DIR [REPS]}
reps=${2:-5}
np=${NP:-4}
n=${N:-2}
tasks=${TASKS:-4}
steps=${STEPS:-12}
mca=${MCA:---mca osc pt2pt}
runner=${RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
bench=$build/benchmarks/bench_multiphase
tmp=${TMPDIR:-/tmp}/advisor.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# one profiled run: ghosts per node, users per node, tasks per user -> file
run() {
    ARMCI_PROFILE=1 ARMCI_GHOSTS_PER_NODE=$1 ARMCI_VIRTUAL_NODE_SIZE=$2 \
    MP_PHASES=$3 MP_MODES=on MP_TASKS=$4 MP_STEPS=$steps \
        $runner "$np" $mca "$bench" 2 > "$5" 2>&1
}

# T_comm T_comp W T T(1) of a profile (per process; T(1): the advisor's)
parse() {
    awk '/per process T_comm/ { for (i = 1; i <= NF; i++) {
             if ($i == "T_comm") c = $(i + 1); if ($i == "T_comp") p = $(i + 1) } }
         /measured T = / { for (i = 1; i <= NF; i++) {
             if ($i == "T" && $(i + 1) == "=") t = $(i + 2); if ($i == "=") w = $(i + 1) } }
         /T\(1\) = / { for (i = 1; i <= NF; i++) if ($i == "=") a = $(i + 1) }
         END { print c, p, w, t, (a == "" ? "nan" : a) }' "$1"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# advisor validation: $np processes, $n per node (0 ghosts: $n users; 1 ghost: $((n - 1)) users + 1 ghost), $tasks tasks per node and step, $steps steps x 2 repetitions, $mca, $reps runs each (medians)"
printf "%-9s %8s %7s %9s %9s %9s %9s %8s %8s %8s\n" workload T0_meas W0 T1_issue T1_scaled \
    T1_advis T1_meas err_iss err_scl err_adv
for wl in ${WORKLOADS:-comp bsp}; do
    t0=$((tasks / n)); t1=$((tasks / (n - 1)))
    : > "$tmp/$wl.rows"
    r=0
    while [ $r -lt "$reps" ]; do
        run 0 "$n" "$wl" "$t0" "$tmp/p0"
        run 1 $((n - 1)) "$wl" "$t1" "$tmp/p1"
        set -- $(parse "$tmp/p0") $(parse "$tmp/p1")
        # $1 T_comm0 $2 T_comp0 $3 W0 $4 T0 $5 advisor's T(1) ... $9 T1
        echo "$1 $2 $3 $4 $5 $9" | awk -v n="$n" '{ f = n / (n - 1);
            print $4, $3, $2 * f + $1 - $3, ($2 + $1 - $3) * f, $5, $6 }' >> "$tmp/$wl.rows"
        r=$((r + 1))
    done
    sed "s/^/# $wl run: T0 W0 T1_issue T1_scaled T1_advisor T1_meas: /" "$tmp/$wl.rows"
    m() { awk -v c="$1" '{ print $c }' "$tmp/$wl.rows" | median; }
    T0=$(m 1); W0=$(m 2); I=$(m 3); S=$(m 4); A=$(m 5); M=$(m 6)
    awk -v wl="$wl" -v a="$T0" -v b="$W0" -v i="$I" -v s="$S" -v p="$A" -v m="$M" 'BEGIN {
        printf "%-9s %8.3f %7.3f %9.3f %9.3f %9.3f %9.3f %+7.1f%% %+7.1f%% %+7.1f%%\n", wl, a, b,
               i, s, p, m, 100 * (i - m) / m, 100 * (s - m) / m, 100 * (p - m) / m }'
done
