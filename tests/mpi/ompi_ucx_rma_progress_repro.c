/*
 * Minimal pure-MPI reproducer (no ARMCI): with Open MPI 4.1's osc/ucx, a
 * process that makes only RMA calls never serves the software atomics other
 * processes aim at its window.  Rank 1 does MPI_Fetch_and_op(+1) on an int
 * of rank 0's window; rank 0 polls that int until it sees the 1.  UCX's
 * shared-memory transports emulate 32-bit fetch-and-add with active
 * messages, which only opal_progress() (MPI point-to-point calls) turns;
 * osc/ucx's own calls, even on the same window, do not.
 *
 * usage: ompi_ucx_rma_progress_repro fop|flush|get|iprobe
 *   fop:    rank 0 polls with MPI_Fetch_and_op(+0) on itself + MPI_Win_flush
 *   flush:  rank 0 polls with MPI_Win_flush + a load
 *   get:    rank 0 polls with MPI_Get on itself + MPI_Win_flush
 *   iprobe: rank 0 polls with MPI_Iprobe + a load (the library's
 *           workaround: src/gmr/gmr_ops.c, armcii_gmr_poke)
 * Run with `mpiexec -n 2 --mca osc ucx`.  The first three hang (the bug):
 * a rank still polling or waiting 10 s after both began prints "HANG: ..."
 * and exits 3 (repro_watchdog.h; REPRO_HANG_S changes the time).  Exit 1
 * when the final value is wrong.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include "repro_watchdog.h"

int main(int argc, char **argv)
{
    int me, bad = 0, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *how = argc > 1 ? argv[1] : "fop";
    int *base;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    *base = 0;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int one = 1, zero = 0, old = 0;
    if (me == 0) {
        repro_watch(me, "the target's poll for a peer's fetch-and-op");
        while (old != 1) {
            if (strcmp(how, "fop") == 0) {
                MPI_Fetch_and_op(&zero, &old, MPI_INT, 0, 0, MPI_SUM, win);
                MPI_Win_flush(0, win);
            } else if (strcmp(how, "get") == 0) {
                MPI_Get(&old, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
                MPI_Win_flush(0, win);
            } else {
                if (strcmp(how, "iprobe") == 0)
                    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                               MPI_STATUS_IGNORE);
                else
                    MPI_Win_flush(0, win);
                old = __atomic_load_n(base, __ATOMIC_SEQ_CST);
            }
            if (old != 1)
                usleep(20);
        }
    } else if (me == 1) {
        repro_watch(me, "MPI_Fetch_and_op + MPI_Win_flush to the polling target");
        MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        if (old != 0) {
            fprintf(stderr, "[1] fetched %d, expected 0\n", old);
            bad = 1;
        }
    }
    repro_passed("unlock, barrier, free");
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 && *base != 1) {
        fprintf(stderr, "[0] window holds %d, expected 1\n", *base);
        bad = 1;
    }
    MPI_Win_free(&win);
    repro_done();
    MPI_Finalize();
    return bad;
}
