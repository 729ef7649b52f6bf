#!/bin/sh
# One-process jobs (how people debug, and how small jobs run): a few test
# programs as singletons (no launcher) and with the launcher and one rank,
# under the MPI's default components.  They must pass exactly as with
# more ranks.  Runs in mode "on" only (77 = skip): the modes force
# components through the launcher.
case ${ARMCI_TEST_MODE:-on} in on) ;; *) echo "SKIP: runs in mode on"; exit 77 ;; esac
dir=${TESTS_BUILDDIR:-tests}/mpi
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
fail=0
n=0
for prog in test_contig test_nb test_strided test_vector test_rmw test_optional; do
    for how in singleton launcher; do
        n=$((n + 1))
        if [ $how = singleton ]; then
            out=$(timeout -k 5 60 "$dir/$prog" 2>&1 </dev/null)
        else
            out=$(timeout -k 5 60 $runner 1 "$dir/$prog" 2>&1 </dev/null)
        fi
        rc=$?
        if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^PASS $prog"; then
            echo "FAIL $prog, one process ($how): exit status $rc"
            printf '%s\n' "$out" | grep -v '^ *$' | head -8
            fail=$((fail + 1))
        else
            echo "ok   $prog, one process ($how)"
        fi
    done
done
echo "single-process: $((n - fail)) of $n runs passed"
[ $fail -eq 0 ]
