/*
 * Minimal pure-MPI reproducer (no ARMCI): with Debian's MPICH 4.0.2
 * (ch4:ucx, 2 processes on one node), after a batch of 48 or more gets
 * completed by MPI_Win_flush, one more MPI_Get followed by
 * MPI_Win_flush_all is now and then (about 1 in 100) still in flight when
 * flush_all returns, and an MPI_Win_flush to the same target right after
 * returns at once as well: the origin buffer still holds its old value,
 * and the data lands later (into whatever the buffer has become).
 * MPI_Win_allocate and MPI_Win_create windows; MPI_Win_allocate_shared
 * windows and Open MPI 4.1.4 lost none.  Batches of 32 or fewer lost none;
 * an MPI_Win_flush per rank instead of flush_all lost none.
 *
 * usage: mpich_flush_all_repro KIND HOW [ROUNDS]
 *   KIND: allocate | create | shared
 *   HOW:  all (MPI_Win_flush_all, then MPI_Win_flush to the target)
 *         each (MPI_Win_flush to every rank: the library's workaround,
 *         src/gmr/gmr_ops.c armcii_gmr_flush_all)
 * Exit 1 when a get was not complete after the flushes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define BATCH 98
#define N 16384

static double value(int rank, int i) { return 1e6 * rank + i + 1; }

static MPI_Win make_window(const char *kind, double **base)
{
    MPI_Win win;
    MPI_Aint bytes = N * sizeof(double);
    if (!strcmp(kind, "shared")) {
        MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &win);
    } else if (!strcmp(kind, "create")) {
        MPI_Alloc_mem(bytes, MPI_INFO_NULL, base);
        MPI_Win_create(*base, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &win);
    }
    return win;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 3) {
        if (me == 0)
            fprintf(stderr, "usage: %s allocate|create|shared all|each [ROUNDS]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *kind = argv[1];
    int each = !strcmp(argv[2], "each"), rounds = argc > 3 ? atoi(argv[3]) : 4000;
    double *base;
    MPI_Win win = make_window(kind, &base);
    for (int i = 0; i < N; i++)
        base[i] = value(me, i);
    MPI_Win_lock_all(0, win);
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int t = (me + 1) % np, lost = 0, first = -1;
    double batch[BATCH], *one = malloc(rounds * sizeof *one);
    for (int i = 0; i < rounds; i++) {
        for (int k = 0; k < BATCH; k++)
            MPI_Get(&batch[k], 1, MPI_DOUBLE, t, (MPI_Aint)((i * 7 + k * 131) % N) * 8, 1,
                    MPI_DOUBLE, win);
        MPI_Win_flush(t, win);
        int e = (i * 37) % N;
        one[i] = -1;
        MPI_Get(&one[i], 1, MPI_DOUBLE, t, (MPI_Aint)e * 8, 1, MPI_DOUBLE, win);
        if (each) {
            for (int r = 0; r < np; r++)
                MPI_Win_flush(r, win);
        } else {
            MPI_Win_flush_all(win);
            MPI_Win_flush(t, win);
        }
        if (one[i] != value(t, e) && lost++ == 0)
            first = i;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (!strcmp(kind, "create"))
        MPI_Free_mem(base);
    int all = 0;
    MPI_Allreduce(&lost, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (lost)
        printf("rank %d: %d of %d gets incomplete after the flushes (first in round %d)\n", me,
               lost, rounds, first);
    if (me == 0)
        printf("%s window, flush %s: %d of %d gets incomplete\n", kind, each ? "per rank" : "all",
               all, rounds * np);
    free(one);
    MPI_Finalize();
    return all != 0;
}
