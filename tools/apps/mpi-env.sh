# Sourced by tools/apps scripts: mpi_env MPI sets the compilers and the
# launcher for one MPI.  MPI is "ompi" (Debian's Open MPI), "mpich"
# (Debian's MPICH) or the prefix of another installation (PREFIX/bin/mpicc,
# mpicxx, mpifort, mpiexec).  Sets MPICC MPICXX MPIFC MPIEXEC (the launcher
# words before the rank count), MPI_LDFLAGS and mpi_tag (a short name for
# directories).  MPI_LDFLAGS puts another installation's lib first: GA's
# Fortran link line lists the compiler's system directories (FLIBS) before
# the wrapper's own -L, so "-lmpi" found Debian's Open MPI library in
# /usr/lib and GA's programs loaded two MPIs (all crashed in MPI_Comm_dup).
mpi_env() {
    MPI_LDFLAGS=
    case $1 in
    ompi)
        MPICC=mpicc.openmpi MPICXX=mpicxx.openmpi MPIFC=mpif90.openmpi mpi_tag=ompi
        MPIEXEC="mpiexec.openmpi --allow-run-as-root --oversubscribe -n" ;;
    mpich)
        MPICC=mpicc.mpich MPICXX=mpicxx.mpich MPIFC=mpif90.mpich mpi_tag=mpich
        MPIEXEC="mpiexec.mpich -n" ;;
    /*)
        [ -x "$1/bin/mpicc" ] || { echo "mpi_env: no $1/bin/mpicc" >&2; return 2; }
        MPICC=$1/bin/mpicc MPICXX=$1/bin/mpicxx MPIFC=$1/bin/mpifort
        MPI_LDFLAGS="-L$1/lib"
        mpi_tag=$(basename "$1")
        if [ -x "$1/bin/ompi_info" ]; then
            MPIEXEC="$1/bin/mpiexec --allow-run-as-root --oversubscribe -n"
        else
            MPIEXEC="$1/bin/mpiexec -n"
        fi ;;
    *) echo "mpi_env: unknown MPI '$1' (ompi, mpich or an absolute prefix)" >&2; return 2 ;;
    esac
    export MPICC MPICXX MPIFC MPIEXEC MPI_LDFLAGS
}

# procname_shim DIR SRC: builds SRC (tools/apps/procname_shim.c) for the
# chosen MPI into DIR, once per MPI, and prints the library's path: what
# GA's own runtimes preload, in their ranks only, to run on virtual nodes
# (modes.sh, native-vnK).  Needs mpi_env first.
procname_shim() {
    _so=$1/procname-shim-$mpi_tag.so
    if [ ! -f "$_so" ] || [ "$2" -nt "$_so" ]; then
        mkdir -p "$1" && $MPICC -shared -fPIC -O2 -o "$_so" "$2" ||
            { echo "procname_shim: building $_so failed" >&2; return 1; }
    fi
    echo "$_so"
}
