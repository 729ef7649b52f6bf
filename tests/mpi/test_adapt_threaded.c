/* ARMCI_GHOST_ASYNC=AUTO in a threaded run (MPI initialized at
 * MPI_THREAD_MULTIPLE, ARMCI_Init as Global Arrays calls it), which has no
 * automatic mode (progress_adapt.c): redirection takes one setting for the
 * whole run, the same on every process: off where any host has more
 * processes (ghosts included) than CPUs, on elsewhere.  GA 5.9.2's
 * thread_perf_strided.x ran past 300 s in MPICH's ghost build when AUTO
 * meant "on" on a 2-core host (12 s off).  Checked:
 *  - the setting after ARMCI_Init, against the rule applied here to the
 *    host's process count and CPU count, and alike on every process;
 *  - ARMCIX_Async_phase(1) and (0) still set it, and (-1) returns to the
 *    run's setting (not to "on", as it did);
 *  - in each phase NT threads per process accumulate (contiguous and
 *    strided) and fetch-and-add into every process's region; the library's
 *    counter of redirected operations grows in "on" phases and stays put in
 *    "off" ones (regions span virtual nodes), and at the end every sum and
 *    every counter's handed-out values are exact (adapt_check.h).
 * Without ghosts there is no setting (-1) throughout and the same
 * arithmetic runs.  ARMCI_GHOST_ASYNC is forced to AUTO before MPI_Init
 * (ghosts read the environment when the job is laid out). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"
#include "adapt_check.h"

int armcii_adapt_redirecting(void);         /* src/progress/progress.h */
unsigned long armcii_gmr_redirected(void);  /* src/gmr/gmr.h */
int armcii_host_procs(void);                /* src/common/common.h */

#define NT 4        /* threads per process */
#define NS 8        /* accumulated words per target */
#define NPHASE 5   /* phases, each NT * iters fetch-and-adds per process */

static int me, np, iters, maxf; /* maxf: fetch-and-adds per process, all phases */
static void **ptr;  /* per target: NS words, then the fetch-and-add counter */
static long added[NT][64 * NS];       /* per thread: [target * NS + word] */
static long *fetched[NT];             /* per thread: [target * maxf + i] */
static int nfetched[NT][64];

static unsigned rnd(unsigned *s) { return *s = *s * 1103515245u + 12345u, (*s >> 8) & 0xffff; }

static void *worker(void *arg)
{
    int tid = (int)(long)arg;
    unsigned s = 7919u * (unsigned)me + 104729u * (unsigned)tid + 1u;
    long one = 1;
    for (int i = 0; i < iters; i++) {
        int t = rnd(&s) % np, w = rnd(&s) % (NS - 1);
        long v[2] = {1 + rnd(&s) % 9, 1 + rnd(&s) % 9};
        if (rnd(&s) % 2) {
            ARMCI_Acc(ARMCI_ACC_LNG, &one, v, (long *)ptr[t] + w, sizeof(long), t);
            added[tid][t * NS + w] += v[0];
        } else { /* two rows of one word, a word apart */
            int st[1] = {sizeof(long)}, cnt[2] = {sizeof(long), 2};
            ARMCI_AccS(ARMCI_ACC_LNG, &one, v, st, (long *)ptr[t] + w, st, cnt, 1, t);
            added[tid][t * NS + w] += v[0];
            added[tid][t * NS + w + 1] += v[1];
        }
        long got = -1;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &got, (long *)ptr[t] + NS, 1, t);
        fetched[tid][t * maxf + nfetched[tid][t]++] = got;
    }
    return NULL;
}

/* One phase: every thread's operations, then a barrier; the redirected
 * operations' count must follow the setting where regions reach ghosts. */
static void phase(const char *name, int want, int reach)
{
    int got = armcii_adapt_redirecting(), all[2] = {got, -got};
    MPI_Allreduce(MPI_IN_PLACE, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(got == want, "%s: redirection %d, expected %d", name, got, want);
    CHECK(all[0] == -all[1], "%s: redirection differs between processes (%d..%d)", name,
          -all[1], all[0]);
    unsigned long r0 = armcii_gmr_redirected();
    pthread_t th[NT];
    for (long t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    ARMCI_Barrier();
    unsigned long r = armcii_gmr_redirected() - r0;
    if (reach && want == 1)
        CHECK(r > 0, "%s: redirection on, but no operation went to a ghost", name);
    if (want <= 0)
        CHECK(r == 0, "%s: redirection %d, but %lu operations went to ghosts", name, want, r);
}

/* The exact sums and counters over every thread's records. */
static void check_results(void)
{
    long sum[64 * NS] = {0}, *all = malloc((size_t)np * (size_t)maxf * sizeof(long));
    int n[64] = {0};
    for (int tid = 0; tid < NT; tid++)
        for (int t = 0; t < np; t++) {
            for (int w = 0; w < NS; w++)
                sum[t * NS + w] += added[tid][t * NS + w];
            for (int i = 0; i < nfetched[tid][t]; i++)
                all[t * maxf + n[t]++] = fetched[tid][t * maxf + i];
        }
    adapt_check_sums(ptr[me], sum, NS);
    adapt_check_counters(all, n, maxf, ((long *)ptr[me])[NS]);
    free(all);
}

int main(int argc, char **argv)
{
    setenv("ARMCI_GHOST_ASYNC", "AUTO", 1);
    int rc = tu_init_multiple(&argc, &argv);
    if (rc)
        return rc;
    tu_name = "test_adapt_threaded";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np > 64) {
        if (me == 0)
            fprintf(stderr, "test_adapt_threaded: at most 64 processes (%d)\n", np);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ARMCI_Init(); /* as GA_Initialize: the thread level is MPI's */
    iters = tu_iters(100); /* osc ucx in the ghost build: ~4 ms an operation on 2 cores */
    maxf = NPHASE * NT * iters;
    int real_np;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    /* regions reach ghosts where they span (virtual) nodes */
    const char *vns = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int ghosts = real_np > np, vn = vns && atoi(vns) > 0 && np > atoi(vns);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int crowded = armcii_host_procs() > cpus;
    MPI_Allreduce(MPI_IN_PLACE, &crowded, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int fixed = ghosts ? !crowded : -1, on = ghosts ? 1 : -1, off = ghosts ? 0 : -1;
    if (me == 0)
        printf("%d users, %d processes in all, %d on my host, %ld CPUs: AUTO means %d\n", np,
               real_np, armcii_host_procs(), cpus, fixed);
    ptr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ptr, (NS + 1) * sizeof(long));
    memset(ptr[me], 0, (NS + 1) * sizeof(long));
    for (int t = 0; t < NT; t++)
        fetched[t] = malloc((size_t)np * (size_t)maxf * sizeof(long));
    ARMCI_Barrier();
    phase("after ARMCI_Init", fixed, vn);
    ARMCIX_Async_phase(1);
    phase("ARMCIX_Async_phase(1)", on, vn);
    ARMCIX_Async_phase(-1);
    phase("ARMCIX_Async_phase(-1) after (1)", fixed, vn);
    ARMCIX_Async_phase(0);
    phase("ARMCIX_Async_phase(0)", off, vn);
    ARMCIX_Async_phase(-1);
    phase("ARMCIX_Async_phase(-1) after (0)", fixed, vn);
    check_results();
    ARMCI_Free(ptr[me]);
    for (int t = 0; t < NT; t++)
        free(fetched[t]);
    free(ptr);
    ARMCI_Finalize();
    rc = tu_finish();
    MPI_Finalize();
    return rc;
}
