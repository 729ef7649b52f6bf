#!/bin/sh
# The test programs link with -no-install (configure.ac, NOINST_LDFLAGS):
# each is the program itself, not a libtool wrapper script, and it loads
# this build's libarmci even when LD_LIBRARY_PATH names another copy first
# (the wrapper guaranteed that; an rpath searched after LD_LIBRARY_PATH
# would not).
dir=${TESTS_BUILDDIR:-tests}
prog=$dir/mpi/test_contig
lib=$dir/../.libs/libarmci.so.1
[ -f "$lib" ] || { echo "SKIP test_noinst_link: no shared library built"; exit 77; }
[ -f "$prog" ] || { echo "FAIL test_noinst_link: $prog not built"; exit 1; }
if ! head -c 4 "$prog" | grep -q ELF; then
    echo "FAIL test_noinst_link: $prog is not an ELF program (a libtool wrapper?)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$lib" "$tmp/"
want=$(cd "$(dirname "$lib")" && pwd)/libarmci.so.1
got=$(LD_LIBRARY_PATH=$tmp ldd "$prog" | awk '$1 == "libarmci.so.1" { print $3 }')
if [ "$got" != "$want" ]; then
    echo "FAIL test_noinst_link: with LD_LIBRARY_PATH=$tmp, $prog loads '$got', not $want:"
    readelf -d "$prog" | grep -E 'RPATH|RUNPATH'
    exit 1
fi
echo "PASS test_noinst_link: $prog is a program and loads $want ahead of LD_LIBRARY_PATH"
