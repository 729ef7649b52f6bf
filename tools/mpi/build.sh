#!/bin/bash
# Build an MPI from a source tree (tools/mpi/tree.sh makes one) into PREFIX,
# with Debian's packages for what the tree's snapshot lacks.
#
#   tools/mpi/build.sh ompi5|mpich43 SRC PREFIX
#
# ompi5:   Open MPI 5.0.x. Debian's hwloc and libevent (the snapshot has no
#          hwloc tarball); the bundled PMIx and PRRTE, because Debian's PMIx
#          4.2.2 is older than the 4.2.4 PRRTE 3 wants and configure would
#          otherwise take it from /usr; UCX found by plain --with-ucx (an
#          explicit /usr misses Debian's multiarch directory). Fortran:
#          mpif.h and "use mpi" (GA and NWChem need no mpi_f08).
# mpich43: MPICH 4.3.x, ch4:ucx (CH4 picks one network module per build;
#          MPICH_NETMOD=ofi builds ch4:ofi instead); yaksa and json-c
#          from the tree (MPICH 4.3 embeds json-c, no external one), Debian's
#          hwloc, UCX and libfabric.
# Logs go to PREFIX.log/; nothing is downloaded.
set -euo pipefail

die() { echo "build.sh: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: build.sh ompi5|mpich43 SRC PREFIX"
kind=$1 src=$(cd "$2" && pwd) prefix=$3
logs=$prefix.log
mkdir -p "$logs"
jobs=${JOBS:-$(nproc)}

step() {  # step NAME CMD...: run CMD in $src, output to a log, fail loudly
    local name=$1; shift
    echo "build.sh: $name ($(date +%T))"
    if ! (cd "$src" && "$@") > "$logs/$name.log" 2>&1; then
        tail -30 "$logs/$name.log" >&2
        die "$name failed; see $logs/$name.log"
    fi
}

case $kind in
ompi5)
    [ -x "$src/autogen.pl" ] || die "$src is not an Open MPI tree"
    # A git tree is a developer build: configure wants flex (tarballs
    # ship the generated scanners).
    for p in flex:flex /usr/include/hwloc.h:libhwloc-dev /usr/include/event.h:libevent-dev \
             /usr/include/ucp/api/ucp.h:libucx-dev; do
        case ${p%%:*} in
        /*) [ -e "${p%%:*}" ] ;;
        *) command -v "${p%%:*}" >/dev/null ;;
        esac || die "${p%%:*} missing: apt-get install -y ${p#*:}"
    done
    step autogen ./autogen.pl --no-3rdparty hwloc,libevent
    step configure ./configure --prefix="$prefix" \
        --with-hwloc=external --with-libevent=external \
        --with-pmix=internal --with-prrte=internal --with-ucx \
        --enable-mpi-fortran=usempi --disable-oshmem
    ;;
mpich43)
    [ -x "$src/autogen.sh" ] || die "$src is not an MPICH tree"
    for m in yaksa json-c; do
        [ -n "$(ls -A "$src/modules/$m" 2>/dev/null)" ] || die "$src lacks modules/$m"
    done
    netmod=${MPICH_NETMOD:-ucx}
    # configure takes all three from /usr and stops on the first missing
    # one with "--with-libfabric is given but not found": say which package.
    for h in hwloc.h:libhwloc-dev ucp/api/ucp.h:libucx-dev rdma/fabric.h:libfabric-dev; do
        [ -e "/usr/include/${h%%:*}" ] || die "/usr/include/${h%%:*} missing: apt-get install -y ${h#*:}"
    done
    # Submodules left empty (Debian's packages replace them) must not exist:
    # autogen.sh copies modules/hwloc into hydra and runs its autogen when
    # the directory is there, empty or not.
    for m in hwloc ucx libfabric mydef_boot; do
        rmdir "$src/modules/$m" 2>/dev/null || true
    done
    step autogen ./autogen.sh -without-hwloc -without-ucx -without-ofi
    step configure ./configure --prefix="$prefix" \
        --with-device=ch4:"$netmod" --with-hwloc=/usr \
        --with-ucx=/usr --with-libfabric=/usr \
        --enable-fortran=f77,fc --disable-doc
    ;;
*) die "unknown kind '$kind' (ompi5 or mpich43)" ;;
esac
step make make -j"$jobs"
step install make install
"$prefix/bin/mpicc" -show
echo "build.sh: $kind installed in $prefix"
