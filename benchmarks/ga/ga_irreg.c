/*
 * ga_irreg - irregular access on Global Arrays: a sparse matrix times a
 * distributed vector with NGA_Gather, and its transpose with
 * NGA_Scatter_acc.
 *
 * x and z are 1-D double global arrays of n elements (n a power of two,
 * GA's default distribution).  The sparse n x n matrix A has nnz entries
 * per row; entry k of row i sits in column
 *   col(i, k) = (i * m_k + o_k) mod n,   m_0 = 1, o_0 = 0 (the diagonal),
 * with odd multipliers m_k and offsets o_k scattered over [0, n) for k > 0,
 * so the columns of one row fall on any process; for a fixed k, i -> col
 * is a permutation of [0, n).  Each process holds the rows of A that match
 * its part of x (generated, never communicated).
 *   spmv_gather       y = A x: the process gathers x[col(i, k)] for all its
 *                     rows (NGA_Gather, in chunks of `chunk` elements) and
 *                     forms its y locally.
 *   spmv_scatter_acc  z = A^T x: the process sends a(i, k) * x[i] to
 *                     z[col(i, k)] (NGA_Scatter_acc, alpha = 1, one call per
 *                     k and chunk, so no call names an element twice).
 * A time is one whole product between two GA_Sync calls (slowest process);
 * a row is the median over `reps` products after one untimed warm-up.
 * Every product is verified: y against the formulas, each process's part
 * of z against the sum over its nnz source entries (inverting col per k).
 * The entries are multiples of 1/4, x of 1/2: every sum is exact.
 *
 * Parameters (key=value or GA_BENCH_<KEY>):
 *   n=N        vector length, a power of two (default 65536)
 *   nnz=K      entries per row (default 16)
 *   chunk=C    elements per gather/scatter call (default 16384)
 *   reps=R     timed products (default 5)
 *   small      n=1024 nnz=4 chunk=100 reps=1, no warm-up
 * Rows: kernel "spmv_gather" / "spmv_scatter_acc", size "<n>x<nnz>",
 * seconds per product.
 */
#include <stdint.h>
#include "gab.h"

static const char *usage = "[small] [n=N] [nnz=K] [chunk=C] [reps=R]";

static uint32_t n_mask;
static uint32_t *mul, *off, *inv; /* inv[k]: m_k's inverse mod 2^32 */

static double a_val(long i, int k) { return (double)((i + 3 * k) % 7 - 3) / 4.0; }
static double x_val(long j) { return (double)((j * 5) % 9 - 4) / 2.0; }
static uint32_t col(uint32_t i, int k) { return (i * mul[k] + off[k]) & n_mask; }

/* A well-mixed 32-bit value of k (for the multipliers and offsets). */
static uint32_t mix(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352dU;
    k ^= k >> 15;
    k *= 0x846ca68bU;
    k ^= k >> 16;
    return k;
}

/* The inverse of odd m modulo 2^32 (Newton: each step doubles the bits). */
static uint32_t inverse(uint32_t m)
{
    uint32_t v = m;
    for (int s = 0; s < 5; s++)
        v *= 2U - m * v;
    return v;
}

typedef struct {
    long n;
    int nnz, chunk;
    int g_x, g_z;
    int lo, hi; /* this process's rows / elements */
    long rows;
    int *idx;    /* idx[k * rows + r] = col(lo + r, k) */
    int **subs;  /* subs[e] = &idx[e] (GA's subscript list) */
    double *xv;  /* gathered x, same layout as idx */
    double *val; /* scatter values, one k at a time */
    double *y;
} irr_t;

