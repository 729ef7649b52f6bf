#!/bin/sh
# The Debian packages from a clean copy of this tree: dpkg-buildpackage
# -us -uc (source and binary packages), lintian on the result (errors and
# warnings fail), then the .debs installed on this machine, a Global Arrays
# test program (Debian's static GA, tests/ga/ga_atomic.c) compiled against
# the installed headers and library only (pkg-config libarmci), run on 4
# processes, and on the ghost package through LD_LIBRARY_PATH on 2 virtual
# nodes of 2 users + 1 ghost; the packages are removed again at the end.
# Needs root (dpkg -i), debhelper, lintian and dpkg-dev (not in
# tools/install-deps.sh, since CI does not build the packages: apt-get
# install debhelper lintian dpkg-dev), and what tools/install-deps.sh
# installs (the MPIs, Debian's GA for the link test).
# usage: tools/debian-check.sh [WORKDIR]   (default: a temporary one)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-} own=0
[ -n "$work" ] || { work=$(mktemp -d "${TMPDIR:-/tmp}/armci-deb.XXXXXX"); own=1; }
trap '[ $own = 0 ] || rm -rf "$work"' EXIT
mkdir -p "$work"
for t in dpkg-buildpackage lintian dh mpicc mpiexec pkg-config; do
    command -v $t >/dev/null || { echo "debian-check: FAIL: $t not found (apt-get install" \
        "debhelper lintian dpkg-dev, and tools/install-deps.sh)"; exit 1; }
done
ver=$(sed -n 's/^libarmci (\([^)]*\)).*/\1/p' "$top/debian/changelog" | head -1)
src=$work/libarmci-$ver
rm -rf "$src" && mkdir -p "$src"
# tracked and new files, as a clean clone has them (no build directories)
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf -) |
    (cd "$src" && tar -xf -)
echo "debian-check: building packages in $src"
(cd "$src" && dpkg-buildpackage -us -uc >"$work/build.log" 2>&1) ||
    { tail -40 "$work/build.log"; echo "debian-check: FAIL: dpkg-buildpackage"; exit 1; }
changes=$(ls "$work"/libarmci_"$ver"_*.changes)
ls "$work"/*.deb | sed 's|^|debian-check: built |'
echo "debian-check: lintian $changes"
lintian --fail-on error,warning "$changes" >"$work/lintian.log" 2>&1 ||
    { cat "$work/lintian.log"; echo "debian-check: FAIL: lintian"; exit 1; }
cat "$work/lintian.log"
# install, link a GA program against the installed package, run it
debs=$(ls "$work"/libarmci1_*.deb "$work"/libarmci-dev_*.deb "$work"/libarmci-ghost1_*.deb \
    "$work"/armci-info_*.deb)
# shellcheck disable=SC2086 # one word per package file
dpkg -i $debs >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; echo "debian-check: FAIL: dpkg -i"; exit 1; }
cleanup_pkgs() { dpkg -r armci-info libarmci-dev libarmci-ghost1 libarmci1 >/dev/null 2>&1 || true; }
trap 'cleanup_pkgs; [ $own = 0 ] || rm -rf "$work"' EXIT
gacfg=$(ls /usr/lib/*/ga/openmpi/bin/ga-config 2>/dev/null | head -1)
[ -n "$gacfg" ] || { echo "debian-check: FAIL: Debian's GA (libglobalarrays-dev) is not installed"; exit 1; }
ga=$($gacfg --ldflags | sed 's/-L//')/libga-openmpi.a
gacflags=$($gacfg --cppflags | sed 's,-I/usr/include\( \|$\),,')
prog=$work/ga_atomic
# shellcheck disable=SC2046,SC2086 # pkg-config and ga-config give word lists
mpicc -O1 -o "$prog" "$top/tests/ga/ga_atomic.c" $gacflags $(pkg-config --cflags libarmci) \
    "$ga" $(pkg-config --libs libarmci) -lscalapack-openmpi -llapack -lblas -lgfortran -lm \
    >"$work/cc.log" 2>&1 || { cat "$work/cc.log"; echo "debian-check: FAIL: GA test did not link"; exit 1; }
lib=$(readlink -f "$(ldd "$prog" | awk '/libarmci\.so/ {print $3}')")
dpkg -S "$lib" 2>/dev/null | grep -q '^libarmci1:' ||
    { echo "debian-check: FAIL: GA test links '$lib', not libarmci1's library"; exit 1; }
run="mpiexec --allow-run-as-root --oversubscribe -n"
$run 4 "$prog" >"$work/run.log" 2>&1 || { cat "$work/run.log"; echo "debian-check: FAIL: GA test on libarmci1"; exit 1; }
gdir=$(dirname "$(ls /usr/lib/*/libarmci-ghost/libarmci.so.1)")
ARMCI_VIRTUAL_NODE_SIZE=2 $run 6 -x LD_LIBRARY_PATH="$gdir" -x ARMCI_VIRTUAL_NODE_SIZE "$prog" \
    >"$work/run-ghost.log" 2>&1 ||
    { cat "$work/run-ghost.log"; echo "debian-check: FAIL: GA test on libarmci-ghost1"; exit 1; }
armci-info >/dev/null 2>&1 || { echo "debian-check: FAIL: armci-info"; exit 1; }
echo "debian-check: passed: packages built, lintian clean, GA test linked to the installed libarmci1 and run on it and on libarmci-ghost1"
