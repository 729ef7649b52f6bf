/* The unit tests' check (no MPI): CHECK(ok, fmt, ...) counts a failure
 * when ok is false and prints the first 10 with file and line; FAILIF is
 * its negation.  Each test reports `failures` at the end and exits 1 if
 * any. */
#ifndef ARMCI_UNIT_CHECK_H
#define ARMCI_UNIT_CHECK_H
#include <stdio.h>

static int failures;

#define CHECK(ok, ...)                                                          \
    do {                                                                        \
        if (!(ok) && failures++ < 10) {                                         \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)
#define FAILIF(bad, ...) CHECK(!(bad), __VA_ARGS__)

#endif
