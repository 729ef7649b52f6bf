/*
 * Minimal pure-MPI reproducer (no ARMCI): with Debian's MPICH 4.0.2
 * (ch4:ucx, 2 processes on one node, MPI_Win_allocate window, lock_all
 * epoch), an MPI_Rget whose origin and target types are a derived vector
 * completes its request before the data has arrived: after MPI_Wait the
 * origin buffer still holds what it held before, in every try (vectors of
 * 64 blocks of BLK doubles; measured with BLK 1, 16 and 128); the
 * MPI_Win_flush after it brings the data.  MPICH 4.3.2 (ch4:ucx, built
 * from source) the same, 100 of 100.  A contiguous origin with the vector
 * only at the target (form tvec) the same: 200 of 200 with 4.0.2, 100 of
 * 100 with 4.3.2.  The same get of contiguous MPI_DOUBLEs, and Open MPI
 * 4.1.4 and 5.0.10 with any form, are complete after MPI_Wait.  MPI-3.1 11.3.5: the request
 * of MPI_Rget completes when the data is in the origin buffer.  Form gacc
 * moves the vector get as MPI_Rget_accumulate with MPI_NO_OP, in vectors of
 * MPI_BYTE as the library builds them: complete after MPI_Wait with MPICH
 * 4.0.2 (200 of 200) and Open MPI 4.1.4 alike.
 * The library waits for its requests and then still flushes (src/gmr/
 * gmr_ops.c, armcii_gmr_complete_win): that flush is what completes such
 * a get there, so dropping it where waits yield broke test_strided.
 *
 * Where the library waits by testing and yielding, that flush spins until
 * the target answers, so there it issues such gets as form gacc where the
 * MPI has the quirk (src/gmr/gmr_yield.c).
 *
 * usage: rget_dtype_repro vector|tvec|gacc|contig [TRIES]
 * Exit 1 when a get was incomplete after MPI_Wait, 2 when it was still
 * incomplete after MPI_Win_flush too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define NBLK 64
#define BLK 16
#define STRIDE (2 * BLK)
#define LEN (NBLK * STRIDE)

static double value(int rank, int i) { return 1e6 * rank + i + 1; }

enum { CONTIG, VECTOR, TVEC, GACC };

/* Whether the blocks a get delivers all hold the target's values: a vector
 * (or gacc) get's blocks in place, the first NBLK * BLK elements of a contiguous one,
 * a tvec get's strided target blocks packed. */
static int complete(const double *loc, int t, int form)
{
    for (int b = 0; b < NBLK; b++)
        for (int j = 0; j < BLK; j++) {
            int i = form == VECTOR || form == GACC ? b * STRIDE + j : b * BLK + j;
            int ti = form == CONTIG ? i : b * STRIDE + j;
            if (loc[i] != value(t, ti))
                return 0;
        }
    return 1;
}

int main(int argc, char **argv)
{
    int me, np, early = 0, late = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *name = argc > 1 ? argv[1] : "contig";
    int form = !strcmp(name, "vector") ? VECTOR
               : !strcmp(name, "tvec") ? TVEC
               : !strcmp(name, "gacc") ? GACC : CONTIG;
    int tries = argc > 2 ? atoi(argv[2]) : 100;
    double *base, *loc = malloc(LEN * sizeof(double));
    MPI_Win win;
    MPI_Win_allocate(LEN * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &win);
    for (int i = 0; i < LEN; i++)
        base[i] = value(me, i);
    MPI_Datatype vt, bt;
    MPI_Type_vector(NBLK, BLK, STRIDE, MPI_DOUBLE, &vt);
    MPI_Type_commit(&vt);
    MPI_Type_vector(NBLK, BLK * sizeof(double), STRIDE * sizeof(double), MPI_BYTE, &bt);
    MPI_Type_commit(&bt);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    int t = (me + 1) % np;
    for (int k = 0; k < tries; k++) {
        MPI_Request r;
        for (int i = 0; i < LEN; i++)
            loc[i] = -1;
        if (form == GACC)
            MPI_Rget_accumulate(NULL, 0, MPI_BYTE, loc, 1, bt, t, 0, 1, bt, MPI_NO_OP, win, &r);
        else if (form == VECTOR)
            MPI_Rget(loc, 1, vt, t, 0, 1, vt, win, &r);
        else if (form == TVEC)
            MPI_Rget(loc, NBLK * BLK, MPI_DOUBLE, t, 0, 1, vt, win, &r);
        else
            MPI_Rget(loc, NBLK * BLK, MPI_DOUBLE, t, 0, NBLK * BLK, MPI_DOUBLE, win, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        early += !complete(loc, t, form);
        MPI_Win_flush(t, win);
        late += !complete(loc, t, form);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: %s: %d of %d incomplete after MPI_Wait, %d after MPI_Win_flush\n",
           me, form == VECTOR ? "vector MPI_Rget" : form == TVEC ? "contiguous-to-vector MPI_Rget"
               : form == GACC ? "vector MPI_Rget_accumulate(MPI_NO_OP)" : "contiguous MPI_Rget",
           early, tries, late);
    int rc = late ? 2 : early ? 1 : 0, all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Type_free(&vt);
    MPI_Type_free(&bt);
    MPI_Win_free(&win);
    free(loc);
    MPI_Finalize();
    return all;
}
