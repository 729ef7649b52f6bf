#!/bin/sh
# ga-bundle-run.sh - the GA-level benchmarks side by side on a machine with
# no compiler and no MPI (the lent benchmark machine): the programs are
# built here once per runtime (ga_scf.NAME, ga_patch.NAME, ga_irreg.NAME,
# each linked statically against that runtime's GA and ARMCI) and packed
# with this host's Open MPI by benchmarks/mpi-bundle.sh; ga-compare.sh is
# the same comparison where the runtimes can be compiled.
#
# usage: ga-bundle-run.sh BUNDLE OUTDIR PLAN [ROUNDS [DEADLINE_S]]
# PLAN: one run per line, "TAG|CONFIG|NPROCS|ENV|PROGRAM ARGS", e.g.
#   scf_x8|ghost-auto-vn2|10|ARMCI_GHOST_ASYNC=auto ARMCI_VIRTUAL_NODE_SIZE=5|ga_scf.ghost n=1024 nb=64 extra=8
# NPROCS is what is launched (ghosts included); ENV is exported with -x.
# Every round runs every line, starting one line further down each round
# (so no configuration always runs first), until ROUNDS rounds (default 3)
# or DEADLINE_S seconds (default 480; a round is not started after it).
# MPIEXEC_ARGS: launcher options for every run (e.g. --mca osc sm,ucx).
# Each run's output goes to OUTDIR/raw/r<round>.<TAG>.<CONFIG>.txt; a run
# that fails or exceeds RUN_TIMEOUT (default 120 s) is listed in
# OUTDIR/failed.txt.  Then OUTDIR/medians.txt gets one line per
# (tag, config, kernel, size): the median over the rounds and their count.
set -u
bundle=${1:?usage: ga-bundle-run.sh BUNDLE OUTDIR PLAN [ROUNDS [DEADLINE_S]]}
out=${2:?OUTDIR}
plan=${3:?PLAN}
rounds=${4:-3}
deadline=${5:-480}
run_timeout=${RUN_TIMEOUT:-120}
mkdir -p "$out/raw"
: > "$out/failed.txt"
lines() { grep -v '^ *#' "$plan" | grep '|'; }
nlines=$(lines | wc -l)
start=$(date +%s)
r=1
while [ "$r" -le "$rounds" ]; do
    [ $(($(date +%s) - start)) -lt "$deadline" ] || { echo "deadline: stopped before round $r"; break; }
    i=0
    while [ "$i" -lt "$nlines" ]; do
        n=$(( (i + r - 1) % nlines + 1 ))
        line=$(lines | sed -n "${n}p")
        tag=$(echo "$line" | cut -d'|' -f1)
        cfg=$(echo "$line" | cut -d'|' -f2)
        np=$(echo "$line" | cut -d'|' -f3)
        envs=$(echo "$line" | cut -d'|' -f4)
        cmd=$(echo "$line" | cut -d'|' -f5)
        xs=""
        for e in $envs; do xs="$xs -x $e"; done
        prog=${cmd%% *}
        args=${cmd#"$prog"}
        f="$out/raw/r$r.$tag.$cfg.txt"
        # shellcheck disable=SC2086 # word splitting of xs and args is wanted
        timeout -k 5 "$run_timeout" "$bundle/mpiexec" ${MPIEXEC_ARGS:-} --oversubscribe -n "$np" $xs \
            "$bundle/benchmarks/$prog" $args > "$f" 2>&1
        rc=$?
        [ "$rc" -eq 0 ] || echo "r$r $tag $cfg exit $rc" >> "$out/failed.txt"
        echo "round $r: $tag $cfg exit $rc ($(($(date +%s) - start)) s)"
        i=$((i + 1))
    done
    r=$((r + 1))
done
sh "$(dirname "$0")/ga-bundle-table.sh" "$out/raw" > "$out/medians.txt"
echo "medians: $out/medians.txt ($(wc -l < "$out/medians.txt") rows); failed runs: $(wc -l < "$out/failed.txt")"
