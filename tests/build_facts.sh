# Sourced by the test scripts that behave differently in the ghost build;
# defines functions only.  The answer comes from the build directory's
# config.h, so a script run by hand outside `make check` gets it too.

# Whether the library under test was configured --enable-ghost-progress.
ghost_build() {
    grep -q '^#define ARMCII_GHOSTS 1' "${TESTS_BUILDDIR:-tests}/../src/config.h" 2>/dev/null
}

# For the tests whose jobs end in an abort or a kill, and the bad-input
# matrix, which leaves operations half done on purpose: under the sanitizer
# stage (ASAN_OPTIONS set) such processes never reach LeakSanitizer's check
# at exit, or must not, so the check is off for them.  Address and
# undefined-behaviour checks stay.  The check costs every launch a third of
# its time (benchmarks/results/ci_times.txt).
sanitizer_no_leak_check() {
    [ -n "${ASAN_OPTIONS:-}" ] || return 0
    ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
    export ASAN_OPTIONS
}
