#!/bin/sh
# Whether MPI yields when idle (Open MPI's mpi_yield_when_idle) as the
# library reads it without MPI_T where the launcher's environment decides,
# against MPI_T's answer (tests/mpi/mpi_yields.c): the launcher's own
# setting, an explicit OMPI_MCA_mpi_yield_when_idle either way, and a
# parameter file that sets the opposite of what the launcher's
# oversubscription would give (the library must then ask MPI_T).  Other
# MPIs: the one run, both 0.  Mode on only: the reading does not depend on
# the transport mode.
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
prog=${TESTS_BUILDDIR:-tests}/mpi/mpi_yields
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
run() { # CASE EXPECT [VAR=VALUE...]
    name=$1 expect=$2
    shift 2
    if env "$@" timeout -k 5 120 $runner "$np" $MPI_MCA "$prog" $expect >"$tmp/out" 2>&1; then
        echo "ok   $name: $(grep -m1 '^oversubscribe=' "$tmp/out")"
    else
        echo "FAIL $name"
        grep -v '^ *$' "$tmp/out" | head -12
        fail=1
    fi
}
run "launcher's setting" ""
over=$(sed -n 's/^oversubscribe=\([^ ]*\) .*/\1/p' "$tmp/out" | head -n 1)
case $over in
unset) exit $fail ;; # not Open MPI's launcher: nothing more to vary
1 | true) opposite=0 ;;
*) opposite=1 ;;
esac
run "OMPI_MCA_mpi_yield_when_idle=0" 0 OMPI_MCA_mpi_yield_when_idle=0
run "OMPI_MCA_mpi_yield_when_idle=1" 1 OMPI_MCA_mpi_yield_when_idle=1
run "OMPI_MCA_mpi_yield_when_idle=true" 1 OMPI_MCA_mpi_yield_when_idle=true
printf '# set by tests/mpi/test_mpi_yields.sh\n  mpi_yield_when_idle = %s\n' "$opposite" >"$tmp/params.conf"
run "parameter file: $opposite, launcher's oversubscription: $over" "$opposite" \
    OMPI_MCA_mca_base_param_files="$tmp/params.conf"
exit $fail
