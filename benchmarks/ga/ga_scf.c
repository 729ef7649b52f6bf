/*
 * ga_scf - the task pattern of NWChem's SCF Fock build and coupled-cluster
 * contractions on Global Arrays: dynamic load balancing through a shared
 * counter, two remote block reads, local work, one remote accumulate.
 *
 * C = A * B for n x n double global arrays (GA's default distribution).
 * The product is cut into tasks (i, j, k) of nb x nb blocks.  Every
 * process repeatedly
 *   - takes the next task number from a 1-element integer global array
 *     (NGA_Read_inc, as NWChem's nxtval),
 *   - reads the blocks A(i,k) and B(k,j) (NGA_Get),
 *   - multiplies them locally, plus `extra` more multiplies of the same
 *     blocks into scratch and `busy` microseconds of spinning (the knob
 *     for computation per task: integrals, amplitudes),
 *   - adds the product into C(i,j) (NGA_Acc, alpha = 1),
 * until the counter passes the last task.  A time is one whole product
 * between two GA_Sync calls (slowest process); a row is the median over
 * `reps` products after one untimed warm-up.  After every product each
 * process compares its own part of C with a reference it computed itself:
 * the elements of A and B are small multiples of 1/4 and 1/8, so every
 * partial sum is exact and C must match in every bit whatever the order
 * in which the accumulates arrive.
 *
 * Parameters (key=value or GA_BENCH_<KEY>):
 *   n=LIST      matrix orders (default 512)
 *   nb=LIST     block sizes, each <= n (default 16,32,64,128)
 *   extra=K     extra local multiplies per task (default 0)
 *   busy=US     microseconds of spinning per task (default 0)
 *   reps=R      timed products per (n, nb) (default 5)
 *   small       n=72 nb=16,40 extra=1 reps=1 (uneven edge blocks), no
 *               warm-up: the correctness run of make check
 * Rows: kernel "scf" (or "scf_x<K>", "scf_b<US>", "scf_x<K>_b<US>" with
 * extra work), size "<n>/<nb>", seconds per product.
 */
#include "gab.h"

static const char *usage = "[small] [n=LIST] [nb=LIST] [extra=K] [busy=US] [reps=R]";

static double a_val(long i, long j) { return (double)((3 * i + 5 * j) % 13 - 6) / 4.0; }
static double b_val(long i, long j) { return (double)((7 * i + 2 * j) % 11 - 5) / 8.0; }

/* c[m x n] = a[m x k] * b[k x n]; all three with leading dimension ld.
 * Not inlined, so the extra multiplies into scratch are really done. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void block_mm(int m, int n, int k, const double *a, const double *b, double *c, int ld)
{
    for (int i = 0; i < m; i++) {
        double *ci = c + (size_t)i * ld;
        for (int j = 0; j < n; j++)
            ci[j] = 0.0;
        for (int l = 0; l < k; l++) {
            double x = a[(size_t)i * ld + l];
            const double *bl = b + (size_t)l * ld;
            for (int j = 0; j < n; j++)
                ci[j] += x * bl[j];
        }
    }
}

/* Writes f(i, j) into this process's part of g. */
static void fill(int g, double (*f)(long, long))
{
    int lo[2], hi[2], ld[1];
    double *p;
    NGA_Distribution(g, gab_me, lo, hi);
    if (lo[0] < 0 || hi[0] < lo[0] || hi[1] < lo[1])
        return;
    NGA_Access(g, lo, hi, &p, ld);
    for (int i = lo[0]; i <= hi[0]; i++)
        for (int j = lo[1]; j <= hi[1]; j++)
            p[(size_t)(i - lo[0]) * ld[0] + (j - lo[1])] = f(i, j);
    NGA_Release_update(g, lo, hi);
}