static double spmv_gather(irr_t *s)
{
    long total = s->rows * s->nnz;
    GA_Sync();
    double t0 = GA_Wtime();
    for (long e = 0; e < total; e += s->chunk) {
        int c = (int)(total - e < s->chunk ? total - e : s->chunk);
        NGA_Gather(s->g_x, s->xv + e, s->subs + e, c);
    }
    for (long r = 0; r < s->rows; r++) {
        double acc = 0.0;
        for (int k = 0; k < s->nnz; k++)
            acc += a_val(s->lo + r, k) * s->xv[k * s->rows + r];
        s->y[r] = acc;
    }
    GA_Sync();
    return gab_max(GA_Wtime() - t0);
}

static double spmv_scatter(irr_t *s)
{
    double one = 1.0, *xl = NULL;
    int lo[1] = {s->lo}, hi[1] = {s->hi}, ld[1];
    GA_Zero(s->g_z);
    GA_Sync();
    double t0 = GA_Wtime();
    if (s->rows > 0)
        NGA_Access(s->g_x, lo, hi, &xl, ld);
    for (int k = 0; k < s->nnz; k++) {
        for (long r = 0; r < s->rows; r++)
            s->val[r] = a_val(s->lo + r, k) * xl[r];
        for (long e = 0; e < s->rows; e += s->chunk) {
            int c = (int)(s->rows - e < s->chunk ? s->rows - e : s->chunk);
            NGA_Scatter_acc(s->g_z, s->val + e, s->subs + k * s->rows + e, c, &one);
        }
    }
    if (s->rows > 0)
        NGA_Release(s->g_x, lo, hi);
    GA_Sync();
    return gab_max(GA_Wtime() - t0);
}

static void verify_y(irr_t *s)
{
    for (long r = 0; r < s->rows; r++) {
        double want = 0.0;
        for (int k = 0; k < s->nnz; k++)
            want += a_val(s->lo + r, k) * x_val(col((uint32_t)(s->lo + r), k));
        if (s->y[r] != want)
            gab_mismatch("spmv_gather: y[%ld] = %.17g, expected %.17g", s->lo + r, s->y[r], want);
    }
    gab_verdict("y = A x through NGA_Gather");
}

static void verify_z(irr_t *s)
{
    double *zl;
    int lo[1] = {s->lo}, hi[1] = {s->hi}, ld[1];
    if (s->rows > 0) {
        NGA_Access(s->g_z, lo, hi, &zl, ld);
        for (long r = 0; r < s->rows; r++) {
            uint32_t j = (uint32_t)(s->lo + r);
            double want = 0.0;
            for (int k = 0; k < s->nnz; k++) {
                uint32_t i = ((j - off[k]) * inv[k]) & n_mask;
                want += a_val(i, k) * x_val(i);
            }
            if (zl[r] != want)
                gab_mismatch("spmv_scatter_acc: z[%u] = %.17g, expected %.17g", j, zl[r], want);
        }
        NGA_Release(s->g_z, lo, hi);
    }
    gab_verdict("z = A^T x through NGA_Scatter_acc");
}

/* The column map (i * mul[k] + off[k]) mod n of every entry k of a row,
 * mul odd so that inv[k] undoes it. */
static void make_columns(long n, int nnz)
{
    n_mask = (uint32_t)(n - 1);
    mul = gab_alloc((size_t)nnz * sizeof *mul);
    off = gab_alloc((size_t)nnz * sizeof *off);
    inv = gab_alloc((size_t)nnz * sizeof *inv);
    mul[0] = 1;
    off[0] = 0;
    for (int k = 1; k < nnz; k++) {
        mul[k] = (mix(2U * k) & n_mask) | 1U;
        off[k] = mix(2U * k + 1) & n_mask;
    }
    for (int k = 0; k < nnz; k++)
        inv[k] = inverse(mul[k]);
}

