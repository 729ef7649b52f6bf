#!/bin/sh
# The installed CMake package works for a user's project: stage an install
# of this build tree (make install DESTDIR=...), configure tests/cmake with
# CMAKE_PREFIX_PATH at the staged prefix (the package finds its files
# relative to itself), build it, check that it linked this libarmci, run it
# on 2 processes, and check find_package's version rules.
# usage: tests/cmake/test_cmake_package.sh BUILD_DIR [LAUNCHER...]
#   LAUNCHER  the MPI launch words before the process count (default: the
#             build's configured test runner, e.g. "mpiexec -n")
# Exit 77 (skip) without cmake; non-zero on any failure.
set -eu
[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
command -v cmake >/dev/null || { echo "SKIP test_cmake_package: no cmake"; exit 77; }
if [ $# -gt 0 ]; then
    launch="$*"
else
    launch=$(sed -n 's/^TEST_RUNNER = //p' "$build/Makefile")
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/armci-cmake.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$(sed -n 's/^prefix = //p' "$build/Makefile")
make -C "$build" install DESTDIR="$tmp/stage" >"$tmp/install.log" 2>&1 ||
    { tail -20 "$tmp/install.log"; echo "FAIL test_cmake_package: make install"; exit 1; }
staged=$tmp/stage$prefix
cfg=$(find "$staged" -name libarmciConfig.cmake | head -1)
[ -n "$cfg" ] || { echo "FAIL test_cmake_package: no libarmciConfig.cmake under $staged"; exit 1; }
fail() { echo "FAIL test_cmake_package: $*"; cat "$tmp"/*.out 2>/dev/null | tail -30; exit 1; }
cmake -S "$here" -B "$tmp/user" -DCMAKE_PREFIX_PATH="$staged" >"$tmp/configure.out" 2>&1 ||
    fail "cmake could not configure the user project"
cmake --build "$tmp/user" >"$tmp/build.out" 2>&1 || fail "the user project did not build"
# it must run on the staged library, not another libarmci on the system
lib=$(env LD_LIBRARY_PATH= ldd "$tmp/user/cmake_user" | awk '/libarmci/ {print $3}')
case $lib in "$staged"/*) ;; *) fail "cmake_user links '$lib', not the staged install";; esac
# shellcheck disable=SC2086 # the launcher is a word list
$launch 2 "$tmp/user/cmake_user" >"$tmp/run.out" 2>&1 || fail "cmake_user failed"
grep -q '^PASS cmake_user' "$tmp/run.out" || fail "cmake_user printed no PASS"
# version rules: the same major is found, a newer major is not
printf 'cmake_minimum_required(VERSION 3.13)\nproject(v C)\nfind_package(libarmci 99 QUIET)\nif(libarmci_FOUND)\n  message(FATAL_ERROR "version 99 accepted")\nendif()\n' \
    >"$tmp/CMakeLists.txt"
mkdir -p "$tmp/v"
cmake -S "$tmp" -B "$tmp/v" -DCMAKE_PREFIX_PATH="$staged" >"$tmp/version.out" 2>&1 ||
    fail "find_package(libarmci 99) was accepted"
echo "PASS test_cmake_package ($cfg)"
