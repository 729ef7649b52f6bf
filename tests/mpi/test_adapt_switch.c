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
 * With ghosts the automatic mode must have switched both ways, under
 * every osc component: osc ucx was once left out without a reason, and
 * measured (Open MPI 4.1.4, seeds 1-6) it switched 5-12 times each way
 * like the others; where ghosts exist redirection must be usable.
 *
 * Before that, the production rule (the defaults of ARMCI_ADAPT_*; the
 * thresholds are forced only afterwards) runs on four phases whose
 * outcome the rule fixes, made of rounds ended by ARMCI_Barrier
 * (prod_phases):
 *  A. communication only, starting on: the first dense decision keeps
 *     "on", the second probes "off" (no fresh figure for "off" yet);
 *  B. computation only (no ghostable call: W = 0), from off: stays off;
 *  C. computation while half the users fetch-and-add to users of another
 *     node that compute (W is most of the interval, CR_on near 0), from
 *     off: switches on;
 *  D. computation only, from on (C = 0, CR far below CR_HIGH): stays on.
 * Every accumulate and fetch-and-add of A and C is in the final checks.
 * Without ghosts the same arithmetic runs (phases are barriers).
 * Reproducible from ADAPT_SEED; ADAPT_DEBUG=1 prints the schedule
 * (synchronization kind, mode and setting per round) and the production
 * phases' decisions. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <armci.h>
#include <armcix.h>
#include <message.h>
#include "../testutil.h"
#include "adapt_check.h"
/* the decision count, the dense-interval history and the rule's
 * configuration (this test links the library's objects) */
#include "../../src/progress/progress.h"
#include "../../src/common/common_topo.h"

#define NS 16     /* shared accumulate words per target */
#define MAXF 16384 /* fetch-and-adds per origin and target at most */
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

/* ---- the production rule on phases it must decide one way ---- */

static void compute_ms(double ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) * 1e-6 < ms);
}

static long decisions(void) { return armcii_progress_state.decisions; }

static void prod_debug(const char *phase, int round)
{
    if (getenv("ADAPT_DEBUG") && me == 0)
        printf("production %s round %d: decisions %ld, dense %ld (run %ld), redirect %d\n", phase,
               round, decisions(), armcii_progress_state.hist.dense_n,
               armcii_progress_state.hist.dense_run, armcii_adapt_redirecting());
}

/* Computation only, ARMCI_Barrier after each 20 ms, until two decisions.
 * No call of a class ghosts serve, so W = 0 and C = 0: from off the rule
 * keeps off (W < ARMCI_ADAPT_WAIT_ON), exactly; from on it keeps on
 * unless CR >= ARMCI_ADAPT_CR_HIGH, which only a barrier stalled for most
 * of the interval gives (a loaded host: once 0.45 s here).  So a decision
 * from on is judged only where this test's own share of time in the
 * barriers, summed over the users since the previous decision, was below
 * half (the rule's 80% has a wide margin); one judged decision is needed. */
