#!/bin/sh
# Probes the MPI's limit on RMA operations outstanding without a completion
# (tests/mpi/many_ops_repro.c: Debian's MPICH 4.0.2 aborts past about 2^18
# gets on a shared window) and records it; fails only if the library's
# bound (a completion after every 65,536 operations, src/gmr/gmr_ops.c)
# does not keep 300,000 gets clear of it.  Mode "on" only (77 = skip).
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
if timeout -k 5 120 $runner 2 "$dir/many_ops_repro" 300000 0 >many_ops.out 2>&1; then
    echo "recorded: this MPI completes 300,000 outstanding gets"
else
    echo "recorded: this MPI fails with 300,000 gets outstanding:"
    grep -m 2 -i "assert\|error" many_ops.out
fi
if ! timeout -k 5 120 $runner 2 "$dir/many_ops_repro" 300000 65536; then
    rm -f many_ops.out
    echo "FAIL: 300,000 gets with a flush every 65,536 failed: the library's bound does not help"
    exit 1
fi
rm -f many_ops.out
echo "PASS test_many_ops"
