/* Randomized strided put/get/acc (all 6 accumulate types with scales)
 * against locally computed references: stride levels 0..8, byte strides
 * that are not multiples of the level below, count-1 and zero-count levels,
 * descriptors whose bytes lie back to back on both sides or on one side only
 * (the library sends the first kind down its contiguous path),
 * blocking and nonblocking forms with explicit and NULL handles, PutS_flag,
 * armci_write_strided/armci_read_strided.  The method comes from the
 * environment (tests/mpi/test_iov_methods.sh runs every one). */
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

#define AREA 16384   /* bytes of each origin's private area on a target */
#define MAXB 4096    /* max blocks per descriptor */

static int me, np;

typedef struct {
    int levels, count[9], ls[8], rs[8];
    long nblk;
} desc_t;

/* Block offsets in iteration order (level 1 fastest). */
static long offsets(const desc_t *d, const int *s, long *out)
{
    int idx[9] = {0};
    long n = 0;
    for (int k = 0; k <= d->levels; k++)
        if (d->count[k] == 0)
            return 0;
    for (;;) {
        long off = 0;
        for (int k = 1; k <= d->levels; k++)
            off += (long)s[k - 1] * idx[k];
        out[n++] = off;
        int k = 1;
        while (k <= d->levels && ++idx[k] == d->count[k])
            idx[k++] = 0;
        if (k > d->levels)
            return n;
    }
}

/* Random descriptor whose both sides fit in AREA; strides are the inner
 * extent plus a gap that is a multiple of align (1 for put/get), so they are
 * usually not multiples of the lower level's stride.  shape 1: no gap on
 * either side (one run of bytes), a level of count 1 keeping an odd stride;
 * shape 2: no gap on the local side only. */
static void gen(desc_t *d, int align, int maxblock, int shape)
{
    d->levels = rand() % 9;
    d->count[0] = align * (1 + rand() % (maxblock / align));
    long lext = d->count[0], rext = d->count[0], nblk = 1;
    for (int k = 1; k <= d->levels; k++) {
        int c = 1 + rand() % 3;
        int lg = align * (rand() % 4), rg = align * (rand() % 5);
        if (shape)
            lg = 0;
        if (shape == 1)
            rg = 0;
        if (nblk * c > MAXB || (lext + lg) * c > AREA || (rext + rg) * c > AREA)
            c = 1;
        int odd = shape == 1 && c == 1 ? 3 * align : 0;
        d->count[k] = c;
        d->ls[k - 1] = (int)(lext + lg + odd);
        d->rs[k - 1] = (int)(rext + rg + odd);
        lext += (long)d->ls[k - 1] * (c - 1);
        rext += (long)d->rs[k - 1] * (c - 1);
        nblk *= c;
    }
    d->nblk = nblk;
}

static void do_put(const desc_t *d, char *src, char *dst, int t, int how, armci_hdl_t *h)
{
    int *ls = d->levels ? (int *)d->ls : NULL, *rs = d->levels ? (int *)d->rs : NULL;
    if (how == 0)
        ARMCI_PutS(src, ls, dst, rs, (int *)d->count, d->levels, t);
    else
        ARMCI_NbPutS(src, ls, dst, rs, (int *)d->count, d->levels, t, how == 1 ? h : NULL);
}

static void do_get(const desc_t *d, char *src, char *dst, int t, int how, armci_hdl_t *h)
{
    int *ls = d->levels ? (int *)d->ls : NULL, *rs = d->levels ? (int *)d->rs : NULL;
    if (how == 0)
        ARMCI_GetS(src, rs, dst, ls, (int *)d->count, d->levels, t);
    else
        ARMCI_NbGetS(src, rs, dst, ls, (int *)d->count, d->levels, t, how == 1 ? h : NULL);
}

static void complete(int how, armci_hdl_t *h)
{
    if (how == 1)
        ARMCI_Wait(h);
    else if (how == 2)
        ARMCI_WaitAll();
}

