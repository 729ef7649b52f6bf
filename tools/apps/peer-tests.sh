#!/bin/sh
# Builds the peer's own test programs (pmodels/armci-mpi: tests/*.c and
# tests/contrib, ARMCI API only) against an installed libarmci and runs
# them in the transport modes that apply: the tests another ARMCI's users
# already trust, run unchanged on this library.  Nothing is downloaded:
# PEER_SRC is an armci-mpi source tree (a git checkout is enough: only its
# tests/ are read, never copied into this repository).
#
# usage: tools/apps/peer-tests.sh [options] PEER_SRC ARMCI_PREFIX
#   -m MPI      ompi (Debian Open MPI, default), mpich (Debian MPICH), or the
#               prefix of another MPI installation
#   -M MODES    modes (tools/apps/modes.sh); default "on off vn2 vn1", or
#               "ghost-on ghost-auto ghost-off" for a --enable-ghost-progress
#               install (read from its armciconf.h)
#   -n NPROCS   computing processes per test (default 4)
#   -T TESTS    only these programs (names as in the table below)
#   -B          build only
# Environment: GA_WORK (cache of builds and logs, shared with ga.sh;
# default $HOME/.cache/libarmci-apps), PEER_TEST_TIMEOUT (seconds per run,
# 120), PEER_MPIEXEC_ARGS (extra launcher words, e.g. "--mca osc pt2pt").
# Prints one line per mode (pass/fail counts and the failed programs) and
# exits non-zero if any program failed in any mode.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/modes.sh"
app_options 9,22 "$@"
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '9,22p' "$0"; exit 2; }
peer=$(cd "$1/tests" && pwd) ||
    { echo "peer-tests.sh: $1 has no tests/ (an armci-mpi tree?)" >&2; exit 2; }
prefix=$(cd "$2" && pwd)
[ -f "$prefix/include/armci.h" ] && [ -f "$prefix/include/armciconf.h" ] ||
    { echo "peer-tests.sh: $prefix is not a libarmci install (include/armciconf.h)" >&2; exit 2; }
. "$here/mpi-env.sh"
mpi_env "$mpi"
ghost=$(sed -n 's/^#define ARMCI_GHOST_PROGRESS \([01]\).*/\1/p' "$prefix/include/armciconf.h")

# NAME|SOURCES (under tests/)|ARGS|EXPECT.  EXPECT "abort:TEXT": the program
# must end non-zero having printed TEXT (test_assert passes a NULL buffer:
# the peer lists it as an expected failure; here the clean ARMCI_Error is
# the pass).  test_malloc, also an expected failure of the peer (it frees
# the NULL pointers of zero-byte allocations), must pass.  Left out, as the
# peer's own `make check` leaves them out: contrib/cg crashes in its own
# input distribution on the peer itself; contrib/non-blocking/overlap spins
# forever in its random pairing of processes when the last free slot is its
# own (seeded by time(): 2 hangs in 35 runs here, every rank in main()).
programs='
test_onesided|test_onesided.c||ok
test_onesided_shared|test_onesided_shared.c||ok
test_onesided_shared_dla|test_onesided_shared_dla.c||ok
test_mutex|test_mutex.c||ok
test_mutex_rmw|test_mutex_rmw.c||ok
test_mutex_trylock|test_mutex_trylock.c||ok
test_malloc|test_malloc.c||ok
test_malloc_irreg|test_malloc_irreg.c||ok
ARMCI_PutS_latency|ARMCI_PutS_latency.c||ok
ARMCI_AccS_latency|ARMCI_AccS_latency.c||ok
test_groups|test_groups.c||ok
test_group_split|test_group_split.c||ok
test_malloc_group|test_malloc_group.c||ok
test_accs|test_accs.c||ok
test_accs_dla|test_accs_dla.c||ok
test_acc_overlap|test_acc_overlap.c||ok
test_location_consistency|test_location_consistency.c||ok
test_puts|test_puts.c||ok
test_puts_gets|test_puts_gets.c||ok
test_puts_gets_dla|test_puts_gets_dla.c||ok
test_putv|test_putv.c||ok
test_assert|test_assert.c||abort:ARMCI Error in ARMCI_Get
test_igop|test_igop.c||ok
test_rmw_fadd|test_rmw_fadd.c||ok
test_parmci|test_parmci.c test_parmci_lib.c||ok
armci-perf|contrib/armci-perf.c||ok
armci-test|contrib/armci-test.c||ok
lu|contrib/lu/lu.c contrib/lu/lu_timing.c||ok
lu-block|contrib/lu/lu-block.c contrib/lu/lu_timing.c||ok
lu-b-bc|contrib/lu/lu-b-bc.c contrib/lu/lu_timing.c||ok
simple|contrib/non-blocking/simple.c||ok
transp1D-c|contrib/transp1D/transp1D-c.c||ok
'

