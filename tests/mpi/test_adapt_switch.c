/* Switching ghost redirection while accumulates and fetch-and-adds flow
 * (issue 13): a randomized schedule of rounds, each doing random
 * contiguous, strided and nonblocking accumulates and fetch-and-adds from
 * every rank to random ranks (itself and its own node included), ended by
 * a random synchronization: ARMCIX_Async_phase(1), (0) or (-1),
 * ARMCI_Barrier, GA_Sync's ARMCI_AllFence + armci_msg_barrier, or a bare
 * armci_msg_barrier while this rank's nonblocking accumulates are still
 * outstanding (a switch must then be vetoed).  The automatic mode is made
 * to decide at every synchronization and to flip every time (interval 0,
 * thresholds that always hold, no measured comparison of the paths in
 * dense intervals, unless the environment sets them), so
 * every kind of synchronization switches paths under load.
 * Checked exactly at the end:
 *  - every accumulated sum (each origin knows what it added where);
 *  - each origin's private slot in every target, read back with a get
 *    right after each synchronization, equals what that origin added so
 *    far (ordering across a switch: a get on the new path sees every
 *    accumulate issued on the old one);
 *  - every fetch-and-add counter handed out 0..M-1 exactly once (values
 *    chain: no duplicate, no gap) and ends at M.
 * With ghosts (redirection usable) the automatic mode must have switched
 * both ways.  Without ghosts the same arithmetic runs (phases are
 * barriers).  Reproducible from ADAPT_SEED; ADAPT_DEBUG=1 prints the
 * schedule (synchronization kind, mode and setting per round). */
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include <message.h>
#include "../testutil.h"

int armcii_adapt_redirecting(void); /* src/progress: the current setting */

#define NS 16     /* shared accumulate words per target */
#define MAXF 4096 /* fetch-and-adds per origin at most */
enum { SYNC_ON, SYNC_OFF, SYNC_AUTO, SYNC_BARRIER, SYNC_GA, SYNC_MSG_BUSY, NSYNC };

static int me, np;
static void **ptr;
/* region layout (longs): [0, NS) shared sums, [NS, NS+np) one private slot
 * per origin, [NS+np] the fetch-and-add counter */
static long *added;      /* [target * (NS + np) + word]: what I added there */
static long *fetched;    /* every value my fetch-and-adds returned, by target */
static int *nfetched;
static unsigned seed_ops;

static long *slot(int t, int word) { return (long *)ptr[t] + word; }
static unsigned rnd(unsigned *s) { return *s = *s * 1103515245u + 12345u, (*s >> 8) & 0xffff; }

static void one_acc(int t)
{
    long v[4];
    int kind = rnd(&seed_ops) % 3, w = rnd(&seed_ops) % (NS - 3), n = 1 + rnd(&seed_ops) % 4;
    long one = 1, inc = 1 + rnd(&seed_ops) % 9;
    for (int i = 0; i < 4; i++)
        v[i] = inc;
    if (kind == 0 || w + n > NS) {
        n = 1;
        ARMCI_Acc(ARMCI_ACC_LNG, &one, v, slot(t, w), sizeof(long), t);
    } else if (kind == 1) { /* strided: n rows of one word, stride 1 word */
        int st[1] = {sizeof(long)}, cnt[2] = {sizeof(long), n};
        ARMCI_AccS(ARMCI_ACC_LNG, &one, v, st, slot(t, w), st, cnt, 1, t);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbAcc(ARMCI_ACC_LNG, &one, v, slot(t, w), n * (int)sizeof(long), t, &h);
        ARMCI_Wait(&h);
    }
    for (int i = 0; i < n; i++)
        added[t * (NS + np) + w + i] += inc;
    /* my private slot there: only I write it */
    ARMCI_Acc(ARMCI_ACC_LNG, &one, &inc, slot(t, NS + me), sizeof(long), t);
    added[t * (NS + np) + NS + me] += inc;
}

static void one_fadd(int t)
{
    long got = -1;
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &got, slot(t, NS + np), 1, t);
    if (nfetched[t] < MAXF)
        fetched[t * MAXF + nfetched[t]++] = got;
}

/* Every origin's accumulates into its private slots are visible to its
 * own get, whatever path each took. */
static void check_private(int round)
{
    for (int t = 0; t < np; t++) {
        long v = -1;
        ARMCI_Get(slot(t, NS + me), &v, sizeof v, t);
        CHECK(v == added[t * (NS + np) + NS + me],
              "round %d: my slot at %d reads %ld, I added %ld", round, t, v,
              added[t * (NS + np) + NS + me]);
    }
}

/* Outstanding nonblocking accumulates during a bare msg barrier. */
static void msg_barrier_busy(void)
{
    long one = 1, inc = 1;
    int t = (me + 1) % np;
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    ARMCI_NbAcc(ARMCI_ACC_LNG, &one, &inc, slot(t, NS - 1), sizeof(long), t, &h);
    added[t * (NS + np) + NS - 1] += inc;
    armci_msg_barrier();
    ARMCI_Wait(&h);
}

static int sync_kind(unsigned *shared)
{
    int k = rnd(shared) % 100; /* mostly automatic: leaving it is rarer */
    return k < 7 ? SYNC_ON : k < 14 ? SYNC_OFF : k < 30 ? SYNC_AUTO : k < 55 ? SYNC_BARRIER
         : k < 80 ? SYNC_GA : SYNC_MSG_BUSY;
}