/* Put random bytes, get them back into another layout, compare the whole
 * area with a reference (catches stray writes). */
static void test_put_get(void **ptr, int iters)
{
    static long lo[MAXB], ro[MAXB];
    char *src = malloc(AREA), *back = malloc(AREA), *ref = malloc(AREA), *all = malloc(AREA);
    for (int it = 0; it < iters; it++) {
        int t = (me + 1 + it) % np, how = it % 3;
        char *area = (char *)ptr[t] + (size_t)me * AREA;
        desc_t d;
        int shape = it % 4 == 3 ? 1 + it / 4 % 2 : 0;
        gen(&d, 1, 40, shape);
        memset(ref, 0, AREA);
        ARMCI_Put(ref, area, AREA, t);
        ARMCI_Fence(t);  /* MPI does not order two puts to the same bytes */
        for (int i = 0; i < AREA; i++)
            src[i] = (char)(rand() & 0xff);
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        do_put(&d, src, area, t, how, &h);
        complete(how, &h);
        long n = offsets(&d, d.ls, lo);
        offsets(&d, d.rs, ro);
        for (long b = 0; b < n; b++)
            memcpy(ref + ro[b], src + lo[b], (size_t)d.count[0]);
        memset(back, 0x5a, AREA);
        ARMCI_INIT_HANDLE(&h);
        do_get(&d, area, back, t, (how + 1) % 3, &h);
        complete((how + 1) % 3, &h);
        for (long b = 0; b < n; b++)
            CHECK(!memcmp(back + lo[b], src + lo[b], (size_t)d.count[0]),
                  "iter %d levels %d shape %d: GetS block %ld differs", it, d.levels, shape, b);
        ARMCI_Get(area, all, AREA, t);
        int bad = -1;
        for (int i = 0; i < AREA && bad < 0; i++)
            if (all[i] != ref[i])
                bad = i;
        CHECK(bad < 0, "iter %d levels %d shape %d count0 %d nblk %ld (%s): byte %d of the "
              "area is %d, expected %d", it, d.levels, shape, d.count[0], d.nblk,
              how == 0 ? "PutS" : how == 1 ? "NbPutS+Wait" : "NbPutS(NULL)+WaitAll", bad,
              bad < 0 ? 0 : all[bad], bad < 0 ? 0 : ref[bad]);
    }
    free(src), free(back), free(ref), free(all);
}

static const int elem_of[6] = {4, 8, 4, 8, 8, 16};

/* Value of element i from rank r (small integers: sums are exact). */
static void value(int type, int r, long i, void *out)
{
    double a = (double)((i * 7 + r * 3) % 23) - 5, b = (double)((i + r) % 5);
    switch (type) {
    case ARMCI_ACC_INT: *(int *)out = (int)a; break;
    case ARMCI_ACC_LNG: *(long *)out = (long)a * 100000000L; break;
    case ARMCI_ACC_FLT: *(float *)out = (float)a; break;
    case ARMCI_ACC_DBL: *(double *)out = a; break;
    case ARMCI_ACC_CPL: ((float *)out)[0] = (float)a; ((float *)out)[1] = (float)b; break;
    default: ((double *)out)[0] = a; ((double *)out)[1] = b; break;
    }
}

static void set_scale(int type, void *s)
{
    switch (type) {
    case ARMCI_ACC_INT: *(int *)s = 3; break;
    case ARMCI_ACC_LNG: *(long *)s = -2; break;
    case ARMCI_ACC_FLT: *(float *)s = 1; break;
    case ARMCI_ACC_DBL: *(double *)s = 0.5; break;
    case ARMCI_ACC_CPL: ((float *)s)[0] = 2; ((float *)s)[1] = -1; break;
    default: ((double *)s)[0] = 1; ((double *)s)[1] = 0; break;
    }
}

