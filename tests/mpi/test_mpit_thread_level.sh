#!/bin/sh
# Probes whether opening MPI_T changes the MPI's thread level
# (tests/mpi/mpit_thread_level_repro.c: Open MPI 4.1.4 and 5.0.10 take
# MPI_T's level as their own) and records it; fails if opening MPI_T at the
# current level, as the library does (src/common/common_quirks.c), changes
# it too.  Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
out=$(timeout -k 5 60 $runner 1 "$dir/mpit_thread_level_repro" single 2>&1)
case $? in
0) echo "recorded: MPI_T_init_thread(MPI_THREAD_SINGLE) keeps the MPI's thread level" ;;
2) echo "recorded: MPI_T_init_thread(MPI_THREAD_SINGLE) lowers the MPI's thread level: $(printf '%s\n' "$out" | head -1)" ;;
*) echo "FAIL: the probe did not run: $out"; exit 1 ;;
esac
if ! out=$(timeout -k 5 60 $runner 1 "$dir/mpit_thread_level_repro" current 2>&1); then
    echo "FAIL: MPI_T opened at the current level still changes it: $out"
    exit 1
fi
echo "PASS test_mpit_thread_level"
