/* Global Arrays over this ARMCI: arrays of every element type, regular and
 * irregular distributions; put/get/acc on patches spanning several owners,
 * GA_Zero/Fill/Copy/Scale/Add, the typed dot products (whole arrays and
 * patches), NGA_Distribution/NGA_Locate and direct access to local blocks.
 * Every rank keeps a replicated model of the array to check against. */
#include <stdlib.h>
#include "ga_util.h"

#define N0 23
#define N1 17

static gt_val model[N0][N1];

/* Element (i, j) as written by the stripe puts. */
static gt_val pattern(int i, int j)
{
    gt_val v = {i * 100 + j + 1, -(i + 2 * j)};
    return v;
}

static gt_val real_if(int type, gt_val v)
{
    if (!gt_is_complex(type))
        v.im = 0;
    return v;
}

/* Fetch the whole array on every rank and compare it with m. */
static void check_whole(int g, int type, gt_val m[N0][N1], const char *what)
{
    int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1}, ld[1] = {N1}, bad = 0;
    char *buf = malloc(N0 * N1 * gt_size(type));
    NGA_Get(g, lo, hi, buf, ld);
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++) {
            gt_val got = gt_load(type, buf, i * N1 + j);
            if (!gt_eq(got, real_if(type, m[i][j])) && bad++ < 3)
                CHECK(0, "%s %s: (%d,%d) = (%g,%g) expected (%g,%g)", gt_name(type), what,
                      i, j, got.re, got.im, m[i][j].re, real_if(type, m[i][j]).im);
        }
    CHECK(bad == 0, "%s %s: %d wrong elements", gt_name(type), what, bad);
    free(buf);
    GA_Sync(); /* nobody changes g before every rank has checked it */
}

/* Block starts k*k*n/(p*p) along one axis, so blocks grow; every block keeps
 * at least one row (GA needs strictly increasing starts: with 5 ranks the
 * plain formula gives 0, 0, 2, ... and GA mislocates the empty block). */
static void grow_map(int *map, int p, int n)
{
    for (int k = 0; k < p; k++) {
        map[k] = k * k * n / (p * p);
        if (k > 0 && map[k] <= map[k - 1])
            map[k] = map[k - 1] + 1;
    }
}

static int create_array(int type, int irreg)
{
    int dims[2] = {N0, N1}, px, py, block[2], map[64];
    if (!irreg)
        return NGA_Create(type, 2, dims, "regular", NULL);
    gt_grid(gt_np, &px, &py);
    if (px > N0 || py > N1)
        GA_Error("ga_types: more ranks than rows or columns", gt_np);
    block[0] = px;
    block[1] = py;
    grow_map(map, px, N0);
    grow_map(map + px, py, N1);
    return NGA_Create_irreg(type, 2, dims, "irregular", block, map);
}

/* Each rank puts a stripe of whole rows (spanning every column owner). */
static void put_stripes(int g, int type)
{
    int lo[2] = {gt_me * N0 / gt_np, 0}, hi[2] = {(gt_me + 1) * N0 / gt_np - 1, N1 - 1};
    int ld[1] = {N1};
    char *buf = malloc(N0 * N1 * gt_size(type));
    for (int i = lo[0]; i <= hi[0]; i++)
        for (int j = 0; j < N1; j++) {
            gt_val v = pattern(i, j);
            gt_store(type, buf, (i - lo[0]) * N1 + j, v.re, v.im);
        }
    if (hi[0] >= lo[0])
        NGA_Put(g, lo, hi, buf, ld);
    free(buf);
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++)
            model[i][j] = pattern(i, j);
    GA_Sync();
}

/* A central patch into a buffer whose leading dimension is padded. */
static void get_padded(int g, int type)
{
    int lo[2] = {3, 2}, hi[2] = {19, 14}, ld[1] = {hi[1] - lo[1] + 1 + 2}, bad = 0;
    char *buf = calloc((hi[0] - lo[0] + 1) * ld[0], gt_size(type));
    NGA_Get(g, lo, hi, buf, ld);
    for (int i = lo[0]; i <= hi[0]; i++)
        for (int j = lo[1]; j <= hi[1]; j++) {
            gt_val got = gt_load(type, buf, (i - lo[0]) * ld[0] + j - lo[1]);
            if (!gt_eq(got, real_if(type, model[i][j])) && bad++ < 3)
                CHECK(0, "%s padded get (%d,%d) = %g expected %g", gt_name(type), i, j, got.re,
                      model[i][j].re);
        }
    CHECK(bad == 0, "%s padded get: %d wrong elements", gt_name(type), bad);
    free(buf);
    GA_Sync();
}

/* Every rank accumulates alpha * buf onto the same overlapping patch.
 * C_LONGLONG is skipped: GA built on the ARMCI-MPI header (no ARMCI_ACC_LL,
 * as this libarmci's) refuses it with "type not supported". */
