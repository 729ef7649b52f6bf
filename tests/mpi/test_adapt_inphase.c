/* Switching ghost redirection inside a phase, without any barrier
 * (ARMCI_GHOST_ASYNC=AUTO, ARMCI_ADAPT_INPHASE=1: the ghosts' rounds,
 * src/progress/progress_round.c).  The thresholds are set so that every
 * round (every 2 ms) proposes to flip the setting, while every user runs a
 * random mix, with no synchronization at all until the end:
 *  - contiguous, strided and nonblocking accumulates to shared words of
 *    every target and to this origin's private word there, each private
 *    accumulate followed by a get of that word (per-origin ordering across
 *    a switch: the get, on whatever path, sees every earlier accumulate);
 *  - fetch-and-adds on every target's counter;
 *  - "computation" outside the library, after a fence (quiet: the ghost
 *    acknowledges for the user) or with writes in flight (the user must
 *    come back and acknowledge itself);
 *  - at NGROW fixed iterations, the same for every user, a collective
 *    ARMCI_Malloc of a region kept until the end, so that each one grows
 *    the ghosts' pools (ARMCI_GHOST_POOL_SIZE is small): the ghosts agree
 *    on a pool's creation inside a round.  A ghost that entered it while
 *    another had a proposal open deadlocked (both waited in different
 *    collectives; the hangs: benchmarks/results/region_slab_ghost.2core.txt).
 * Checked exactly at the end: every accumulated sum, every private word,
 * every counter value handed out once (0..M-1); and with ghosts on virtual
 * nodes, that the setting changed both ways during the loop, which has no
 * barrier (the ghosts decided inside the phase), and that the pools grew
 * at every such allocation.
 * ADAPT_SEED varies the schedule; ADAPT_DEBUG=1 prints the switch counts. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <armci.h>
#include <mpi.h>
#include "../testutil.h"
#include "adapt_check.h"
#include "../../src/common/common.h"
#include "../../src/progress/progress.h"
#include "../../src/common/common_wait.h"
int armcii_gmr_ghost_pools(void); /* src/gmr/gmr.h: 0 without ghosts */

#define NS 8      /* shared accumulate words per target */
#define MAXF 8192 /* fetch-and-adds per origin and target at most */
#define NGROW 25  /* allocations that grow the pools: one at the start, 24 in the loop */

static int me, np;
static void **ptr;
static long *added; /* [t * (NS + np) + w]: what I added at word w of target t */
static long *fetched;
static int *nfetched;
static unsigned seed;
static void **grown[NGROW]; /* the regions of malloc_kept, freed at the end */
static int ngrown;

static long *word(int t, int w) { return (long *)ptr[t] + w; }
static unsigned rnd(void) { return seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffff; }

static void acc_shared(int t)
{
    long one = 1, v[4];
    int w = (int)(rnd() % (NS - 4)), n = 1 + (int)(rnd() % 4), kind = (int)(rnd() % 3);
    long inc = 1 + (long)(rnd() % 7);
    for (int i = 0; i < 4; i++)
        v[i] = inc;
    if (kind == 0) {
        n = 1;
        ARMCI_Acc(ARMCI_ACC_LNG, &one, v, word(t, w), sizeof(long), t);
    } else if (kind == 1) {
        int st[1] = {sizeof(long)}, cnt[2] = {sizeof(long), n};
        ARMCI_AccS(ARMCI_ACC_LNG, &one, v, st, word(t, w), st, cnt, 1, t);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbAcc(ARMCI_ACC_LNG, &one, v, word(t, w), n * (int)sizeof(long), t, &h);
        ARMCI_Wait(&h);
    }
    for (int i = 0; i < n; i++)
        added[t * (NS + np) + w + i] += inc;
}

static void acc_private(int t, int it)
{
    long one = 1, inc = 1 + (long)(rnd() % 5), got = -1;
    ARMCI_Acc(ARMCI_ACC_LNG, &one, &inc, word(t, NS + me), sizeof(long), t);
    added[t * (NS + np) + NS + me] += inc;
    ARMCI_Get(word(t, NS + me), &got, sizeof got, t);
    CHECK(got == added[t * (NS + np) + NS + me], "iteration %d: my word at %d reads %ld right "
          "after my accumulate, I added %ld", it, t, got, added[t * (NS + np) + NS + me]);
}

static void fadd(int t)
{
    long got = -1;
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &got, word(t, NS + np), 1, t);
    if (nfetched[t] < MAXF)
        fetched[t * MAXF + nfetched[t]++] = got;
}

static void compute(void)
{
    if (rnd() % 2)
        ARMCI_AllFence(); /* quiet outside: the ghost acknowledges for me */
    struct timespec ts = {0, (long)(200 + rnd() % 1800) * 1000};
    nanosleep(&ts, NULL);
}

