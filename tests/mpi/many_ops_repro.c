/*
 * Minimal pure-MPI reproducer (no ARMCI): with Debian's MPICH 4.0.2
 * (ch4:ucx), MPI_Get into a shared-memory window (MPI_Win_allocate_shared)
 * aborts the job once about 2^18 gets are outstanding without a
 * completion: "Assertion failed in file ./src/include/mpir_request.h at
 * line 446: req != NULL" (262,145 gets completed, 300,000 aborted).  GA's
 * sprsmatmult.x reached it through one ARMCI_GetV.  Open MPI 4.1 completes
 * 300,000.  The library completes every window in use after each
 * ARMCII_OPS_BOUND (65,536) MPI operations of a process (src/gmr/gmr_ops.c).
 *
 * usage: many_ops_repro COUNT [BOUND] (2 ranks): rank 0 issues COUNT
 * 8-byte gets from rank 1, flushing after every BOUND of them (0: never),
 * and checks the values.  Exit 0 when all arrived; an MPI abort otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    long n = argc > 1 ? atol(argv[1]) : 300000, bound = argc > 2 ? atol(argv[2]) : 0;
    enum { SLOTS = 1024 };
    long *base, bad = 0;
    MPI_Win win;
    MPI_Win_allocate_shared(SLOTS * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &base, &win);
    for (long i = 0; i < SLOTS; i++)
        base[i] = 1000 * me + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    if (me == 0) {
        long *buf = malloc((size_t)n * sizeof *buf);
        for (long i = 0; i < n; i++) {
            MPI_Get(buf + i, 1, MPI_LONG, 1, i % SLOTS, 1, MPI_LONG, win);
            if (bound > 0 && (i + 1) % bound == 0)
                MPI_Win_flush(1, win);
        }
        MPI_Win_flush(1, win);
        for (long i = 0; i < n; i++)
            bad += buf[i] != 1000 + i % SLOTS;
        printf("%ld gets outstanding at most (bound %ld): %ld wrong values\n",
               bound > 0 && bound < n ? bound : n, bound, bad);
        free(buf);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return bad ? 1 : 0;
}
