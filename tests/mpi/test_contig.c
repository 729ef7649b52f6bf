/* Contiguous put/get/acc (all types, scales), value ops, Put_flag and
 * location consistency, checked against locally computed results. */
#include <complex.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

#define N 257 /* odd, so sizes are not all powers of two */

static int me, np;

static void test_put_get(void)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, N * sizeof(double));
    double *mine = ptr[me], buf[N];
    for (int i = 0; i < N; i++)
        mine[i] = -1;
    ARMCI_Barrier();
    int right = (me + 1) % np;
    for (int i = 0; i < N; i++)
        buf[i] = me * 1000 + i;
    /* put the first half, then the second half at an offset */
    ARMCI_Put(buf, ptr[right], (N / 2) * sizeof(double), right);
    ARMCI_Put(buf + N / 2, (double *)ptr[right] + N / 2, (N - N / 2) * sizeof(double), right);
    ARMCI_Barrier();
    int left = (me + np - 1) % np;
    for (int i = 0; i < N; i++)
        CHECK(mine[i] == left * 1000 + i, "put: mine[%d]=%g expected %d", i, mine[i],
              left * 1000 + i);
    double got[N];
    memset(got, 0, sizeof got);
    ARMCI_Get(ptr[left], got, N * sizeof(double), left);
    int ll = (left + np - 1) % np;
    for (int i = 0; i < N; i++)
        CHECK(got[i] == ll * 1000 + i, "get: got[%d]=%g expected %d", i, got[i], ll * 1000 + i);
    ARMCI_Barrier(); /* everyone has read before the self put below */
    /* self put/get and a zero-byte transfer */
    ARMCI_Put(buf, ptr[me], sizeof(double), me);
    ARMCI_Get(ptr[me], got, sizeof(double), me);
    CHECK(got[0] == buf[0], "self put/get: %g != %g", got[0], buf[0]);
    ARMCI_Put(buf, ptr[right], 0, right);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Every rank accumulates into every rank; owners check the sums. */
static void test_acc_type(int type, int elem)
{
    void **ptr = malloc(np * sizeof(void *));
    int n = 33;
    ARMCI_Malloc(ptr, n * elem);
    memset(ptr[me], 0, n * elem);
    ARMCI_Barrier();
    char src[33 * 16], scale[16];
    for (int i = 0; i < n; i++) {
        switch (type) {
        case ARMCI_ACC_INT: ((int *)src)[i] = i + me; break;
        case ARMCI_ACC_LNG: ((long *)src)[i] = i + me + 10000000000L; break;
        case ARMCI_ACC_FLT: ((float *)src)[i] = i + me; break;
        case ARMCI_ACC_DBL: ((double *)src)[i] = i + me + 0.5; break;
        case ARMCI_ACC_CPL: ((float *)src)[2 * i] = i; ((float *)src)[2 * i + 1] = me; break;
        case ARMCI_ACC_DCP: ((double *)src)[2 * i] = i; ((double *)src)[2 * i + 1] = me; break;
        }
    }
    switch (type) {
    case ARMCI_ACC_INT: *(int *)scale = 3; break;
    case ARMCI_ACC_LNG: *(long *)scale = 2; break;
    case ARMCI_ACC_FLT: *(float *)scale = 2; break;
    case ARMCI_ACC_DBL: *(double *)scale = 1; break;
    case ARMCI_ACC_CPL: ((float *)scale)[0] = 2; ((float *)scale)[1] = 1; break;
    case ARMCI_ACC_DCP: ((double *)scale)[0] = 1; ((double *)scale)[1] = -1; break;
    }
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        ARMCI_Acc(type, scale, src, ptr[t], n * elem, t);
    }
    ARMCI_Barrier();
    long sumr = 0;
    for (int r = 0; r < np; r++)
        sumr += r;
    for (int i = 0; i < n; i++) {
        double er = 0, ei = 0, gr = 0, gi = 0;
        switch (type) {
        case ARMCI_ACC_INT: er = 3.0 * (np * i + sumr); gr = ((int *)ptr[me])[i]; break;
        case ARMCI_ACC_LNG: er = 2.0 * (np * (i + 10000000000.0) + sumr); gr = (double)((long *)ptr[me])[i]; break;
        case ARMCI_ACC_FLT: er = 2.0 * (np * i + sumr); gr = ((float *)ptr[me])[i]; break;
        case ARMCI_ACC_DBL: er = np * (i + 0.5) + sumr; gr = ((double *)ptr[me])[i]; break;
        case ARMCI_ACC_CPL: /* (2+i)(i + r i) = 2i - r + (i + 2r) i */
            er = 2.0 * np * i - sumr; ei = (double)np * i + 2.0 * sumr;
            gr = ((float *)ptr[me])[2 * i]; gi = ((float *)ptr[me])[2 * i + 1]; break;
        case ARMCI_ACC_DCP: /* (1-i)(i + r i) = i + r + (r - i) i */
            er = (double)np * i + sumr; ei = sumr - (double)np * i;
            gr = ((double *)ptr[me])[2 * i]; gi = ((double *)ptr[me])[2 * i + 1]; break;
        }
        CHECK(gr == er && gi == ei, "acc type %d elem %d: got (%g,%g) expected (%g,%g)",
              type, i, gr, gi, er, ei);
    }
    ARMCI_Free(ptr[me]);
    free(ptr);
}

