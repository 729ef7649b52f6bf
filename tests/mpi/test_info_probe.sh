#!/bin/sh
# armci-info --probe's answers are checked: for each operation class (put,
# get, accumulate, fetch_and_op, strided put) its "needs target progress"
# yes/no must equal what tests/mpi/rma_target_progress_repro.c (pure MPI)
# finds for the same MPI, osc component and window kind.  The two measure
# differently: armci-info times the operation against a threshold (half
# of --probe-ms), the reproducer orders events on one clock (did the
# flush return before the target stopped computing?), so a disagreement
# is run once more before it fails.  Where the probed window is an
# MPI_Win_create window (the ghost build's kind), every class measured
# "yes" must be among the classes armci-info says ghosts would serve for
# that component (armcii_gmr_software_classes, src/gmr/gmr_class.c):
# otherwise ghosts would leave a class that waits to the target.  The
# same holds, once per component, for MPI_Win_create over a memory file
# (the reproducer's memfd kind: the ghost build's pool memory, on which
# osc ucx waits even for put and get; docs/benchmarks.md, "Ghosts with
# nothing to do").  Configurations: the default component on one node and with every
# process its own node (ARMCI_VIRTUAL_NODE_SIZE=1: MPI_Win_create over
# node-shared memory), and Open MPI's osc pt2pt and ucx where present and
# able to create windows (ompi_osc_usable).
# Mode "on" only (it sets its own layouts and components; 77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
top=${TESTS_BUILDDIR:-tests}/..
info=$top/armci-info
repro=${TESTS_BUILDDIR:-tests}/mpi/rma_target_progress_repro
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_info_probe.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset ARMCI_NODE_LOCAL ARMCI_VIRTUAL_NODE_SIZE
# the ghost build: 2 processes are 2 users without ghosts
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ghost_build; then
    ARMCI_GHOSTS_PER_NODE=0
    export ARMCI_GHOSTS_PER_NODE
fi
configs="default|0 default|1"
if [ "${MPI_FLAVOR:-openmpi}" = openmpi ]; then
    # INFO_PROBE_OSC: the components probed besides the default (the
    # sanitizer stage probes none: those runs add pure-MPI measurements,
    # no library code the default's runs leave out)
    for osc in ${INFO_PROBE_OSC-pt2pt ucx}; do
        case " $(ompi_osc_list) " in
        *" $osc "*) if ompi_osc_usable "$osc"; then configs="$configs $osc|0"
                    else echo "note: osc/$osc creates no window here; not probed"; fi ;;
        esac
    done
