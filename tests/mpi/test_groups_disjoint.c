/* Disjoint groups (even ranks, odd ranks) allocate and free regions at the
 * same moment, many rounds: the Open MPI osc/rdma shared-file collision of
 * open-mpi/ompi issue 7393 (same context id in two disjoint communicators)
 * must not hit the library (src/gmr/gmr_region.c serializes group window
 * creation).  Every round moves data around the group ring and checks it. */
#include <stdlib.h>
#include <armci.h>
#include <message.h>
#include "../testutil.h"

#define ROUNDS 40
#define N 64

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_groups_disjoint";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int *list[2], n[2] = {0, 0};
    list[0] = malloc(np * sizeof(int));
    list[1] = malloc(np * sizeof(int));
    for (int p = 0; p < np; p++)
        list[p % 2][n[p % 2]++] = p;
    ARMCI_Group g[2];
    ARMCI_Group_create(n[0], list[0], &g[0]); /* collective over the world */
    if (n[1] > 0)
        ARMCI_Group_create(n[1], list[1], &g[1]);
    int side = me % 2, gme, gsize;
    ARMCI_Group *mine = &g[side];
    ARMCI_Group_rank(mine, &gme);
    ARMCI_Group_size(mine, &gsize);
    void **ptr = malloc(gsize * sizeof(void *));
    long src[N];
    for (int r = 0; r < ROUNDS; r++) {
        ARMCI_Malloc_group(ptr, N * sizeof(long) * (1 + r % 3), mine);
        int right = (gme + 1) % gsize, left = (gme + gsize - 1) % gsize;
        int right_abs = ARMCI_Absolute_id(mine, right);
        for (int i = 0; i < N; i++)
            src[i] = 1000000L * r + 1000L * me + i;
        ARMCI_Put(src, ptr[right], sizeof src, right_abs);
        ARMCI_Fence(right_abs);
        armci_msg_group_barrier(mine);
        long *got = ptr[gme];
        int left_abs = ARMCI_Absolute_id(mine, left);
        for (int i = 0; i < N; i++)
            CHECK(got[i] == 1000000L * r + 1000L * left_abs + i,
                  "round %d: got[%d] = %ld from %d", r, i, got[i], left_abs);
        armci_msg_group_barrier(mine);
        ARMCI_Free_group(ptr[gme], mine);
    }
    ARMCI_Barrier();
    ARMCI_Group_free(&g[0]);
    if (n[1] > 0)
        ARMCI_Group_free(&g[1]);
    free(ptr);
    free(list[0]);
    free(list[1]);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