static void test_values(void)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, 64);
    ARMCI_Barrier();
    int right = (me + 1) % np, left = (me + np - 1) % np;
    char *r = ptr[right];
    ARMCI_PutValueInt(me + 7, r, right);
    ARMCI_PutValueLong(me + 9000000000L, r + 8, right);
    ARMCI_PutValueFloat(me + 0.25f, r + 16, right);
    ARMCI_PutValueDouble(me + 0.125, r + 24, right);
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    ARMCI_NbPutValueInt(me + 11, r + 32, right, &h);
    ARMCI_Wait(&h);
    ARMCI_Barrier();
    /* right's slice holds what I put; mine holds what left put */
    CHECK(ARMCI_GetValueInt(r, right) == me + 7, "GetValueInt");
    CHECK(ARMCI_GetValueLong(r + 8, right) == me + 9000000000L, "GetValueLong");
    CHECK(ARMCI_GetValueFloat(r + 16, right) == me + 0.25f, "GetValueFloat");
    CHECK(ARMCI_GetValueDouble(r + 24, right) == me + 0.125, "GetValueDouble");
    CHECK(ARMCI_GetValueInt(r + 32, right) == me + 11, "NbPutValueInt");
    char *l = ptr[me];
    CHECK(*(int *)l == left + 7 && *(long *)(l + 8) == left + 9000000000L &&
          *(float *)(l + 16) == left + 0.25f && *(double *)(l + 24) == left + 0.125,
          "values in my slice: %d %ld %g %g", *(int *)l, *(long *)(l + 8),
          *(float *)(l + 16), *(double *)(l + 24));
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Put, then accumulate, then get from the same target with no fence: the
 * get must see both (ARMCI location consistency). */
static void test_location_consistency(void)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, np * sizeof(double));
    memset(ptr[me], 0, np * sizeof(double));
    ARMCI_Barrier();
    for (int k = 1; k <= np; k++) {
        int t = (me + k) % np;
        double *slot = (double *)ptr[t] + me, v = 10.0 * k, one = 1.0, got = -1;
        for (int rep = 0; rep < 20; rep++) {
            ARMCI_Put(&v, slot, sizeof v, t);
            ARMCI_Acc(ARMCI_ACC_DBL, &one, &v, slot, sizeof v, t);
            ARMCI_Get(slot, &got, sizeof got, t);
            CHECK(got == 2 * v, "location consistency target %d: got %g expected %g",
                  t, got, 2 * v);
            v += 1;
        }
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Put_flag: the receiver polls the flag with plain loads and no calls. */
static void test_put_flag(void)
{
    void **ptr = malloc(np * sizeof(void *));
    int n = 1000;
    ARMCI_Malloc(ptr, (n + 1) * sizeof(int));
    int *mine = ptr[me];
    for (int i = 0; i <= n; i++)
        mine[i] = 0;
    ARMCI_Barrier();
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int *data = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        data[i] = me * n + i + 1;
    ARMCI_Put_flag(data, (int *)ptr[right] + 1, n * sizeof(int), (int *)ptr[right], 42, right);
    volatile int *flag = mine;
    double t0 = MPI_Wtime();
    /* Where RMA is done by target software, a target that makes no calls
     * can never receive anything (docs/mpi-notes.md, known limitations):
     * there the poll loop also drives MPI progress. */
    int poke = tu_put_needs_target();
    while (*flag != 42 && MPI_Wtime() - t0 < 60)
        if (poke)
            ARMCIX_Progress();
    CHECK(*flag == 42, "Put_flag: flag never arrived");
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        CHECK(mine[i + 1] == left * n + i + 1, "Put_flag data[%d]=%d", i, mine[i + 1]);
    ARMCI_Barrier();
    free(data);
    ARMCI_Free(ptr[me]);
    free(ptr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_contig";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    test_put_get();
    static const int elem[] = {4, 8, 4, 8, 8, 16};
    for (int t = 0; t < 6; t++)
        test_acc_type(t, elem[t]);
    test_values();
    test_location_consistency();
    test_put_flag();
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
