/*
 * Minimal reproducer, no ARMCI: rank 1 leaves with _exit(0) right after
 * MPI_Init while the others sleep.  A launcher must take such a job down
 * and say so.  MPICH 4.0.2's hydra does (status 9 and its "BAD
 * TERMINATION" banner) in most runs, but in some (about 1 in 6 on the
 * 2-core development host) it ends the job at once with status 0 and no
 * message at all; tests/mpi/test_launcher_exit0.sh counts them.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1) {
        fprintf(stderr, "exit0_repro: rank 1 ends without MPI_Finalize\n");
        _exit(0);
    }
    sleep(60);
    MPI_Finalize();
    return 0;
}
