/* Randomized vector put/get/acc (all 6 accumulate types with scales)
 * against locally computed references: segments of one descriptor in two
 * DIFFERENT regions or in one, several descriptors per call, overlapping
 * accumulate segments (every update must be applied), blocking and
 * nonblocking forms with explicit and NULL handles.  The method comes from
 * the environment (tests/mpi/test_iov_methods.sh runs every one). */
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define AREA 8192    /* bytes per origin area in each region */
#define SLOT 64      /* segments are placed on a grid of SLOT bytes */
#define NSLOT (AREA / SLOT)

static int me, np;
static void **A, **B;   /* two regions */

static void shuffle(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rand() % (i + 1), x = p[i];
        p[i] = p[j];
        p[j] = x;
    }
}

/* Remote address of slot s (0..2*NSLOT) in the area at offset `area`. */
static char *remote_slot(int t, size_t area, int s, int regions)
{
    void **R = regions == 1 ? B : regions == 0 ? A : (s & 1 ? B : A);
    int k = regions == 2 ? s / 2 : s % NSLOT;
    return (char *)R[t] + area + (size_t)k * SLOT;
}

static void finish(int how, armci_hdl_t *h)
{
    if (how == 1)
        ARMCI_Wait(h);
    else if (how == 2)
        ARMCI_WaitAll();
}

static void check_area(void **R, int t, const char *ref, const char *what, int it)
{
    char *all = malloc(AREA);
    ARMCI_Get((char *)R[t] + (size_t)me * AREA, all, AREA, t);
    int bad = -1;
    for (int i = 0; i < AREA && bad < 0; i++)
        if (all[i] != ref[i])
            bad = i;
    CHECK(bad < 0, "iter %d: region %s byte %d is %d, expected %d", it, what, bad,
          bad < 0 ? 0 : all[bad], bad < 0 ? 0 : ref[bad]);
    free(all);
}

static void test_put_get(int iters)
{
    char *src = malloc(4 * AREA), *back = malloc(4 * AREA);
    char *refA = malloc(AREA), *refB = malloc(AREA);
    int perm[2 * NSLOT], lperm[4 * NSLOT];
    for (int it = 0; it < iters; it++) {
        int t = (me + 1 + it) % np, how = it % 3, regions = rand() % 3;
        size_t area = (size_t)me * AREA;
        memset(refA, 0, AREA);
        memset(refB, 0, AREA);
        ARMCI_Put(refA, (char *)A[t] + area, AREA, t);
        ARMCI_Put(refB, (char *)B[t] + area, AREA, t);
        ARMCI_Fence(t);  /* MPI does not order two puts to the same bytes */
        for (int i = 0; i < 4 * AREA; i++)
            src[i] = (char)(rand() & 0xff);
        int ndesc = 1 + rand() % 3, used = 0;
        armci_giov_t iov[3];
        void *sp[3][NSLOT], *dp[3][NSLOT], *bp[3][NSLOT];
        shuffle(perm, regions == 2 ? 2 * NSLOT : NSLOT);
        shuffle(lperm, 4 * NSLOT);
        for (int d = 0; d < ndesc; d++) {
            int n = 1 + rand() % 40, bytes = 1 + rand() % SLOT;
            for (int i = 0; i < n; i++, used++) {
                sp[d][i] = src + (size_t)lperm[used] * SLOT;
                bp[d][i] = back + (size_t)lperm[used] * SLOT;
                dp[d][i] = remote_slot(t, area, perm[used], regions);
                char *ref = regions == 1 || (regions == 2 && perm[used] & 1) ? refB : refA;
                memcpy(ref + ((char *)dp[d][i] - (char *)(ref == refB ? B[t] : A[t]) - area),
                       sp[d][i], (size_t)bytes);
            }
            iov[d] = (armci_giov_t){sp[d], dp[d], bytes, n};
        }
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        if (how == 0)
            ARMCI_PutV(iov, ndesc, t);
        else
            ARMCI_NbPutV(iov, ndesc, t, how == 1 ? &h : NULL);
        finish(how, &h);
        check_area(A, t, refA, "A", it);
        check_area(B, t, refB, "B", it);
        for (int d = 0; d < ndesc; d++)
            iov[d] = (armci_giov_t){dp[d], bp[d], iov[d].bytes, iov[d].ptr_array_len};
        memset(back, 0, 4 * AREA);
        ARMCI_INIT_HANDLE(&h);
        int hg = (how + 1) % 3;
        if (hg == 0)
            ARMCI_GetV(iov, ndesc, t);
        else
            ARMCI_NbGetV(iov, ndesc, t, hg == 1 ? &h : NULL);
        finish(hg, &h);
        for (int d = 0; d < ndesc; d++)
            for (int i = 0; i < iov[d].ptr_array_len; i++)
                CHECK(!memcmp(bp[d][i], sp[d][i], (size_t)iov[d].bytes),
                      "iter %d regions %d: GetV descriptor %d segment %d differs", it,
                      regions, d, i);
    }
    free(src), free(back), free(refA), free(refB);
}

static const int elem_of[6] = {4, 8, 4, 8, 8, 16};

