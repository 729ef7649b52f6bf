/*
 * bench_barrier - what one barrier, and one reduction of a number, over all
 * processes cost, the library's against MPI's own, side by side in one run.
 *
 * Kinds (round-robin in every repetition, so host noise hits all alike):
 *   armci        ARMCI_Barrier (a fence of every target, then the barrier)
 *   msg          armci_msg_barrier (GA_Sync's barrier after its fence)
 *   mpi          MPI_Barrier on MPI_COMM_WORLD
 *   mpi_yield    MPI_Ibarrier, then MPI_Test and sched_yield until done:
 *                how the library waited in barriers on a crowded host
 *                before its node-shared barrier (src/common/common_wait.c)
 *   gop          armci_msg_dgop of one double, "+" (GA's GA_Dgop)
 *   mpi_yield_allreduce  MPI_Iallreduce of one double, then MPI_Test and
 *                sched_yield: how the library waited in its allreduces
 *                before they took node-shared memory too
 * On a host with more processes than cores, an MPI that polls without
 * yielding (MPICH) holds a core for whole time slices in MPI_Barrier, so
 * that kind runs BENCH_MPI_ITERS (default 20) barriers per sample against
 * BENCH_ITERS percent of 2000 for the others.  Columns: the seven fixed
 * ones (ns per call, slowest process), then the ratio to the earlier form
 * (mpi_yield for the barriers, mpi_yield_allreduce for the reductions).
 * Checked first: every process adds 1 to a counter on process 0 and
 * passes an ARMCI_Barrier, and every process must then read the full sum;
 * and every gop must give the sum of all processes' numbers.
 */
#include <sched.h>
#include <unistd.h>
#include <armci.h>
#include <message.h>
#include "bench_common.h"

enum { K_ARMCI, K_MSG, K_MPI, K_YIELD, K_GOP, K_GOP_YIELD, NKINDS };
static const char *const kind_name[NKINDS] = {"armci", "msg", "mpi", "mpi_yield", "gop",
                                              "mpi_yield_allreduce"};

static void test_and_yield(MPI_Request r)
{
    int done = 0;
    for (;;) {
        MPI_Test(&r, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sched_yield();
    }
}

/* The sum of every process's rank + 1, which each reduction must give. */
static double gop_want;

static void one(int k)
{
    MPI_Request r;
    double x = bc_rank() + 1, y = 0;
    switch (k) {
    case K_ARMCI: ARMCI_Barrier(); break;
    case K_MSG: armci_msg_barrier(); break;
    case K_MPI: MPI_Barrier(MPI_COMM_WORLD); break;
    case K_YIELD:
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        test_and_yield(r);
        break;
    case K_GOP:
        armci_msg_dgop(&x, 1, "+");
        y = x;
        break;
    default:
        MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
        test_and_yield(r);
        break;
    }
    if ((k == K_GOP || k == K_GOP_YIELD) && y != gop_want)
        bc_die("rank %d: %s gave %g, expected %g", bc_rank(), kind_name[k], y, gop_want);
}

/* A barrier that lets a process through early shows a partial sum. */
static void check(int me, int n)
{
    void **base = malloc((size_t)n * sizeof *base);
    if (!base || ARMCI_Malloc(base, sizeof(long)))
        bc_die("ARMCI_Malloc failed");
    *(long *)base[me] = 0;
    ARMCI_Barrier();
    for (int r = 1; r <= 20; r++) {
        long old;
        if (r % n == me)
            usleep(300);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, base[0], 1, 0);
        ARMCI_Barrier();
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, base[0], 0, 0);
        if (old != (long)n * r)
            bc_die("rank %d: round %d read %ld after the barrier, expected %ld", me, r, old,
                   (long)n * r);
        ARMCI_Barrier();
    }
    ARMCI_Free(base[me]);
    free(base);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int me = bc_rank(), n = bc_nranks();
    gop_want = (double)n * (n + 1) / 2;
    check(me, n);
    int reps = bc_reps(15);
    int iters = (int)(2000 * bc_env_long("BENCH_ITERS", 100) / 100);
    int mpi_iters = (int)bc_env_long("BENCH_MPI_ITERS", 20);
    iters = iters < 1 ? 1 : iters;
    mpi_iters = mpi_iters < 1 ? 1 : mpi_iters;
    double v[NKINDS][BC_MAX_REPS];
    for (int r = 0; r < reps; r++)
        for (int j = 0; j < NKINDS; j++) {
            int k = (r + j) % NKINDS;
            if (!bc_op_enabled(kind_name[k]))
                continue;
            BC_SAMPLE_ALL(v[k][r], k == K_MPI ? mpi_iters : iters, one(k));
        }
    if (me == 0) {
        bc_header("bench_barrier", "ratio_to_mpi_yield");
        bc_stats_t s[NKINDS];
        for (int k = 0; k < NKINDS; k++)
            s[k] = bc_stats(v[k], bc_op_enabled(kind_name[k]) ? reps : 0);
        for (int k = 0; k < NKINDS; k++) {
            if (!s[k].reps)
                continue;
            bc_row(kind_name[k], 0, k == K_MPI ? mpi_iters : iters, &s[k]);
            int base = k >= K_GOP ? K_GOP_YIELD : K_YIELD;
            bc_ratio(s[k].med, s[base].reps ? s[base].med : 0);
            printf("\n");
        }
    }
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