static void acc_overlapping(int g, int type)
{
    int lo[2] = {1, 1}, hi[2] = {21, 15}, w = hi[1] - lo[1] + 1, ld[1] = {w};
    char alpha[sizeof(DoubleComplex)], *buf;
    gt_val a = {2, 1};
    if (type == C_LONGLONG)
        return;
    buf = malloc((hi[0] - lo[0] + 1) * w * gt_size(type));
    gt_scalar(type, alpha, a.re, a.im);
    a = real_if(type, a);
    for (int i = lo[0]; i <= hi[0]; i++)
        for (int j = lo[1]; j <= hi[1]; j++) {
            gt_val b = real_if(type, (gt_val){1 + (i + j) % 3, i % 2});
            gt_val add = gt_mul(a, b);
            gt_store(type, buf, (i - lo[0]) * w + j - lo[1], b.re, b.im);
            model[i][j].re = real_if(type, model[i][j]).re + gt_np * add.re;
            model[i][j].im = real_if(type, model[i][j]).im + gt_np * add.im;
        }
    NGA_Acc(g, lo, hi, buf, ld, alpha);
    GA_Sync();
    free(buf);
}

/* Compare my locally owned block (NGA_Access) with the model. */
static void check_local(int g, int type, int lo[2], int hi[2])
{
    void *ptr;
    int ld[1], bad = 0;
    NGA_Access(g, lo, hi, &ptr, ld);
    for (int i = lo[0]; i <= hi[0]; i++)
        for (int j = lo[1]; j <= hi[1]; j++)
            bad += !gt_eq(gt_load(type, ptr, (long)(i - lo[0]) * ld[0] + j - lo[1]),
                          real_if(type, model[i][j]));
    NGA_Release(g, lo, hi);
    CHECK(bad == 0, "%s NGA_Access: %d wrong local elements", gt_name(type), bad);
}

/* The blocks tile the array, and NGA_Locate names the block's owner. */
static void check_distribution(int g, int type)
{
    static int owner[N0][N1];
    int lo[2], hi[2], p, i, j, bad = 0;
    for (i = 0; i < N0; i++)
        for (j = 0; j < N1; j++)
            owner[i][j] = -1;
    for (p = 0; p < gt_np; p++) {
        NGA_Distribution(g, p, lo, hi);
        for (i = lo[0]; i <= hi[0]; i++)
            for (j = lo[1]; j <= hi[1]; j++) {
                bad += owner[i][j] != -1;
                owner[i][j] = p;
            }
        if (p == gt_me && lo[0] <= hi[0] && lo[1] <= hi[1])
            check_local(g, type, lo, hi);
    }
    for (i = 0; i < N0; i++)
        for (j = 0; j < N1; j++) {
            int sub[2] = {i, j};
            bad += owner[i][j] < 0 || NGA_Locate(g, sub) != owner[i][j];
        }
    CHECK(bad == 0, "%s distribution/locate: %d inconsistencies", gt_name(type), bad);
}

/* GA_Scale and GA_Fill, checked against the model; m gets the result. */
static void scale_and_fill(int g2, int g3, int type, gt_val m2[N0][N1], gt_val m3[N0][N1])
{
    char s[sizeof(DoubleComplex)], f[sizeof(DoubleComplex)];
    gt_val sv = real_if(type, (gt_val){3, -1}), fv = real_if(type, (gt_val){2, 1});
    gt_scalar(type, s, sv.re, sv.im);
    gt_scalar(type, f, fv.re, fv.im);
    GA_Scale(g2, s);
    GA_Fill(g3, f);
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++) {
            m2[i][j] = gt_mul(real_if(type, model[i][j]), sv);
            m3[i][j] = fv;
        }
    check_whole(g2, type, m2, "GA_Scale");
    check_whole(g3, type, m3, "GA_Fill");
}

/* The typed dot product of two whole arrays, as a complex value. */
static gt_val dot_all(int type, int ga, int gb)
{
    gt_val r = {0, 0};
    switch (type) {
    case C_INT: r.re = GA_Idot(ga, gb); break;
    case C_LONG: r.re = (double)GA_Ldot(ga, gb); break;
    case C_LONGLONG: r.re = (double)GA_Lldot(ga, gb); break;
    case C_DBL: r.re = GA_Ddot(ga, gb); break;
    case C_FLOAT: r.re = GA_Fdot(ga, gb); break;
    case C_DCPL: {
        DoubleComplex z = GA_Zdot(ga, gb);
        r.re = z.real;
        r.im = z.imag;
        break;
    }
    case C_SCPL: {
        SingleComplex c = GA_Cdot(ga, gb);
        r.re = c.real;
        r.im = c.imag;
        break;
    }
    }
    return r;
}

/* The typed dot product of two untransposed patches. */
static gt_val dot_patch(int type, int ga, int alo[2], int ahi[2], int gb, int blo[2],
                        int bhi[2])
{
    gt_val r = {0, 0};
    switch (type) {
    case C_INT: r.re = NGA_Idot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi); break;
    case C_LONG: r.re = (double)NGA_Ldot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi); break;
    case C_LONGLONG:
        r.re = (double)NGA_Lldot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi);
        break;
    case C_DBL: r.re = NGA_Ddot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi); break;
    case C_FLOAT: r.re = NGA_Fdot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi); break;
    case C_DCPL: {
        DoubleComplex z = NGA_Zdot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi);
        r.re = z.real;
        r.im = z.imag;
        break;
    }
    case C_SCPL: {
        SingleComplex c = NGA_Cdot_patch(ga, 'N', alo, ahi, gb, 'N', blo, bhi);
        r.re = c.real;
        r.im = c.imag;
        break;
    }
    }
    return r;
}