typedef struct {
    int n, g_a, g_b, g_c, g_ctr;
    int lo[2], hi[2]; /* this process's part of C */
    double *ref;      /* the exact product there */
    double *ta, *tb, *tc, *tx;
    long extra, busy;
} scf_t;

/* One product with blocks of nb; returns the slowest process's seconds. */
static double product(scf_t *s, int nb)
{
    int nbk = (s->n + nb - 1) / nb, zero[1] = {0}, ld[1] = {nb};
    long ntask = (long)nbk * nbk * nbk;
    double one = 1.0;
    GA_Zero(s->g_c);
    GA_Zero(s->g_ctr);
    GA_Sync();
    double t0 = GA_Wtime();
    for (;;) {
        long t = NGA_Read_inc(s->g_ctr, zero, 1);
        if (t >= ntask)
            break;
        int bi = (int)(t / ((long)nbk * nbk)), bj = (int)(t / nbk % nbk), bk = (int)(t % nbk);
        int i0 = bi * nb, j0 = bj * nb, k0 = bk * nb;
        int m = s->n - i0 < nb ? s->n - i0 : nb;
        int n = s->n - j0 < nb ? s->n - j0 : nb;
        int k = s->n - k0 < nb ? s->n - k0 : nb;
        int alo[2] = {i0, k0}, ahi[2] = {i0 + m - 1, k0 + k - 1};
        int blo[2] = {k0, j0}, bhi[2] = {k0 + k - 1, j0 + n - 1};
        int clo[2] = {i0, j0}, chi[2] = {i0 + m - 1, j0 + n - 1};
        NGA_Get(s->g_a, alo, ahi, s->ta, ld);
        NGA_Get(s->g_b, blo, bhi, s->tb, ld);
        block_mm(m, n, k, s->ta, s->tb, s->tc, nb);
        for (long x = 0; x < s->extra; x++)
            block_mm(m, n, k, s->ta, s->tb, s->tx, nb);
        gab_busy(s->busy);
        NGA_Acc(s->g_c, clo, chi, s->tc, ld, &one);
    }
    GA_Sync();
    return gab_max(GA_Wtime() - t0);
}

/* Compares this process's part of C with the reference. */
static void verify(scf_t *s, int nb)
{
    int ld[1];
    double *p;
    if (s->ref) {
        NGA_Access(s->g_c, s->lo, s->hi, &p, ld);
        int w = s->hi[1] - s->lo[1] + 1;
        for (int i = s->lo[0]; i <= s->hi[0]; i++)
            for (int j = s->lo[1]; j <= s->hi[1]; j++) {
                double got = p[(size_t)(i - s->lo[0]) * ld[0] + (j - s->lo[1])];
                double want = s->ref[(size_t)(i - s->lo[0]) * w + (j - s->lo[1])];
                if (got != want)
                    gab_mismatch("n=%d nb=%d: C[%d][%d] = %.17g, expected %.17g", s->n, nb, i, j,
                                 got, want);
            }
        NGA_Release(s->g_c, s->lo, s->hi);
    }
    char what[64];
    snprintf(what, sizeof what, "C = A*B with n=%d nb=%d", s->n, nb);
    gab_verdict(what);
}

/* The reference for this process's part of C, from the formulas (NULL
 * where it owns nothing). */
static void make_reference(scf_t *s)
{
    NGA_Distribution(s->g_c, gab_me, s->lo, s->hi);
    s->ref = NULL;
    if (s->lo[0] < 0 || s->hi[0] < s->lo[0] || s->hi[1] < s->lo[1])
        return;
    int h = s->hi[0] - s->lo[0] + 1, w = s->hi[1] - s->lo[1] + 1;
    double *brow = gab_alloc((size_t)w * sizeof(double));
    s->ref = gab_alloc((size_t)h * w * sizeof(double));
    for (int l = 0; l < s->n; l++) {
        for (int j = 0; j < w; j++)
            brow[j] = b_val(l, s->lo[1] + j);
        for (int i = 0; i < h; i++) {
            double x = a_val(s->lo[0] + i, l);
            double *r = s->ref + (size_t)i * w;
            for (int j = 0; j < w; j++)
                r[j] += x * brow[j];
        }
    }
    free(brow);
}

