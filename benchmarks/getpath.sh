#!/bin/sh
# ARMCI_GHOST_PUTGET=ON, OFF and AUTO side by side on bench_multiphase's
# comp and read phases (ghost build, 2 virtual nodes of 2 users + 1 ghost):
# in comp targets compute while others get from them (ghosts answer
# sooner), in read every target is inside the library issuing gets of its
# own (targets answer sooner).  Rounds rotate the order of the settings;
# prints each run's per-phase medians (bench_multiphase's own, over REPS
# repetitions) and, per setting, the median over rounds of each column.
#
# usage: benchmarks/getpath.sh BUILD_DIR [ROUNDS=3] [REPS=3]
# env: ASYNC (ARMCI_GHOST_ASYNC for the runs, default ON; AUTO runs the
#      automatic redirection as MPICH's default does on a crowded host),
#      RUNNER (default: the build's launcher), NP (6), MP_* (bench_multiphase's;
#      defaults here: MP_PHASES=comp,read,comp,read MP_COMPUTE=spin)
set -eu
build=${1:?usage: getpath.sh BUILD_DIR [ROUNDS] [REPS]}
rounds=${2:-3}
reps=${3:-3}
own=$(sed -n 's/^TEST_RUNNER = //p' "$build/Makefile" 2>/dev/null) || true
runner=${RUNNER:-${own:-mpiexec --allow-run-as-root --oversubscribe -n}}
async=${ASYNC:-ON}
mode=on
[ "$async" = AUTO ] && mode=auto
bench=$build/benchmarks/bench_multiphase
[ -x "$bench" ] || make -C "$build" benchmarks/bench_multiphase >/dev/null
export MP_PHASES="${MP_PHASES:-comp,read,comp,read}" MP_COMPUTE="${MP_COMPUTE:-spin}"
export MP_MODES=$mode ARMCI_GHOST_ASYNC=$async ARMCI_VIRTUAL_NODE_SIZE=2
settings="ON OFF AUTO"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "# getpath.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $runner ${NP:-6}, ARMCI_GHOST_ASYNC=$async,"
echo "# MP_PHASES=$MP_PHASES MP_COMPUTE=$MP_COMPUTE, $rounds rounds x $reps repetitions"
echo "# setting round phase-medians... total (s)"
for r in $(seq 1 "$rounds"); do
    # round r starts at setting r (mod 3)
    order=$(echo $settings | tr ' ' '\n' | awk -v r="$r" '{ a[NR] = $0 } END {
        for (i = 0; i < NR; i++) print a[(r - 1 + i) % NR + 1] }')
    for s in $order; do
        line=$(ARMCI_GHOST_PUTGET=$s $runner "${NP:-6}" "$bench" "$reps" 2>&1 |
               awk -v m="$mode" '$1 == m && $2 ~ /^[0-9.]+$/ { $1 = ""; print; exit }')
        [ -n "$line" ] || { echo "getpath.sh: $s round $r: no result" >&2; exit 1; }
        echo "$s $r$line" | tee -a "$out"
    done
done
echo "# median over rounds, per setting (columns as above; last three: total, min, max)"
for s in $settings; do
    awk -v s="$s" '$1 == s { n++; for (i = 3; i <= NF; i++) v[i, n] = $i; nf = NF }
    END {
        printf "%-5s", s
        for (i = 3; i <= nf; i++) {
            for (k = 1; k <= n; k++) a[k] = v[i, k]
            for (k = 2; k <= n; k++) { x = a[k]; for (j = k - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            printf " %8.3f", n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        printf "\n" }' "$out"
done
