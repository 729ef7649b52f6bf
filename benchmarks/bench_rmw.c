/*
 * bench_rmw - ARMCI_Rmw fetch-and-add rate.
 *
 * Every rank issues fetch-and-adds back to back; two patterns:
 *   *_hot   all ranks hammer one counter on rank 0
 *   *_own   one counter per rank: rank r updates the counter on rank r+1
 *           (mod n), so each counter has one writer and is remote
 * Operations (round-robin in the same run):
 *   fadd, fadd_long   ARMCI_Rmw(ARMCI_FETCH_AND_ADD[_LONG])
 *   mpi_fop           MPI_Fetch_and_op(MPI_SUM) + MPI_Win_flush_local on an
 *                     MPI_Win_allocate window in a lock_all epoch
 *   cpu_atomic        __atomic_fetch_add on node-shared memory (the limit;
 *                     only when all ranks share a node)
 * Columns: med/min/max ns per operation per rank (slowest rank), aggregate
 * Mops/s, ratio to mpi_fop and to cpu_atomic.  Every counter is checked
 * against the number of adds issued, so a lost update aborts the run.
 */
#include <armci.h>
#include "bench_common.h"


enum { K_FADD, K_FADDL, K_MPI, K_CPU, NKINDS };
static const char *const kind_name[NKINDS] = {"fadd", "fadd_long", "mpi_fop", "cpu_atomic"};
enum { P_HOT, P_OWN, NPAT };
static const char *const pat_name[NPAT] = {"hot", "own"};

/* Counter slot of (kind, pattern) in each rank's 8-byte-slot array. */
#define SLOT(k, p) ((k) * NPAT + (p))
#define NSLOTS (NKINDS * NPAT)

static struct {
    int me, n;
    void **base;          /* ARMCI counters */
    long *win_mem;        /* MPI baseline counters */
    MPI_Win win;
    long *shm[64];        /* node-shared counters of each rank, or NULL */
    MPI_Win shm_win;
    long issued[NSLOTS];  /* adds this rank issued per slot */
} R;

static int target_of(int pat)
{
    return pat == P_HOT ? 0 : (R.me + 1) % R.n;
}

static double sample(int kind, int pat, int iters)
{
    double ns = 0;
    int t = target_of(pat), ival;
    long lval;
    char *rem = (char *)R.base[t] + 8 * SLOT(kind, pat);
    MPI_Aint disp = SLOT(kind, pat); /* disp_unit 8 */
    long one = 1, got;
    long *cpu = R.shm[t] ? R.shm[t] + SLOT(kind, pat) : NULL;
    switch (kind) {
    case K_FADD: BC_SAMPLE_ALL(ns, iters, ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &ival, rem, 1, t)); break;
    case K_FADDL:
        BC_SAMPLE_ALL(ns, iters, ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lval, rem, 1, t));
        break;
    case K_MPI:
        BC_SAMPLE_ALL(ns, iters, MPI_Fetch_and_op(&one, &got, MPI_LONG, t, disp, MPI_SUM, R.win);
                      MPI_Win_flush_local(t, R.win));
        break;
    case K_CPU: BC_SAMPLE_ALL(ns, iters, __atomic_fetch_add(cpu, 1, __ATOMIC_SEQ_CST)); break;
    }
    R.issued[SLOT(kind, pat)] += iters;
    return ns;
}

static int kind_runs(int kind)
{
    char name[32];
    if (kind == K_CPU && !R.shm[0])
        return 0;
    for (int p = 0; p < NPAT; p++) {
        snprintf(name, sizeof name, "%s_%s", kind_name[kind], pat_name[p]);
        if (bc_op_enabled(name))
            return 1;
    }
    return bc_op_enabled(kind_name[kind]);
}

