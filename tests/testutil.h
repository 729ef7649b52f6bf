/*
 * Helpers for self-checking MPI test programs: record failures with a
 * message, then agree across ranks and print one PASS/FAIL line.
 */
#ifndef ARMCI_TESTUTIL_H
#define ARMCI_TESTUTIL_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int tu_failures;
static const char *tu_name = "test";

static void tu_fail(const char *file, int line, const char *fmt, ...)
{
    int me;
    va_list ap;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (tu_failures < 10) {
        fprintf(stderr, "[%d] %s:%d: ", me, file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    tu_failures++;
}

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond))                                                          \
            tu_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
    } while (0)

/* n iterations, divided by TEST_ITER_DIV when set: scripts that rerun a
 * program once per configuration (test_iov_methods.sh) need each
 * configuration exercised, not the full randomized coverage every time. */
static inline int tu_iters(int n)
{
    const char *s = getenv("TEST_ITER_DIV");
    int d = s ? atoi(s) : 1;
    return d > 1 ? (n + d - 1) / d : n;
}

/* Whether a put between (virtual) nodes in this run completes only when
 * the target calls MPI, so a target waiting with plain loads for data must
 * also drive progress.  Measured with armci-info --probe and
 * tests/mpi/rma_target_progress_repro.c (docs/mpi-notes.md): Open MPI 4.1
 * osc/pt2pt, MPICH 4.x, and Open MPI 5.0's osc/rdma (without an RDMA BTL it
 * emulates put/get with messages).  Open MPI 4.1's osc/rdma and osc/ucx
 * move put data without the target. */
static inline int tu_put_needs_target(void)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, major = 0;
    const char *mode = getenv("ARMCI_TEST_MODE"), *p;
    MPI_Get_library_version(lib, &len);
    if (strstr(lib, "MPICH") || (mode && !strcmp(mode, "pt2pt")))
        return 1;
    if ((p = strstr(lib, "Open MPI v")) && sscanf(p + 10, "%d", &major) == 1)
        return major >= 5;
    return 1; /* another MPI: assume the worst */
}

/* Agree on the result; rank 0 prints the line; returns the exit code. */
/* MPI_Init_thread at MPI_THREAD_MULTIPLE for a threaded test: 0, or 77
 * after printing SKIP where it cannot run.  Open MPI 4.1's osc pt2pt
 * refuses to create windows under MPI_THREAD_MULTIPLE (ARMCI_Init_thread,
 * or the ghost build's MPI_Init_thread, reports it): that mode skips before
 * MPI starts; an MPI that does not grant the level, after MPI_Finalize. */
static inline int tu_init_multiple(int *argc, char ***argv)
{
    int provided, me;
    const char *mode = getenv("ARMCI_TEST_MODE");
    if (mode && !strcmp(mode, "pt2pt")) {
        printf("SKIP: osc pt2pt has no MPI_THREAD_MULTIPLE support\n");
        return 77;
    }
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided >= MPI_THREAD_MULTIPLE)
        return 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        printf("SKIP: this MPI does not grant MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 77;
}

static int tu_finish(void)
{
    int me, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Allreduce(&tu_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        const char *mode = getenv("ARMCI_TEST_MODE");
        printf("%s %s [%s]%s\n", total ? "FAIL" : "PASS", tu_name, mode ? mode : "-",
               total ? " (see errors above)" : "");
        if (total)
            printf("  %d check(s) failed\n", total);
        fflush(stdout);
    }
    return total ? 1 : 0;
}
#endif
