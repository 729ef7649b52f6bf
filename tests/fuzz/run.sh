#!/bin/sh
# `make fuzz` (tests/fuzz.mk): build the libFuzzer harnesses with clang
# (-fsanitize=fuzzer,address,undefined) and run each for FUZZ_SECONDS over
# a fresh copy of its seed corpus (tests/fuzz/corpus/<harness>/).  Fails when
# a harness finds a crash, a sanitizer report or a violated invariant; the
# input is kept as OUTDIR/crash-<harness>-*.  Skips (exit 0, with a message)
# when clang or its libFuzzer runtime is missing.
#
# usage: run.sh SRCDIR OUTDIR, run from the build directory, with
#   CC             the compiler the build uses (an MPI wrapper: mpicc, mpicc.mpich)
#   FUZZ_CPPFLAGS  the build's preprocessor flags (config.h, include/)
#   FUZZ_CLANG     clang (default clang)
#   FUZZ_SECONDS   seconds per harness (default 20)
#   FUZZ_JOBS      harnesses run at once (default: the CPUs)
#   FUZZ_HARNESSES which harnesses (default: config iov table)
# The harnesses link only pure-C library sources, which need mpi.h for
# types but call no MPI: they are compiled through the MPI wrapper with
# clang as its compiler (OMPI_CC for Open MPI, MPICH_CC for MPICH) and
# linked by clang alone, so no MPI library is loaded.
set -u
srcdir=$1
out=$2
clang=${FUZZ_CLANG:-clang}
seconds=${FUZZ_SECONDS:-20}
harnesses=${FUZZ_HARNESSES:-config iov table}
cppflags=${FUZZ_CPPFLAGS:-}
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
ldflags="-fsanitize=fuzzer,address,undefined"

# The library sources each harness drives.
sources() {
    case $1 in
    config) echo src/common/common_config.c ;;
    iov) echo src/iov/iov_check.c src/iov/iov_iter.c ;;
    table) echo src/gmr/gmr_table.c tests/fuzz/fuzz_stubs.c ;;
    *) echo "run.sh: unknown harness '$1'" >&2; return 1 ;;
    esac
}

skip() {
    echo "make fuzz: skipped: $*"
    exit 0
}

command -v "$clang" >/dev/null 2>&1 || skip "'$clang' not found (set FUZZ_CLANG, or install clang with libFuzzer)"
mkdir -p "$out/obj" || exit 1

# How to compile: the MPI wrapper driving clang, else clang itself (when the
# build's flags already find mpi.h).  The probe must come out of clang and
# link and run with libFuzzer.
cat > "$out/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#ifndef __clang__
#error not clang
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    return 0;
}
EOF
compile=
for cc in "OMPI_CC=$clang MPICH_CC=$clang ${CC:-mpicc}" "$clang"; do
    # shellcheck disable=SC2086
    if env $cc $cflags $cppflags -c "$out/probe.c" -o "$out/probe.o" >"$out/probe.log" 2>&1 &&
        "$clang" $ldflags "$out/probe.o" -o "$out/probe" >>"$out/probe.log" 2>&1 &&
        "$out/probe" -runs=1 >>"$out/probe.log" 2>&1; then
        compile=$cc
        break
    fi
done
[ -n "$compile" ] || skip "$clang cannot build a libFuzzer program with mpi.h here ($out/probe.log)"
echo "make fuzz: compiling with '$compile', $seconds s per harness"

# Build.
for h in $harnesses; do
    srcs=$(sources "$h") || exit 1
    objs=
    for f in tests/fuzz/fuzz_$h.c $srcs; do
        o=$out/obj/$h-$(basename "$f" .c).o
        # shellcheck disable=SC2086
        env $compile $cflags $cppflags -c "$srcdir/$f" -o "$o" || { echo "make fuzz: building $f failed"; exit 1; }
        objs="$objs $o"
    done
    # shellcheck disable=SC2086
    "$clang" $ldflags $objs -o "$out/fuzz_$h" || { echo "make fuzz: linking fuzz_$h failed"; exit 1; }
done

# Run: each harness for $seconds over a fresh copy of its seeds, FUZZ_JOBS
# (default: the CPUs) at a time -- each is one single-threaded process, so
# on CI's 2 cores two at once take the time of one and fuzz as long.
# run_one HARNESS writes its report to $out/fuzz_HARNESS.report and
# creates $out/fuzz_HARNESS.failed on a failure.
run_one() {
    h=$1
    corpus=$out/corpus/$h
    rep=$out/fuzz_$h.report
    rm -rf "$corpus" "$rep" "$out/fuzz_$h.failed" && mkdir -p "$corpus" || { touch "$out/fuzz_$h.failed"; return; }
    cp "$srcdir"/tests/fuzz/corpus/"$h"/* "$corpus"/ 2>/dev/null
    nseeds=$(find "$corpus" -type f | wc -l)
    log=$out/fuzz_$h.log
    rm -f "$out"/crash-"$h"-*
    UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/crash-$h-" "$corpus" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    ncorpus=$(find "$corpus" -type f | wc -l)
    if [ $rc -eq 0 ]; then
        echo "fuzz_$h: ${execs:-?} executions in ${seconds} s, no failure (corpus $nseeds seeds -> $ncorpus inputs)" >"$rep"
        return
    fi
    touch "$out/fuzz_$h.failed"
    {
        echo "fuzz_$h: FAILED (exit $rc) after ${execs:-?} executions; log $log"
        grep -E 'invariant|ERROR|runtime error|SUMMARY' "$log" | head -5
        for a in "$out"/crash-"$h"-*; do
            [ -f "$a" ] || continue
            echo "  input: $a (reproduce: $out/fuzz_$h $a; add it to tests/fuzz/corpus/$h/ once fixed)"
        done
    } >"$rep"
}
njobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
fail=0
batch=
# finish: waits for the running batch, prints its reports in order
finish() {
    wait
    for b in $batch; do
        cat "$out/fuzz_$b.report" 2>/dev/null || echo "fuzz_$b: no report"
        [ ! -e "$out/fuzz_$b.failed" ] && [ -f "$out/fuzz_$b.report" ] || fail=1
    done
    batch=
}
for h in $harnesses; do
    run_one "$h" &
    batch="$batch $h"
    [ "$(echo $batch | wc -w)" -lt "$njobs" ] || finish
done
finish
exit $fail