fi
fail=0
# Runs armci-info --probe and the reproducer for configuration $osc/$vn;
# leaves the rows "class yes|no" in $tmp/info.rows and $tmp/repro.rows.
measure() {
    mca=
    [ "$osc" = default ] || mca="--mca osc $osc"
    env ARMCI_VIRTUAL_NODE_SIZE=$vn timeout -k 5 120 $runner 2 $mca "$info" --probe \
        --probe-ms 200 >"$tmp/info" 2>&1 || { echo "FAIL: armci-info --probe ($osc, vn $vn) exit $?"
                                              tail -5 "$tmp/info"; return 2; }
    sed -n 's/^ *\(put\|get\|accumulate\|fetch_and_op\|strided put\) *| *[0-9.]* *| *\(yes\|no\)$/\1 \2/p' \
        "$tmp/info" | sed 's/^accumulate/acc/; s/^fetch_and_op/fop/; s/^strided put/strided/' \
        >"$tmp/info.rows"
    win=$(sed -n 's/^ *window: \(.*\), component \([^ ]*\).*/\1/p' "$tmp/info")
    comp=$(sed -n 's/^ *window: .*, component \([^ ]*\).*/\1/p' "$tmp/info")
    case $win in
    "MPI_Win_allocate_shared"*) kind=shared ;;
    "MPI_Win_create"*) kind=create ;;
    "MPI_Win_allocate") kind=allocate ;;
    *) echo "FAIL: armci-info --probe ($osc, vn $vn): unknown window '$win'"; return 2 ;;
    esac
    timeout -k 5 120 $runner 2 $mca "$repro" $kind put get acc fop strided >"$tmp/repro" 2>&1 ||
        { echo "FAIL: rma_target_progress_repro $kind ($osc) exit $?"; tail -5 "$tmp/repro"; return 2; }
    sed -n 's/^verdict \([a-z]*\) \(yes\|no\)$/\1 \2/p' "$tmp/repro" >"$tmp/repro.rows"
    [ "$(wc -l <"$tmp/info.rows")" -eq 5 ] && [ "$(wc -l <"$tmp/repro.rows")" -eq 5 ] || {
        echo "FAIL: $osc, vn $vn: not 5 answers from each:"; cat "$tmp/info.rows" "$tmp/repro.rows"
        return 2; }
    cmp -s "$tmp/info.rows" "$tmp/repro.rows"
}
# served ROWS WHAT: every class ROWS (the reproducer's "class yes|no")
# says waits for the target must be among the classes armci-info says
# ghosts would serve on MPI_Win_create windows (whose component, on one
# node, need not be the probed window's: osc/sm makes no such window).
served() {
    serve=$(sed -n "s|^ *ghosts would serve *: \([a-z ]*\) (on \([^ ]*\) windows.*|\1|p" "$tmp/info")
    wcomp=$(sed -n "s|^ *ghosts would serve *: [a-z ]* (on \([^ ]*\) windows.*|\1|p" "$tmp/info")
    [ -n "$serve" ] || { echo "FAIL: $osc: no 'ghosts would serve' line"; return 1; }
    [ "$(wc -l <"$1")" -eq 5 ] || { echo "FAIL: $wcomp, $2: not 5 answers:"; cat "$1"; return 1; }
    missing=
    while read -r cls ans; do
        [ "$ans" = yes ] || continue
        case $cls in fop) t=rmw ;; strided) t=noncontig ;; *) t=$cls ;; esac
        case " $serve " in *" $t "*) ;; *) missing="$missing $t" ;; esac
    done <"$1"
    if [ -n "$missing" ]; then
        echo "FAIL: $wcomp, $2: these classes wait for the target, but ghosts would not serve them:$missing" \
             "(ghosts serve: $serve; armcii_gmr_software_classes)"
        return 1
    fi
    echo "ok   $wcomp, $2: every class that waits is among those ghosts serve ($serve)"
}
for c in $configs; do
    osc=${c%|*} vn=${c#*|}
    measure
    rc=$?
    if [ $rc -eq 1 ]; then
        echo "note: $osc, vn $vn: armci-info and the reproducer disagree; measured once more"
        measure
        rc=$?
    fi
    case $rc in
    0) echo "ok   $osc, vn $vn ($win, $comp):" $(sed 's/ /=/' "$tmp/info.rows") ;;
    1) echo "FAIL: $osc, vn $vn ($win, $comp): armci-info --probe and rma_target_progress_repro disagree"
       echo "  armci-info:" $(sed 's/ /=/' "$tmp/info.rows")
       echo "  reproducer:" $(sed 's/ /=/' "$tmp/repro.rows")
       fail=1; continue ;;
    *) fail=1; continue ;;
    esac
    if [ $kind = create ]; then
        served "$tmp/repro.rows" "MPI_Win_create over node-shared memory" || fail=1
    fi
    # The ghost build's regions are MPI_Win_create windows over its pools'
    # memory files: measured on such a window once per component.
    [ "$vn" = 0 ] || continue
    timeout -k 5 120 $runner 2 $mca "$repro" memfd put get acc fop strided >"$tmp/memfd" 2>&1 ||
        { echo "FAIL: rma_target_progress_repro memfd ($osc) exit $?"; tail -5 "$tmp/memfd"; fail=1; continue; }
    sed -n 's/^verdict \([a-z]*\) \(yes\|no\)$/\1 \2/p' "$tmp/memfd" >"$tmp/memfd.rows"
    echo "     $osc: MPI_Win_create over a memory file:" $(sed 's/ /=/' "$tmp/memfd.rows")
    served "$tmp/memfd.rows" "MPI_Win_create over a memory file (the ghost pools' kind)" || fail=1
done
exit $fail
