/* Global Arrays over this ARMCI: GA_Dgemm (every transpose combination,
 * non-square shapes, regular and irregular operand distributions, alpha and
 * beta) compared with a product computed locally on every rank.  All values
 * are small integers scaled by powers of two, so the results are exact. */
#include <stdlib.h>
#include "ga_util.h"

/* Row-major local matrix of r x c doubles. */
typedef struct {
    int r, c;
    double *a;
} mat;

static mat mat_new(int r, int c)
{
    mat m = {r, c, calloc((size_t)r * c, sizeof(double))};
    return m;
}

static double *at(mat m, int i, int j)
{
    return &m.a[(size_t)i * m.c + j];
}

/* Deterministic contents; `seed` tells the operands apart. */
static void mat_fill(mat m, int seed)
{
    for (int i = 0; i < m.r; i++)
        for (int j = 0; j < m.c; j++)
            *at(m, i, j) = (double)((i * (3 + seed) + j * (5 + 2 * seed)) % (7 + seed)) - 3;
}

/* A global array holding m; every rank puts a stripe of its rows.  With
 * irreg, the rows are cut unevenly (first block 1 row, the rest shared). */
static int mat_to_ga(mat m, int irreg, const char *name)
{
    int dims[2] = {m.r, m.c}, g, ld[1] = {m.c};
    int lo[2] = {gt_me * m.r / gt_np, 0}, hi[2] = {(gt_me + 1) * m.r / gt_np - 1, m.c - 1};
    if (irreg && gt_np > 1 && m.r >= 2 * gt_np) {
        int block[2] = {gt_np, 1}, map[64];
        map[0] = 0;
        for (int p = 1; p < gt_np; p++)
            map[p] = 1 + (p - 1) * (m.r - 1) / (gt_np - 1);
        map[gt_np] = 0;
        g = NGA_Create_irreg(C_DBL, 2, dims, (char *)name, block, map);
    } else {
        g = NGA_Create(C_DBL, 2, dims, (char *)name, NULL);
    }
    CHECK(g != 0, "create %s (%d x %d)", name, m.r, m.c);
    if (hi[0] >= lo[0])
        NGA_Put(g, lo, hi, at(m, lo[0], 0), ld);
    GA_Sync();
    return g;
}

/* op(X)(i, j) for ta = 'N' or 'T'. */
static double op_at(mat x, char t, int i, int j)
{
    return t == 'N' ? *at(x, i, j) : *at(x, j, i);
}

/* c = alpha * op(a) * op(b) + beta * c, locally. */
static void ref_gemm(char ta, char tb, double alpha, mat a, mat b, double beta, mat c, int k)
{
    for (int i = 0; i < c.r; i++)
        for (int j = 0; j < c.c; j++) {
            double s = 0;
            for (int l = 0; l < k; l++)
                s += op_at(a, ta, i, l) * op_at(b, tb, l, j);
            *at(c, i, j) = alpha * s + beta * *at(c, i, j);
        }
}

/* One GA_Dgemm of an m x n result with inner dimension k. */
static void one_gemm(char ta, char tb, int m, int n, int k, int irreg)
{
    mat a = ta == 'N' ? mat_new(m, k) : mat_new(k, m);
    mat b = tb == 'N' ? mat_new(k, n) : mat_new(n, k);
    mat c = mat_new(m, n), got = mat_new(m, n);
    double alpha = 1.5, beta = -0.5;
    int lo[2] = {0, 0}, hi[2] = {m - 1, n - 1}, ld[1] = {n}, bad = 0;
    mat_fill(a, 1);
    mat_fill(b, 2);
    mat_fill(c, 3);
    int ga = mat_to_ga(a, irreg, "A"), gb = mat_to_ga(b, 0, "B"), gc = mat_to_ga(c, !irreg, "C");
    GA_Dgemm(ta, tb, m, n, k, alpha, ga, gb, beta, gc);
    ref_gemm(ta, tb, alpha, a, b, beta, c, k);
    NGA_Get(gc, lo, hi, got.a, ld);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (*at(got, i, j) != *at(c, i, j) && bad++ < 3)
                CHECK(0, "dgemm %c%c %dx%dx%d: C(%d,%d) = %g expected %g", ta, tb, m, n, k, i,
                      j, *at(got, i, j), *at(c, i, j));
    CHECK(bad == 0, "dgemm %c%c %dx%dx%d irreg=%d: %d wrong elements", ta, tb, m, n, k, irreg,
          bad);
    GA_Sync();
    GA_Destroy(gc), GA_Destroy(gb), GA_Destroy(ga);
    free(a.a), free(b.a), free(c.a), free(got.a);
}

int main(int argc, char **argv)
{
    static const char ts[4][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'T', 'T'}};
    gt_init(&argc, &argv, "ga_dgemm");
    for (int t = 0; t < 4; t++) {
        one_gemm(ts[t][0], ts[t][1], 37, 29, 23, 0);
        one_gemm(ts[t][0], ts[t][1], 21, 33, 40, 1);
    }
    one_gemm('N', 'N', 80, 72, 64, 0);
    return gt_finish();
}
