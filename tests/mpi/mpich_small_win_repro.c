/*
 * Minimal pure-MPI reproducer (no ARMCI): with Debian's MPICH 4.0.2
 * (ch4:ucx), an MPI_Put into an MPI_Win_allocate window whose size is not
 * a multiple of 16 bytes misses the target: the origin's flush returns,
 * and after a barrier and MPI_Win_sync the target still reads the old
 * value (4, 8, 12, 2056, 2060 and 4100 bytes lose it; 16, 2064 and 4112
 * work; Open MPI 4.1 works at every size).  With more data the cause
 * shows: a 2056-byte window's puts land 8 bytes before the target's base,
 * so the target reads each element shifted by one.  The library rounds
 * such windows up to a multiple of ARMCII_WIN_ALIGN (src/gmr/gmr_region.c).
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
