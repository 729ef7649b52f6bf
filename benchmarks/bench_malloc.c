/*
 * bench_malloc: cost of ARMCI_Malloc + ARMCI_Free (collective over the
 * world) of one region of S bytes per process, with L other regions alive
 * (GA jobs keep hundreds).  Prints the medians of R repetitions, in ms, of
 * the allocation, the free and both.  Run it in the default build and in
 * the ghost build with and without ghosts (ARMCI_GHOSTS_PER_NODE=0) to see
 * what ghost-reachable memory costs.
 * usage: bench_malloc [S_bytes=1048576] [R=51] [L=0]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <mpi.h>
#include "bench_common.h"

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    long size = argc > 1 ? atol(argv[1]) : 1 << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 51, live = argc > 3 ? atoi(argv[3]) : 0;
    if (size < 1 || reps < 1 || live < 0) {
        if (me == 0)
            fprintf(stderr, "bench_malloc: S >= 1, R >= 1, L >= 0\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    void ***keep = malloc((size_t)(live + 1) * sizeof *keep);
    for (int i = 0; i < live; i++) {
        keep[i] = malloc((size_t)np * sizeof(void *));
        ARMCI_Malloc(keep[i], 4096);
    }
    void **ptr = malloc((size_t)np * sizeof(void *));
    double *ta = malloc((size_t)reps * sizeof(double)), *tf = malloc((size_t)reps * sizeof(double));
    double *tt = malloc((size_t)reps * sizeof(double));
    for (int r = 0; r < reps; r++) {
        ARMCI_Barrier();
        double t0 = MPI_Wtime();
        ARMCI_Malloc(ptr, (armci_size_t)size);
        double t1 = MPI_Wtime();
        ((char *)ptr[me])[size - 1] = 1; /* the memory is usable */
        double t2 = MPI_Wtime();
        ARMCI_Free(ptr[me]);
        double t3 = MPI_Wtime();
        ta[r] = t1 - t0, tf[r] = t3 - t2, tt[r] = ta[r] + tf[r];
    }
    /* The slowest process decides a collective's time. */
    MPI_Allreduce(MPI_IN_PLACE, ta, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, tf, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, tt, reps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("bench_malloc: %d ranks, %ld bytes, %d other regions alive, median of %d: "
               "malloc %.3f ms  free %.3f ms  malloc+free %.3f ms\n", np, size, live, reps,
               bc_stats(ta, reps).med * 1e3, bc_stats(tf, reps).med * 1e3, bc_stats(tt, reps).med * 1e3);
    for (int i = 0; i < live; i++) {
        ARMCI_Free(keep[i][me]);
        free(keep[i]);
    }
    free(keep);
    free(ptr);
    free(ta);
    free(tf);
    free(tt);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