/* Returns the synchronization kind done; auto says the automatic mode is on. */
static int synchronize(unsigned *shared, int *autom)
{
    int k = sync_kind(shared);
    switch (k) {
    case SYNC_ON:
    case SYNC_OFF:
        ARMCIX_Async_phase(k == SYNC_ON);
        *autom = 0;
        break;
    case SYNC_AUTO:
        ARMCIX_Async_phase(-1);
        *autom = 1;
        break;
    case SYNC_BARRIER:
        ARMCI_Barrier();
        break;
    case SYNC_GA:
        ARMCI_AllFence();
        armci_msg_barrier();
        break;
    default:
        msg_barrier_busy();
        break;
    }
    return k;
}

static void check_final(void)
{
    long *want = malloc((size_t)np * (NS + np) * sizeof(long));
    MPI_Allreduce(added, want, np * (NS + np), MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int w = 0; w < NS + np; w++)
        CHECK(*slot(me, w) == want[me * (NS + np) + w], "word %d = %ld, expected %ld", w,
              *slot(me, w), want[me * (NS + np) + w]);
    /* the values handed out by my counter, gathered from every origin */
    size_t n = np > 0 ? (size_t)np : 1;
    int *cnt = malloc(n * sizeof(int)), *disp = malloc(n * sizeof(int)), m;
    for (int t = 0; t < np; t++) {
        int mine = nfetched[t];
        MPI_Gather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, t, MPI_COMM_WORLD);
        m = 0;
        if (t == me)
            for (int p = 0; p < np; p++)
                disp[p] = m, m += cnt[p];
        long *all = t == me ? malloc((size_t)(m ? m : 1) * sizeof(long)) : NULL;
        MPI_Gatherv(fetched + (size_t)t * MAXF, mine, MPI_LONG, all, cnt, disp, MPI_LONG, t,
                    MPI_COMM_WORLD);
        if (t != me)
            continue;
        char *seen = calloc((size_t)(m ? m : 1), 1);
        for (int i = 0; i < m; i++) {
            CHECK(all[i] >= 0 && all[i] < m, "counter handed out %ld, not in [0, %d)", all[i], m);
            if (all[i] >= 0 && all[i] < m) {
                CHECK(!seen[all[i]], "counter handed out %ld twice", all[i]);
                seen[all[i]] = 1;
            }
        }
        CHECK(*slot(me, NS + np) == m, "counter ends at %ld after %d fetch-and-adds",
              *slot(me, NS + np), m);
        free(seen);
        free(all);
    }
    free(cnt);
    free(disp);
    free(want);
}

int main(int argc, char **argv)
{
    /* decide at every synchronization and flip each time (see above) */
    setenv("ARMCI_ADAPT_INTERVAL", "0", 0);
    setenv("ARMCI_ADAPT_WAIT_ON", "0", 0);
    setenv("ARMCI_ADAPT_CR_LOW", "100", 0);
    setenv("ARMCI_ADAPT_CR_HIGH", "0", 0);
    setenv("ARMCI_ADAPT_REPROBE", "0", 0); /* no measured comparison */
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_adapt_switch";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const char *s = getenv("ADAPT_SEED");
    unsigned shared = s ? (unsigned)atoi(s) : 13u, rounds = tu_iters(60);
    seed_ops = shared * 7919u + (unsigned)me * 104729u;
    ptr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ptr, (NS + np + 1) * sizeof(long));
    memset(ptr[me], 0, (NS + np + 1) * sizeof(long));
    added = calloc((size_t)np * (NS + np), sizeof(long));
    fetched = malloc((size_t)np * MAXF * sizeof(long));
    nfetched = calloc((size_t)np, sizeof(int));
    ARMCIX_Async_phase(-1);
    int autom = 1, seen_on = 0, seen_off = 0, prev = armcii_adapt_redirecting();
    for (unsigned r = 0; r < rounds; r++) {
        int nops = 5 + rnd(&seed_ops) % 20;
        for (int i = 0; i < nops; i++) {
            int t = rnd(&seed_ops) % np;
            if (rnd(&seed_ops) % 3)
                one_acc(t);
            else
                one_fadd(t);
        }
        int was_auto = autom, k = synchronize(&shared, &autom), now = armcii_adapt_redirecting();
        /* an automatic switch at a plain synchronization (not a phase call) */
        if (was_auto && autom && k != SYNC_AUTO && now != prev) {
            seen_on += now;
            seen_off += !now;
        }
        if (getenv("ADAPT_DEBUG") && me == 0)
            printf("round %u sync %d auto %d->%d redirect %d->%d\n", r, k, was_auto, autom, prev, now);
        if (k == SYNC_MSG_BUSY)
            CHECK(now == prev || !was_auto, "round %u: switched at a msg barrier with "
                  "accumulates outstanding", r);
        prev = now;
        check_private((int)r);
    }
    ARMCI_Barrier();
    check_final();
    int real_np, vn = getenv("ARMCI_VIRTUAL_NODE_SIZE") != NULL;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np);
    int usable = real_np > np && vn && !(getenv("ARMCI_TEST_MODE") &&
                                         !strcmp(getenv("ARMCI_TEST_MODE"), "ucx"));
    if (usable)
        CHECK(seen_on > 0 && seen_off > 0, "automatic mode switched on %d and off %d times "
              "at barriers, expected both", seen_on, seen_off);
    ARMCIX_Async_phase(1);
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(added);
    free(fetched);
    free(nfetched);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
