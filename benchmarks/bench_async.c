/*
 * bench_async: how long one operation waits for a target that computes
 * outside the library.  Rank 0 (origin) times one operation aimed at the
 * last rank (target) while the target spins for T ms without any library
 * call; every other rank waits in a barrier.  Run it with the target on
 * another (virtual) node and an MPI that needs target progress, e.g.
 *   ARMCI_VIRTUAL_NODE_SIZE=1 mpiexec -n 2 --mca osc pt2pt ./bench_async 100 7
 * Setups: nothing; ARMCI_PROGRESS_THREAD=1 (MPI_THREAD_MULTIPLE is asked
 * for then); the ghost build.  Prints the median completion time per op.
 * Then the cost of the setup to the computation: the target runs a fixed
 * amount of work (K iterations), once while nobody talks to it and once
 * while the origin keeps issuing accumulates to it; compare the "compute"
 * rows across setups for the slowdown a progress thread or ghost costs.
 * usage: bench_async [T_ms=100] [reps=7] [K_millions=50]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <mpi.h>


enum { OP_ACC, OP_PUT, OP_GET, OP_FADD, OP_ACCS, NOPS };
static const char *op_name[NOPS] = {"acc+fence", "put+fence", "get", "fetch-and-add",
                                    "strided acc+fence"};
static volatile double sink;

static void spin(double ms)
{
    double t0 = MPI_Wtime(), x = 1;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* A fixed amount of work, no library calls; returns its seconds. */
static double work(long iters)
{
    double t0 = MPI_Wtime(), x = 1;
    for (long i = 0; i < iters; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
    return MPI_Wtime() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One timed operation from the origin to target t; returns seconds. */
static double one_op(int op, void **ptr, int t)
{
    static double buf[256];
    double one = 1;
    long fetched;
    int st[1] = {16 * sizeof(double)}, dst[1] = {32 * sizeof(double)};
    int count[2] = {8 * sizeof(double), 16};
    double t0 = MPI_Wtime();
    switch (op) {
    case OP_ACC:
        ARMCI_Acc(ARMCI_ACC_DBL, &one, buf, ptr[t], 8 * sizeof(double), t);
        ARMCI_Fence(t);
        break;
    case OP_PUT:
        ARMCI_Put(buf, ptr[t], 8 * sizeof(double), t);
        ARMCI_Fence(t);
        break;
    case OP_GET:
        ARMCI_Get(ptr[t], buf, 8 * sizeof(double), t);
        break;
    case OP_FADD:
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &fetched, (char *)ptr[t] + 4096, 1, t);
        break;
    case OP_ACCS:
        ARMCI_AccS(ARMCI_ACC_DBL, &one, buf, st, ptr[t], dst, count, 1, t);
        ARMCI_Fence(t);
        break;
    }
    return MPI_Wtime() - t0;
}

static void report(const char *name, double *times, int reps)
{
    qsort(times, reps, sizeof(double), cmp_double);
    printf("%-18s median %10.3f ms  (min %.3f, max %.3f)\n", name, times[reps / 2] * 1e3,
           times[0] * 1e3, times[reps - 1] * 1e3);
    fflush(stdout);
}

/* The target's time for `iters` of work, alone (busy = 0) or while the
 * origin issues accumulates + fence to it (busy = 1); median on rank 0. */
static void compute_cost(void **ptr, int target, long iters, int reps, int busy,
                         double *times)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    for (int r = 0; r < reps; r++) {
        double t = 0;
        ARMCI_Barrier();
        if (me == target) {
            t = work(iters);
        } else if (me == 0 && busy) {
            /* Keep issuing until the target flags the end of its work with
             * a put here; this loop's own library calls progress that put
             * where the MPI needs the origin's help (osc pt2pt). */
            volatile int *flag = (volatile int *)((char *)ptr[0] + 4096 + 64);
            while (!*flag)
                one_op(OP_ACC, ptr, target);
            *flag = 0;
        }
        if (me == target) {
            ARMCI_PutValueInt(1, (char *)ptr[0] + 4096 + 64, 0);
            ARMCI_Fence(0);
            MPI_Send(&t, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
        }
        if (me == 0)
            MPI_Recv(&times[r], 1, MPI_DOUBLE, target, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ARMCI_Barrier();
        if (me == 0)
            *(volatile int *)((char *)ptr[0] + 4096 + 64) = 0;
        ARMCI_Barrier();
    }
}

int main(int argc, char **argv)
{
    const char *pt = getenv("ARMCI_PROGRESS_THREAD");
    int thread = pt && (!strcmp(pt, "1") || !strcasecmp(pt, "on") || !strcasecmp(pt, "yes"));
    int provided, me, np;
    MPI_Init_thread(&argc, &argv, thread ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    double T = argc > 1 ? atof(argv[1]) : 100;
    int reps = argc > 2 ? atoi(argv[2]) : 7, target = np - 1;
    long iters = (long)((argc > 3 ? atof(argv[3]) : 50) * 1e6);
    if (np < 2 || reps < 1 || iters < 1) {
        if (me == 0)
            fprintf(stderr, "bench_async: needs 2+ ranks, reps >= 1, K > 0\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, 8192);
    memset(ptr[me], 0, 8192);
    double *times = malloc(reps * sizeof(double));
    if (me == 0)
        printf("# bench_async: %d ranks, target %d computes %.1f ms; progress thread %s "
               "(thread level %d); median of %d; compute rows: %ld iterations\n", np, target,
               T, thread ? "requested" : "off", provided, reps, iters);
    for (int op = 0; op < NOPS; op++) {
        for (int r = 0; r < reps; r++) {
            ARMCI_Barrier();
            if (me == target) {
                spin(T);
            } else if (me == 0) {
                spin(T > 10 ? 2 : T / 5); /* let the target get into its loop */
                times[r] = one_op(op, ptr, target);
            }
            ARMCI_Barrier();
        }
        if (me == 0)
            report(op_name[op], times, reps);
    }
    for (int busy = 0; busy < 2; busy++) {
        compute_cost(ptr, target, iters, reps, busy, times);
        if (me == 0)
            report(busy ? "compute under acc" : "compute alone", times, reps);
    }
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(times);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
