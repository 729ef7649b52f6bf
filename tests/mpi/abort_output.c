/* What a process wrote just before an abort must reach the user: rank 0
 * writes 900 numbered lines to stderr, then aborts through ARMCI_Error
 * ("armci") or straight through MPI_Abort ("mpi", the launcher alone).
 * Run by tests/mpi/test_abort_output.sh, which counts the lines. */
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include <armci.h>

int main(int argc, char **argv)
{
    int me;
    if (argc < 2 || (strcmp(argv[1], "armci") && strcmp(argv[1], "mpi"))) {
        fprintf(stderr, "usage: abort_output armci|mpi\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
        for (int i = 0; i < 900; i++)
            fprintf(stderr, "abort_output line %03d: written before the abort, must arrive\n", i);
        if (!strcmp(argv[1], "armci"))
            ARMCI_Error("abort_output: deliberate error after 900 lines", 7);
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    ARMCI_Barrier();
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