static void value(int type, int r, int i, void *out)
{
    double a = (double)((i * 5 + r * 3) % 17) - 4, b = (double)((i + 2 * r) % 7);
    switch (type) {
    case ARMCI_ACC_INT: *(int *)out = (int)a; break;
    case ARMCI_ACC_LNG: *(long *)out = (long)a * 100000000L; break;
    case ARMCI_ACC_FLT: *(float *)out = (float)a; break;
    case ARMCI_ACC_DBL: *(double *)out = a; break;
    case ARMCI_ACC_CPL: ((float *)out)[0] = (float)a; ((float *)out)[1] = (float)b; break;
    default: ((double *)out)[0] = a; ((double *)out)[1] = b; break;
    }
}

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

/* Every rank accumulates the same descriptor (with repeated and partially
 * overlapping segments, in one or both regions) into area 0 of every rank. */
static void test_acc(int type, int iters)
{
    int e = elem_of[type];
    char scale[16], *src = malloc(64 * SLOT), *refA = malloc(AREA), *refB = malloc(AREA);
    switch (type) {
    case ARMCI_ACC_INT: *(int *)scale = 2; break;
    case ARMCI_ACC_LNG: *(long *)scale = 3; break;
    case ARMCI_ACC_FLT: *(float *)scale = -1; break;
    case ARMCI_ACC_DBL: *(double *)scale = 1; break;
    case ARMCI_ACC_CPL: ((float *)scale)[0] = 1; ((float *)scale)[1] = 2; break;
    default: ((double *)scale)[0] = 0.5; ((double *)scale)[1] = -1; break;
    }
    for (int it = 0; it < iters; it++) {
        srand(777u + (unsigned)(type * 1000 + it));  /* same layout everywhere */
        int regions = rand() % 3, overlap = rand() % 2, how = it % 3;
        int n = 1 + rand() % 48, bytes = e * (1 + rand() % (SLOT / e));
        long roff[48];   /* byte offset in the area; bit 62 set: region B */
        for (int i = 0; i < n; i++) {
            long off = overlap && i > 0 && rand() % 3 == 0
                           ? roff[rand() % i] % (1L << 40) + e * (rand() % 2)
                           : (long)e * (rand() % ((AREA - SLOT) / e));
            int inB = regions == 1 || (regions == 2 && rand() % 2);
            roff[i] = off + (inB ? 1L << 40 : 0);
        }
        memset(A[me], 0, AREA);
        memset(B[me], 0, AREA);
        ARMCI_Barrier();
        for (int i = 0; i < n; i++)
            for (int j = 0; j < bytes / e; j++)
                value(type, me, i * 16 + j, src + (size_t)i * SLOT + (size_t)j * e);
        void *sp[48], *dp[48];
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            for (int i = 0; i < n; i++) {
                sp[i] = src + (size_t)i * SLOT;
                dp[i] = (char *)(roff[i] >> 40 ? B[t] : A[t]) + roff[i] % (1L << 40);
            }
            armci_giov_t iov = {sp, dp, bytes, n};
            armci_hdl_t h;
            ARMCI_INIT_HANDLE(&h);
            if (how == 0)
                ARMCI_AccV(type, scale, &iov, 1, t);
            else
                ARMCI_NbAccV(type, scale, &iov, 1, t, how == 1 ? &h : NULL);
            finish(how, &h);
        }
        ARMCI_Barrier();
        memset(refA, 0, AREA);
        memset(refB, 0, AREA);
        char v[16] = {0};
        for (int r = 0; r < np; r++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < bytes / e; j++) {
                    value(type, r, i * 16 + j, v);
                    char *ref = roff[i] >> 40 ? refB : refA;
                    ref_acc(type, scale, v, ref + roff[i] % (1L << 40) + (long)j * e);
                }
        CHECK(!memcmp(A[me], refA, AREA) && !memcmp(B[me], refB, AREA),
              "acc type %d iter %d (regions %d overlap %d, %d segments of %d bytes, %s): "
              "sums differ", type, it, regions, overlap, n, bytes,
              how == 0 ? "AccV" : how == 1 ? "NbAccV+Wait" : "NbAccV(NULL)+WaitAll");
        ARMCI_Barrier();
    }
    free(src), free(refA), free(refB);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_vector";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    A = malloc((size_t)np * sizeof *A);
    B = malloc((size_t)np * sizeof *B);
    ARMCI_Malloc(A, (armci_size_t)np * AREA);
    ARMCI_Malloc(B, (armci_size_t)np * AREA);
    memset(A[me], 0, (size_t)np * AREA);
    memset(B[me], 0, (size_t)np * AREA);
    ARMCI_Barrier();
    srand(4321u + (unsigned)me);
    test_put_get(tu_iters(45));
    ARMCI_Barrier();
    for (int type = ARMCI_ACC_INT; type <= ARMCI_ACC_DCP; type++)
        test_acc(type, tu_iters(9));
    /* empty descriptors and an empty call are no-ops */
    armci_giov_t empty[2] = {{NULL, NULL, 8, 0}, {NULL, NULL, 0, 0}};
    ARMCI_PutV(empty, 2, (me + 1) % np);
    ARMCI_PutV(NULL, 0, (me + 1) % np);
    ARMCI_Barrier();
    ARMCI_Free(A[me]);
    ARMCI_Free(B[me]);
    free(A), free(B);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
