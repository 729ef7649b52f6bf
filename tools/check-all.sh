#!/bin/sh
# README command 2: the whole test suite, `make check` in the default build
# (every transport mode) and in a ghost-progress build.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p build && cd build
[ -f Makefile ] || ../configure --quiet
make -j"$(nproc)" >/dev/null
make -j"$(nproc)" check
cd ..
if grep -q 'enable-ghost-progress' configure; then
    mkdir -p build-ghost && cd build-ghost
    [ -f Makefile ] || ../configure --quiet --enable-ghost-progress
    make -j"$(nproc)" >/dev/null
    make -j"$(nproc)" check-ghost
fi
