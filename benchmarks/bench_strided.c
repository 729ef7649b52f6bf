/*
 * bench_strided: strided bandwidth per method (not a test).
 *
 * Rank 0 moves nseg blocks of seg bytes (16 B and 1 KiB, nseg 1..1024) to or
 * from rank 1 with blocking ARMCI_PutS/GetS/AccS(double); the remote stride
 * is 2*seg and the local one seg+8, so both sides are noncontiguous.  Every
 * method is run in the same job by finalizing ARMCI, changing
 * ARMCI_STRIDED_METHOD / ARMCI_IOV_METHOD and initializing again (the
 * configuration is read at init).  The row "MPI" is the same transfer with
 * raw MPI hvector datatypes on an MPI_Win_allocate window plus
 * MPI_Win_flush_local.  One row per (method, op, seg, nseg):
 *   method op seg nseg reps med_us min_us max_us MB/s(at median)
 * Knobs: BENCH_REPS (default 15).  Other ranks only wait in barriers.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <armci.h>

#define MAXSEG 1024

static int me, np, reps;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *method, const char *op, int seg, int nseg, double *t)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_d);
    double med = t[reps / 2];
    printf("%-13s %-4s %5d %5d %4d %10.2f %10.2f %10.2f %9.1f\n", method, op, seg, nseg,
           reps, med * 1e6, t[0] * 1e6, t[reps - 1] * 1e6,
           (double)seg * nseg / med / 1e6);
    fflush(stdout);
}

/* Operations per sample: enough to amortize the timer, bounded for CONSRV. */
static int iters_for(int nseg) { return nseg >= 256 ? 2 : 512 / nseg > 16 ? 16 : 512 / nseg; }

static void run_armci(const char *method)
{
    void **ptr = malloc((size_t)np * sizeof *ptr);
    ARMCI_Malloc(ptr, 2 * MAXSEG * 1024);
    char *loc = ARMCI_Malloc_local((MAXSEG + 8) * MAXSEG);
    memset(loc, 1, (MAXSEG + 8) * MAXSEG);
    static const char *ops[] = {"put", "get", "acc"};
    double *t = malloc((size_t)reps * sizeof *t), one = 1.0;
    for (int o = 0; o < 3; o++)
        for (int seg = 16; seg <= 1024; seg *= 64)
            for (int nseg = 1; nseg <= MAXSEG; nseg *= 2) {
                int count[2] = {seg, nseg}, ls[1] = {seg + 8}, rs[1] = {2 * seg};
                int iters = iters_for(nseg);
                ARMCI_Barrier();
                for (int r = 0; r < reps && me == 0; r++) {
                    double t0 = MPI_Wtime();
                    for (int i = 0; i < iters; i++) {
                        if (o == 0)
                            ARMCI_PutS(loc, ls, ptr[1], rs, count, 1, 1);
                        else if (o == 1)
                            ARMCI_GetS(ptr[1], rs, loc, ls, count, 1, 1);
                        else
                            ARMCI_AccS(ARMCI_ACC_DBL, &one, loc, ls, ptr[1], rs, count, 1, 1);
                    }
                    t[r] = (MPI_Wtime() - t0) / iters;
                }
                if (me == 0)
                    report(method, ops[o], seg, nseg, t);
                ARMCI_Barrier();
            }
    free(t);
    ARMCI_Free_local(loc);
    ARMCI_Free(ptr[me]);
    free(ptr);
}

static void run_mpi(void)
{
    char *base, *loc = malloc((MAXSEG + 8) * MAXSEG);
    MPI_Win win;
    MPI_Win_allocate(2 * MAXSEG * 1024, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(loc, 0, (MAXSEG + 8) * MAXSEG);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    static const char *ops[] = {"put", "get", "acc"};
    double *t = malloc((size_t)reps * sizeof *t);
    for (int o = 0; o < 3; o++)
        for (int seg = 16; seg <= 1024; seg *= 64)
            for (int nseg = 1; nseg <= MAXSEG; nseg *= 2) {
                MPI_Datatype lt, rt;
                MPI_Datatype el = o == 2 ? MPI_DOUBLE : MPI_BYTE;
                int n = o == 2 ? seg / 8 : seg, iters = iters_for(nseg);
                MPI_Type_create_hvector(nseg, n, seg + 8, el, &lt);
                MPI_Type_create_hvector(nseg, n, 2 * seg, el, &rt);
                MPI_Type_commit(&lt);
                MPI_Type_commit(&rt);
                MPI_Barrier(MPI_COMM_WORLD);
                for (int r = 0; r < reps && me == 0; r++) {
                    double t0 = MPI_Wtime();
                    for (int i = 0; i < iters; i++) {
                        if (o == 0)
                            MPI_Put(loc, 1, lt, 1, 0, 1, rt, win);
                        else if (o == 1)
                            MPI_Get(loc, 1, lt, 1, 0, 1, rt, win);
                        else
                            MPI_Accumulate(loc, 1, lt, 1, 0, 1, rt, MPI_SUM, win);
                        MPI_Win_flush_local(1, win);
                    }
                    t[r] = (MPI_Wtime() - t0) / iters;
                }
                if (me == 0)
                    report("MPI", ops[o], seg, nseg, t);
                MPI_Type_free(&lt);
                MPI_Type_free(&rt);
                MPI_Barrier(MPI_COMM_WORLD);
            }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(t);
    free(loc);
}

int main(int argc, char **argv)
{
    /* DIRECT/split and DIRECT/dtype force ARMCI_ACC_DTYPE_SPLIT: the
     * accumulate rows show what the per-block split costs on this MPI. */
    static const struct { const char *name, *strided, *iov, *split; } methods[] = {
        {"DIRECT", "DIRECT", "AUTO", "AUTO"},
        {"DIRECT/split", "DIRECT", "AUTO", "ON"},
        {"DIRECT/dtype", "DIRECT", "AUTO", "OFF"},
        {"IOV/CONSRV", "IOV", "CONSRV", "AUTO"},
        {"IOV/BATCHED", "IOV", "BATCHED", "AUTO"},
        {"IOV/DIRECT", "IOV", "DIRECT", "AUTO"},
        {"IOV/AUTO", "IOV", "AUTO", "AUTO"},
    };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) {
        if (me == 0)
            fprintf(stderr, "bench_strided needs at least 2 processes\n");
        MPI_Finalize();
        return 1;
    }
    reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 15;
    if (reps < 1)
        reps = 1;
    if (me == 0) {
        const char *nl = getenv("ARMCI_NODE_LOCAL");
        printf("# bench_strided: %d ranks, ARMCI_NODE_LOCAL=%s; times per operation\n",
               np, nl ? nl : "(default)");
        printf("# method       op     seg  nseg reps     med_us     min_us     max_us      MB/s\n");
    }
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        setenv("ARMCI_STRIDED_METHOD", methods[m].strided, 1);
        setenv("ARMCI_IOV_METHOD", methods[m].iov, 1);
        setenv("ARMCI_ACC_DTYPE_SPLIT", methods[m].split, 1);
        ARMCI_Init();
        run_armci(methods[m].name);
        ARMCI_Finalize();
    }
    run_mpi();
    MPI_Finalize();
    return 0;
}
