# Sourced by the Open MPI probes (tests/mpi/test_ompi_*.sh): skip (77)
# unless the MPI under test is Open MPI and has osc component $1 (when
# given).  MPI_FLAVOR and OMPI_OSC come from configure through make check.
ompi_only() {
    if [ "${MPI_FLAVOR:-openmpi}" != openmpi ]; then
        echo "SKIP: Open MPI probe; this MPI is $MPI_FLAVOR"; exit 77
    fi
    [ -z "$1" ] && return 0
    osc=${OMPI_OSC-}
    [ -n "$osc" ] || osc=$(ompi_info --parsable 2>/dev/null | sed -n 's/^mca:osc:\([a-z0-9_]*\):.*/\1/p')
    case " $(echo $osc) " in
    *" $1 "*) ;;
    *) echo "SKIP: this Open MPI has no osc/$1"; exit 77 ;;
    esac
}
