/*
 * bench_patchget - GA-style patch gets from every process at once.
 *
 * Every rank reads an n x n patch of doubles (rows n apart in a 2n-wide
 * array) from rank me+1, back to back, as GA's ga_patch and NWChem's TCE
 * do.  Rows:
 *   armci_gets     ARMCI_GetS through the library (its own method choice)
 *   mpi_dtype      one MPI_Rget of a vector type, waited for, then flushed
 *   mpi_blocks     one contiguous MPI_Rget per row, waited for, flushed
 *   mpi_getacc     one MPI_Rget_accumulate(MPI_NO_OP) of byte vectors
 * The raw rows run on an MPI_Win_allocate window in a lock_all epoch, and
 * wait as the library does where its waits yield (ARMCI_WAIT_YIELD): test
 * the request, sched_yield while it is pending.  That is the case this
 * program is for: a host with more processes than cores, where MPICH
 * completes a vector MPI_Rget's request before its data arrives and its
 * flush then spins (src/gmr/gmr_yield.c).  Each row's data is checked.
 * bytes = the patch's bytes; med_ns etc. are per get, the slowest rank's.
 * Environment: BENCH_PATCH_N (comma list of n, default 16,32,64),
 * BENCH_REPS (default 11), BENCH_ITERS.
 */
#include <sched.h>
#include <armci.h>
#include "bench_common.h"

enum { M_ARMCI, M_DTYPE, M_BLOCKS, M_GETACC, M_COUNT };
static const char *const names[M_COUNT] = {"armci_gets", "mpi_dtype", "mpi_blocks",
                                           "mpi_getacc"};

static struct {
    int me, np, right;
    void **ptr;      /* the library's array */
    double *base;    /* the raw window's */
    MPI_Win win;
    double *loc;
    MPI_Request *req;
} P;

static void wait_yield(MPI_Request *r)
{
    for (int done = 0;;) {
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sched_yield();
    }
}

static void get_once(int m, int n, MPI_Datatype vec, MPI_Datatype bvec, MPI_Datatype bcon)
{
    int ld = 2 * n;
    if (m == M_ARMCI) {
        int rs[1] = {ld * 8}, ls[1] = {n * 8}, count[2] = {n * 8, n};
        ARMCI_GetS(P.ptr[P.right], rs, P.loc, ls, count, 1, P.right);
        return;
    }
    if (m == M_BLOCKS) {
        for (int b = 0; b < n; b++)
            MPI_Rget(P.loc + b * n, n, MPI_DOUBLE, P.right, (MPI_Aint)b * ld, n, MPI_DOUBLE,
                     P.win, &P.req[b]);
        for (int b = 0; b < n; b++)
            wait_yield(&P.req[b]);
    } else {
        MPI_Request r;
        if (m == M_DTYPE)
            MPI_Rget(P.loc, n * n, MPI_DOUBLE, P.right, 0, 1, vec, P.win, &r);
        else
            MPI_Rget_accumulate(NULL, 0, MPI_BYTE, P.loc, 1, bcon, P.right, 0, 1, bvec,
                                MPI_NO_OP, P.win, &r);
        wait_yield(&r);
    }
    MPI_Win_flush(P.right, P.win);
}

static void check(int m, int n)
{
    for (int b = 0; b < n; b++)
        for (int j = 0; j < n; j++)
            if (P.loc[b * n + j] != 1e6 * P.right + b * 2 * n + j)
                bc_die("bench_patchget: %s n=%d: rank %d read [%d][%d] = %g", names[m], n,
                       P.me, b, j, P.loc[b * n + j]);
}

static void run_size(int n, int reps)
{
    int ld = 2 * n, iters = bc_iters_for((size_t)n * n * 8, 200);
    MPI_Datatype vec, bvec, bcon;
    MPI_Type_vector(n, n, ld, MPI_DOUBLE, &vec);
    MPI_Type_vector(n, n * 8, ld * 8, MPI_BYTE, &bvec);
    MPI_Type_contiguous(n * n * 8, MPI_BYTE, &bcon);
    MPI_Type_commit(&vec);
    MPI_Type_commit(&bvec);
    MPI_Type_commit(&bcon);
    double t[BC_MAX_REPS];
    for (int m = 0; m < M_COUNT; m++) {
        if (!bc_op_enabled(names[m]))
            continue;
        for (int r = 0; r < reps; r++)
            BC_SAMPLE_ALL(t[r], iters, get_once(m, n, vec, bvec, bcon));
        memset(P.loc, 0, (size_t)n * n * 8);
        get_once(m, n, vec, bvec, bcon);
        check(m, n);
        bc_stats_t s = bc_stats(t, reps);
        if (P.me == 0) {
            bc_row(names[m], (long)n * n * 8, iters, &s);
            printf("\n");
            fflush(stdout);
        }
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&bvec);
    MPI_Type_free(&bcon);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    P.me = bc_rank();
    P.np = bc_nranks();
    P.right = (P.me + 1) % P.np;
    const char *list = getenv("BENCH_PATCH_N");
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list ? list : "16,32,64");
    int reps = bc_reps(11), nmax = 0, ns[16], nn = 0;
    for (char *tok = strtok(buf, ","); tok && nn < 16; tok = strtok(NULL, ",")) {
        ns[nn] = atoi(tok);
        if (ns[nn] < 1 || ns[nn] > 1024)
            bc_die("bench_patchget: BENCH_PATCH_N entry %s is not in 1..1024", tok);
        nmax = ns[nn] > nmax ? ns[nn] : nmax;
        nn++;
    }
    size_t bytes = (size_t)4 * nmax * nmax * 8;
    P.ptr = malloc((size_t)P.np * sizeof *P.ptr);
    P.loc = malloc((size_t)nmax * nmax * 8);
    P.req = malloc((size_t)nmax * sizeof *P.req);
    if (!P.ptr || !P.loc || !P.req || ARMCI_Malloc(P.ptr, (armci_size_t)bytes))
        bc_die("bench_patchget: out of memory");
    MPI_Win_allocate((MPI_Aint)bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &P.base, &P.win);
    for (size_t i = 0; i < bytes / 8; i++)
        P.base[i] = ((double *)P.ptr[P.me])[i] = 1e6 * P.me + (double)i;
    ARMCI_Barrier();
    MPI_Win_lock_all(0, P.win);
    if (P.me == 0)
        bc_header("bench_patchget", "(bytes: n*n*8; every rank from rank me+1)");
    for (int i = 0; i < nn; i++)
        run_size(ns[i], reps);
    MPI_Win_unlock_all(P.win);
    MPI_Win_free(&P.win);
    ARMCI_Free(P.ptr[P.me]);
    free(P.ptr);
    free(P.loc);
    free(P.req);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
