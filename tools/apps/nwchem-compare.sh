#!/bin/bash
# Times NWChem QA tests on several runtimes side by side in one run: the
# same NWChem source and modules on this library (plain modes, ghost modes)
# and on GA's own MPI-PR and MPI-TS (relinked from the armci build with
# nwchem.sh -L).  Rounds alternate: round r starts at config r (mod the
# number of configs), so no runtime always runs first or last.  Each run is
# nwchem.sh's own QA comparison, so a wrong answer is a "fail" row.
#
# usage: tools/apps/nwchem-compare.sh [-m MPI] [-n NPROCS] [-R ROUNDS] [-T TESTS]
#            [-o RAW] NWCHEM_SRC GA_SRC ARMCI_PREFIX CONFIG...
#   CONFIG   RUNTIME:MODE[,VAR=VALUE...], e.g. armci:on armci:vn2
#            armci:ghost-auto mpi-pr:native mpi-ts:native (ghost modes need
#            ARMCI_GHOST_PREFIX, as in nwchem.sh); VAR=VALUE pairs go into
#            that config's environment, e.g.
#            armci:ghost-default-vn2,ARMCI_GHOST_PUTGET=OFF
#   -m       ompi (default) or mpich: the MPI every config was built for
#            (nwchem.sh -m)
#   -n       computing processes of every config (nwchem.sh -n; default 4)
#   -R       rounds (default 3)
#   -T       tests (default: nwchem.sh's list)
#   -o       raw file, one line per run: "round config test status seconds"
#            (default $NWCHEM_WORK/nwchem-compare.raw)
#        tools/apps/nwchem-compare.sh -t RAW CONFIG...
#            only the table of an existing raw file (several runs' raw
#            files may be concatenated)
# Every config must already be built (nwchem.sh -B, -L for mpi-pr/mpi-ts).
# Prints the median seconds per test and config, each config's ratio to
# the first one, and the runs that failed; exits non-zero if any failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '9,29p' "$0"; exit 2; }
mpi=ompi nprocs=4 rounds=3 tests="" raw="" table_only=0
while getopts m:n:R:T:o:t: opt; do
    case $opt in
    m) mpi=$OPTARG ;; n) nprocs=$OPTARG ;; R) rounds=$OPTARG ;; T) tests=$OPTARG ;;
    o) raw=$OPTARG ;;
    t) raw=$OPTARG table_only=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

# table RAW CONFIG...: medians per test and config, ratios to the first
# config; the sum row adds only the tests every config ran
table() {
    local f=$1
    shift
    echo "# median wall seconds per test and config ($(cut -d' ' -f1 "$f" | sort -u | wc -l) rounds); rN = config N / $1"
    awk -v cfgs="$*" '
    BEGIN { nc = split(cfgs, c, " ") }
    { if (!($3 in seen)) { seen[$3] = 1; tl[++nt] = $3 }
      n[$3, $2]++; v[$3, $2, n[$3, $2]] = $5
      if ($4 != "pass") bad[++nb] = $0 }
    function median(t, k,    m, i, j, x, a) {
        m = n[t, k]
        if (m == 0) return -1
        for (i = 1; i <= m; i++) a[i] = v[t, k, i]
        for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    function ratio(x, b) { return (x > 0 && b > 0) ? sprintf("%.2f", x / b) : "-" }
    END {
        printf "%-26s", "test"; for (i = 1; i <= nc; i++) printf " %16s", c[i]
        for (i = 2; i <= nc; i++) printf " %6s", "r" i
        printf "\n"
        for (j = 1; j <= nt; j++) {
            t = tl[j]; printf "%-26s", t
            all = 1
            for (i = 1; i <= nc; i++) {
                med[i] = median(t, c[i])
                if (med[i] < 0) all = 0
                printf " %16s", (med[i] < 0 ? "-" : sprintf("%.1f", med[i])) }
            for (i = 2; i <= nc; i++) printf " %6s", ratio(med[i], med[1])
            printf "\n"
            if (all) { ns++; for (i = 1; i <= nc; i++) sum[i] += med[i] } }
        printf "%-26s", "sum (" ns + 0 " tests)"
        for (i = 1; i <= nc; i++) printf " %16.1f", sum[i]
        for (i = 2; i <= nc; i++) printf " %6s", ratio(sum[i], sum[1])
        printf "\n"
        for (i = 2; i <= nc; i++) printf "# r%d = %s / %s\n", i, c[i], c[1]
        for (i = 1; i <= nb; i++) print "# FAILED: " bad[i]
        exit (nb > 0) }' "$f"
}

if [ "$table_only" = 1 ]; then
    [ $# -ge 1 ] || usage
    table "$raw" "$@"
    exit
fi
[ $# -ge 4 ] || usage
nw_src=$1 ga_src=$2 prefix=$3
shift 3
configs=("$@")
# split_config CFG: base (RUNTIME:MODE) and vars (its VAR=VALUE pairs)
split_config() {
    base=${1%%,*} vars=()
    [ "$base" = "$1" ] || IFS=, read -r -a vars <<<"${1#*,}"
}
for cfg in "${configs[@]}"; do
    split_config "$cfg"
    case $base in ?*:?*) ;; *) echo "nwchem-compare.sh: $cfg: a config is RUNTIME:MODE[,VAR=VALUE...]" >&2; exit 2 ;; esac
    for p in "${vars[@]}"; do
        [[ $p =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] ||
            { echo "nwchem-compare.sh: $cfg: '$p' is not VAR=VALUE" >&2; exit 2; }
    done
done
raw=${raw:-${NWCHEM_WORK:-$HOME/.cache/libarmci-apps}/nwchem-compare.raw}
. "$here/nwchem-tests.sh"
[ -n "$tests" ] || tests=$(nw_tests "$nw_src/QA")
: >"$raw"
nc=${#configs[@]}
for r in $(seq 1 "$rounds"); do
    for t in $tests; do
        for i in $(seq 0 $((nc - 1))); do
            cfg=${configs[$(((i + r - 1) % nc))]}
            split_config "$cfg"
            rt=${base%%:*} mode=${base#*:}
            relink=""
            [ "$rt" = armci ] || relink=-L
            out=$(env "${vars[@]}" "$here/nwchem.sh" $relink -m "$mpi" -n "$nprocs" -r "$rt" -M "$mode" -T "$t" \
                "$nw_src" "$ga_src" "$prefix" 2>&1) || true
            line=$(echo "$out" | awk -v t="$t" '$1 == t && ($2 == "pass" || $2 == "fail") { print $2, $3 }')
            [ -n "$line" ] || { echo "$out" | tail -5 >&2; line="fail 0"; }
            echo "$r $cfg $t $line" | tee -a "$raw"
        done
    done
done
table "$raw" "${configs[@]}"
