#!/bin/sh
# Threads calling in after ARMCI_Init(), not ARMCI_Init_thread: Global
# Arrays initializes ARMCI that way, and its OpenMP programs
# (thread_perf_strided.x, thread_perf_contig.x) then call GA, and so the
# library, from every thread of a process whose MPI runs at
# MPI_THREAD_MULTIPLE.  The library takes the process's MPI thread level
# for its own: under MPICH 4.0.2's ghost build GA's thread_perf_strided.x
# aborted in MPI_Test ("ref_count >= 0") when the request list of the
# yielding completions, kept unguarded for single-threaded runs, was
# shared by threads.  test_threads, initialized that way, must pass.
# Environment from tests/run-mode.sh: TEST_RUNNER, NPROCS, MPI_MCA,
# TESTS_BUILDDIR, ARMCI_TEST_MODE.
# Mode vn2 only (each process has node-local and MPI-path targets there):
# test_threads itself covers every mode.
case ${ARMCI_TEST_MODE:-vn2} in
vn2) ;;
*) echo "SKIP: runs in mode vn2"; exit 77 ;;
esac
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
THREADS_INIT=ga THREADS_ITERS=${THREADS_ITERS:-60} \
    timeout -k 5 240 $runner "${NPROCS:-4}" $MPI_MCA "${TESTS_BUILDDIR:-tests}/mpi/test_threads"
rc=$?
[ $rc -eq 0 ] || echo "FAIL test_threads_init: test_threads after ARMCI_Init() exited $rc"
exit $rc
