/*
 * ARMCI_Init_args without MPI_Init (GA's armci/testing test.c and perf.c
 * start that way): the library starts MPI, operations work, and the
 * matching ARMCI_Finalize ends MPI.
 */
#include <string.h>
#include <armci.h>
#include "../testutil.h"

int main(int argc, char **argv)
{
    int inited = -1, finalized = -1, me, np;
    MPI_Initialized(&inited);
    if (inited) {
        fprintf(stderr, "test_init_args: MPI running before ARMCI_Init_args\n");
        return 1;
    }
    ARMCI_Init_args(&argc, &argv);
    MPI_Initialized(&inited);
    tu_name = "test_init_args";
    CHECK(inited, "ARMCI_Init_args did not start MPI");
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void **ptr = malloc((size_t)np * sizeof *ptr);
    ARMCI_Malloc(ptr, sizeof(int));
    int v = 1000 + me, got = -1, right = (me + 1) % np;
    ARMCI_Put(&v, ptr[right], sizeof v, right);
    ARMCI_Barrier();
    ARMCI_Get(ptr[me], &got, sizeof got, me);
    CHECK(got == 1000 + (me + np - 1) % np, "got %d from my slot, expected %d", got,
          1000 + (me + np - 1) % np);
    ARMCI_Free(ptr[me]);
    free(ptr);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalized(&finalized);
    if (!finalized) {
        fprintf(stderr, "[%d] test_init_args: ARMCI_Finalize did not end the MPI it started\n",
                me);
        return 1;
    }
    return rc;
}
