# Sourced by tools/apps/nwchem.sh once NWChem is built: runs NWChem's QA
# tests through NWChem's own QA/runtests.mpi.unix (which compares each
# output against the reference with nwparse.pl's tolerances), one test per
# call so that each gets its time and its status, in every mode asked for.
# Uses nwchem.sh's variables: top exe work tag runtime nprocs modes tests
# armci_prefix MPIEXEC here.
. "$here/nwchem-tests.sh"
[ -n "$tests" ] || tests=$(nw_tests "$top/QA")
[ -n "$modes" ] || case $runtime in armci) modes="on vn2" ;; *) modes=native ;; esac

# runtests.mpi.unix launches "$MPIRUN_PATH -np N nwchem input"; this
# launcher turns that into the chosen MPI's command with a time limit, so a
# hang is a failure and not a stuck run.
launcher=$top/qa-launch.sh
# QA_RANK_PRELOAD: a library the ranks preload, never the launcher (GA's
# runtimes on virtual nodes: procname_shim.c, mode native-vnK).
cat >"$launcher" <<EOF
#!/bin/sh
[ "\$1" = -np ] && shift
n=\$1
shift
[ -z "\${QA_RANK_PRELOAD:-}" ] || set -- env LD_PRELOAD="\$QA_RANK_PRELOAD" "\$@"
exec timeout -k 10 ${NWCHEM_TEST_TIMEOUT:-1800} $MPIEXEC "\$n" "\$@"
EOF
chmod +x "$launcher"
export NWCHEM_TOP=$top NWCHEM_TARGET=LINUX64 NWCHEM_EXECUTABLE=$exe
export MPIRUN_PATH=$launcher MPIRUN_NPOPT=-np
export OMP_NUM_THREADS=1

status=0
for mode in $modes; do
    QA_RANK_PRELOAD=
    mode_env "$mode" "$nprocs" "$runtime" || exit 2
    lib=""
    case $mode in
    ghost-*)
        [ -n "${ARMCI_GHOST_PREFIX:-}" ] && [ -f "$ARMCI_GHOST_PREFIX/include/armci.h" ] ||
            { echo "nwchem.sh: mode $mode needs ARMCI_GHOST_PREFIX (a ghost build's install)" >&2; exit 2; }
        lib=$ARMCI_GHOST_PREFIX/lib ;;
    native) ;;
    native-vn*) QA_RANK_PRELOAD=$(procname_shim "$work" "$here/procname_shim.c") || exit 1 ;;
    *) lib=${ARMCI_RUN_PREFIX:-$armci_prefix}/lib ;;
    esac
    export QA_RANK_PRELOAD
    logs=$work/logs-$tag/$mode
    rm -rf "$logs" && mkdir -p "$logs"
    results=$logs/results.txt
    echo "# NWChem QA, $tag, mode $mode, $mode_np processes, $(date -u +%FT%TZ)" >"$results"
    npass=0 nfail=0
    for t in $tests; do
        t0=$(date +%s.%N)
        rc=0
        (cd "$top/QA" && LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            ./runtests.mpi.unix procs "$mode_np" "$t") >"$logs/$t.runtests.out" 2>&1 || rc=$?
        secs=$(echo "$(date +%s.%N) - $t0" | bc)
        # runtests exits 0 and prints one "OK" also when it could not find
        # a test; a compared test adds an "OK" after nwparse's comparison
        # matched (on its own line when the run wrote to stderr)
        if [ $rc = 0 ] && [ "$(grep -c 'OK$' "$logs/$t.runtests.out")" -ge 2 ]; then
            r=pass npass=$((npass + 1))
        else
            r=fail nfail=$((nfail + 1)) status=1
        fi
        stub=$(basename "$t")
        cp "$top/QA/testoutputs/$stub.out" "$top/QA/testoutputs/$stub.err" "$logs/" 2>/dev/null ||
            true
        printf '%-28s %-4s %8.1f s\n' "$t" "$r" "$secs" | tee -a "$results"
    done
    echo "nwchem.sh: NWChem QA $tag mode $mode ($mode_np processes): $npass pass, $nfail fail; $results" |
        tee -a "$results"
done
exit $status
