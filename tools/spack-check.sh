#!/bin/sh
# The Spack recipe (spack/packages/libarmci) checked with Spack itself:
# a `make dist` tarball of this tree goes into a local mirror, Spack
# installs libarmci@VERSION from it (with Debian's Open MPI as an external
# MPI, so that no MPI is built), once plain and once +ghost-progress, runs
# the installed armci-info, and Global Arrays is then built with
# --with-armci on the installed prefix (tools/apps/ga.sh -B).  Nothing is
# downloaded: SPACK_ROOT is a Spack checkout (v0.23 or newer), GA_SRC a GA
# source tree.  Spack 1.x keeps its builtin packages (compilers, make, the
# build systems) in the separate spack/spack-packages repository, which it
# would clone: give a checkout of it as SPACK_PACKAGES.  Spack's solver
# needs the clingo Python module; Spack would download it, so it must be
# importable already (Debian has none: build clingo's Python module from
# its source and put it on PYTHONPATH).  Spack 1.x also builds its
# compiler wrapper from a release tarball: SPACK_SOURCES is a directory of
# such NAME-VERSION.tar.gz files for the local mirror (e.g.
# `git archive --prefix=compiler-wrapper-1.1.0/ v1.1.0` of
# spack/compiler-wrapper; installs here skip checksums).
# usage: [SPACK_PACKAGES=DIR] [SPACK_SOURCES=DIR] tools/spack-check.sh SPACK_ROOT [GA_SRC]
set -eu
[ $# -ge 1 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
spack_root=$(cd "$1" && pwd)
ga_src=${2:-}
[ -x "$spack_root/bin/spack" ] || { echo "spack-check: no $spack_root/bin/spack" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/armci-spack.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SPACK_USER_CONFIG_PATH=$work/config SPACK_USER_CACHE_PATH=$work/cache
# the user and system scopes inside the work directory: no site config leaks in
export SPACK_SYSTEM_CONFIG_PATH=$work/system
spack() { "$spack_root/bin/spack" "$@"; }
ver=$(sed -n 's/^AC_INIT(\[libarmci\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
# the release tarball, as `make dist` makes it (a clean clone has no configure yet)
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null)
mkdir -p "$work/dist" && (cd "$work/dist" && "$top/configure" --quiet >/dev/null && make -s dist >/dev/null)
mkdir -p "$work/mirror/libarmci"
cp "$work/dist/libarmci-$ver.tar.gz" "$work/mirror/libarmci/libarmci-$ver.tar.gz"
mkdir -p "$work/config"
if [ -d "$spack_root/var/spack/repos/builtin" ]; then
    : # Spack 0.x: the builtin packages are part of the checkout
elif [ -n "${SPACK_PACKAGES:-}" ] && [ -d "$SPACK_PACKAGES/repos/spack_repo/builtin" ]; then
    printf 'repos:\n  builtin: %s\n' "$(cd "$SPACK_PACKAGES" && pwd)/repos/spack_repo/builtin" \
        >"$work/config/repos.yaml"
else
    echo "spack-check: Spack 1.x needs SPACK_PACKAGES (a spack/spack-packages checkout)" >&2
    exit 2
fi
# installs go into the work directory, not the Spack checkout
printf 'config:\n  install_tree:\n    root: %s\n' "$work/opt" >"$work/config/config.yaml"
# Debian's Open MPI as the MPI (not buildable: nothing is downloaded);
# written before the compiler and externals searches, which add to it
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
spack mirror add --scope user local "file://$work/mirror"
spack repo add --scope user "$top/spack"
spack compiler find --scope user >/dev/null
# extra sources go where Spack looks for a checksummed version: the
# mirror's content-addressed cache, under the checksum the recipe names
for f in "${SPACK_SOURCES:-/nonexistent}"/*.tar.gz; do
    [ -f "$f" ] || continue
    base=$(basename "$f" .tar.gz)
    sha=$(spack python -c "import spack.repo, spack.version as v; \
print(spack.repo.PATH.get_pkg_class('${base%-*}').versions[v.Version('${base##*-}')]['sha256'])")
    mkdir -p "$work/mirror/_source-cache/archive/$(echo "$sha" | cut -c1-2)"
    cp "$f" "$work/mirror/_source-cache/archive/$(echo "$sha" | cut -c1-2)/$sha.tar.gz"
done
# the build tools Spack's build systems depend on, from the system
spack external find --scope user --not-buildable gmake pkgconf >/dev/null
for variant in "~ghost-progress" "+ghost-progress"; do
    spec="libarmci@$ver$variant"
    echo "spack-check: spack install --no-checksum $spec"
    spack install --no-checksum "$spec"
    prefix=$(spack location -i "$spec")
    [ -f "$prefix/include/armci.h" ] && [ -f "$prefix/lib/cmake/libarmci/libarmciConfig.cmake" ] ||
        { echo "spack-check: FAIL: $prefix lacks armci.h or the CMake package"; exit 1; }
    # the ghost build launches a ghost beside each node's users: 2 ranks
    np=1
    [ "$variant" = "~ghost-progress" ] || np=2
    mpiexec --allow-run-as-root --oversubscribe -n $np "$prefix/bin/armci-info" >/dev/null ||
        { echo "spack-check: FAIL: armci-info of $spec"; exit 1; }
done
# the spec lines docs/install.md gives for GA and NWChem concretize onto
# this repository's recipes and libarmci (namespaces shown: not the
# builtin ones); their own sources are not in the mirror (GA is built below)
for s in "globalarrays armci=libarmci ^libarmci@$ver~ghost-progress" \
    "nwchem armci=libarmci ^libarmci@$ver+ghost-progress"; do
    echo "spack-check: spack spec $s"
    spack spec -N "$s" >"$work/spec.txt"
    grep -q "^[^^]*libarmci\.${s%% *}@.* armci=libarmci" "$work/spec.txt" &&
        grep -q "\^libarmci\.libarmci@$ver" "$work/spec.txt" ||
        { cat "$work/spec.txt"; echo "spack-check: FAIL: spack spec $s"; exit 1; }
done
prefix=$(spack location -i "libarmci@$ver~ghost-progress")
if [ -n "$ga_src" ]; then
    GA_WORK=$work/ga "$top/tools/apps/ga.sh" -B "$ga_src" "$prefix"
fi
echo "spack-check: passed: libarmci@$ver (plain and +ghost-progress) installed by Spack, GA and NWChem spec lines concretized${ga_src:+, GA built on it}"
