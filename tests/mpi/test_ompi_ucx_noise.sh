#!/bin/sh
# Probes Open MPI for the osc/ucx message "OSC UCX component priority set
# inside component query failed", which Open MPI 5.0 prints at every window
# creation where its osc/ucx cannot serve windows (UCX without RMA
# transports; open-mpi/ompi#12517, #14086), and checks the harness's
# workaround (tests/run-mode.sh): with OMPI_MCA_osc=^ucx the same program
# prints nothing but its answer, and the message only appears where osc/ucx
# creates no window (so excluding it cannot change the selection).
# Mode "on" only (77 = skip elsewhere or without osc/ucx).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
. "${TESTS_SRCDIR:-tests}/ompi_only.sh"
ompi_only
case " $(ompi_osc_list) " in
*" ucx "*) ;;
*) echo "SKIP: this Open MPI has no osc/ucx"; exit 77 ;;
esac
prog=${TESTS_BUILDDIR:-tests}/mpi/osc_usable
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
msg='OSC UCX component priority set inside component query failed'
unset OMPI_MCA_osc
out=$(timeout -k 5 60 $runner 2 "$prog" 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: stock selection created no window (exit $rc): $out"; exit 1; }
if printf '%s\n' "$out" | grep -q "$msg"; then
    echo "recorded: this Open MPI prints osc/ucx's query failure at window creation"
    if ompi_osc_usable ucx; then
        echo "FAIL: the message appears although osc/ucx creates windows here:" \
             "excluding it would change the selection"
        exit 1
    fi
    out=$(OMPI_MCA_osc=^ucx timeout -k 5 60 $runner 2 "$prog" 2>&1)
    rc=$?
    extra=$(printf '%s\n' "$out" | grep -v '^YES$' | grep -v '^ *$')
    if [ $rc -ne 0 ] || [ -n "$extra" ]; then
        echo "FAIL: with OMPI_MCA_osc=^ucx: exit $rc, output besides the answer: $extra"
        exit 1
    fi
    echo "workaround holds: OMPI_MCA_osc=^ucx leaves only the answer"
else
    echo "recorded: no osc/ucx message at window creation"
fi
echo "PASS test_ompi_ucx_noise"
