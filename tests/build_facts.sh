# Sourced by the test scripts that behave differently in the ghost build;
# defines functions only.  The answer comes from the build directory's
# config.h, so a script run by hand outside `make check` gets it too.

# Whether the library under test was configured --enable-ghost-progress.
ghost_build() {
    grep -q '^#define ARMCII_GHOSTS 1' "${TESTS_BUILDDIR:-tests}/../src/config.h" 2>/dev/null
}