/* Expected value of slot s on this rank from everyone's issued counts. */
static void verify(void)
{
    long all[NSLOTS * 64];
    MPI_Allgather(R.issued, NSLOTS, MPI_LONG, all, NSLOTS, MPI_LONG, MPI_COMM_WORLD);
    ARMCI_Barrier();
    MPI_Win_flush_all(R.win);
    MPI_Barrier(MPI_COMM_WORLD);
    ARMCI_Access_begin(R.base[R.me]);
    for (int k = 0; k < NKINDS; k++)
        for (int p = 0; p < NPAT; p++) {
            int s = SLOT(k, p), from = p == P_HOT ? -1 : (R.me + R.n - 1) % R.n;
            long want = 0;
            for (int r = 0; r < R.n; r++)
                if ((p == P_HOT && R.me == 0) || r == from)
                    want += all[r * NSLOTS + s];
            long have;
            if (k == K_FADD)
                have = *(int *)((char *)R.base[R.me] + 8 * s);
            else if (k == K_FADDL)
                have = *(long *)((char *)R.base[R.me] + 8 * s);
            else if (k == K_MPI)
                have = R.win_mem[s];
            else
                have = R.shm[R.me] ? R.shm[R.me][s] : 0;
            if (have != want)
                bc_die("bench_rmw: %s_%s counter on rank %d is %ld, expected %ld",
                       kind_name[k], pat_name[p], R.me, have, want);
        }
    ARMCI_Access_end(R.base[R.me]);
}

static void print_rows(int pat, int iters, double s[NKINDS][BC_MAX_REPS], int reps)
{
    bc_stats_t st[NKINDS];
    for (int k = 0; k < NKINDS; k++)
        st[k] = kind_runs(k) ? bc_stats(s[k], reps) : (bc_stats_t){0, 0, 0, 0};
    for (int k = 0; k < NKINDS; k++) {
        if (!st[k].reps)
            continue;
        char name[32];
        snprintf(name, sizeof name, "%s_%s", kind_name[k], pat_name[pat]);
        bc_row(name, k == K_FADD ? 4 : 8, iters, &st[k]);
        printf(" %8.2f", R.n * 1e3 / st[k].med);
        bc_ratio(st[k].med, k < K_MPI ? st[K_MPI].med : 0);
        bc_ratio(st[k].med, k < K_MPI ? st[K_CPU].med : 0);
        printf("\n");
    }
    fflush(stdout);
}

static void setup(void)
{
    R.me = bc_rank();
    R.n = bc_nranks();
    if (R.n > 64)
        bc_die("bench_rmw supports at most 64 ranks");
    R.base = malloc((size_t)R.n * sizeof *R.base);
    if (!R.base || ARMCI_Malloc(R.base, 8 * NSLOTS))
        bc_die("ARMCI_Malloc failed");
    ARMCI_Access_begin(R.base[R.me]);
    memset(R.base[R.me], 0, 8 * NSLOTS);
    ARMCI_Access_end(R.base[R.me]);
    MPI_Win_allocate(8 * NSLOTS, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &R.win_mem, &R.win);
    memset(R.win_mem, 0, 8 * NSLOTS);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, R.win);

    R.shm_win = bc_node_shared(8 * NSLOTS, 8, (void **)R.shm);
    ARMCI_Barrier();
}

int main(int argc, char **argv)
{
    static double s[NKINDS][BC_MAX_REPS];
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    setup();
    int reps = bc_reps(31), iters = bc_iters_for(8, 2000);
    if (R.me == 0)
        bc_header("bench_rmw", "  Mops/s   vs_mpi   vs_cpu");
    for (int pat = 0; pat < NPAT; pat++) {
        for (int k = 0; k < NKINDS; k++) /* warm-up */
            if (kind_runs(k))
                sample(k, pat, iters / 10 + 1);
        for (int r = 0; r < reps; r++)
            for (int k = 0; k < NKINDS; k++)
                if (kind_runs(k))
                    s[k][r] = sample(k, pat, iters);
        if (R.me == 0)
            print_rows(pat, iters, s, reps);
    }
    verify();
    if (R.me == 0)
        printf("# all counters verified\n");
    MPI_Win_unlock_all(R.win);
    MPI_Win_free(&R.win);
    if (R.shm_win != MPI_WIN_NULL)
        MPI_Win_free(&R.shm_win);
    ARMCI_Free(R.base[R.me]);
    free(R.base);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
