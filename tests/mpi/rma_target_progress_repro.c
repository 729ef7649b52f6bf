/*
 * Minimal pure-MPI probe (no ARMCI): does an MPI_Put + MPI_Win_flush to a
 * target that makes no MPI calls complete?  MPI allows either answer.
 * Measured: Open MPI 4.1 (osc rdma/sm) completes at once; osc pt2pt and
 * Debian's MPICH 4.0 (ch4:ucx), even on MPI_Win_allocate_shared windows,
 * wait until the target calls MPI.  This is why a target that polls an
 * ARMCI_Put_flag flag must call ARMCIX_Progress there (docs/mpi-notes.md, Known
 * limitations), and what ghost processes are for.
 *
 * usage: rma_target_progress_repro [shared|allocate]; rank 1 spins on
 * memory for SPIN seconds without MPI calls.  Prints whether the put
 * arrived while it spun; exits 1 only if the put never arrives at all.
 */
#include <stdio.h>
#include <string.h>
#include <mpi.h>

#define SPIN 2.0
/* 64 bytes: MPICH 4.0.2 loses puts into smaller MPI_Win_allocate windows
 * (tests/mpi/mpich_small_win_repro.c), a different matter. */
#define WINBYTES 64

int main(int argc, char **argv)
{
    int me, np, *base, bad = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int shared = argc > 1 && !strcmp(argv[1], "shared");
    if (shared)
        MPI_Win_allocate_shared(WINBYTES, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                &win);
    else
        MPI_Win_allocate(WINBYTES, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    *base = 0;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 && np > 1) {
        int x = 42;
        double t0 = MPI_Wtime();
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        printf("%s window: put+flush to a busy target took %.3f s\n",
               shared ? "shared" : "allocate", MPI_Wtime() - t0);
    } else if (me == 1) {
        volatile int *f = base;
        double t0 = MPI_Wtime();
        while (*f != 42 && MPI_Wtime() - t0 < SPIN)
            ;
        printf("target: the put %s while it made no MPI calls\n",
               *f == 42 ? "ARRIVED" : "did NOT arrive (needs target progress)");
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Win_sync(win);
    if (me == 1 && *base != 42) {
        printf("target: the put never arrived (value %d)\n", *base);
        bad = 1;
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return bad;
}
