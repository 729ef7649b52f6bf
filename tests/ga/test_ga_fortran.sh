#!/bin/sh
# A Fortran Global Arrays program (tests/ga/ga_fortran.F90) over this build's
# libarmci: compiled here with the MPI's Fortran wrapper, Debian's static GA
# in front of libarmci so every ARMCI call GA makes resolves to this library
# (as the C GA programs link, tests/ga/Makefile.mk).  Runs in every mode of
# `make check` and `make check-ghost`; in the ghost build the program must
# see the user world only.  GA_STATIC, GA_EXTRA_LIBS and GA_CONFIG come from
# configure through AM_TESTS_ENVIRONMENT.  Skips without GA or the wrapper.
top=${TESTS_BUILDDIR:-tests}/..
src=${TESTS_SRCDIR:-tests}/ga/ga_fortran.F90
stub=${TESTS_SRCDIR:-tests}/ga/ga_scalapack_stub.c
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
[ -n "$GA_STATIC" ] && [ -f "$GA_STATIC" ] ||
    { echo "SKIP: no static Global Arrays library (configure found none)"; exit 77; }
case ${MPI_FLAVOR:-openmpi} in
mpich) fc=mpif90.mpich cc=mpicc.mpich ;;
*) fc=mpifort cc=mpicc ;;
esac
# the Fortran wrapper of the MPI under test (configure: MPIFC_TESTS)
fc=${MPIFC:-$fc}
command -v $fc >/dev/null || { echo "SKIP: no Fortran MPI compiler ($fc)"; exit 77; }
# GA's Fortran API takes the integer size GA was built with (Debian:
# -fdefault-integer-8); its untyped buffer arguments need gfortran >= 10's
# -fallow-argument-mismatch.
fflags=$("${GA_CONFIG:-ga-config}" --fflags 2>/dev/null) || fflags=-fdefault-integer-8
# The ghost build hides ARMCI_GHOSTS_PER_NODE ghosts per (virtual) node of
# ARMCI_VIRTUAL_NODE_SIZE users; without virtual nodes this one machine is
# the node.  Other builds: every rank is a user.
users=$np
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ghost_build; then
    vn=${ARMCI_VIRTUAL_NODE_SIZE:-0}
    g=${ARMCI_GHOSTS_PER_NODE:-1}
    if [ "$vn" -gt 0 ]; then users=$((np * vn / (vn + g))); else users=$((np - g)); fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$(cd "$top/.libs" && pwd)
extra=
case " $GA_EXTRA_LIBS " in
*scalapack*) ;;
*)  # as the C GA programs do: stubs for the ScaLAPACK wrappers GA pulls in
    if ! $cc -c -o "$tmp/stub.o" "$stub" >"$tmp/cc.log" 2>&1; then
        echo "FAIL: $cc could not build ga_scalapack_stub.c:"
        head -20 "$tmp/cc.log"
        exit 1
    fi
    extra="$tmp/stub.o" ;;
esac
# No -Wl,--no-as-needed on purpose: every MPI call of the program is one the
# ghost build wraps, so this link checks that libarmci itself keeps the MPI's
# Fortran library loaded under gcc's default --as-needed (configure.ac,
# GHOST_FLIBS).
if ! $fc $fflags -fallow-argument-mismatch -o "$tmp/ga_fortran" "$src" $GA_STATIC \
    -L"$lib" -larmci -Wl,-rpath,"$lib" $GA_EXTRA_LIBS $extra \
    >"$tmp/cc.log" 2>&1; then
    echo "FAIL: $fc could not build ga_fortran.F90 (end of its output):"
    tail -20 "$tmp/cc.log"
    exit 1
fi
timeout -k 5 120 $runner "$np" $MPI_MCA "$tmp/ga_fortran" "$users" >"$tmp/out" 2>&1 </dev/null
rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] && grep -q "^PASS ga_fortran ($users users)" "$tmp/out" && exit 0
echo "FAIL ga_fortran: exit status $rc"
exit 1
