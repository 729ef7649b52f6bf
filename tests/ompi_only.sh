# Sourced by the Open MPI probes (tests/mpi/test_ompi_*.sh) and
# test_badinput.sh; defines functions only.  MPI_FLAVOR and OMPI_OSC come
# from configure through make check.

# The osc components of the Open MPI under test, space-separated.
ompi_osc_list() {
    if [ -n "${OMPI_OSC-}" ]; then
        echo $OMPI_OSC
    else
        ompi_info --parsable 2>/dev/null | sed -n 's/^mca:osc:\([a-z0-9_]*\):.*/\1/p' | sort -u | tr '\n' ' '
    fi
}

# Skip (77) unless the MPI under test is Open MPI and has osc component $1
# (when given).
ompi_only() {
    if [ "${MPI_FLAVOR:-openmpi}" != openmpi ]; then
        echo "SKIP: Open MPI probe; this MPI is $MPI_FLAVOR"; exit 77
    fi
    [ -z "$1" ] && return 0
    case " $(ompi_osc_list) " in
    *" $1 "*) ;;
    *) echo "SKIP: this Open MPI has no osc/$1"; exit 77 ;;
    esac
}

# A probe that timed out proves nothing by itself (a loaded machine is slow
# too): where a reproducer hangs, the library must act on the quirk that
# routes around the hang.  require_quirk NAME OSC fails the test unless
# armci-info, run under osc component OSC, shows quirk NAME in force.
require_quirk() {
    info=${TESTS_BUILDDIR:-tests}/../armci-info
    out=$(timeout -k 5 60 ${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n} 2 \
          --mca osc "$2" "$info" 2>&1)
    if printf '%s\n' "$out" | sed -n "/^  $1 *:/,/in force/p" |
        grep -q "in force in this run: yes"; then
        echo "the library acts on $1 under osc/$2 (armci-info)"
    else
        echo "FAIL: the reproducer hangs under osc/$2 but the library does not act on $1:"
        printf '%s\n' "$out" | sed -n "/^  $1 *:/,/in force/p"
        exit 1
    fi
}
