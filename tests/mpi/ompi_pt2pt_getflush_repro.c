/*
 * Minimal pure-MPI reproducer (no ARMCI): Open MPI 4.1's osc/pt2pt never
 * returns from MPI_Win_flush_local(p) while MPI_Get operations to more
 * than one target are outstanding in a lock_all epoch.  Seen with 2 and
 * 4 ranks on one node; MPI_Win_flush instead of flush_local completes.
 *
 * The same hang hits a flush_local that completes a PUT to p while a get to
 * one other target q is outstanding (form "put", 3 ranks or more: found by
 * tests/mpi/test_stress.c, an ARMCI_NbGet in flight during a blocking put),
 * so under osc/pt2pt the library completes everything with MPI_Win_flush
 * (ARMCII_QUIRK_NO_FLUSH_LOCAL).
 *
 * usage: ompi_pt2pt_getflush_repro [local|remote|put]
 *   local:  complete the gets with MPI_Win_flush_local (hangs on pt2pt)
 *   remote: complete them with MPI_Win_flush (the library's choice for reads)
 *   put:    get from me+2 left outstanding, put to me+1 + flush_local(me+1)
 *           (hangs on pt2pt), then flush_all
 * Run with `mpiexec --mca osc pt2pt`.  A hang is the bug: a rank still in
 * the flush 10 s after every rank reached it prints "HANG: ..." and exits
 * 3 (repro_watchdog.h; REPRO_HANG_S changes the time).  Exit 1 when the
 * fetched data is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "repro_watchdog.h"

#define N 128

int main(int argc, char **argv)
{
    int me, np, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int local = argc < 2 || strcmp(argv[1], "remote") != 0;
    int put = argc >= 2 && strcmp(argv[1], "put") == 0;
    if (put && np < 3) {
        if (me == 0)
            fprintf(stderr, "form put needs 3 ranks or more\n");
        MPI_Finalize();
        return 2;
    }
    long *base;
    MPI_Win win;
    /* second half: the put form's destination (never read) */
    MPI_Win_allocate(2 * N * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &win);
    for (int i = 0; i < N; i++)
        base[i] = me * 1000L + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    long *got = calloc((size_t)np * N, sizeof(long));
    if (put) {
        long src[N];
        int p = (me + 1) % np, q = (me + 2) % np;
        for (int i = 0; i < N; i++)
            src[i] = -1;
        repro_watch(me, "MPI_Win_flush_local (put form)");
        MPI_Get(got, N, MPI_LONG, q, 0, N, MPI_LONG, win);
        MPI_Put(src, N, MPI_LONG, p, N, N, MPI_LONG, win);
        MPI_Win_flush_local(p, win);  /* never returns on osc/pt2pt 4.1 */
        repro_passed("MPI_Win_flush_all, unlock, free (put form)");
        MPI_Win_flush_all(win);
        for (int i = 0; i < N; i++)
            if (got[i] != q * 1000L + i && bad++ < 4)
                fprintf(stderr, "[%d] got[%d] = %ld, expected %ld\n", me, i, got[i],
                        q * 1000L + i);
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
        repro_done();
        free(got);
        MPI_Finalize();
        return bad ? 1 : 0;
    }
    repro_watch(me, local ? "MPI_Win_flush_local (gets to several targets)"
                          : "MPI_Win_flush (gets to several targets)");
    for (int p = 0; p < np; p++)
        MPI_Get(got + p * N, N, MPI_LONG, p, 0, N, MPI_LONG, win);
    for (int p = 0; p < np; p++) {
        if (local)
            MPI_Win_flush_local(p, win);
        else
            MPI_Win_flush(p, win);
    }
    repro_passed("unlock, free");
    for (int p = 0; p < np; p++)
        for (int i = 0; i < N; i++)
            if (got[p * N + i] != p * 1000L + i && bad++ < 4)
                fprintf(stderr, "[%d] got[%d][%d] = %ld, expected %ld\n", me, p, i,
                        got[p * N + i], p * 1000L + i);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    repro_done();
    free(got);
    MPI_Finalize();
    return bad ? 1 : 0;
}
