#!/bin/sh
# GA's own global/testing/thread_perf_strided.x (strided GA_Put, GA_Get and
# GA_Acc of patches to other processes, from OpenMP threads) across virtual
# nodes, every runtime side by side (issue 56 item 3): 4 computing
# processes as 2 nodes of 2 on this library's plain build, its ghost build
# (a ghost per node, redirection on), GA's MPI-PR (a progress rank per
# virtual node) and MPI-TS, GA's runtimes through tools/apps/procname_shim.c.
# The program checks its own results ("Put test OK" ...); a run without all
# three OK lines is a failure.  Rounds rotate the runtime order; the table
# is the median over rounds of each row's "avg time (us)".
# usage: benchmarks/ga/thread-perf-vnodes.sh MPI GA_VERSION ARMCI_PREFIX GHOST_PREFIX [OUT]
#   as benchmarks/ga/ga-vnodes.sh; the GA installs are GA_WORK's
#   build-<ga>-<runtime>-<mpi>/, whose global/testing/thread_perf_strided.x
#   are run (the armci one is linked to ARMCI_PREFIX or GHOST_PREFIX by
#   LD_LIBRARY_PATH).
# Environment: GA_WORK (default ~/.cache/libarmci-apps), ROUNDS (3),
#   OMP_NUM_THREADS (1: 4 processes already oversubscribe a 2-core host).
set -eu
[ $# -ge 4 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
mpi=$1 ga=$2 armci=$3 ghost=$4
out=${5:-$here/../results/thread_perf_vnodes.$mpi.2core.txt}
W=${GA_WORK:-$HOME/.cache/libarmci-apps}
rounds=${ROUNDS:-3}
threads=${OMP_NUM_THREADS:-1}
. "$top/tools/apps/mpi-env.sh"
mpi_env "$mpi" || exit 2
prog() { echo "$W/build-$ga-$1-$mpi/global/testing/thread_perf_strided.x"; }
for r in armci mpi-pr mpi-ts; do
    [ -x "$(prog $r)" ] || { echo "thread-perf-vnodes: no $(prog $r) (tools/apps/ga.sh -B -m $mpi -r $r, then make check there)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/thread-perf.XXXXXX")
trap 'rm -rf "$work"' EXIT
shim=$(procname_shim "$work" "$top/tools/apps/procname_shim.c")
xv="" xg="" xp="" # Open MPI passes variables to the ranks only with -x
if [ "$mpi" = ompi ]; then
    xv="-x OMP_NUM_THREADS -x ARMCI_VIRTUAL_NODE_SIZE -x LD_LIBRARY_PATH"
    xg="$xv -x ARMCI_GHOST_ASYNC"
    xp="-x OMP_NUM_THREADS -x PROCNAME_SHIM_PER_NODE"
fi

# run NAME LOG: one run of runtime NAME, its output in LOG
run() {
    case $1 in
    vn2) env -u PROCNAME_SHIM_PER_NODE OMP_NUM_THREADS=$threads ARMCI_VIRTUAL_NODE_SIZE=2 \
            LD_LIBRARY_PATH=$armci/lib timeout -k 10 900 $MPIEXEC 4 $xv "$(prog armci)" ;;
    ghost-vn2) env -u PROCNAME_SHIM_PER_NODE OMP_NUM_THREADS=$threads ARMCI_VIRTUAL_NODE_SIZE=2 \
            ARMCI_GHOST_ASYNC=on LD_LIBRARY_PATH=$ghost/lib \
            timeout -k 10 900 $MPIEXEC 6 $xg "$(prog armci)" ;;
    mpi-pr-vn2) env -u ARMCI_VIRTUAL_NODE_SIZE OMP_NUM_THREADS=$threads PROCNAME_SHIM_PER_NODE=3 \
            timeout -k 10 900 $MPIEXEC 6 $xp env LD_PRELOAD="$shim" "$(prog mpi-pr)" ;;
    mpi-ts-vn2) env -u ARMCI_VIRTUAL_NODE_SIZE OMP_NUM_THREADS=$threads PROCNAME_SHIM_PER_NODE=2 \
            timeout -k 10 900 $MPIEXEC 4 $xp env LD_PRELOAD="$shim" "$(prog mpi-ts)" ;;
    esac >"$2" 2>&1
}
names="vn2 ghost-vn2 mpi-pr-vn2 mpi-ts-vn2"
n=4 failed=0 r=0
: >"$work/data"
while [ $r -lt "$rounds" ]; do
    k=0
    while [ $k -lt $n ]; do
        name=$(echo $names | cut -d' ' -f$(((k + r) % n + 1)))
        log=$work/r$r.$name.txt
        t0=$(date +%s)
        rc=0; run "$name" "$log" || rc=$?
        ok=$(grep -c "test OK" "$log" || true)
        echo "thread-perf-vnodes: round $r $name rc=$rc, $ok/3 tests OK, $(($(date +%s) - t0)) s"
        if [ $rc != 0 ] || [ "$ok" != 3 ]; then
            failed=1; tail -20 "$log"
        fi
        # rows: round name op size shape time_us (one row per patch shape)
        awk -v name="$name" -v r=$r '/Performance of GA_/ { op = $3 }
            op && NF == 6 && $1 ~ /^[0-9]+$/ { print r, name, op, $1, $5 "x" $6, $2 }' "$log" >>"$work/data"
        k=$((k + 1))
    done
    r=$((r + 1))
done
{
    echo "# GA's thread_perf_strided.x across virtual nodes: 4 computing processes as 2 nodes of 2,"
    echo "# OMP_NUM_THREADS=$threads, $rounds rounds (runtime order rotated), median avg time (us) per row;"
    echo "# size: the program's \"msg size\" column (elements of its int array), shape: its Xdim x Ydim"
    echo "# MPI $mpi; GA $ga; this library: plain $armci, ghost $ghost (1 ghost per node, ARMCI_GHOST_ASYNC=on)"
    echo "# MPI-PR: 6 launched (a progress rank per virtual node); MPI-TS: 4; GA's runtimes with procname_shim"
    echo "# command: benchmarks/ga/thread-perf-vnodes.sh $*   ($(date -u +%Y-%m-%d), $(nproc) cores)"
    echo "# ratio columns: runtime / vn2 (above 1 = this library's plain build is faster)"
    awk -v names="$names" '
        function median(s,    a, m, i, j, x) {
            m = split(s, a, " ")
            for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        { k = $3 " " $4 " " $5; if (!(k in seen)) { seen[k] = 1; order[++nk] = k }; v[k, $2] = v[k, $2] " " $6 }
        END {
            nn = split(names, nm, " ")
            printf "%-6s %6s %7s", "op", "size", "shape"
            for (i = 1; i <= nn; i++) printf " %12s", nm[i] "_us"
            for (i = 2; i <= nn; i++) printf " %10s", "r_" nm[i]
            printf "\n"
            for (o = 1; o <= nk; o++) {
                split(order[o], ks, " "); printf "%-6s %6s %7s", ks[1], ks[2], ks[3]
                for (i = 1; i <= nn; i++) { med[i] = median(v[order[o], nm[i]]); printf " %12.3f", med[i] }
                for (i = 2; i <= nn; i++) printf " %10.2f", (med[1] > 0 ? med[i] / med[1] : 0)
                printf "\n"
            }
        }' "$work/data"
} >"$out"
cat "$out"
exit $failed
