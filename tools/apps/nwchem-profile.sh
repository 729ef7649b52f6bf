#!/bin/bash
# NWChem QA tests run with the library's profiler (ARMCI_PROFILE=1), one
# run per test and mode: what each test asks of ARMCI, per operation class
# (operations, bytes, calls, time, wait for progress) and per MPI operation,
# and its computation and communication time per process.  The cost model
# (benchmarks/model.py) reads the file this writes.
# usage: tools/apps/nwchem-profile.sh [-m MPI] [-n NPROCS] [-M MODES] [-T TESTS] [-o OUT]
#            NWCHEM_SRC GA_SRC ARMCI_PREFIX
#   -n NPROCS computing processes (nwchem.sh -n; default 4)
#   -M MODES  nwchem.sh modes (default "on vn2 vn1"; ghost modes need
#             ARMCI_GHOST_PREFIX, as in nwchem.sh)
#   -T TESTS  default: nwchem.sh's list
#   -o OUT    results file (default benchmarks/results/nwchem_profile.MPI.2core.txt)
# Every build must exist (nwchem.sh -B).  Lines of OUT:
#   # comments
#   MODE TEST wall S comm S comp S                  (per process, means)
#   MODE TEST class NAME ops N bytes B calls K T S W S C S   (ops, bytes, calls: all processes)
#   MODE TEST where NAME self N node N off N        (the class's ops by target: the process
#                                                    itself, its node, other nodes)
#   MODE TEST mpiop "NAME" calls K secs S            (secs per process)
#   MODE TEST nodata NAME calls K secs S max M      (library calls that moved no
#                                                    data, by API name: barriers,
#                                                    fences, waits; secs per process,
#                                                    M the largest process's)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mpi=ompi nprocs=4 modes="on vn2 vn1" tests="" out=""
while getopts m:n:M:T:o: opt; do
    case $opt in
    m) mpi=$OPTARG ;; n) nprocs=$OPTARG ;; M) modes=$OPTARG ;; T) tests=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,24p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { sed -n '2,24p' "$0" >&2; exit 2; }
nw_src=$1 ga_src=$2 prefix=$3
out=${out:-$here/../../benchmarks/results/nwchem_profile.$mpi.2core.txt}
work=${NWCHEM_WORK:-$HOME/.cache/libarmci-apps}
. "$here/nwchem-tests.sh"
[ -n "$tests" ] || tests=$(nw_tests "$nw_src/QA")
{
    echo "# tools/apps/nwchem-profile.sh -m $mpi -n $nprocs -M \"$modes\" -T \"$tests\" (ARMCI_PROFILE=1)"
    echo "# $(nproc) cores; $(date -u +%FT%TZ)"
} >"$out"
export ARMCI_PROFILE=1
for mode in $modes; do
    for t in $tests; do
        line=$("$here/nwchem.sh" -m "$mpi" -n "$nprocs" -M "$mode" -T "$t" "$nw_src" "$ga_src" "$prefix" 2>&1 |
            awk -v t="$t" '$1 == t && ($2 == "pass" || $2 == "fail") { print $2, $3 }')
        set -- $line
        [ "${1:-}" = pass ] || { echo "nwchem-profile: $mode $t did not pass (${line:-no result})" >&2; exit 1; }
        err=$(ls "$work"/logs-*-armci-*/"$mode/$(basename "$t").err" 2>/dev/null | head -1)
        [ -f "$err" ] || { echo "nwchem-profile: no stderr of $mode $t" >&2; exit 1; }
        awk -v mode="$mode" -v t="$t" -v wall="$2" '
            /ARMCI profile \(/ { for (i = 1; i <= NF; i++) {
                    if ($i == "T_comm") c = $(i + 1); if ($i == "T_comp") p = $(i + 1) }
                printf "%s %s wall %s comm %s comp %s\n", mode, t, wall, c, p }
            /ARMCI profile: [a-z]+ +ops [0-9]/ { sub(/.*ARMCI profile: /, "")
                gsub(/,/, ""); printf "%s %s class %s ops %s bytes %s calls %s T %s W %s C %s\n",
                    mode, t, $1, $3, $5, $7, $11, $14, $17 }
            /ARMCI profile: [a-z]+ +ops to self / { sub(/.*ARMCI profile: /, "")
                gsub(/,/, ""); printf "%s %s where %s self %s node %s off %s\n",
                    mode, t, $1, $5, $10, $14 }
            /ARMCI profile: MPI op / { s = $0; sub(/.*MPI op /, "", s)
                name = s; sub(/ +calls .*/, "", name)
                n = split(s, w, " "); for (i = 1; i <= n; i++) {
                    if (w[i] == "calls") k = w[i + 1]
                    if (w[i] == "per" && w[i + 1] == "process") secs = w[i - 2] }
                printf "%s %s mpiop \"%s\" calls %s secs %s\n", mode, t, name, k, secs }
            /ARMCI profile: no-data call / { s = $0; sub(/.*no-data call /, "", s)
                gsub(/[(),]/, "", s); split(s, w, " ")
                printf "%s %s nodata %s calls %s secs %s max %s\n", mode, t, w[1], w[3], w[6],
                    w[11] }' \
            "$err" >>"$out"
        echo "nwchem-profile: $mode $t done ($2 s)"
    done
done
echo "nwchem-profile: $out"