work=${GA_WORK:-$HOME/.cache/libarmci-apps}
tag=$(basename "$prefix")-$mpi_tag
bin=$work/peer-tests-$tag
mkdir -p "$bin"
while IFS='|' read -r name srcs args expect; do
    [ -n "$name" ] || continue
    set -- # the sources, each under the peer's tests/; the program's own
    for s in $srcs; do set -- "$@" "$peer/$s"; done # directory first for mp3.h
    $MPICC -O2 -I"$(dirname "$1")" -I"$prefix/include" -o "$bin/$name" "$@" \
        $MPI_LDFLAGS -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -larmci -lm \
        >"$bin/$name.build.log" 2>&1 ||
        { echo "peer-tests.sh: $name does not build:" >&2; tail -5 "$bin/$name.build.log" >&2; exit 1; }
done <<EOF
$programs
EOF
echo "peer-tests.sh: peer tests built against $prefix in $bin"
[ "$check" = 1 ] || exit 0

[ -n "$modes" ] || if [ "$ghost" = 1 ]; then modes="ghost-on ghost-auto ghost-off"; else modes="on off vn2 vn1"; fi
status=0
for mode in $modes; do
    mode_env "$mode" "$nprocs" armci || exit 2
    # runs under other launcher words (another osc) keep their own logs
    logs=$work/logs-peer-tests-$tag$(printf '%s' "${PEER_MPIEXEC_ARGS:+-$PEER_MPIEXEC_ARGS}" |
        tr -c 'A-Za-z0-9-' _)/$mode
    rm -rf "$logs" && mkdir -p "$logs"
    pass=0 fail=0 failed="" t0=$(date +%s)
    # a here-document, not a pipe: the counters must survive the loop
    while IFS='|' read -r name srcs args expect; do
        [ -n "$name" ] || continue
        [ -z "$tests" ] || case " $tests " in *" $name "*) ;; *) continue ;; esac
        log=$logs/$name.log
        rc=0
        (cd "$logs" && timeout "${PEER_TEST_TIMEOUT:-120}" $MPIEXEC $mode_np \
            ${PEER_MPIEXEC_ARGS:-} "$bin/$name" $args) </dev/null >"$log" 2>&1 || rc=$?
        ok=0
        case $expect in
        ok) [ $rc = 0 ] && ok=1 ;;
        abort:*) [ $rc != 0 ] && [ $rc != 124 ] && grep -qF "${expect#abort:}" "$log" && ok=1 ;;
        esac
        echo "rc=$rc expect=$expect verdict=$ok" >>"$log"
        if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)) failed="$failed $name(rc=$rc)"; fi
    done <<EOF
$programs
EOF
    echo "peer-tests.sh: $tag mode $mode ($mode_np ranks, $(($(date +%s) - t0)) s): pass $pass fail $fail${failed:+ failed:$failed}"
    [ $fail = 0 ] || status=1
done
exit $status
