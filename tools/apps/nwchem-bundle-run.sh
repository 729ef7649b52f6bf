#!/bin/sh
# nwchem-bundle-run.sh - runs NWChem QA inputs from a bundle made by
# nwchem-bundle.sh, on a machine with no compiler, MPI or Perl: every
# config of PLAN on every test, the configs of one test one after another
# (each round starts one config further on), so that a run cut short by
# the deadline still leaves whole comparisons for the tests it reached.
#
# usage: nwchem-bundle-run.sh BUNDLE OUTDIR PLAN ROUNDS DEADLINE_S TEST...
# PLAN: one config per line, "CONFIG|NPROCS|ENV|BINARY", e.g.
#   ghost-on-vn7|16|ARMCI_VIRTUAL_NODE_SIZE=7 ARMCI_GHOSTS_PER_NODE=1 ARMCI_GHOST_ASYNC=on BUNDLE_LIBPATH=@/lib-ghost|nwchem.armci
# "@" in ENV stands for the bundle's path; ENV reaches the ranks (-x).
# No run starts after DEADLINE_S seconds; RUN_TIMEOUT (default 150) ends a
# run.  OUTDIR gets raw.txt ("round config test rc seconds"; rc 124: the
# timeout) and outputs.tar.gz (each run's stdout and stderr), which
# nwchem-bundle-check.sh compares against the reference outputs.
set -u
bundle=$(cd "${1:?usage: nwchem-bundle-run.sh BUNDLE OUTDIR PLAN ROUNDS DEADLINE_S TEST...}" && pwd)
out=${2:?OUTDIR} plan=${3:?PLAN} rounds=${4:?ROUNDS} deadline=${5:?DEADLINE_S}
shift 5
run_timeout=${RUN_TIMEOUT:-150}
mkdir -p "$out/runs"
scratch=$(mktemp -d)
lines() { grep -v '^ *#' "$plan" | grep '|'; }
nc=$(lines | wc -l)
start=$(date +%s)
: > "$out/raw.txt"
r=1
while [ "$r" -le "$rounds" ]; do
    for t in "$@"; do
        i=0
        while [ "$i" -lt "$nc" ]; do
            [ $(($(date +%s) - start)) -lt "$deadline" ] || break 3
            line=$(lines | sed -n "$(( (i + r - 1) % nc + 1 ))p")
            cfg=$(echo "$line" | cut -d'|' -f1)
            np=$(echo "$line" | cut -d'|' -f2)
            envs=$(echo "$line" | cut -d'|' -f3 | sed "s|@|$bundle|g")
            exe=$(echo "$line" | cut -d'|' -f4)
            xs=""
            for e in $envs; do xs="$xs -x $e"; done
            d=$scratch/$r.$cfg.$t
            mkdir -p "$d"
            cp "$bundle/qa/$t/"* "$d/"
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086 # xs is a word list
            (cd "$d" && OMP_NUM_THREADS=1 NWCHEM_BASIS_LIBRARY=$bundle/basis/ \
                timeout -k 5 "$run_timeout" "$bundle/mpiexec" ${MPIEXEC_ARGS:-} --oversubscribe \
                -n "$np" -x OMP_NUM_THREADS -x NWCHEM_BASIS_LIBRARY $xs \
                "$bundle/benchmarks/$exe" "$t.nw" > "$out/runs/r$r.$cfg.$t.out" \
                2> "$out/runs/r$r.$cfg.$t.err")
            rc=$?
            secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
            echo "$r $cfg $t $rc $secs" | tee -a "$out/raw.txt"
            rm -rf "$d"
            i=$((i + 1))
        done
    done
    r=$((r + 1))
done
[ "$r" -gt "$rounds" ] || echo "deadline: stopped in round $r after $(($(date +%s) - start)) s"
rm -rf "$scratch"
(cd "$out" && tar -czf outputs.tar.gz runs && rm -rf runs)
echo "runs: $(wc -l < "$out/raw.txt"), exit status not 0: $(awk '$4 != 0' "$out/raw.txt" | wc -l)"
