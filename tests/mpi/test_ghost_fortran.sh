#!/bin/sh
# Ghost build: a Fortran program (tests/mpi/ghost_fortran.f90 with the
# modules of ghost_fortran_coll.f90 and ghost_fortran_more.f90, mpif.h)
# sees the user world: MPI_Init from Fortran creates the ghosts,
# MPI_COMM_WORLD counts users only, and every wrapper of ghost_fortran.def
# (communicators, intercommunicators, info, attributes, error handlers,
# every send mode and probe, blocking and nonblocking collectives,
# topologies and neighbourhood collectives, packing, windows, MPI-IO) works
# on it mixed with C callers.  Compiled here with the MPI's Fortran wrapper
# against this build's libarmci.  Other builds, and machines without the
# Fortran wrapper: skip.
top=${TESTS_BUILDDIR:-tests}/..
dir=${TESTS_SRCDIR:-tests}/mpi
src="$dir/ghost_fortran_coll.f90 $dir/ghost_fortran_more.f90 $dir/ghost_fortran.f90"
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ! ghost_build; then
    echo "SKIP: not a ghost-progress build"
    exit 77
fi
vn=${ARMCI_VIRTUAL_NODE_SIZE:-0}
[ "$vn" -gt 0 ] || { echo "SKIP: needs virtual nodes (make check-ghost)"; exit 77; }
# the Fortran wrapper of the MPI under test (configure: MPIFC_TESTS)
fc=${MPIFC:-mpifort}
command -v $fc >/dev/null || { echo "SKIP: no Fortran MPI compiler ($fc)"; exit 77; }
g=${ARMCI_GHOSTS_PER_NODE:-1}
users=$((np * vn / (vn + g)))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$(cd "$top/.libs" && pwd)
# mpif.h declares no interfaces: one routine gets buffers of several types
# (gfortran >= 10 rejects that unless told to allow it)
fflags=""
echo "end" >"$tmp/t.f90"
$fc -fallow-argument-mismatch -c -o "$tmp/t.o" "$tmp/t.f90" >/dev/null 2>&1 &&
    fflags=-fallow-argument-mismatch
# the modules first; their .mod files go to $tmp
if ! $fc $fflags -J"$tmp" -o "$tmp/ghost_fortran" $src -L"$lib" -larmci -Wl,-rpath,"$lib" \
    >"$tmp/cc.log" 2>&1; then
    echo "FAIL: $fc could not build ghost_fortran*.f90:"
    head -20 "$tmp/cc.log"
    exit 1
fi
GHOST_FORTRAN_FILE="$tmp/io" timeout -k 5 120 $runner "$np" $MPI_MCA "$tmp/ghost_fortran" \
    "$users" "$np" >"$tmp/out" 2>&1 </dev/null
rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] && grep -q "^PASS ghost_fortran ($users users)" "$tmp/out" && exit 0
echo "FAIL ghost_fortran: exit status $rc"
exit 1
