/* Built through find_package(libarmci): every process puts its rank into
 * its right neighbour's slot, accumulates into rank 0, and checks. */
#include <stdio.h>
#include <armci.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int me, np, bad = 0;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void *ptr[256];
    if (np > 256) {
        fprintf(stderr, "cmake_user: at most 256 processes\n");
        ARMCI_Error("cmake_user", 1);
    }
    ARMCI_Malloc(ptr, 2 * sizeof(long));
    long *mine = ptr[me], v = me, one = 1;
    mine[0] = mine[1] = 0;
    ARMCI_Barrier();
    ARMCI_Put(&v, ptr[(me + 1) % np], sizeof v, (me + 1) % np);
    ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, (long *)ptr[0] + 1, sizeof one, 0);
    ARMCI_Barrier();
    if (mine[0] != (me + np - 1) % np) {
        fprintf(stderr, "cmake_user: rank %d holds %ld, expected %d\n", me, mine[0],
                (me + np - 1) % np);
        bad = 1;
    }
    if (me == 0 && mine[1] != np) {
        fprintf(stderr, "cmake_user: the accumulate gave %ld, expected %d\n", mine[1], np);
        bad = 1;
    }
    ARMCI_Barrier();
    ARMCI_Free(mine);
    ARMCI_Finalize();
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s cmake_user (%d processes)\n", all ? "FAIL" : "PASS", np);
    MPI_Finalize();
    return all;
}
