#!/bin/sh
# armci-info prints every section, says where each setting came from, names
# the MPI it runs on, and with --probe (2 processes) gives a yes/no row per
# operation class.  It launches MPI itself, once with 1 process and once
# with 2 (3 in the ghost build: 2 users + 1 ghost).
top=${TESTS_BUILDDIR:-tests}/..
bin=$top/armci-info
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
if [ ! -x "$bin" ]; then
    echo "FAIL test_armci_info: $bin is not built"; exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_armci_info.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL test_armci_info: $*"; fail=1; }
# In the ghost build a lone process would have to be a ghost: the 1-process
# run has none, the probe runs 2 users + 1 ghost.
ghost_env= probe_n=2
. "${TESTS_SRCDIR:-tests}/build_facts.sh"
if ghost_build; then
    ghost_env=ARMCI_GHOSTS_PER_NODE=0 probe_n=3
fi
# The checks below expect these at their defaults.
unset ARMCI_NODE_LOCAL ARMCI_VIRTUAL_NODE_SIZE

env ARMCI_VERBOSE=1 $ghost_env timeout -k 5 120 $runner 1 "$bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { bad "1 process: exit code $rc"; tail -5 "$tmp/err"; }
for s in "Version and build" "MPI library" "MPI quirks and workarounds" \
    "One-sided components by window kind" "Environment (configuration table)" \
    "Node layout" "Target progress"; do
    grep -q "^== $s" "$tmp/out" || bad "section '$s' missing"
done
grep -Eq '^ +ARMCI_VERBOSE += 1 +\(environment\)$' "$tmp/out" ||
    bad "ARMCI_VERBOSE not reported as 1 from the environment"
grep -Eq '^ +ARMCI_NODE_LOCAL += on +\(default\)$' "$tmp/out" ||
    bad "ARMCI_NODE_LOCAL not reported as the default (on)"
for q in ACC_DTYPE_SPLIT WIN_POKE DYNWIN_BROKEN NO_FLUSH_LOCAL BY_REQUEST; do
    grep -Eq "^ +$q +: (on|off)" "$tmp/out" || bad "quirk $q not reported"
done
for w in MPI_Win_allocate_shared MPI_Win_allocate MPI_Win_create MPI_Win_create_dynamic; do
    grep -Eq "^ +$w +(node|world) +[^ ]" "$tmp/out" || bad "window kind $w not reported"
done
grep -Eq '^ +ghosts would serve +: (none|[a-z]+( [a-z]+)*) \(' "$tmp/out" ||
    bad "ghost redirection classes not reported"
grep -Eq '^ +configure options +: ' "$tmp/out" || bad "configure options missing"
grep -q 'not run.*armci-info --probe' "$tmp/out" || bad "no pointer to --probe"

# The version line is MPI_Get_library_version's first line; where the MPI's
# own tool is at hand it must name the same release.
lib=$(sed -n 's/^ *MPI_Get_library_version *: //p' "$tmp/out")
case $lib in
"") bad "MPI library version line empty" ;;
"Open MPI v"*)
    grep -Eq '^ +identified as +: Open MPI [0-9]' "$tmp/out" || bad "Open MPI not identified"
    want=$(${MPI_BINDIR:+$MPI_BINDIR/}ompi_info --version 2>/dev/null | sed -n 's/^\(Open MPI v[^ ]*\).*/\1/p' | head -1)
    case $lib in "$want"*) ;; *) bad "version '$lib' but ompi_info says '$want'" ;; esac ;;
"MPICH Version: "*)
    grep -Eq '^ +identified as +: MPICH [0-9]' "$tmp/out" || bad "MPICH not identified"
    want=$( (${MPI_BINDIR:+$MPI_BINDIR/}mpichversion.mpich ||
             ${MPI_BINDIR:+$MPI_BINDIR/}mpichversion) 2>/dev/null |
            sed -n 's/^MPICH Version:[[:space:]]*//p' | head -1)
    [ -z "$want" ] || [ "$lib" = "MPICH Version: $want" ] ||
        bad "version '$lib' but mpichversion says '$want'" ;;
esac

timeout -k 5 120 $runner $probe_n "$bin" --probe >"$tmp/probe" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { bad "--probe: exit code $rc"; tail -5 "$tmp/err"; }
for c in put get accumulate fetch_and_op "strided put"; do
    grep -Eq "^ +$c +\| +[0-9]+\.[0-9]+ +\| +(yes|no)\$" "$tmp/probe" ||
        bad "--probe: no row for '$c'"
done

if [ $fail -ne 0 ]; then
    echo "--- armci-info output (1 process):"; cat "$tmp/out"
    echo "--- armci-info --probe output:"; sed -n '/^== Target/,$p' "$tmp/probe"
    exit 1
fi
echo "PASS test_armci_info ($lib)"
sed -n '/^== Target/,$p' "$tmp/probe"
