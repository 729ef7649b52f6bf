/*
 * bench_mutex - ARMCI mutex lock/unlock rate.
 *
 * Every rank runs lock+unlock pairs back to back; two patterns:
 *   *_hot   all ranks contend for mutex 0 on rank 0 (hand-off rate)
 *   *_own   rank r locks mutex 0 on rank r+1 (mod n): remote, uncontended
 * Operations (round-robin in the same run):
 *   lock        ARMCI_Lock + ARMCI_Unlock (ARMCI_Create_mutexes(1))
 *   mpi_lock    MPI_Win_lock(EXCLUSIVE) + MPI_Win_unlock on an
 *               MPI_Win_allocate window (the raw MPI mutual exclusion)
 *   cpu_spin    a test-and-test-and-set lock in node-shared memory (the
 *               limit; yields when it spins long, since ranks may share cores)
 * Columns: ns per lock+unlock per rank (slowest rank), aggregate
 * acquisitions per microsecond, ratio to mpi_lock and to cpu_spin.
 * Mutual exclusion is checked first: each rank increments a counter on
 * rank 0 with get + put inside the critical section; a lost increment
 * aborts the run.
 */
#include <sched.h>
#include <armci.h>
#include "bench_common.h"


enum { K_LOCK, K_MPI, K_CPU, NKINDS };
static const char *const kind_name[NKINDS] = {"lock", "mpi_lock", "cpu_spin"};
enum { P_HOT, P_OWN, NPAT };
static const char *const pat_name[NPAT] = {"hot", "own"};

static struct {
    int me, n;
    int have_mutex;
    void **base;        /* the checked counter (on rank 0) */
    MPI_Win win;        /* MPI baseline window */
    int *spin[64];      /* node-shared lock word of each rank, or NULL */
    MPI_Win shm_win;
} M;

static void spin_lock(int *l)
{
    for (int spins = 0;; spins++) {
        if (!__atomic_load_n(l, __ATOMIC_RELAXED) && !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            return;
        if (spins > 64)
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

static void spin_unlock(int *l)
{
    __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static double sample(int kind, int pat, int iters)
{
    double ns = 0;
    int t = pat == P_HOT ? 0 : (M.me + 1) % M.n;
    switch (kind) {
    case K_LOCK: BC_SAMPLE_ALL(ns, iters, ARMCI_Lock(0, t); ARMCI_Unlock(0, t)); break;
    case K_MPI:
        BC_SAMPLE_ALL(ns, iters, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, M.win);
                      MPI_Win_unlock(t, M.win));
        break;
    case K_CPU: BC_SAMPLE_ALL(ns, iters, spin_lock(M.spin[t]); spin_unlock(M.spin[t])); break;
    }
    return ns;
}

static int kind_runs(int kind)
{
    if (kind == K_LOCK && !M.have_mutex)
        return 0;
    if (kind == K_CPU && !M.spin[0])
        return 0;
    return bc_op_enabled(kind_name[kind]);
}

/* Get, increment, put under the mutex: a lost update means no exclusion. */
static void check_exclusion(int rounds)
{
    int zero = 0, v;
    if (M.me == 0)
        ARMCI_Put(&zero, M.base[0], sizeof zero, 0);
    ARMCI_Barrier();
    for (int i = 0; i < rounds; i++) {
        ARMCI_Lock(0, 0);
        ARMCI_Get(M.base[0], &v, sizeof v, 0);
        v++;
        ARMCI_Put(&v, M.base[0], sizeof v, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(0, 0);
    }
    ARMCI_Barrier();
    ARMCI_Get(M.base[0], &v, sizeof v, 0);
    if (v != rounds * M.n)
        bc_die("bench_mutex: counter under ARMCI_Lock is %d, expected %d: lost updates", v,
               rounds * M.n);
}

static void print_rows(int pat, int iters, double s[NKINDS][BC_MAX_REPS], int reps)
{
    bc_stats_t st[NKINDS];
    char name[32];
    for (int k = 0; k < NKINDS; k++)
        st[k] = kind_runs(k) ? bc_stats(s[k], reps) : (bc_stats_t){0, 0, 0, 0};
    for (int k = 0; k < NKINDS; k++) {
        if (!st[k].reps)
            continue;
        snprintf(name, sizeof name, "%s_%s", kind_name[k], pat_name[pat]);
        bc_row(name, M.n, iters, &st[k]);
        printf(" %8.3f", M.n * 1e3 / st[k].med);
        bc_ratio(st[k].med, k == K_LOCK ? st[K_MPI].med : 0);
        bc_ratio(st[k].med, k == K_LOCK ? st[K_CPU].med : 0);
        printf("\n");
    }
    fflush(stdout);
}

static void setup(void)
{
    M.me = bc_rank();
    M.n = bc_nranks();
    if (M.n > 64)
        bc_die("bench_mutex supports at most 64 ranks");
    M.have_mutex = 1;
    M.base = malloc((size_t)M.n * sizeof *M.base);
    if (!M.base || ARMCI_Malloc(M.base, 64))
        bc_die("ARMCI_Malloc failed");
    if (M.have_mutex && ARMCI_Create_mutexes(1))
        bc_die("ARMCI_Create_mutexes(1) failed");
    void *mem;
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &M.win);

    M.shm_win = bc_node_shared(64, 1, (void **)M.spin);
    ARMCI_Barrier();
}

int main(int argc, char **argv)
{
    static double s[NKINDS][BC_MAX_REPS];
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    setup();
    int reps = bc_reps(31), iters = bc_iters_for(8, 200);
    if (M.me == 0) {
        bc_header("bench_mutex", "  acq/us   vs_mpi   vs_cpu");
        if (!M.have_mutex)
            printf("# ARMCI mutexes are not in this library: lock rows skipped\n");
    }
    if (M.have_mutex)
        check_exclusion(200);
    for (int pat = 0; pat < NPAT; pat++) {
        for (int k = 0; k < NKINDS; k++) /* warm-up */
            if (kind_runs(k))
                sample(k, pat, iters / 10 + 1);
        for (int r = 0; r < reps; r++)
            for (int k = 0; k < NKINDS; k++)
                if (kind_runs(k))
                    s[k][r] = sample(k, pat, iters);
        if (M.me == 0)
            print_rows(pat, iters, s, reps);
    }
    if (M.me == 0 && M.have_mutex)
        printf("# mutual exclusion verified\n");
    ARMCI_Barrier();
    if (M.have_mutex)
        ARMCI_Destroy_mutexes();
    MPI_Win_free(&M.win);
    if (M.shm_win != MPI_WIN_NULL)
        MPI_Win_free(&M.shm_win);
    ARMCI_Free(M.base[M.me]);
    free(M.base);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
