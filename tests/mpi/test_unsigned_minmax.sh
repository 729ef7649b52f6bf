#!/bin/sh
# Probes whether the MPI's MPI_MAX and MPI_MIN compare MPI_UNSIGNED_LONG as
# signed (tests/mpi/unsigned_minmax_repro.c: Open MPI 4.1.4 and MPICH 4.0.2
# here) and records it; fails if the form the library reduces instead
# (MPI_LONG maxima of a value and its negation) goes wrong.  Mode "on" only
# (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
out=$(timeout -k 5 60 $runner 2 "$dir/unsigned_minmax_repro" 2>&1)
case $? in
0) echo "recorded: MPI_MAX and MPI_MIN order MPI_UNSIGNED_LONG as unsigned" ;;
2) echo "recorded: this MPI orders MPI_UNSIGNED_LONG as signed in MPI_MAX/MPI_MIN:"
   printf '%s\n' "$out" | grep MPI_ ;;
*) echo "FAIL: the probe did not run: $out"; exit 1 ;;
esac
if ! out=$(timeout -k 5 60 $runner 2 "$dir/unsigned_minmax_repro" workaround 2>&1); then
    echo "FAIL: the library's form of a minimum and maximum went wrong: $out"
    exit 1
fi
echo "PASS test_unsigned_minmax"
