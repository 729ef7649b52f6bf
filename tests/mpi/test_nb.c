/* Nonblocking put/get/acc with explicit, reused, aggregate and implicit
 * handles; Wait/Test on handles that carry no operation. */
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define N 128
#define NH 16

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_nb";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, NH * N * sizeof(long));
    long *mine = ptr[me];
    memset(mine, 0, NH * N * sizeof(long));
    ARMCI_Barrier();

    /* Wait and Test on a fresh handle succeed at once. */
    armci_hdl_t h[NH];
    for (int i = 0; i < NH; i++)
        ARMCI_INIT_HANDLE(&h[i]);
    CHECK(ARMCI_Wait(&h[0]) == 0, "Wait on an unused handle");
    CHECK(ARMCI_Test(&h[1]) == 0, "Test on an unused handle must report done");

    /* Many outstanding explicit handles to all targets. */
    int right = (me + 1) % np, left = (me + np - 1) % np;
    long *src = malloc(NH * N * sizeof(long));
    for (int i = 0; i < NH * N; i++)
        src[i] = me * 100000L + i;
    for (int k = 0; k < NH; k++)
        ARMCI_NbPut(src + k * N, (long *)ptr[right] + k * N, N * sizeof(long), right, &h[k]);
    for (int k = 0; k < NH; k++)
        CHECK(ARMCI_Wait(&h[k]) == 0, "Wait %d", k);
    ARMCI_Barrier();
    for (int i = 0; i < NH * N; i++)
        CHECK(mine[i] == left * 100000L + i, "NbPut: mine[%d]=%ld", i, mine[i]);

    /* One aggregate handle carrying gets from every process. */
    long *got = calloc(np * N, sizeof(long));
    armci_hdl_t agg;
    ARMCI_INIT_HANDLE(&agg);
    ARMCI_SET_AGGREGATE_HANDLE(&agg);
    for (int p = 0; p < np; p++)
        ARMCI_NbGet(ptr[p], got + p * N, N * sizeof(long), p, &agg);
    ARMCI_Wait(&agg);
    ARMCI_UNSET_AGGREGATE_HANDLE(&agg);
    for (int p = 0; p < np; p++) {
        int pl = (p + np - 1) % np;
        for (int i = 0; i < N; i++)
            CHECK(got[p * N + i] == pl * 100000L + i, "aggregate NbGet p=%d i=%d: %ld", p,
                  i, got[p * N + i]);
    }
    /* The same handle reused after Wait, polled with Test. */
    ARMCI_INIT_HANDLE(&agg);
    ARMCI_NbGet(ptr[left], got, sizeof(long), left, &agg);
    int spins = 0;
    while (ARMCI_Test(&agg) != 0 && spins < 1000000)
        spins++;
    CHECK(got[0] == ((left + np - 1) % np) * 100000L, "reused handle: %ld", got[0]);
    ARMCI_Barrier();

    /* Implicit handles: accumulate everywhere, then WaitProc / WaitAll. */
    long one = 1, ones[N];
    for (int i = 0; i < N; i++)
        ones[i] = i;
    for (int p = 0; p < np; p++)
        ARMCI_NbAcc(ARMCI_ACC_LNG, &one, ones, ptr[p], N * sizeof(long), p, NULL);
    ARMCI_WaitProc(right);
    ARMCI_WaitAll();
    /* A scaled accumulate (origin-side temporary) through an explicit handle. */
    long two = 2;
    armci_hdl_t hs;
    ARMCI_INIT_HANDLE(&hs);
    ARMCI_NbAcc(ARMCI_ACC_LNG, &two, ones, (long *)ptr[right] + N, N * sizeof(long), right, &hs);
    ARMCI_Wait(&hs);
    ARMCI_Barrier();
    for (int i = 0; i < N; i++) {
        long e0 = left * 100000L + i + (long)np * i;
        long e1 = left * 100000L + N + i + 2L * i;
        CHECK(mine[i] == e0, "NbAcc implicit: mine[%d]=%ld expected %ld", i, mine[i], e0);
        CHECK(mine[N + i] == e1, "NbAcc scaled: mine[%d]=%ld expected %ld", N + i, mine[N + i], e1);
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(src);
    free(got);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
