/*
 * bench_common.h - timing helpers shared by the benchmark programs.
 *
 * Every benchmark prints one row per (operation, size):
 *   op  bytes  reps  iters  med_ns  min_ns  max_ns  [extra columns]
 * where one repetition ("sample") times `iters` back-to-back operations and
 * reports the time per operation; med/min/max are over `reps` samples.
 * Lines starting with '#' are comments; benchmarks/compare.sh parses the
 * rest by column, so the first seven columns never change meaning.
 *
 * The programs only use the public ARMCI API and plain MPI, so the same
 * source builds against this library and against any other ARMCI (see
 * compare.sh).  Environment knobs (all optional):
 *   BENCH_REPS      samples per row (default per program, usually 31)
 *   BENCH_MINSIZE   smallest message in bytes (default 8)
 *   BENCH_MAXSIZE   largest message in bytes (default 4 MiB)
 *   BENCH_ITERS     scale factor (percent) for iterations per sample (100)
 *   BENCH_OPS       comma-separated list of op names to run (default all)
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BENCH_LIBNAME
#define BENCH_LIBNAME "armci"
#endif

/* Keeps the compiler from merging or hoisting the timed statements. */
#define BC_CLOBBER() __asm__ __volatile__("" ::: "memory")

/* Time `iters` runs of stmt; store nanoseconds per run in out_ns. */
#define BC_SAMPLE(out_ns, iters, stmt)                                        \
    do {                                                                      \
        int bc_n_ = (iters);                                                  \
        double bc_t0_ = bc_now();                                             \
        for (int bc_i_ = 0; bc_i_ < bc_n_; bc_i_++) {                         \
            stmt;                                                             \
            BC_CLOBBER();                                                     \
        }                                                                     \
        (out_ns) = (bc_now() - bc_t0_) * 1e9 / bc_n_;                         \
    } while (0)

/* Every rank times `iters` runs of stmt after a barrier; out_ns gets the
 * slowest rank's time per run (the aggregate rate is nranks/out_ns). */
#define BC_SAMPLE_ALL(out_ns, iters, stmt)                                    \
    do {                                                                      \
        double bc_mine_;                                                      \
        MPI_Barrier(MPI_COMM_WORLD);                                          \
        BC_SAMPLE(bc_mine_, iters, stmt);                                     \
        MPI_Allreduce(&bc_mine_, &(out_ns), 1, MPI_DOUBLE, MPI_MAX,           \
                      MPI_COMM_WORLD);                                        \
    } while (0)

typedef struct {
    int reps;
    double med, min, max;
} bc_stats_t;

static inline double bc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bc_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

static inline int bc_nranks(void)
{
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

/* Print a failure and abort the job: a benchmark with wrong data is void. */
static void bc_die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "[%d] benchmark error: ", bc_rank());
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static inline long bc_env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end == 'k' || *end == 'K')
        v <<= 10;
    else if (*end == 'm' || *end == 'M')
        v <<= 20;
    if (v <= 0)
        bc_die("%s=%s is not a positive number", name, s);
    return v;
}

/* Whether op `name` is selected by BENCH_OPS (unset: all are). */
static inline int bc_op_enabled(const char *name)
{
    const char *list = getenv("BENCH_OPS");
    if (!list || !*list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (comma != NULL);
    }
    return 0;
}

/* Most samples per row: the programs keep their samples in fixed arrays. */
#define BC_MAX_REPS 256

/* Samples per row: BENCH_REPS (default dflt), at most BC_MAX_REPS. */
static inline int bc_reps(long dflt)
{
    long r = bc_env_long("BENCH_REPS", dflt);
    return r > BC_MAX_REPS ? BC_MAX_REPS : (int)r;
}

/* Iterations per sample: enough that one sample of a fast op lasts tens of
 * microseconds (clock overhead < 0.1%), capped for slow/large ops. */
static inline int bc_iters_for(size_t bytes, int max_iters)
{
    long scale = bc_env_long("BENCH_ITERS", 100);
    long it = (long)(((size_t)1 << 23) / (bytes ? bytes : 1));
    if (it > max_iters)
        it = max_iters;
    it = it * scale / 100;
    return it < 1 ? 1 : (int)it;
}

static int bc_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median/min/max of n samples (v is reordered). */
static inline bc_stats_t bc_stats(double *v, int n)
{
    bc_stats_t s = {n, 0, 0, 0};
    if (n <= 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, bc_cmp_double);
    s.min = v[0];
    s.max = v[n - 1];
    s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}

/* The seven fixed columns; the caller appends extras and the newline. */
static inline void bc_row(const char *op, long bytes, int iters, const bc_stats_t *s)
{
    printf("%-14s %9ld %5d %6d %12.1f %12.1f %12.1f", op, bytes, s->reps, iters,
           s->med, s->min, s->max);
}

static inline void bc_header(const char *prog, const char *extra_cols)
{
    const char *nl = getenv("ARMCI_NODE_LOCAL");
    const char *at = getenv("ARMCI_RMA_ATOMICITY");
    printf("# %s: lib=%s ranks=%d ARMCI_NODE_LOCAL=%s ARMCI_RMA_ATOMICITY=%s\n", prog,
           BENCH_LIBNAME, bc_nranks(), nl ? nl : "(unset)", at ? at : "(unset)");
    printf("# %-12s %9s %5s %6s %12s %12s %12s %s\n", "op", "bytes", "reps", "iters",
           "med_ns", "min_ns", "max_ns", extra_cols ? extra_cols : "");
}

/* GiB/s for `bytes` moved in `ns` nanoseconds. */
static inline double bc_gibps(long bytes, double ns)
{
    return ns > 0 ? (double)bytes / ns * 1e9 / (double)(1 << 30) : 0.0;
}

/* Print a ratio column, or '-' when there is no baseline. */
static inline void bc_ratio(double num, double den)
{
    if (num > 0 && den > 0)
        printf(" %8.3f", num / den);
    else
        printf(" %8s", "-");
}

/* Page-aligned, touched buffer (first-touch so timing excludes faults). */
static inline void *bc_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1))
        bc_die("out of memory for a %zu-byte buffer", bytes);
    memset(p, 0, bytes);
    return p;
}

/* The communicator of the ranks that share this node's memory. */
static inline MPI_Comm bc_node_comm(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    return node;
}

/* A zeroed node-shared block of `bytes` per rank when every rank shares one
 * node (the CPU-atomics baseline); ptrs[r] is rank r's block.  Returns the
 * window, or MPI_WIN_NULL (ptrs untouched) when the ranks span nodes. */
static inline MPI_Win bc_node_shared(MPI_Aint bytes, int disp_unit, void **ptrs)
{
    MPI_Comm node = bc_node_comm();
    MPI_Win w = MPI_WIN_NULL;
    int nn;
    MPI_Comm_size(node, &nn);
    if (nn == bc_nranks()) { /* node rank = world rank: split_type keeps the order */
        void *mine;
        MPI_Win_allocate_shared(bytes, disp_unit, MPI_INFO_NULL, node, &mine, &w);
        memset(mine, 0, (size_t)bytes);
        for (int r = 0; r < nn; r++) {
            MPI_Aint sz;
            int du;
            MPI_Win_shared_query(w, r, &sz, &du, &ptrs[r]);
        }
    }
    MPI_Comm_free(&node);
    return w;
}

#endif /* BENCH_COMMON_H */
