#!/bin/sh
# README command 2: the whole test suite: `make check` in the default build
# (Open MPI, every transport mode), `make fuzz` (libFuzzer harnesses, 15 s
# each), `make check-valgrind` and `make check-asan` (sanitizer build, modes
# on and off), `make distcheck` (the tarball builds and passes its tests; one
# mode), a ghost-progress build, and an MPICH build (modes on, off, vn2;
# Open MPI's osc modes do not exist there) with its ghost build's tests.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p build && cd build
[ -f Makefile ] || ../configure --quiet
make -j"$(nproc)" >/dev/null
make -j"$(nproc)" check
make fuzz FUZZ_SECONDS=15     # 3 harnesses; skipped without clang's libFuzzer
make check-valgrind
make check-asan >asan.log 2>&1 ||
    { grep -E '^(FAIL|ERROR)|runtime error|Sanitizer' asan.log | head -40
      echo "make check-asan failed (build/asan.log)"; exit 1; }
echo "make check-asan: passed"
make -j"$(nproc)" distcheck CHECK_MODES=on >distcheck.log 2>&1 ||
    { tail -40 distcheck.log; echo "make distcheck failed (build/distcheck.log)"; exit 1; }
echo "make distcheck: passed"
cd ..
if grep -q 'enable-ghost-progress' configure; then
    mkdir -p build-ghost && cd build-ghost
    [ -f Makefile ] || ../configure --quiet --enable-ghost-progress
    make -j"$(nproc)" >/dev/null
    make -j"$(nproc)" check-ghost
    cd ..
fi
if command -v mpicc.mpich >/dev/null 2>&1; then
    mkdir -p build-mpich && cd build-mpich
    [ -f Makefile ] || ../configure --quiet CC=mpicc.mpich
    make -j"$(nproc)" >/dev/null
    make -j"$(nproc)" check CHECK_MODES='on off vn2'
    cd ..
    if grep -q 'enable-ghost-progress' configure; then
        mkdir -p build-ghost-mpich && cd build-ghost-mpich
        [ -f Makefile ] || ../configure --quiet --enable-ghost-progress CC=mpicc.mpich
        make -j"$(nproc)" >/dev/null
        make check-ghost-smoke # one job at a time: MPICH's ranks spin
        cd ..
    fi
fi