/* acc += scale * v for one element */
static void ref_acc(int type, const void *scale, const void *v, void *acc)
{
    switch (type) {
    case ARMCI_ACC_INT: *(int *)acc += *(const int *)scale * *(const int *)v; break;
    case ARMCI_ACC_LNG: *(long *)acc += *(const long *)scale * *(const long *)v; break;
    case ARMCI_ACC_FLT: *(float *)acc += *(const float *)scale * *(const float *)v; break;
    case ARMCI_ACC_DBL: *(double *)acc += *(const double *)scale * *(const double *)v; break;
    case ARMCI_ACC_CPL: {
        const float *s = scale, *x = v;
        float *y = acc;
        y[0] += s[0] * x[0] - s[1] * x[1];
        y[1] += s[0] * x[1] + s[1] * x[0];
        break;
    }
    default: {
        const double *s = scale, *x = v;
        double *y = acc;
        y[0] += s[0] * x[0] - s[1] * x[1];
        y[1] += s[0] * x[1] + s[1] * x[0];
        break;
    }
    }
}

/* Every rank accumulates the same descriptor into area 0 of every rank; the
 * owner compares with the sum it computes from every rank's values. */
static void test_acc(void **ptr, int type, int iters, unsigned seed)
{
    static long lo[MAXB], ro[MAXB];
    int e = elem_of[type];
    char *src = malloc(AREA), *ref = malloc(AREA), v[16], scale[16];
    set_scale(type, scale);
    for (int it = 0; it < iters; it++) {
        srand(seed + (unsigned)it * 101);  /* same descriptor on every rank */
        desc_t d;
        int shape = it % 4 == 3 ? 1 + it / 4 % 2 : 0;
        gen(&d, e, 48, shape);
        memset(ptr[me], 0, AREA);
        ARMCI_Barrier();
        for (long i = 0; i < AREA / e; i++)
            value(type, me, i, src + i * e);
        int how = it % 3;
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            armci_hdl_t h;
            ARMCI_INIT_HANDLE(&h);
            int *ls = d.levels ? d.ls : NULL, *rs = d.levels ? d.rs : NULL;
            if (how == 0)
                ARMCI_AccS(type, scale, src, ls, ptr[t], rs, d.count, d.levels, t);
            else
                ARMCI_NbAccS(type, scale, src, ls, ptr[t], rs, d.count, d.levels, t,
                             how == 1 ? &h : NULL);
            complete(how, &h);
        }
        ARMCI_Barrier();
        memset(ref, 0, AREA);
        long n = offsets(&d, d.ls, lo);
        offsets(&d, d.rs, ro);
        for (int r = 0; r < np; r++)
            for (long b = 0; b < n; b++)
                for (int j = 0; j < d.count[0]; j += e) {
                    value(type, r, (lo[b] + j) / e, v);
                    ref_acc(type, scale, v, ref + ro[b] + j);
                }
        int bad = -1;
        for (int i = 0; i < AREA && bad < 0; i++)
            if (((char *)ptr[me])[i] != ref[i])
                bad = i;
        CHECK(bad < 0, "acc type %d iter %d levels %d shape %d count0 %d nblk %ld: byte %d "
              "differs (element %d)", type, it, d.levels, shape, d.count[0], d.nblk, bad,
              bad / e);
        ARMCI_Barrier();
    }
    free(src), free(ref);
}

/* PutS_flag of 4 blocks of 8 bytes, `stride` apart: data then flag, the
 * flag's owner waits for the flag and then finds the data (a pattern of
 * this round's own, so earlier rounds' bytes cannot pass for it). */
