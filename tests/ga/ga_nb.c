/* Global Arrays over this ARMCI: nonblocking NGA_NbPut/NbGet/NbAcc completed
 * by NGA_NbWait (several handles outstanding, waited in any order, handles
 * reused), then NGA_Scatter, NGA_Gather and NGA_Scatter_acc on elements
 * strewn over every owner, for several element types. */
#include <stdlib.h>
#include "ga_util.h"

#define N0 24
#define N1 15
#define NPIECE 4 /* nonblocking operations in flight per rank */
#define NB_ROUNDS 10

static int nb_types[] = {C_DBL, C_DCPL, C_INT, C_LONG};
#define NB_NTYPES ((int)(sizeof nb_types / sizeof nb_types[0]))

static gt_val value_at(int i, int j, int round)
{
    gt_val v = {i * 50 + j + round, round - j};
    return v;
}

static gt_val real_if(int type, gt_val v)
{
    if (!gt_is_complex(type))
        v.im = 0;
    return v;
}

/* Rows of piece k of my stripe: the stripe is cut into NPIECE row blocks. */
static void piece(int k, int lo[2], int hi[2])
{
    int s0 = gt_me * N0 / gt_np, s1 = (gt_me + 1) * N0 / gt_np, len = s1 - s0;
    lo[0] = s0 + k * len / NPIECE;
    hi[0] = s0 + (k + 1) * len / NPIECE - 1;
    lo[1] = 0;
    hi[1] = N1 - 1;
}

/* NPIECE NbPuts in flight, waited in reverse order; then NbGets of the rows
 * of the next rank (other owners), waited in issue order, and checked. */
static void nb_put_get(int g, int type, int round)
{
    int lo[NPIECE][2], hi[NPIECE][2], ld[1] = {N1}, bad = 0, k, i, j;
    size_t es = gt_size(type);
    char *buf[NPIECE];
    ga_nbhdl_t h[NPIECE];
    for (k = 0; k < NPIECE; k++) {
        piece(k, lo[k], hi[k]);
        buf[k] = malloc((N0 / gt_np + 2) * N1 * es);
        for (i = lo[k][0]; i <= hi[k][0]; i++)
            for (j = 0; j < N1; j++) {
                gt_val v = value_at(i, j, round);
                gt_store(type, buf[k], (i - lo[k][0]) * N1 + j, v.re, v.im);
            }
        if (hi[k][0] >= lo[k][0])
            NGA_NbPut(g, lo[k], hi[k], buf[k], ld, &h[k]);
    }
    for (k = NPIECE - 1; k >= 0; k--)
        if (hi[k][0] >= lo[k][0])
            NGA_NbWait(&h[k]);
    GA_Sync();
    /* rows of everybody: rows r + k * N0 / NPIECE, whole width */
    for (k = 0; k < NPIECE; k++) {
        lo[k][0] = hi[k][0] = (gt_me + k * N0 / NPIECE) % N0;
        memset(buf[k], 0, N1 * es);
        NGA_NbGet(g, lo[k], hi[k], buf[k], ld, &h[k]);
    }
    for (k = 0; k < NPIECE; k++) {
        NGA_NbWait(&h[k]);
        for (j = 0; j < N1; j++) {
            gt_val want = real_if(type, value_at(lo[k][0], j, round));
            bad += !gt_eq(gt_load(type, buf[k], j), want);
        }
    }
    CHECK(bad == 0, "%s round %d: %d wrong elements after NbPut/NbGet", gt_name(type), round,
          bad);
    for (k = 0; k < NPIECE; k++)
        free(buf[k]);
    GA_Sync();
}

/* Every rank NbAccs the same block NPIECE times with alpha = piece+1; the
 * block then holds (1+..+NPIECE) * np times the source. */
static void nb_acc(int g, int type)
{
    int lo[2] = {2, 1}, hi[2] = {N0 - 3, N1 - 2}, w = hi[1] - lo[1] + 1, ld[1] = {w};
    int nel = (hi[0] - lo[0] + 1) * w, bad = 0, all_lo[2] = {0, 0}, all_hi[2] = {N0 - 1, N1 - 1};
    char alpha[NPIECE][sizeof(DoubleComplex)], *src = malloc(nel * gt_size(type));
    char *whole = malloc(N0 * N1 * gt_size(type));
    ga_nbhdl_t h[NPIECE];
    int ld_all[1] = {N1};
    GA_Zero(g);
    for (int e = 0; e < nel; e++)
        gt_store(type, src, e, e % 7 + 1, e % 3);
    for (int k = 0; k < NPIECE; k++) {
        gt_scalar(type, alpha[k], k + 1, 0);
        NGA_NbAcc(g, lo, hi, src, ld, alpha[k], &h[k]);
    }
    for (int k = 0; k < NPIECE; k++)
        NGA_NbWait(&h[(k + gt_me) % NPIECE]);
    GA_Sync();
    NGA_Get(g, all_lo, all_hi, whole, ld_all);
    for (int i = 0; i < N0; i++)
        for (int j = 0; j < N1; j++) {
            int in = gt_inside(lo, hi, i, j), e = (i - lo[0]) * w + j - lo[1];
            double f = in ? gt_np * NPIECE * (NPIECE + 1) / 2 : 0;
            gt_val want = {in ? f * (e % 7 + 1) : 0, in ? f * (e % 3) : 0};
            bad += !gt_eq(gt_load(type, whole, i * N1 + j), real_if(type, want));
        }
    CHECK(bad == 0, "%s: %d wrong elements after NbAcc", gt_name(type), bad);
    free(src);
    free(whole);
    GA_Sync();
}

