#!/bin/sh
# Probes the MPI for lost MPI_Accumulate updates with indexed/hindexed
# target datatypes (tests/mpi/ompi_indexed_acc_repro.c, pure MPI) over the
# osc components and window kinds available, and records the result.
# Passes when the MPI is correct everywhere, or when every broken case is
# routed around by the library: src/common/common_quirks.c must then report
# acc_dtype_split=on (checked through ARMCI_VERBOSE=1 of test_strided).
# Fails when an update is lost and the library does not split.  The matrix
# sets its own osc components, so it runs in mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: matrix runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
ompi_only
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
broken="" ran=0 failed=""
osc_list=$(ompi_osc_list)
# osc component | window kinds (sm only serves shared-memory windows).  A
# component this Open MPI does not have, or that creates no window here, is
# left out; any other launch that
# does not run to an answer (0 = correct, 2 = lost updates) fails the test:
# a probe that never ran proves nothing.
for c in "default|allocate create shared" "rdma|allocate create" "pt2pt|allocate create" \
         "ucx|allocate create" "sm|shared"; do
    osc=${c%%|*}
    mca=""
    if [ "$osc" != default ]; then
        case " $osc_list " in
        *" $osc "*) ;;
        *) echo "osc/$osc: not in this Open MPI; left out"; continue ;;
        esac
        if [ "$osc" != sm ] && ! ompi_osc_usable "$osc"; then
            echo "osc/$osc: creates no window here; left out"; continue
        fi
        mca="--mca osc $osc"
    fi
    # one launch per window kind runs its 6 cases (2 types x 3 option
    # sets) on fresh windows: a launch costs more than a case (CI's time,
    # benchmarks/results/ci_times.txt)
    for w in ${c#*|}; do
        out=$(timeout -k 5 120 $runner "$np" $mca "$dir/ompi_indexed_acc_repro" \
              "$w" hindexed,indexed e,n,o 2>&1)
        rc=$?
        nok=$(printf '%s\n' "$out" | grep -c '^OK all')
        lost=$(printf '%s\n' "$out" | grep '^LOST')
        case $rc in
        0|2) if [ $((nok + $(printf '%s' "$lost" | grep -c '^LOST'))) -ne 6 ]; then
                 failed="$failed osc=$osc/win=$w"
                 echo "osc=$osc window=$w: not 6 answers (exit $rc):"
                 printf '%s\n' "$out" | tail -5
                 continue
             fi
             ran=$((ran + 6))
             if [ -n "$lost" ]; then
                 broken="$broken $(printf '%s\n' "$lost" |
                     sed -n "s/.*window=\([a-z]*\) type=\([a-z]*\) opt=\([a-z]*\).*/osc=$osc\/win=\1\/type=\2\/opt=\3/p" |
                     tr '\n' ' ')"
                 printf '%s\n' "$lost" | sed "s/^/LOST UPDATES: osc=$osc: /"
             fi ;;
        *) failed="$failed osc=$osc/win=$w"
           echo "could not run osc=$osc window=$w (exit $rc):"
           printf '%s\n' "$out" | tail -5 ;;
        esac
    done
done
if [ -n "$failed" ] || [ "$ran" -eq 0 ]; then
    echo "FAIL: $ran probe runs answered; these did not run:${failed:- (none at all)}"
    exit 1
fi
echo "$ran probe runs answered"
if [ -z "$broken" ]; then
    echo "indexed accumulate: no lost updates in any tested osc component/window"
    exit 0
fi
split=$(env ARMCI_VERBOSE=1 timeout -k 5 60 $runner 1 "$dir/test_strided" 2>&1 | \
        grep -c "acc_dtype_split=on")
if [ "$split" -gt 0 ]; then
    echo "indexed accumulate broken in:$broken; the library splits such accumulates"
    exit 0
fi
echo "FAIL: indexed accumulate broken in:$broken, but the library does not route around it"
exit 1