static void puts_flag_round(void **ptr, char *area, int stride, int value)
{
    int t = (me + 1) % np;
    char buf[64];
    for (int i = 0; i < 64; i++)
        buf[i] = (char)(i * 3 + value + me);
    int *flags = (int *)((char *)ptr[t] + (size_t)np * AREA);
    int cc[2] = {8, 4}, ss[1] = {stride};
    ARMCI_Barrier();
    ARMCI_PutS_flag(buf, ss, area, ss, cc, 1, flags + me, value, t);
    volatile int *mine = (int *)((char *)ptr[me] + (size_t)np * AREA);
    int from = (me + np - 1) % np;
    /* GA's target spins with plain loads.  Where the origin's fence needs
     * the target to progress (tu_put_needs_target), only there poll. */
    int poll = tu_put_needs_target();
    for (long spins = 0; mine[from] != value; spins++)
        if (poll && spins % 1024 == 0)
            ARMCIX_Progress();
    char *arrived = (char *)ptr[me] + (size_t)from * AREA;
    for (int b = 0; b < 4; b++)
        for (int j = 0; j < 8; j++)
            CHECK(arrived[b * stride + j] == (char)((b * stride + j) * 3 + value + from),
                  "PutS_flag (stride %d): block %d byte %d not there when the flag was",
                  stride, b, j);
    ARMCI_Barrier();
}

/* Degenerate descriptors: zero counts move nothing; level 0 with NULL
 * strides is contiguous; PutS_flag; local pack/unpack. */
static void test_edges(void **ptr)
{
    int t = (me + 1) % np;
    char *area = (char *)ptr[t] + (size_t)me * AREA, buf[64], got[64];
    for (int i = 0; i < 64; i++)
        buf[i] = (char)(i + me);
    memset(got, 0, sizeof got);
    ARMCI_Put(got, area, 64, t);
    ARMCI_Fence(t);
    int c0[3] = {8, 0, 3}, s[2] = {16, 64};
    ARMCI_PutS(buf, s, area, s, c0, 2, t);  /* count[1] == 0: nothing */
    int cz[1] = {0};
    ARMCI_PutS(buf, NULL, area, NULL, cz, 0, t);
    ARMCI_Get(area, got, 64, t);
    int zeros = 1;
    for (int i = 0; i < 64; i++)
        zeros &= got[i] == 0;
    CHECK(zeros, "a descriptor with a zero count wrote data");
    int c1[1] = {40};
    ARMCI_PutS(buf, NULL, area, NULL, c1, 0, t);
    ARMCI_GetS(area, NULL, got, NULL, c1, 0, t);
    CHECK(!memcmp(got, buf, 40), "level-0 PutS/GetS with NULL strides");
    /* PutS_flag, strided (stride 12) and back to back (stride 8: the
     * contiguous path) */
    puts_flag_round(ptr, area, 12, 7);
    puts_flag_round(ptr, area, 8, 8);
    /* pack/unpack */
    char packed[64], un[64];
    int pc[3] = {3, 2, 3}, ps[2] = {5, 13};
    armci_write_strided(buf, 2, ps, pc, packed);
    memset(un, 0, sizeof un);
    armci_read_strided(un, 2, ps, pc, packed);
    int pos = 0;
    for (int c = 0; c < 3; c++)
        for (int b = 0; b < 2; b++)
            for (int j = 0; j < 3; j++, pos++) {
                CHECK(packed[pos] == buf[c * 13 + b * 5 + j], "armci_write_strided byte %d", pos);
                CHECK(un[c * 13 + b * 5 + j] == buf[c * 13 + b * 5 + j], "armci_read_strided");
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_strided";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void **ptr = malloc((size_t)np * sizeof *ptr);
    ARMCI_Malloc(ptr, (armci_size_t)np * AREA + 4096);
    memset(ptr[me], 0, (size_t)np * AREA + 4096);
    ARMCI_Barrier();
    srand(1234u + (unsigned)me);
    test_put_get(ptr, tu_iters(60));
    ARMCI_Barrier();
    test_edges(ptr);
    ARMCI_Barrier();
    for (int type = ARMCI_ACC_INT; type <= ARMCI_ACC_DCP; type++)
        test_acc(ptr, type, tu_iters(12), 99u + (unsigned)type);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