int main(int argc, char **argv)
{
    long ns[GAB_MAXLIST], nbs[GAB_MAXLIST];
    gab_init(&argc, &argv, "ga_scf");
    gab_check_args("n nb extra busy reps", usage);
    int nn = gab_list("n", gab_small ? "72" : "512", ns, usage);
    int nnb = gab_list("nb", gab_small ? "16,40" : "16,32,64,128", nbs, usage);
    scf_t s = {0};
    s.extra = gab_long("extra", gab_small ? 1 : 0, 0, usage);
    s.busy = gab_long("busy", 0, 0, usage);
    int reps = (int)gab_long("reps", gab_small ? 1 : 5, 1, usage);
    long maxnb = 0;
    for (int i = 0; i < nnb; i++)
        maxnb = nbs[i] > maxnb ? nbs[i] : maxnb;
    char kernel[64] = "scf";
    if (s.extra)
        snprintf(kernel + strlen(kernel), sizeof kernel - strlen(kernel), "_x%ld", s.extra);
    if (s.busy)
        snprintf(kernel + strlen(kernel), sizeof kernel - strlen(kernel), "_b%ld", s.busy);
    if (gab_me == 0)
        printf("# ga_scf: %d processes, extra=%ld busy=%ld us, reps=%d; time_s = seconds per "
               "product C = A*B (median over reps, slowest process), size = n/nb\n",
               gab_np, s.extra, s.busy, reps);
    gab_header();
    size_t blk = (size_t)maxnb * maxnb * sizeof(double);
    s.ta = gab_alloc(blk);
    s.tb = gab_alloc(blk);
    s.tc = gab_alloc(blk);
    s.tx = gab_alloc(blk);
    int one[1] = {1};
    s.g_ctr = NGA_Create(C_INT, 1, one, "task counter", NULL);
    if (!s.g_ctr)
        GA_Error("ga_scf: cannot create the task counter", 0);
    double *times = gab_alloc((size_t)reps * sizeof(double));
    for (int in = 0; in < nn; in++) {
        s.n = (int)ns[in];
        int dims[2] = {s.n, s.n};
        s.g_a = NGA_Create(C_DBL, 2, dims, "A", NULL);
        s.g_b = NGA_Create(C_DBL, 2, dims, "B", NULL);
        s.g_c = NGA_Create(C_DBL, 2, dims, "C", NULL);
        if (!s.g_a || !s.g_b || !s.g_c)
            GA_Error("ga_scf: cannot create A, B, C of order", s.n);
        fill(s.g_a, a_val);
        fill(s.g_b, b_val);
        GA_Sync();
        make_reference(&s);
        for (int ib = 0; ib < nnb; ib++) {
            int nb = (int)nbs[ib];
            if (nb > s.n)
                gab_usage(usage, "nb=%d is larger than n=%d", nb, s.n);
            if (!gab_small) {
                product(&s, nb); /* warm-up */
                verify(&s, nb);
            }
            for (int r = 0; r < reps; r++) {
                times[r] = product(&s, nb);
                verify(&s, nb);
            }
            char size[48];
            snprintf(size, sizeof size, "%d/%d", s.n, nb);
            gab_row(kernel, size, gab_median(times, reps));
        }
        free(s.ref);
        GA_Destroy(s.g_c);
        GA_Destroy(s.g_b);
        GA_Destroy(s.g_a);
    }
    GA_Destroy(s.g_ctr);
    if (gab_me == 0)
        printf("# ga_scf: every product verified exactly\n");
    free(times);
    free(s.ta);
    free(s.tb);
    free(s.tc);
    free(s.tx);
    return gab_finish(0);
}
