#!/bin/sh
# Runs one MPI test program in one transport mode (automake LOG_COMPILER).
# usage: run-mode.sh MODE path/to/prog.MODE
# Modes: on (node-local path on), off (every operation through MPI RMA),
# vn2 (virtual nodes of 2 ranks), pt2pt / ucx (Open MPI's osc component
# forced; shared windows refused, so regions use MPI_Win_allocate).
# pt2pt / ucx exist only under Open MPI with that component (configure
# records MPI_FLAVOR and OMPI_OSC); elsewhere the mode is skipped (77).
mode=$1
stub=$2
# The stamp is modes/MODE/<program path>.MODE (tests/Makefile.mk).
prog=${stub%.*}
prog=${prog#./}
prog=${prog#modes/$mode/}
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
mca=""
unset ARMCI_VIRTUAL_NODE_SIZE
. "$(dirname "$0")/ompi_only.sh"
case $mode in
on) ARMCI_NODE_LOCAL=on ;;
off) ARMCI_NODE_LOCAL=off ;;
vn2) ARMCI_NODE_LOCAL=on; ARMCI_VIRTUAL_NODE_SIZE=2; export ARMCI_VIRTUAL_NODE_SIZE ;;
pt2pt | ucx)
    if [ "${MPI_FLAVOR:-openmpi}" != openmpi ]; then
        echo "SKIP: mode $mode forces an Open MPI osc component; this MPI is $MPI_FLAVOR"
        exit 77
    fi
    case " ${OMPI_OSC:-pt2pt ucx} " in
    *" $mode "*) ;;
    *) echo "SKIP: this Open MPI has no osc/$mode component (has: $OMPI_OSC)"; exit 77 ;;
    esac
    ompi_skip_unusable "$mode"
    ARMCI_NODE_LOCAL=on; mca="--mca osc $mode" ;;
*) echo "run-mode.sh: unknown mode $mode" >&2; exit 99 ;;
esac
# Open MPI 5.0 prints "osc_ucx_component.c: ... Error: OSC UCX component
# priority set inside component query failed" at every window creation
# when its osc/ucx cannot serve windows (UCX without RMA transports;
# open-mpi/ompi#12517, #14086; reproducer tests/mpi/test_ompi_ucx_noise.sh).
# Tests that demand clean output would fail on that line, so the stock
# modes exclude the component there; it could not have been chosen.
case $mode in
on | off | vn2)
    if [ "${MPI_FLAVOR:-openmpi}" = openmpi ] && [ -z "${OMPI_MCA_osc-}" ] &&
       case " ${OMPI_OSC-} " in *" ucx "*) true ;; *) false ;; esac &&
       ! ompi_osc_usable ucx; then
        OMPI_MCA_osc=^ucx
        export OMPI_MCA_osc
    fi ;;
esac
# The ghost-progress suite (make check-ghost) runs every mode on virtual
# nodes, so operations cross (virtual) nodes and reach ghosts.
if [ -n "$TEST_VIRTUAL_NODE_SIZE" ]; then
    ARMCI_VIRTUAL_NODE_SIZE=$TEST_VIRTUAL_NODE_SIZE
    export ARMCI_VIRTUAL_NODE_SIZE
fi
export ARMCI_NODE_LOCAL ARMCI_TEST_MODE="$mode" TEST_RUNNER="$runner" NPROCS="$np" MPI_MCA="$mca"
# Every process of every launch (the launcher's and the ranks') has hwloc
# discover the machine, and its PCI and OS-device part reads each device's
# configuration space through sysfs, which a virtual machine's kernel
# serves slowly: a sixth of a small launch's CPU (ci_times.txt).  One
# host's tests never use a device's place in the topology; cores and
# caches are still discovered.  A value the caller set is kept; hwloc
# ignores names it does not know.
HWLOC_COMPONENTS=${HWLOC_COMPONENTS--pci,-linuxio}
export HWLOC_COMPONENTS
# A hang is a failure: the whole job gets a hard time limit.
limit=${TEST_TIMEOUT:-240}
# Shell tests live in the source tree (VPATH builds keep only stamps here);
# those outside tests/ (benchmarks/ga) are found from the top source dir.
case $prog in
tests/*.sh) [ -f "$prog" ] || prog="${TESTS_SRCDIR:-tests}/${prog#tests/}" ;;
*.sh) [ -f "$prog" ] || prog="${TESTS_SRCDIR:-tests}/../$prog" ;;
esac
# Each job gets a TMPDIR of its own: Open MPI 4.1 creates and removes a
# top session directory shared by all jobs of a user on a host, and jobs
# that start together while it is absent can lose the race to create it
# (open-mpi/ompi#8510; reproducer tests/mpi/test_ompi_session_dir.sh).
# Harmless elsewhere: tests that make temporary files make them in it.
jobtmp=$(mktemp -d "${TMPDIR:-/tmp}/armci-job.XXXXXX") || exit 99
TMPDIR=$jobtmp
export TMPDIR
# The last line of each log says how long the test took, so the tests
# that cost CI its time can be found (tests/test-times.sh lists them).
t0=$(date +%s)
case $prog in
*.sh) timeout -k 5 "$limit" sh "$prog" ;;
*) timeout -k 5 "$limit" $runner "$np" $mca "$prog" ;;
esac
rc=$?
rm -rf "$jobtmp"
echo "run-mode: $mode $prog: exit $rc after $(($(date +%s) - t0)) s"
exit $rc
