/*
 * gab.h - helpers of the GA-level benchmarks (the ga_*.c programs of benchmarks/ga).
 *
 * The programs use the Global Arrays C API (ga.h, macdecls.h) and MPI only
 * for MPI_Init/MPI_Finalize, so one source builds unchanged on any GA
 * build: GA over this libarmci, over another ARMCI, or GA's own runtimes
 * (MPI-TS, MPI-PR, ...).  Everything here is written for these programs.
 *
 * Output, on rank 0's stdout:
 *   # comment lines (parameters, the verdict)
 *   kernel size time_s                      <- the one header line
 *   <kernel> <size> <seconds>               <- one row per measurement
 * A row's time is the median over `reps` repetitions of the slowest rank's
 * time.  Size is one token whose meaning each program documents.
 *
 * Parameters are `key=value` words on the command line; a missing key is
 * read from the environment as GA_BENCH_<KEY> (upper case), then defaults.
 * The word `small` selects tiny sizes and 1 repetition (make check).
 * Every result is verified; a wrong value makes the program print what is
 * wrong and exit with status 1 (usage errors: 2).
 */
#ifndef GAB_H
#define GAB_H

#include <ctype.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ga.h>
#include <macdecls.h>

#define GAB_MAXLIST 64

static int gab_me, gab_np, gab_small, gab_argc;
static char **gab_argv;
static const char *gab_prog;
static long gab_errors; /* mismatches found by this rank */

/* MPI, then GA (which starts its runtime), then MA for GA's scratch space
 * (gather/scatter take their index lists from MA's stack). */
static inline void gab_init(int *argc, char ***argv, const char *prog)
{
    MPI_Init(argc, argv);
    GA_Initialize();
    if (!MA_init(C_DBL, 1 << 21, 1 << 18))
        GA_Error("MA_init failed", 0);
    gab_me = GA_Nodeid();
    gab_np = GA_Nnodes();
    gab_prog = prog;
    gab_argc = *argc;
    gab_argv = *argv;
    for (int i = 1; i < gab_argc; i++)
        if (!strcmp(gab_argv[i], "small"))
            gab_small = 1;
}

static inline int gab_finish(int rc)
{
    GA_Sync();
    GA_Terminate();
    MPI_Finalize();
    return rc;
}

/* Every rank sees the same arguments, so every rank takes this exit. */
static inline void gab_usage(const char *usage, const char *fmt, ...)
{
    if (gab_me == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", gab_prog);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\nusage: %s %s\n", gab_prog, usage);
    }
    exit(gab_finish(2));
}

/* Rejects any word that is not `small` or `key=value` with a known key
 * (keys: space-separated list). */
static inline void gab_check_args(const char *keys, const char *usage)
{
    for (int i = 1; i < gab_argc; i++) {
        const char *a = gab_argv[i], *eq = strchr(a, '=');
        if (!strcmp(a, "small"))
            continue;
        int ok = 0;
        if (eq && eq > a) {
            size_t kl = (size_t)(eq - a);
            for (const char *k = keys; *k;) {
                size_t l = strcspn(k, " ");
                if (l == kl && !strncmp(k, a, kl))
                    ok = 1;
                k += l;
                while (*k == ' ')
                    k++;
            }
        }
        if (!ok)
            gab_usage(usage, "unknown argument '%s'", a);
    }
}

/* The value of key: command line, then GA_BENCH_<KEY>, then dflt. */
static inline const char *gab_str(const char *key, const char *dflt)
{
    size_t kl = strlen(key);
    for (int i = gab_argc - 1; i >= 1; i--)
        if (!strncmp(gab_argv[i], key, kl) && gab_argv[i][kl] == '=')
            return gab_argv[i] + kl + 1;
    char env[64] = "GA_BENCH_";
    size_t n = strlen(env);
    for (size_t i = 0; i < kl && n + 1 < sizeof env; i++)
        env[n++] = (char)toupper((unsigned char)key[i]);
    env[n] = 0;
    const char *v = getenv(env);
    return v && *v ? v : dflt;
}

/* A comma-separated list of positive integers; returns its length. */
static inline int gab_list(const char *key, const char *dflt, long *out, const char *usage)
{
    const char *s = gab_str(key, dflt);
    int n = 0;
    while (*s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v <= 0 || (*end && *end != ',') || n == GAB_MAXLIST)
            gab_usage(usage, "%s=%s: expected up to %d positive integers, comma-separated", key,
                      gab_str(key, dflt), GAB_MAXLIST);
        out[n++] = v;
        s = *end ? end + 1 : end;
    }
    if (n == 0)
        gab_usage(usage, "%s is empty", key);
    return n;
}

/* A non-negative integer (min 1 when positive != 0). */
static inline long gab_long(const char *key, long dflt, int positive, const char *usage)
{
    char d[32];
    snprintf(d, sizeof d, "%ld", dflt);
    const char *s = gab_str(key, d);
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < (positive ? 1 : 0))
        gab_usage(usage, "%s=%s: expected an integer >= %d", key, s, positive ? 1 : 0);
    return v;
}

/* Records one mismatch; prints the first few of each rank. */
static inline void gab_mismatch(const char *fmt, ...)
{
    if (gab_errors++ < 5) {
        char line[512];
        int n = snprintf(line, sizeof line, "%s: rank %d: ", gab_prog, gab_me);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
        va_end(ap);
        fprintf(stderr, "%s\n", line); /* one write per line */
    }
}

/* Collective: did any rank find a mismatch in `what`?  If so rank 0 says
 * so and every rank leaves with status 1. */
static inline void gab_verdict(const char *what)
{
    double e = (double)gab_errors;
    GA_Dgop(&e, 1, "+");
    if (e > 0) {
        if (gab_me == 0) {
            printf("# FAIL %s: %s: %.0f wrong values\n", gab_prog, what, e);
            fflush(stdout);
            fprintf(stderr, "FAIL %s: %s: %.0f wrong values (first ones above)\n", gab_prog, what,
                    e);
        }
        exit(gab_finish(1));
    }
}

/* The slowest rank's value (collective). */
static inline double gab_max(double t)
{
    GA_Dgop(&t, 1, "max");
    return t;
}

static inline int gab_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double gab_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, gab_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static inline void gab_header(void)
{
    if (gab_me == 0) {
        printf("kernel size time_s\n");
        fflush(stdout);
    }
}

static inline void gab_row(const char *kernel, const char *size, double t)
{
    if (gab_me == 0) {
        printf("%s %s %.6e\n", kernel, size, t);
        fflush(stdout);
    }
}

static inline void *gab_alloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        GA_Error("out of memory", (int)(bytes >> 20));
    return p;
}

/* Spins for us microseconds (computation that does not touch memory). */
static inline void gab_busy(long us)
{
    if (us <= 0)
        return;
    double end = GA_Wtime() + us * 1e-6;
    while (GA_Wtime() < end)
        ;
}

/* Computes for us microseconds of the calling thread's CPU time (a
 * progress thread's does not count): on a host with more processes than
 * cores the work, not the wall time, stays fixed, as an application's
 * computation does. */
static inline void gab_work(long us)
{
    struct timespec ts;
    if (us <= 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return;
    double end = ts.tv_sec + ts.tv_nsec * 1e-9 + us * 1e-6;
    do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    while (ts.tv_sec + ts.tv_nsec * 1e-9 < end);
}
#endif
