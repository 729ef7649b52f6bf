# Sourced by the Open MPI probes (tests/mpi/test_ompi_*.sh) and
# test_badinput.sh; defines functions only.  MPI_FLAVOR and OMPI_OSC come
# from configure through make check.

# The osc components of the Open MPI under test, space-separated.
ompi_osc_list() {
    if [ -n "${OMPI_OSC-}" ]; then
        echo $OMPI_OSC
    else
        ${MPI_BINDIR:+$MPI_BINDIR/}ompi_info --parsable 2>/dev/null | sed -n 's/^mca:osc:\([a-z0-9_]*\):.*/\1/p' | sort -u | tr '\n' ' '
    fi
}

# Whether Open MPI's osc component $1 creates windows on this host
# (tests/mpi/osc_usable.c): listed by ompi_info is not enough, Open MPI
# 5.0's osc/ucx over a UCX without RMA transports refuses every window.
# Measured once per build directory (TESTS_BUILDDIR/osc-usable.$1), so that
# tests do not each pay a launch; the file holds the probe's answer line.
# Two processes: 4.1's osc/rdma creates no window for one (no RDMA to self).
ompi_osc_usable() {
    _dir=${TESTS_BUILDDIR:-tests}
    _cache=$_dir/osc-usable.$1
    if [ ! -s "$_cache" ]; then
        _out=$(timeout -k 5 60 ${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n} 2 \
               --mca osc "$1" "$_dir/mpi/osc_usable" 2>&1)
        _ans=$(printf '%s\n' "$_out" | grep -E '^(YES|NO)' | head -1)
        [ -n "$_ans" ] ||
            _ans="NO: the probe gave no answer: $(printf '%s\n' "$_out" | grep -v '^ *$' | tail -1)"
        printf '%s\n' "$_ans" > "$_cache.$$" && mv -f "$_cache.$$" "$_cache"
    fi
    case $(cat "$_cache") in YES*) return 0 ;; *) return 1 ;; esac
}

# Skip (77) when osc component $1 creates no window here.
ompi_skip_unusable() {
    ompi_osc_usable "$1" && return 0
    echo "SKIP: osc/$1 is listed but creates no window here" \
         "($(cat "${TESTS_BUILDDIR:-tests}/osc-usable.$1"))"
    exit 77
}

# Skip (77) unless the MPI under test is Open MPI and has osc component $1
# (when given), and that component creates windows here.
ompi_only() {
    if [ "${MPI_FLAVOR:-openmpi}" != openmpi ]; then
        echo "SKIP: Open MPI probe; this MPI is $MPI_FLAVOR"; exit 77
    fi
    [ -z "$1" ] && return 0
    case " $(ompi_osc_list) " in
    *" $1 "*) ;;
    *) echo "SKIP: this Open MPI has no osc/$1"; exit 77 ;;
    esac
    ompi_skip_unusable "$1"
}

# Runs a reproducer whose bug is a hang (tests/mpi/repro_watchdog.h):
# repro_hang STAGE COMMAND... returns 0 when it ran to completion (bug
# absent) and 1 when it reported the hang itself (exit 3 with a line
# "HANG: ... no return from STAGE..."; bug present).  Anything else fails
# the test: exit 1 (wrong data), a crash, a HANG in another stage, or the
# outer timeout (no answer: a launch that never reached the suspected call
# proves nothing, and is not the bug).
repro_hang() {
    stage=$1
    shift
    out=$(timeout -k 5 ${REPRO_TIMEOUT:-90} "$@" 2>&1 </dev/null)
    rc=$?
    case $rc in
    0) return 0 ;;
    3) if printf '%s\n' "$out" | grep -q "^HANG: rank [0-9]*: no return from $stage"; then
           printf '%s\n' "$out" | grep '^HANG:' | head -1
           return 1
       fi
       echo "FAIL: the reproducer hung outside '$stage' (exit 3):" ;;
    124|137) echo "FAIL: no answer: the reproducer was killed after ${REPRO_TIMEOUT:-90} s (exit $rc)" \
                  "without reporting a hang itself:" ;;
    1) echo "FAIL: the reproducer reported wrong data (exit 1):" ;;
    *) echo "FAIL: the reproducer did not run to an answer (exit $rc):" ;;
    esac
    printf '%s\n' "$out" | tail -8
    exit 1
}

# Where a reproducer hangs, the library must act on the quirk that routes
# around the hang.  require_quirk NAME OSC fails the test unless
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