/* A collective allocation among the traffic, kept: the pools fill, and
 * the next one grows them again. */
static void malloc_kept(void)
{
    void **p = malloc((size_t)np * sizeof(void *));
    CHECK(ARMCI_Malloc(p, 1 << 20) == 0, "ARMCI_Malloc of 1 MiB failed");
    long v = me + 1 + 100 * ngrown, got = 0;
    int t = (me + 1) % np;
    ARMCI_Put(&v, p[me], sizeof v, me);
    ARMCI_Fence(me);
    ARMCI_Barrier(); /* each user's own word is written */
    ARMCI_Get(p[t], &got, sizeof got, t);
    CHECK(got == t + 1 + 100 * ngrown, "new region %d at %d reads %ld, expected %d", ngrown, t,
          got, t + 1 + 100 * ngrown);
    ARMCI_Barrier();
    grown[ngrown++] = p;
}

static void check_final(void)
{
    adapt_check_sums(word(me, 0), added, NS + np);
    adapt_check_counters(fetched, nfetched, MAXF, *word(me, NS + np));
}

int main(int argc, char **argv)
{
    adapt_force_flips();
    /* each 1 MiB region needs a new pool (later pools hold at most 16 x 64 KiB) */
    setenv("ARMCI_GHOST_POOL_SIZE", "65536", 0);
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_adapt_inphase";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *s = getenv("ADAPT_SEED");
    seed = (s ? (unsigned)atoi(s) : 29u) * 7919u + (unsigned)me * 104729u;
    int iters = (int)tu_iters(1500), real_np;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np);
    int ghosts = real_np > np && getenv("ARMCI_VIRTUAL_NODE_SIZE") != NULL;
    int pools0 = armcii_gmr_ghost_pools();
    malloc_kept(); /* the first rounds start with ARMCI_Init: grow among them too */
    ptr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ptr, (NS + np + 1) * sizeof(long));
    memset(ptr[me], 0, (NS + np + 1) * sizeof(long));
    added = calloc((size_t)np * (NS + np), sizeof(long));
    fetched = malloc((size_t)np * MAXF * sizeof(long));
    nfetched = calloc((size_t)np, sizeof(int));
    ARMCI_Barrier();
    int prev = armcii_adapt_redirecting(), on = 0, off = 0;
    for (int it = 0; it < iters; it++) {
        int t = (int)(rnd() % np), k = (int)(rnd() % 10);
        if (k < 4)
            acc_shared(t);
        else if (k < 6)
            acc_private(t, it);
        else if (k < 8)
            fadd(t);
        else
            compute();
        if (ngrown < NGROW && it % (iters / (NGROW - 1) + 1) == iters / (2 * NGROW - 2))
            malloc_kept();
        int now = armcii_adapt_redirecting();
        on += now == 1 && prev == 0;
        off += now == 0 && prev == 1;
        prev = now;
    }
    /* a user parks in this barrier while the ghosts decide: it waits as the
     * library's barriers do (a polling MPI_Barrier stalled every step of
     * bench_multiphase under MPICH on 2 cores, docs/progress.md) */
    unsigned long w0 = armcii_wait_count();
    ARMCI_Barrier();
    if (ghosts && armcii_wait_yields())
        CHECK(armcii_wait_count() > w0, "the barrier parked in while ghosts decide did not "
              "yield, though waits yield here");
    check_final();
    int sw[2] = {on, off}, tot[2];
    MPI_Allreduce(sw, tot, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (getenv("ADAPT_DEBUG") || me == 0)
        printf("[%d] in-phase switches seen: on %d, off %d (fewest over users: %d, %d)\n", me,
               on, off, tot[0], tot[1]);
    if (ghosts) { /* each 1 MiB region outgrows every pool before it: a new one */
        CHECK(ngrown == NGROW, "%d allocations grew the pools, the schedule has %d", ngrown,
              NGROW);
        CHECK(armcii_gmr_ghost_pools() - pools0 >= ngrown, "the pools grew from %d to %d for "
              "%d allocations that each need a new one", pools0, armcii_gmr_ghost_pools(),
              ngrown);
        CHECK(tot[0] > 0 && tot[1] > 0, "every user should have seen the setting change both "
              "ways without a barrier; the fewest switches were on %d, off %d", tot[0], tot[1]);
    } else if (real_np == np) {
        CHECK(armcii_adapt_redirecting() == -1, "no ghosts, yet redirection is usable");
    }
    ARMCI_Free(ptr[me]);
    free(ptr);
    for (int g = 0; g < ngrown; g++) {
        ARMCI_Free(grown[g][me]);
        free(grown[g]);
    }
    free(added);
    free(fetched);
    free(nfetched);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