static void prod_compute_only(const char *phase, int want)
{
    long d0 = decisions(), dprev = d0;
    double tb[2] = {0, 0}; /* time in barriers, time in all */
    int r, judged = 0;
    for (r = 0; r < 100 && (decisions() < d0 + 2 || !judged); r++) {
        double t0 = MPI_Wtime();
        compute_ms(20);
        double t1 = MPI_Wtime();
        ARMCI_Barrier();
        double t2 = MPI_Wtime();
        tb[0] += t2 - t1;
        tb[1] += t2 - t0;
        if (decisions() == dprev)
            continue;
        dprev = decisions();
        prod_debug(phase, r);
        double sum[2];
        MPI_Allreduce(tb, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tb[0] = tb[1] = 0;
        if (want == 1 && sum[0] >= 0.5 * sum[1]) {
            if (me == 0)
                printf("production rule, phase %s: decision %ld not judged: %.0f%% of the "
                       "interval in barriers (a loaded host)\n", phase, decisions(),
                       100 * sum[0] / sum[1]);
            continue;
        }
        judged++;
        CHECK(armcii_adapt_redirecting() == want, "production rule, phase %s (computation "
              "only, %.0f%% of the time in barriers): redirection switched %s at decision %ld",
              phase, 100 * sum[0] / sum[1], want ? "off" : "on", decisions());
        if (armcii_adapt_redirecting() != want)
            return;
    }
    CHECK(decisions() >= d0 + 2 && judged, "production rule, phase %s: %ld decisions (%d "
          "judged) in %d rounds of 20 ms (ARMCI_ADAPT_INTERVAL %d ms)", phase,
          decisions() - d0, judged, r, armcii_state.cfg.adapt_interval);
}

/* Returns 1 when the production phases ran. */
static int prod_phases(void)
{
    static const char *const vars[] = {"ARMCI_ADAPT_INTERVAL", "ARMCI_ADAPT_WAIT_ON",
        "ARMCI_ADAPT_CR_LOW", "ARMCI_ADAPT_CR_HIGH", "ARMCI_ADAPT_CONGESTION",
        "ARMCI_ADAPT_REPROBE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i])) {
            if (me == 0)
                printf("production-rule phases not run: %s is set\n", vars[i]);
            return 0;
        }
    /* nodes as the library sees them (ARMCI's domains are single processes) */
    int nn = armcii_state.nnodes, node = armcii_node_of(me);
    if (nn < 2 || nn % 2) {
        if (me == 0)
            printf("production-rule phases not run: %d nodes (an even number is needed)\n", nn);
        return 0;
    }
    ARMCIX_Async_phase(-1); /* automatic, starting on, no dense figure yet */
    CHECK(armcii_adapt_redirecting() == 1, "automatic mode did not start on");

    /* A: communication only, 20 operations per round to random ranks,
     * until the mode switches off (at most 20 decisions).  Whatever the
     * load, the rule fixes two outcomes, judged from the library's own
     * classification of each interval (hist): from on, the first dense
     * interval in a row keeps on, and the second switches off, "off"
     * having no figure yet (its probe).  A non-dense interval (CR at or
     * below ARMCI_ADAPT_CR_LOW: the 99% of these intervals here cannot fall
     * that far but under a stall outside the calls) is not judged. */
    long d0 = decisions(), dprev = d0, n0 = armcii_progress_state.hist.dense_n;
    int r, dense2 = 0, more = 1;
    double ta = MPI_Wtime();
    /* rounds for 30 s at most: the accumulates and fetch-and-adds that
     * land on this virtual node are CPU work (ghost build: as the ghosts'
     * are), so a round's time depends on the layout, not its count */
    for (r = 0; more && decisions() < d0 + 20 && armcii_adapt_redirecting() == 1; r++) {
        for (int i = 0; i < 20; i++) {
            int t = rnd(&seed_ops) % np;
            if (rnd(&seed_ops) % 3)
                one_acc(t);
            else
                one_fadd(t);
        }
        ARMCI_Barrier();
        /* Every process leaves the loop in the same round, so the time
         * check is collective; but only every 16th round and at decisions
         * (which every process sees at the same barrier): time in an
         * MPI_Allreduce is time outside the library's calls, and one per
         * round took this phase's CR from 99% down to the 50% of
         * ARMCI_ADAPT_CR_LOW (MPICH, ghost build, vn2), where intervals
         * are no longer dense and the rule is not judged. */
        if (r % 16 == 15 || decisions() != dprev) {
            int t_ok = MPI_Wtime() - ta < 30, all_ok;
            MPI_Allreduce(&t_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            more = all_ok;
        }
        if (decisions() == dprev)
            continue;
        dprev = decisions();
        prod_debug("A", r);
        long run = armcii_progress_state.hist.dense_run;
        if (run == 1)
            CHECK(armcii_adapt_redirecting() == 1, "production rule, phase A (communication "
                  "only): the first dense decision in a row (decision %ld) switched off",
                  decisions());
        if (run == 2) {
            dense2 = 1;
            CHECK(armcii_adapt_redirecting() == 0, "production rule, phase A (communication "
                  "only): the second dense decision in a row (decision %ld) kept on; it "
                  "probes off", decisions());
        }
    }
    CHECK(armcii_adapt_redirecting() == 0, "production rule, phase A (communication only): "
          "still on after %ld decisions (%ld of them dense; %d rounds, %.1f s)", decisions() - d0,
          armcii_progress_state.hist.dense_n - n0, r, MPI_Wtime() - ta);
    if (armcii_adapt_redirecting() != 0)
        return 1; /* B and C start from off */
    if (me == 0 && !dense2)
        printf("production rule, phase A: switched off at a decision not in a dense run\n");

    /* B: computation only, from off. */
    prod_compute_only("B", 0);
    if (armcii_adapt_redirecting() != 0)
        return 1;

    /* C: in round r the users of nodes with r's parity fetch-and-add to
     * the user at their position on the next node 10 ms after the
     * barrier, while that user computes 60 ms (the direct path waits for
     * it under every osc component here: W 18-45% of the interval against
     * ARMCI_ADAPT_WAIT_ON's 10%, CR_on 0-16% against CR_LOW's 50%); a
     * fetch-and-add on itself first gives the call's unloaded cost.  The
     * mode must switch on within 4 decisions. */
    int loc = 0, next = (node + 1) % nn, nnext = 0, partner = -1;
    for (int p = 0; p < me; p++)
        loc += armcii_node_of(p) == node;
    for (int p = 0; p < np; p++)
        nnext += armcii_node_of(p) == next;
    for (int p = 0, k = 0; p < np && partner < 0; p++)
        if (armcii_node_of(p) == next && k++ == loc % nnext)
            partner = p;
    d0 = decisions();
    for (r = 0; r < 200 && decisions() < d0 + 4 && armcii_adapt_redirecting() != 1; r++) {
        if (node % 2 == r % 2) {
            one_fadd(me);
            compute_ms(10); /* the partner leaves the barrier and computes */
            one_fadd(partner);
        } else {
            compute_ms(60);
        }
        ARMCI_Barrier();
        prod_debug("C", r);
    }
    CHECK(armcii_adapt_redirecting() == 1, "production rule, phase C (fetch-and-adds wait "
          "for computing targets): redirection still off after %ld decisions",
          decisions() - d0);
    if (armcii_adapt_redirecting() != 1)
        return 1;

    /* D: computation only, from on. */
    prod_compute_only("D", 1);
    if (me == 0)
        printf("production rule: the communication phase kept on, then probed off; "
               "computation phases kept off and on; waiting fetch-and-adds switched on\n");
    return 1;
}

static void check_final(void)
{
    adapt_check_sums(slot(me, 0), added, NS + np);
    adapt_check_counters(fetched, nfetched, MAXF, *slot(me, NS + np));
}

int main(int argc, char **argv)
{
    /* The production phases start the automatic mode at barriers
     * (ARMCIX_Async_phase(-1)) from a static setting: on, unless the
     * environment says otherwise.  Unset, a crowded host under MPICH would
     * start the job in the automatic mode, whose decisions the ghosts take
     * inside phases (ARMCI_ADAPT_INPHASE; test_adapt_inphase). */
    setenv("ARMCI_GHOST_ASYNC", "ON", 0);
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
    /* Ghosts exist when MPI's world is larger than the users'; the regions
     * span nodes (so operations reach ghosts) on virtual nodes. */
    int real_np, vn = getenv("ARMCI_VIRTUAL_NODE_SIZE") != NULL;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np);
    int ghosts = real_np > np;
    CHECK(ghosts ? armcii_adapt_redirecting() >= 0 : armcii_adapt_redirecting() == -1,
          "%d users of %d processes, but redirection %s usable", np, real_np,
          armcii_adapt_redirecting() >= 0 ? "is" : "is not");
    if (ghosts && vn)
        prod_phases();
    /* From here on decide at every synchronization and flip each time
     * (see above), unless the environment sets a threshold: the rule's
     * configuration is read at every decision (progress_adapt.c). */
    if (!getenv("ARMCI_ADAPT_INTERVAL"))
        armcii_state.cfg.adapt_interval = 0;
    if (!getenv("ARMCI_ADAPT_WAIT_ON"))
        armcii_state.cfg.adapt_wait_on = 0;
    if (!getenv("ARMCI_ADAPT_CR_LOW"))
        armcii_state.cfg.adapt_cr_low = 100;
    if (!getenv("ARMCI_ADAPT_CR_HIGH"))
        armcii_state.cfg.adapt_cr_high = 0;
    if (!getenv("ARMCI_ADAPT_REPROBE"))
        armcii_state.cfg.adapt_reprobe = 0; /* no measured comparison */
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
    if (ghosts && vn && me == 0)
        printf("forced thresholds: the automatic mode switched on %d and off %d times at "
               "plain barriers\n", seen_on, seen_off);
    if (ghosts && vn)
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