/* n subscripts: flat indices offset + k*stride (mod the array size). */
static int **scatter_subs(int n, int stride, int offset)
{
    int **subs = malloc(n * sizeof(int *));
    for (int k = 0; k < n; k++) {
        int e = (offset + k * stride) % (N0 * N1);
        subs[k] = malloc(2 * sizeof(int));
        subs[k][0] = e / N1;
        subs[k][1] = e % N1;
    }
    return subs;
}

static void free_subs(int **subs, int n)
{
    for (int k = 0; k < n; k++)
        free(subs[k]);
    free(subs);
}

/* Scatter my interleaved share, gather a different interleaving back. */
static void scatter_gather(int g, int type)
{
    int n = N0 * N1 / gt_np, **subs = scatter_subs(n, gt_np, gt_me), bad = 0;
    char *v = malloc(n * gt_size(type));
    GA_Zero(g);
    for (int k = 0; k < n; k++)
        gt_store(type, v, k, 3 * (gt_me + k * gt_np) + 1, gt_me);
    NGA_Scatter(g, v, subs, n);
    GA_Sync();
    free_subs(subs, n);
    /* gather every 7th element starting from 5*me (7 is prime to N0*N1) */
    subs = scatter_subs(n, 7, 5 * gt_me);
    memset(v, 0, n * gt_size(type));
    NGA_Gather(g, v, subs, n);
    for (int k = 0; k < n; k++) {
        int e = subs[k][0] * N1 + subs[k][1];
        gt_val want = real_if(type, (gt_val){3 * e + 1, e % gt_np});
        bad += e < n * gt_np && !gt_eq(gt_load(type, v, k), want);
    }
    CHECK(bad == 0, "%s: %d wrong elements from NGA_Gather after NGA_Scatter", gt_name(type),
          bad);
    free_subs(subs, n);
    free(v);
    GA_Sync();
}

/* Every rank scatter-accumulates onto the same elements (each listed once
 * per call), with alpha = me + 1. */
static void scatter_acc(int g, int type)
{
    int n = N0 * N1 / 3, **subs = scatter_subs(n, 3, 1), ld[1] = {N1}, bad = 0;
    int lo[2] = {0, 0}, hi[2] = {N0 - 1, N1 - 1};
    char alpha[sizeof(DoubleComplex)], *v = malloc(n * gt_size(type));
    char *whole = malloc(N0 * N1 * gt_size(type));
    double sum = gt_np * (gt_np + 1) / 2.0;
    GA_Zero(g);
    for (int k = 0; k < n; k++)
        gt_store(type, v, k, k % 5 + 1, 1);
    gt_scalar(type, alpha, gt_me + 1, 0);
    NGA_Scatter_acc(g, v, subs, n, alpha);
    GA_Sync();
    NGA_Get(g, lo, hi, whole, ld);
    for (int e = 0; e < N0 * N1; e++) {
        int k = (e - 1) / 3, hit = e % 3 == 1 && k < n;
        gt_val want = real_if(type, (gt_val){hit ? sum * (k % 5 + 1) : 0, hit ? sum : 0});
        bad += !gt_eq(gt_load(type, whole, e), want);
    }
    CHECK(bad == 0, "%s: %d wrong elements after NGA_Scatter_acc", gt_name(type), bad);
    free_subs(subs, n);
    free(v);
    free(whole);
    GA_Sync();
}

int main(int argc, char **argv)
{
    gt_init(&argc, &argv, "ga_nb");
    for (int t = 0; t < NB_NTYPES; t++) {
        int dims[2] = {N0, N1}, type = nb_types[t];
        int g = NGA_Create(type, 2, dims, "nb", NULL);
        CHECK(g != 0, "%s: NGA_Create failed", gt_name(type));
        for (int round = 0; round < NB_ROUNDS; round++)
            nb_put_get(g, type, round);
        nb_acc(g, type);
        scatter_gather(g, type);
        scatter_acc(g, type);
        GA_Destroy(g);
    }
    return gt_finish();
}
