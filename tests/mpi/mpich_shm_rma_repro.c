/*
 * Minimal pure-MPI reproducer (no ARMCI): Debian's MPICH 4.0.2 (ch4:ucx)
 * runs RMA on an MPI_Win_allocate_shared window through UCX's active
 * messages, and on an MPI_Win_allocate window by its own shared-memory
 * copy, so on one node a put into the shared window costs several times as
 * much: MPI_Put + MPI_Win_flush_local of 8 B took 1040-1160 ns against
 * 290-310 ns, 64 KiB 11.6-12.1 us against 5.2-5.4 us (2 ranks, 2-core host;
 * Open MPI 4.1.4: 20-47 ns on both).  The library keeps node-shared
 * windows anyway: sent to MPI_Win_allocate with the node-local path off,
 * a GA test read wrong data under MPICH (src/gmr/gmr_region.c,
 * docs/mpi-notes.md).
 *
 * usage: mpich_shm_rma_repro [ITERS] (2 ranks).  Prints the MPI library's
 * first line and the median over 5 rounds of each window kind's put
 * latency; exits 1 if a put did not arrive (a wrong answer, not a slow one:
 * times are printed, never judged).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

enum { ROUNDS = 5 };

/* ns per put + flush_local of `bytes` from rank 0 to rank 1; 0 on rank 1.
 * *bad: set when rank 1 does not read the last value rank 0 put. */
static double put_ns(int shared, int bytes, int iters, int me, int *bad)
{
    unsigned char *base, *src = malloc((size_t)bytes);
    MPI_Win win;
    /* at least 64 bytes: MPICH 4.0.2 loses puts into windows under 16
     * (mpich_small_win_repro.c) */
    MPI_Aint wbytes = bytes < 64 ? 64 : bytes;
    if (shared)
        MPI_Win_allocate_shared(wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    else
        MPI_Win_allocate(wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    memset(base, 0, (size_t)wbytes);
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = 0;
    if (me == 0) {
        t = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            memset(src, 1 + i % 200, (size_t)bytes);
            MPI_Put(src, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
            MPI_Win_flush_local(1, win);
        }
        t = (MPI_Wtime() - t) / iters * 1e9;
        MPI_Win_flush(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    if (me == 1 && (base[0] != 1 + (iters - 1) % 200 || base[bytes - 1] != base[0]))
        *bad = 1;
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(src);
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int me, bad = 0, len;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = 0;
    static const int sizes[2] = {8, 65536};
    double t[2][2][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < 2; k++)
                t[s][k][r] = put_ns(k, sizes[s], s ? iters / 10 : iters, me, &bad);
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) {
        printf("library: %s\n", lib);
        for (int s = 0; s < 2; s++) {
            qsort(t[s][0], ROUNDS, sizeof(double), cmp);
            qsort(t[s][1], ROUNDS, sizeof(double), cmp);
            printf("put %d B + flush_local: MPI_Win_allocate %.0f ns, "
                   "MPI_Win_allocate_shared %.0f ns (median of %d)\n",
                   sizes[s], t[s][0][ROUNDS / 2], t[s][1][ROUNDS / 2], ROUNDS);
        }
        if (any)
            printf("LOST: a put did not arrive\n");
    }
    MPI_Finalize();
    return any ? 1 : 0;
}
