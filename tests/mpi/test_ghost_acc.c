/* Accumulates and fetch-and-add on regions whose software-handled
 * operations go to ghosts (ghost build, regions spanning virtual nodes):
 * every rank hits every rank, including itself, while some compute; sums
 * and fetched values must be exact.  Repeated allocate/free cycles check
 * that ghosts map and unmap slices; ARMCIX_Set_async_hint(0) regions take
 * the ordinary path.  In other builds it checks the same arithmetic. */
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

#pragma weak ARMCI_Rmw

#define N 40
static int me, np;
static volatile double sink;

static void compute(double ms)
{
    double t0 = MPI_Wtime(), x = 1;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

static void round_trip(int hint, int iters)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCIX_Set_async_hint(hint);
    ARMCI_Malloc(ptr, (N + 1) * sizeof(long));
    ARMCIX_Set_async_hint(-1);
    long *mine = ptr[me], src[N], one = 1, fetched = -1;
    memset(mine, 0, (N + 1) * sizeof(long));
    for (int i = 0; i < N; i++)
        src[i] = i + 1;
    ARMCI_Barrier();
    int have_rmw = ARMCI_Rmw != NULL, zero_seen = 0;
    for (int it = 0; it < iters; it++) {
        if (me % 2 == it % 2)
            compute(3);
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            ARMCI_Acc(ARMCI_ACC_LNG, &one, src, ptr[t], N * sizeof(long), t);
            if (have_rmw) {
                ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &fetched, (long *)ptr[t] + N, 1, t);
                CHECK(fetched >= 0 && fetched < (long)np * iters, "fetched %ld", fetched);
                zero_seen += t == me && fetched == 0;
            } else {
                ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, (long *)ptr[t] + N, sizeof(long), t);
            }
        }
    }
    ARMCI_Barrier();
    for (int i = 0; i < N; i++)
        CHECK(mine[i] == (long)iters * np * (i + 1), "hint %d: mine[%d]=%ld expected %ld",
              hint, i, mine[i], (long)iters * np * (i + 1));
    CHECK(mine[N] == (long)np * iters, "hint %d: counter %ld expected %d", hint, mine[N],
          np * iters);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_acc";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int cycle = 0; cycle < 3; cycle++)
        round_trip(-1, 4);
    round_trip(0, 3);
    round_trip(1, 3);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
