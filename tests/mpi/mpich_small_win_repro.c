/*
 * Minimal pure-MPI reproducer (no ARMCI): with Debian's MPICH 4.0.2
 * (ch4:ucx), an MPI_Put into an MPI_Win_allocate window of fewer than 16
 * bytes is lost: the origin's flush returns, and after a barrier and
 * MPI_Win_sync the target still reads the old value (4, 8 and 12 bytes
 * lose it; 16 bytes and more work; Open MPI 4.1 works at every size).
 * The library pads such windows to ARMCII_WIN_MIN_BYTES (src/gmr/gmr_region.c).
 *
 * usage: mpich_small_win_repro BYTES (2 ranks).  Exit 1 when the put is lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int me, *base, lost = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Aint bytes = argc > 1 ? atol(argv[1]) : 4;
    MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    *base = 0;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        int x = 42;
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (me == 1) {
        int v = *(volatile int *)base;
        lost = v != 42;
        printf("%ld-byte MPI_Win_allocate window: put %s (value %d)\n", (long)bytes,
               lost ? "LOST" : "arrived", v);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return lost;
}