/* Dot products of g (the model) with g3 (the constant fill m3). */
static void check_dots(int g, int g3, int type, gt_val m3[N0][N1])
{
    int alo[2] = {2, 3}, ahi[2] = {10, 9}, blo[2] = {5, 1}, bhi[2] = {13, 7};
    gt_val all = {0, 0}, part = {0, 0}, got;
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++) {
            gt_val p = gt_mul(real_if(type, model[i][j]), m3[i][j]);
            all.re += p.re;
            all.im += p.im;
            if (gt_inside(alo, ahi, i, j)) {
                part.re += p.re;
                part.im += p.im;
            }
        }
    got = dot_all(type, g, g3);
    CHECK(gt_eq(got, all), "%s dot: (%g,%g) expected (%g,%g)", gt_name(type), got.re, got.im,
          all.re, all.im);
    got = dot_patch(type, g, alo, ahi, g3, blo, bhi);
    CHECK(gt_eq(got, part), "%s dot_patch: (%g,%g) expected (%g,%g)", gt_name(type), got.re,
          got.im, part.re, part.im);
}

/* NGA_Ddot_patch of non-constant patches at different places, plain and with
 * the second patch transposed. */
static void check_ddot_patch(int g, int g2, gt_val m2[N0][N1])
{
    int alo[2] = {4, 2}, ahi[2] = {9, 12}, blo[2] = {10, 5}, bhi[2] = {15, 15};
    int tlo[2] = {1, 3}, thi[2] = {11, 8};
    double plain = 0, trans = 0, got;
    for (int i = 0; i <= ahi[0] - alo[0]; i++)
        for (int j = 0; j <= ahi[1] - alo[1]; j++) {
            plain += model[alo[0] + i][alo[1] + j].re * m2[blo[0] + i][blo[1] + j].re;
            trans += model[alo[0] + i][alo[1] + j].re * m2[tlo[0] + j][tlo[1] + i].re;
        }
    got = NGA_Ddot_patch(g, 'N', alo, ahi, g2, 'N', blo, bhi);
    CHECK(got == plain, "NGA_Ddot_patch: %g expected %g", got, plain);
    got = NGA_Ddot_patch(g, 'N', alo, ahi, g2, 'T', tlo, thi);
    CHECK(got == trans, "NGA_Ddot_patch transposed: %g expected %g", got, trans);
}

/* Copy, scale, fill, dot products, add on duplicates of g. */
static void whole_array_ops(int g, int type)
{
    static gt_val m2[N0][N1], m3[N0][N1];
    char a[sizeof(DoubleComplex)], b[sizeof(DoubleComplex)];
    gt_val av = real_if(type, (gt_val){2, 1}), bv = real_if(type, (gt_val){-1, 0});
    int g2 = GA_Duplicate(g, "copy"), g3 = GA_Duplicate(g, "third");
    CHECK(g2 != 0 && g3 != 0, "%s GA_Duplicate failed", gt_name(type));
    GA_Zero(g2);
    GA_Copy(g, g2);
    check_whole(g2, type, model, "GA_Copy");
    scale_and_fill(g2, g3, type, m2, m3);
    check_dots(g, g3, type, m3);
    if (type == C_DBL)
        check_ddot_patch(g, g2, m2);
    gt_scalar(type, a, av.re, av.im);
    gt_scalar(type, b, bv.re, bv.im);
    GA_Add(a, g, b, g2, g3);
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++) {
            gt_val x = gt_mul(av, real_if(type, model[i][j])), y = gt_mul(bv, m2[i][j]);
            m3[i][j].re = x.re + y.re;
            m3[i][j].im = x.im + y.im;
        }
    check_whole(g3, type, m3, "GA_Add");
    GA_Destroy(g3);
    GA_Destroy(g2);
}

static void test_array(int type, int irreg)
{
    int g = create_array(type, irreg);
    CHECK(g != 0, "%s create (irreg=%d) failed", gt_name(type), irreg);
    GA_Zero(g);
    memset(model, 0, sizeof model);
    check_whole(g, type, model, "GA_Zero");
    put_stripes(g, type);
    check_whole(g, type, model, "stripe put");
    get_padded(g, type);
    acc_overlapping(g, type);
    check_whole(g, type, model, "overlapping acc");
    check_distribution(g, type);
    whole_array_ops(g, type);
    GA_Sync();
    GA_Destroy(g);
}

int main(int argc, char **argv)
{
    gt_init(&argc, &argv, "ga_types");
    for (int t = 0; t < GT_NTYPES; t++) {
        test_array(gt_types[t], 0);
        test_array(gt_types[t], 1);
    }
    return gt_finish();
}
