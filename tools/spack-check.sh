#!/bin/sh
# The Spack recipe (spack/packages/libarmci) checked with Spack itself:
# a `make dist` tarball of this tree goes into a local mirror, Spack
# installs libarmci@VERSION from it (with Debian's Open MPI as an external
# MPI, so that no MPI is built), once plain and once +ghost-progress, runs
# the installed armci-info, and Global Arrays is then built with
# --with-armci on the installed prefix (tools/apps/ga.sh -B).  Nothing is
# downloaded: SPACK_ROOT is a Spack checkout (v0.23 or newer; its builtin
# packages are not needed, only Spack itself), GA_SRC a GA source tree.
# usage: tools/spack-check.sh SPACK_ROOT [GA_SRC]
set -eu
[ $# -ge 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
spack_root=$(cd "$1" && pwd)
ga_src=${2:-}
[ -x "$spack_root/bin/spack" ] || { echo "spack-check: no $spack_root/bin/spack" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/armci-spack.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SPACK_USER_CONFIG_PATH=$work/config SPACK_USER_CACHE_PATH=$work/cache
export SPACK_DISABLE_LOCAL_CONFIG=1
spack() { "$spack_root/bin/spack" "$@"; }
ver=$(sed -n 's/^AC_INIT(\[libarmci\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
# the release tarball, as `make dist` makes it
mkdir -p "$work/dist" && (cd "$work/dist" && "$top/configure" --quiet >/dev/null && make -s dist >/dev/null)
mkdir -p "$work/mirror/libarmci"
cp "$work/dist/libarmci-$ver.tar.gz" "$work/mirror/libarmci/libarmci-$ver.tar.gz"
spack mirror add --scope user local "file://$work/mirror"
spack repo add --scope user "$top/spack"
spack compiler find --scope user >/dev/null
# Debian's Open MPI as the MPI (not buildable: nothing is downloaded)
ompi=$(mpirun --version 2>/dev/null | sed -n 's/.*(Open MPI) \([0-9.]*\).*/\1/p' | head -1)
cat >"$work/config/packages.yaml" <<EOC
packages:
  openmpi:
    externals:
    - spec: openmpi@$ompi
      prefix: /usr
    buildable: false
  mpi:
    require: openmpi
EOC
for variant in "" "+ghost-progress"; do
    spec="libarmci@$ver$variant"
    echo "spack-check: spack install --no-checksum $spec"
    spack install --no-checksum "$spec"
    prefix=$(spack location -i "$spec")
    [ -f "$prefix/include/armci.h" ] && [ -f "$prefix/lib/cmake/libarmci/libarmciConfig.cmake" ] ||
        { echo "spack-check: FAIL: $prefix lacks armci.h or the CMake package"; exit 1; }
    mpiexec --allow-run-as-root --oversubscribe -n 1 "$prefix/bin/armci-info" >/dev/null ||
        { echo "spack-check: FAIL: armci-info of $spec"; exit 1; }
done
prefix=$(spack location -i "libarmci@$ver~ghost-progress")
if [ -n "$ga_src" ]; then
    GA_WORK=$work/ga "$top/tools/apps/ga.sh" -B "$ga_src" "$prefix"
fi
echo "spack-check: passed: libarmci@$ver (plain and +ghost-progress) installed by Spack${ga_src:+, GA built on it}"
