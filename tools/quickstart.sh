#!/bin/sh
# README command 1: install dependencies, build, run the demonstration.
set -e
cd "$(dirname "$0")/.."
tools/install-deps.sh
./autogen.sh >/dev/null
mkdir -p build && cd build
[ -f Makefile ] || ../configure --quiet
make -j"$(nproc)" >/dev/null
make demo
