#!/bin/sh
# Packs this host's Open MPI (with its UCX, PMIx and hwloc), the C library
# and the given programs into DIR, so that the benchmarks can run on an
# x86-64 Linux machine that has no MPI (a lent benchmark machine): every
# program there runs under the bundled dynamic loader, so the other
# machine's C library does not matter.
#
# usage: mpi-bundle.sh DIR PROGRAM...
# then, on the other machine (DIR may have moved):
#   DIR/mpiexec -n 16 [mpiexec options] DIR/benchmarks/PROGRAM [args]
# e.g. RUNNER="DIR/mpiexec -n" multiphase.sh DIR, MPIEXEC=DIR/mpiexec async.sh DIR
# DIR/mpiexec is orterun relocated with OPAL_PREFIX and PMIX_INSTALL_PREFIX;
# DIR/run starts a bundled program under the bundled loader. Nothing is
# exported through LD_LIBRARY_PATH, so the other machine's own tools (sh,
# awk) keep their C library.
# MPI_BUNDLE_LIBPATH: more directories (colon-separated) where the programs'
# libraries are found while packing (an installed libarmci.so, say).
# On the other machine, BUNDLE_LIBPATH (searched before DIR/lib: another
# build of a library with the same soname) and BUNDLE_PRELOAD (a library
# preloaded into the program, not into the launcher) reach every rank
# through mpiexec's environment.
set -e
dir=${1:?usage: mpi-bundle.sh DIR PROGRAM...}
shift
multi=/usr/lib/x86_64-linux-gnu
rm -rf "$dir"
mkdir -p "$dir/lib" "$dir/bin" "$dir/root/usr/bin" "$dir/root/usr/share" "$dir/root$multi"
cp -a "$multi/openmpi" "$multi/pmix2" "$dir/root$multi/"
# PMIx's parameter file names its plugins by absolute path.  Where the
# other machine has a PMIx of its own there, PMIx still tries those plugins
# and reports that they fail to load (seen on the lent machines); it runs
# without them (no compression of launch data).
sed -i '/^mca_base_component_path/d' "$dir/root$multi/pmix2/share/pmix-mca-params.conf"
cp -a /usr/share/openmpi "$dir/root/usr/share/"
# Debian's defaults (osc ucx and pt2pt off unless asked for, btl ofi off)
cp /etc/openmpi/openmpi-mca-params.conf "$dir/"
cp -L "$(command -v orterun)" "$dir/root/usr/bin/orterun"
# UCX finds its transports beside libucs, which goes to lib/
cp -a "$multi/ucx" "$dir/lib/"
libpath=${MPI_BUNDLE_LIBPATH:+:$MPI_BUNDLE_LIBPATH}
for p in "$@"; do
    if head -c 4 "$p" | grep -q ELF; then
        cp -L "$p" "$dir/bin/"
    else # a libtool wrapper: the program is in .libs, its library where the wrapper says
        cp -L "$(dirname "$p")/.libs/$(basename "$p")" "$dir/bin/"
        libpath=$libpath:$(sed -n 's/^ *LD_LIBRARY_PATH="\([^:]*\):.*/\1/p' "$p" | head -n 1)
    fi
done
# Every library any bundled ELF file needs, flat under lib/ by soname.
find "$dir" -type f \( -name '*.so*' -o -perm -u+x \) | while read -r f; do
    head -c 4 "$f" | grep -q ELF || continue
    LD_LIBRARY_PATH=${libpath#:} ldd "$f" 2>/dev/null | awk '/=> \// { print $1, $3 } /not found/ { print "MISSING", $1 }'
done | sort -u | while read -r name path; do
    if [ "$name" = MISSING ]; then echo "mpi-bundle.sh: nobody provides $path" >&2; continue; fi
    [ -e "$dir/lib/$name" ] || cp -L "$path" "$dir/lib/$name"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$dir/lib/"
cat > "$dir/run" << 'EOF'
#!/bin/sh
d=$(cd "$(dirname "$0")" && pwd)
m=$d/root/usr/lib/x86_64-linux-gnu
set -- --library-path "${BUNDLE_LIBPATH:+$BUNDLE_LIBPATH:}$d/lib:$m/openmpi/lib:$m/pmix2/lib" "$@"
[ -z "${BUNDLE_PRELOAD:-}" ] || set -- --preload "$BUNDLE_PRELOAD" "$@"
exec "$d/lib/ld-linux-x86-64.so.2" "$@"
EOF
cat > "$dir/mpiexec" << 'EOF'
#!/bin/sh
d=$(cd "$(dirname "$0")" && pwd)
m=$d/root/usr/lib/x86_64-linux-gnu
OPAL_PREFIX=$d/root/usr PMIX_INSTALL_PREFIX=$m/pmix2
OMPI_MCA_mca_base_param_files=$d/openmpi-mca-params.conf
export OPAL_PREFIX PMIX_INSTALL_PREFIX OMPI_MCA_mca_base_param_files
# plm isolated: one node, no ssh needed (the other machine may have none)
exec "$d/run" "$d/root/usr/bin/orterun" --allow-run-as-root --mca plm isolated "$@"
EOF
chmod +x "$dir/run" "$dir/mpiexec"
# DIR/benchmarks/NAME starts bin/NAME, so that DIR serves as the BUILD_DIR
# of multiphase.sh and async.sh
mkdir -p "$dir/benchmarks"
for p in "$@"; do
    n=$(basename "$p")
    # shellcheck disable=SC2016 # the wrapper expands them, not this script
    printf '#!/bin/sh\nd=$(cd "$(dirname "$0")/.." && pwd)\nexec "$d/run" "$d/bin/%s" "$@"\n' "$n" > "$dir/benchmarks/$n"
    chmod +x "$dir/benchmarks/$n"
done
du -sh "$dir"
