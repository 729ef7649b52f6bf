#!/bin/sh
# make check: each GA-level benchmark (benchmarks/ga/ga_scf, ga_patch,
# ga_irreg, ga_classes) once in its `small` mode (tiny sizes, 1 repetition) as a
# correctness test, in every transport mode (tests/run-mode.sh exports the
# mode's environment and MPI_MCA); ga_classes also with work between its
# operations (busy=5), which times only the operations.  Every program
# verifies its own results and exits non-zero on a wrong value.  Skips when configure found no
# Global Arrays (the programs are then not built).
top=${TESTS_BUILDDIR:-tests}/..
runner=${TEST_RUNNER:-mpiexec --allow-run-as-root --oversubscribe -n}
np=${NPROCS:-4}
progs="ga_scf ga_patch ga_irreg ga_classes"
for p in $progs; do
    [ -x "$top/benchmarks/ga/$p" ] ||
        { echo "SKIP: benchmarks/ga/$p not built (configure found no Global Arrays)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for run in $progs ga_classes:busy=5; do
    p=${run%%:*} args=small
    [ "$p" = "$run" ] || args="small ${run#*:}"
    timeout -k 5 60 $runner "$np" $MPI_MCA "$top/benchmarks/ga/$p" $args >"$tmp/out" 2>&1 </dev/null
    rc=$?
    cat "$tmp/out"
    if [ $rc -ne 0 ]; then
        echo "FAIL $p $args: exit status $rc"
        status=1
    elif ! grep -q "^# $p: every .* verified" "$tmp/out" ||
        ! grep -q '^kernel size time_s$' "$tmp/out"; then
        echo "FAIL $p $args: no header or no verification line in its output"
        status=1
    elif [ "$args" != small ] && ! grep -q "^# $p: .* ${args#small }; " "$tmp/out"; then
        echo "FAIL $p $args: its header does not show ${args#small } (the setting did not take)"
        status=1
    else
        echo "PASS $p $args ($np ranks)"
    fi
done
exit $status