int main(int argc, char **argv)
{
    gab_init(&argc, &argv, "ga_irreg");
    gab_check_args("n nnz chunk reps", usage);
    irr_t s = {0};
    s.n = gab_long("n", gab_small ? 1024 : 65536, 1, usage);
    s.nnz = (int)gab_long("nnz", gab_small ? 4 : 16, 1, usage);
    s.chunk = (int)gab_long("chunk", gab_small ? 100 : 16384, 1, usage);
    int reps = (int)gab_long("reps", gab_small ? 1 : 5, 1, usage);
    if ((s.n & (s.n - 1)) || s.n > (1L << 30))
        gab_usage(usage, "n=%ld: a power of two up to 2^30", s.n);
    make_columns(s.n, s.nnz);
    int dims[1] = {(int)s.n};
    s.g_x = NGA_Create(C_DBL, 1, dims, "x", NULL);
    s.g_z = NGA_Create(C_DBL, 1, dims, "z", NULL);
    if (!s.g_x || !s.g_z)
        GA_Error("ga_irreg: cannot create x and z of length", (int)s.n);
    int lo[1], hi[1];
    NGA_Distribution(s.g_x, gab_me, lo, hi);
    s.lo = lo[0];
    s.hi = hi[0];
    s.rows = lo[0] >= 0 && hi[0] >= lo[0] ? hi[0] - lo[0] + 1 : 0;
    NGA_Distribution(s.g_z, gab_me, lo, hi);
    if (s.rows && (lo[0] != s.lo || hi[0] != s.hi))
        gab_mismatch("x and z are distributed differently ([%d:%d] and [%d:%d])", s.lo, s.hi,
                     lo[0], hi[0]);
    gab_verdict("distribution of x and z");
    if (s.rows > 0) {
        double *xl;
        int ld[1];
        NGA_Access(s.g_x, lo, hi, &xl, ld);
        for (long r = 0; r < s.rows; r++)
            xl[r] = x_val(s.lo + r);
        NGA_Release_update(s.g_x, lo, hi);
    }
    long total = s.rows * s.nnz;
    s.idx = gab_alloc((size_t)total * sizeof(int));
    s.subs = gab_alloc((size_t)total * sizeof(int *));
    s.xv = gab_alloc((size_t)total * sizeof(double));
    s.val = gab_alloc((size_t)s.rows * sizeof(double));
    s.y = gab_alloc((size_t)s.rows * sizeof(double));
    for (int k = 0; k < s.nnz; k++)
        for (long r = 0; r < s.rows; r++) {
            long e = k * s.rows + r;
            s.idx[e] = (int)col((uint32_t)(s.lo + r), k);
            s.subs[e] = &s.idx[e];
        }
    GA_Sync();
    if (gab_me == 0)
        printf("# ga_irreg: %d processes, n=%ld nnz=%d chunk=%d reps=%d; time_s = seconds per "
               "sparse product (median over reps, slowest process), size = n x nnz\n",
               gab_np, s.n, s.nnz, s.chunk, reps);
    gab_header();
    double *times = gab_alloc((size_t)reps * sizeof(double));
    char size[48];
    snprintf(size, sizeof size, "%ldx%d", s.n, s.nnz);
    if (!gab_small) {
        spmv_gather(&s);
        verify_y(&s);
    }
    for (int r = 0; r < reps; r++) {
        memset(s.y, 0, (size_t)s.rows * sizeof(double));
        times[r] = spmv_gather(&s);
        verify_y(&s);
    }
    gab_row("spmv_gather", size, gab_median(times, reps));
    if (!gab_small) {
        spmv_scatter(&s);
        verify_z(&s);
    }
    for (int r = 0; r < reps; r++) {
        times[r] = spmv_scatter(&s);
        verify_z(&s);
    }
    gab_row("spmv_scatter_acc", size, gab_median(times, reps));
    if (gab_me == 0)
        printf("# ga_irreg: every product verified exactly\n");
    GA_Destroy(s.g_z);
    GA_Destroy(s.g_x);
    free(times);
    free(s.idx);
    free(s.subs);
    free(s.xv);
    free(s.val);
    free(s.y);
    free(mul);
    free(off);
    free(inv);
    return gab_finish(0);
}
