/*
 * Automatic redirection inside phases (ghost-progress build,
 * ARMCI_GHOST_ASYNC=AUTO, ARMCI_ADAPT_INPHASE=1): ghosts run the decision
 * every ARMCI_ADAPT_INTERVAL ms, so a phase without an application barrier
 * still gets the setting it needs (casper-adaptive-progress-multiphase,
 * 5.3.3: the ghosts' periodic exchange, here for every operation class).
 *
 * Why ghosts: they always make progress, so the exchange never waits on a
 * user that computes.  Users only publish what they measure (the interval
 * sums of progress_adapt.c, cumulative) into a line of a node-shared block;
 * each ghost sums its bound users' lines, the ghosts allreduce the sums
 * among themselves (a round) and all compute the same decision with the
 * same pure rule (armcii_adapt_decide) and history.
 *
 * Why a protocol: a class's path may change only when no operation of any
 * origin is in flight on the old path (accumulates through two windows
 * are not atomic with each other, and per-origin ordering must hold), and
 * no application barrier gives that point any more.  A switch is proposed
 * with an epoch number and committed only when every user acknowledged
 * it; an acknowledgment means "my writes are remotely complete and I issue
 * nothing until the outcome":
 *  - a user acknowledges at its next library call (fence, then wait for
 *    the outcome while poking MPI progress);
 *  - a user outside the library, or parked in a barrier, with no write in
 *    flight is acknowledged by its ghost (a CAS on the user's state word;
 *    the user's entry is an atomic exchange, so either the ghost's CAS or
 *    the user's entry wins, never both);
 *  - the ghosts vote (an allreduce) until all users are acknowledged, then
 *    commit; if any ghost waited ARMCI_ADAPT_ACK_MS (a user computing with
 *    writes in flight, or blocked in the application's own communication
 *    with one that waits), they all abort, and nothing changed; the next
 *    2^drops proposals are not sent (resolve()).
 * Liveness: a user waits only for ghosts, and ghosts never wait for users
 * while a proposal is open.  A pool's creation (the ghosts' one collective
 * with users, gmr allocations) is agreed in a round: each ghost says in its
 * sums whether its users' partitions of a new pool are all mapped, and the
 * ghosts enter the pool's window together when a round shows every ghost
 * ready; no proposal opens while a pool is pending (its users wait for it
 * inside the library and acknowledge nothing), and one already open is
 * dropped at the next vote.  A ghost that deferred the pool only while it
 * had a proposal open deadlocked: another, whose round was still reducing,
 * had entered the window's creation and never voted.
 * The outcome carries the setting after it, so a user acknowledged by its
 * ghost through several switches while it computed applies only the last.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "progress_impl.h"
#ifdef ARMCII_GHOSTS
#include "../ghost/ghost.h"
#endif
#include "../common/common_wait.h"

#define PG armcii_progress_state
#define R armcii_progress_state.round

/* A process's line of the node block.  Users write the first part, ghosts
 * the proposal and outcome of their own line and the state words of their
 * bound users (CAS only). */
typedef struct {
    long state;          /* user: epoch << 2 | flag */
    double comm, wait, cong; /* user: cumulative seconds (T_comm, W, C) */
    long gcalls;         /* user: cumulative calls of the classes ghosts serve */
    double in_since;     /* user: monotonic seconds at the current call's entry; 0 outside */
    int cur, manual;     /* user: its setting; 1 while it does not decide automatically */
    long proposal;       /* ghost: epoch << 1 | setting proposed */
    long outcome;        /* ghost: epoch << 2 | committed << 1 | setting after */
    long decisions;      /* ghost: rounds decided so far (tests: armcii_round_counts) */
} __attribute__((aligned(128))) round_line_t;

/* Flags of a user's state word.  Only the ghost writes ACK, only the user
 * the others; the ghost moves QUIET (and its own earlier ACK) to ACK by
 * CAS, the user leaves any state by an exchange, so they never both win. */
enum { RS_IN = 0,   /* inside the library: may issue operations */
       RS_QUIET,    /* outside (or parked): issues nothing; no write in flight */
       RS_DIRTY,    /* outside: writes in flight */
       RS_WAIT,     /* inside: acknowledged the epoch in the word, waits for its outcome */
       RS_ACK };    /* outside: acknowledged by its ghost for the epoch in the word */
#define RS(e, f) ((long)(e) << 3 | (f))
#define RS_FLAG(s) ((int)((s)&7))
#define RS_EPOCH(s) ((s) >> 3)

/* The round's sums: the decision's (progress_impl.h) and the ghosts' own. */
enum { RV_MANUAL = ARMCII_ADAPT_NSUM, RV_CUR, RV_USERS, RV_DONE, RV_GROW, RV_N };
/* What a step returns (ghost.h names them for the ghost layer). */
enum { STEP_OVER = 1, STEP_GROW = 2 };
#ifdef ARMCII_GHOSTS
_Static_assert((int)STEP_OVER == (int)ARMCII_ROUNDS_OVER &&
                   (int)STEP_GROW == (int)ARMCII_ROUNDS_GROW,
               "the rounds' step flags");
#endif
/* Ghost stages. */
enum { ST_IDLE, ST_REDUCE, ST_ACKS, ST_VOTE };
/* After the d-th drop in a row the next 2^d proposals are skipped, d at
 * most this (64 rounds: a few seconds at the default interval). */
enum { MAX_DROP_SHIFT = 6 };

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static round_line_t *line(int i) { return (round_line_t *)R.lines + i; }

/* The node block: a POSIX shm object that lives only until every process
 * of the node mapped it (the osc components without shared windows, pt2pt,
 * rule out MPI_Win_allocate_shared). */
static void map_block(MPI_Comm node)
{
    int n;
    char name[64];
    ARMCII_MPI(PMPI_Comm_rank(node, &R.me));
    ARMCII_MPI(PMPI_Comm_size(node, &n));
    R.bytes = (size_t)n * sizeof(round_line_t);
    int fd = -1;
    if (R.me == 0) {
        snprintf(name, sizeof name, "/armci-round-%ld-%ld", (long)getpid(),
                 (long)(mono() * 1e6) % 1000000);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, (off_t)R.bytes) != 0)
            armcii_error("MPI_Init (ghost layout)", "cannot create the shared block %s (%zu "
                         "bytes) of automatic redirection: %s", name, R.bytes, strerror(errno));
    }
    ARMCII_MPI(PMPI_Bcast(name, sizeof name, MPI_CHAR, 0, node));
    if (R.me != 0 && (fd = shm_open(name, O_RDWR, 0)) < 0)
        armcii_error("MPI_Init (ghost layout)", "cannot open the shared block %s of automatic "
                     "redirection: %s", name, strerror(errno));
    R.lines = mmap(NULL, R.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = R.lines == MAP_FAILED ? errno : 0;
    close(fd);
    ARMCII_MPI(PMPI_Barrier(node));
    if (R.me == 0)
        shm_unlink(name); /* nothing stays in /dev/shm, whatever happens later */
    if (err)
        armcii_error("MPI_Init (ghost layout)", "cannot map the shared block of automatic "
                     "redirection: %s", strerror(err));
}

void armcii_round_setup(MPI_Comm node, int ghost_line, const int *bound, int nbound,
                        MPI_Comm ghosts, const armcii_config_t *cfg)
{
    R.on = cfg->ghost_async == ARMCII_ASYNC_AUTO && cfg->adapt_inphase;
    if (!R.on)
        return;
    map_block(node);
    round_line_t *mine = line(R.me);
    memset(mine, 0, sizeof *mine);
    mine->state = RS(0, RS_QUIET);
    mine->manual = 1; /* until ARMCI_Init starts the automatic mode */
    R.ghost = ghost_line;
    R.interval = cfg->adapt_interval > 0 ? 1e-3 * cfg->adapt_interval : 0.05;
    R.ack_wait = cfg->adapt_ack_ms > 0 ? 1e-3 * cfg->adapt_ack_ms : 0.2;
    R.verbose = cfg->verbose;
    R.rule = armcii_adapt_rule(cfg);
    if (ghost_line < 0) { /* a ghost */
        R.nbound = nbound;
        R.bound = malloc((size_t)nbound * sizeof(int));
        R.prev = calloc((size_t)nbound * 4, sizeof(double));
        R.fin = calloc((size_t)nbound, 1);
        if (!R.bound || !R.prev || !R.fin)
            armcii_error("MPI_Init (ghost layout)", "out of memory (%d users)", nbound);
        memcpy(R.bound, bound, (size_t)nbound * sizeof(int));
        R.gcomm = ghosts;
        ARMCII_MPI(PMPI_Comm_rank(ghosts, &R.grank));
        R.hist = (armcii_adapt_hist_t){.dense_at = {-1, -1}};
        R.after = -1;
        R.last = mono();
    }
    ARMCII_MPI(PMPI_Barrier(node)); /* every line initialized before anyone reads */
}

void armcii_round_free(void)
{
    if (!R.on)
        return;
    munmap(R.lines, R.bytes);
    free(R.bound);
    free(R.prev);
    free(R.fin);
    R.on = 0;
}

/* ---------------- user side ---------------- */

int armcii_round_live(void) { return R.live; }

void armcii_round_counts(long *decisions, long *proposals)
{
    *decisions = *proposals = -1;
    if (!R.on || R.ghost < 0)
        return;
    round_line_t *g = line(R.ghost);
    *proposals = __atomic_load_n(&g->proposal, __ATOMIC_ACQUIRE) >> 1;
    *decisions = __atomic_load_n(&g->decisions, __ATOMIC_ACQUIRE);
}

void armcii_round_start(int manual)
{
    /* threaded runs: no automatic mode (progress_adapt.c, set_adapt), and
     * the per-thread entries would race on the one state word */
    if (!R.on || R.ghost < 0 || armcii_state.threaded)
        return;
    R.live = 1;
    armcii_round_set_manual(manual);
}

void armcii_round_finish(void)
{
    if (!R.live)
        return;
    armcii_round_set_manual(1);
    armcii_round_leave(); /* outside for good: its ghost acknowledges for it */
    R.live = 0;
}

/* What the user measured so far, for its ghost (relaxed: a torn pair is
 * one call's time off in one round). */
static void publish(void)
{
    round_line_t *u = line(R.me);
    u->comm = PG.tot.comm + PG.ivl.comm;
    u->wait = PG.tot.wait + PG.ivl.wait;
    u->cong = PG.tot.cong + PG.ivl.cong;
    u->gcalls = PG.tot.gcalls + PG.ivl.gcalls;
}

void armcii_round_set_manual(int manual)
{
    if (!R.live)
        return;
    line(R.me)->cur = armcii_gmr_redirecting();
    __atomic_store_n(&line(R.me)->manual, manual, __ATOMIC_RELEASE);
}

/* Apply an outcome: the setting after it (the user's own choice stands
 * while it decides manually: every user switched to manual in the same
 * collective, ARMCIX_Async_phase, whose barrier realigns them). */
static void apply(long out)
{
    int on = (int)(out & 1);
    if (!PG.adapt || on == armcii_gmr_redirecting())
        return;
    armcii_gmr_redirect(on);
    line(R.me)->cur = on;
    PG.switches++;
}

static long wait_outcome(long e)
{
    round_line_t *g = line(R.ghost);
    long out;
    int spins = 0, flag;
    while (((out = __atomic_load_n(&g->outcome, __ATOMIC_ACQUIRE)) >> 2) < e) {
        /* others' operations on my windows may need my progress (osc
         * pt2pt) before their issuers reach a library call */
        ARMCII_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.world, &flag,
                              MPI_STATUS_IGNORE));
        if (++spins > 64) { /* leave the core to others where cores are few */
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
        }
    }
    return out;
}

/* Become IN; settle any proposal newer than what this user handled. */
static void settle(void)
{
    round_line_t *u = line(R.me), *g = line(R.ghost);
    long st = __atomic_exchange_n(&u->state, RS(R.epoch, RS_IN), __ATOMIC_SEQ_CST);
    long pe = __atomic_load_n(&g->proposal, __ATOMIC_ACQUIRE) >> 1;
    if (pe <= R.epoch)
        return; /* a ghost acknowledges only the open proposal: none is newer */
    long out = __atomic_load_n(&g->outcome, __ATOMIC_ACQUIRE);
    if ((out >> 2) < pe) { /* open */
        /* acknowledged by the ghost while outside: quiet already, but the
         * exchange took the acknowledgment back; WAIT gives it again */
        if (!(RS_FLAG(st) == RS_ACK && RS_EPOCH(st) == pe))
            armcii_gmr_fence_all();
        __atomic_store_n(&u->state, RS(pe, RS_WAIT), __ATOMIC_SEQ_CST);
        out = wait_outcome(pe);
    }
    apply(out);
    R.epoch = out >> 2;
    __atomic_store_n(&u->state, RS(R.epoch, RS_IN), __ATOMIC_SEQ_CST);
}

/* The call's time so far counts for the ghost's rounds from here (the
 * wait in settle() is the protocol's, not the call's). */
void armcii_round_enter(void)
{
    settle();
    line(R.me)->in_since = mono();
}

/* Leaving the library (or parking in a barrier): publish, and say whether
 * a write is still in flight. */
static void step_out(int quiet)
{
    round_line_t *u = line(R.me);
    publish();
    __atomic_store_n(&u->state, RS(R.epoch, quiet ? RS_QUIET : RS_DIRTY), __ATOMIC_SEQ_CST);
}

void armcii_round_leave(void)
{
    step_out(armcii_gmr_quiescent());
    line(R.me)->in_since = 0;
}

/* In automatic mode every park of a process with writes in flight costs a
 * fence (GA_Dgop after puts, for instance): the price of letting its ghost
 * acknowledge for it while it waits. */
void armcii_progress_park(void)
{
    if (!R.live)
        return;
    int quiet = armcii_gmr_quiescent();
    if (!quiet)
        armcii_gmr_fence_all();
    step_out(1);
}

/* Parked: the barrier's time keeps counting as the call's (in_since stays),
 * so a long wait in it reaches the rounds as it passes, not all at once. */
void armcii_round_barrier(int fenced)
{
    step_out(fenced || armcii_gmr_quiescent());
    armcii_barrier(armcii_state.world); /* waits as the library's barriers do (common_wait.c) */
    double since = line(R.me)->in_since;
    settle();
    line(R.me)->in_since = since;
}

/* ---------------- ghost side ---------------- */

int armcii_round_ghost_busy(void) { return R.on && (R.stage == ST_ACKS || R.stage == ST_VOTE); }

int armcii_round_ghost_serving(void) { return R.on && R.served; }

void armcii_round_user_finished(int k)
{
    if (R.on && k >= 0 && k < R.nbound)
        R.fin[k] = 1;
}

/* My bound users' sums since the last round. */
static void sample(double now, long long *v)
{
    memset(v, 0, RV_N * sizeof *v);
    v[ARMCII_ADAPT_T] = (long long)((now - R.last) * 1e6 * R.nbound + 0.5);
    for (int k = 0; k < R.nbound; k++) {
        round_line_t *u = line(R.bound[k]);
        double since = u->in_since;
        double cur[4] = {u->comm + (since > 0 && now > since ? now - since : 0), u->wait, u->cong,
                         (double)u->gcalls};
        long long *out[4] = {&v[ARMCII_ADAPT_COMM], &v[ARMCII_ADAPT_WAIT],
                             &v[ARMCII_ADAPT_CONG], &v[ARMCII_ADAPT_GCALLS]};
        for (int i = 0; i < 4; i++) {
            double *p = &R.prev[4 * k + i], d = cur[i] - *p;
            if (d > 0) {
                *out[i] += (long long)(i < 3 ? d * 1e6 + 0.5 : d);
                *p = cur[i];
            }
        }
        if (!R.fin[k]) {
            v[RV_MANUAL] += __atomic_load_n(&u->manual, __ATOMIC_ACQUIRE);
            v[RV_CUR] += u->cur;
            v[RV_USERS]++;
        }
    }
    R.last = now;
}

/* After a round's sums: the decision, the same on every ghost. */
static void decide(double now)
{
    long long *s = R.s;
    if (s[RV_MANUAL] > 0) { /* ARMCIX_Async_phase took over: the users' own busy messages rule */
        R.served = 0;
        R.after = -1; /* and their own settings */
    }
    if (s[RV_MANUAL] > 0 || s[RV_USERS] <= 0 || s[ARMCII_ADAPT_T] <= 0 ||
        (s[RV_CUR] != 0 && s[RV_CUR] != s[RV_USERS])) {
        R.stage = ST_IDLE;
        return;
    }
    int cur = s[RV_CUR] != 0;
    char why[256];
    int on = armcii_adapt_decide(&R.rule, cur, &R.hist, s, &R.hist, why, sizeof why);
    R.decisions++;
    __atomic_store_n(&line(R.me)->decisions, R.decisions, __ATOMIC_RELEASE);
    int held = on != cur && R.hold > 0; /* proposals keep being dropped: wait */
    if (held) {
        R.hold--;
        R.hist.probing = 0;
    }
    if (R.grank == 0 && R.verbose >= 1) {
        double np = (double)s[RV_USERS];
        fprintf(stderr, "[ghost] ARMCI adapt: round %ld: interval %.3f s, per user T_comm "
                "%.4f s, W %.4f s, C %.4f s (%s): redirection %s\n", R.decisions,
                (double)s[ARMCII_ADAPT_T] / np / 1e6, (double)s[ARMCII_ADAPT_COMM] / np / 1e6,
                (double)s[ARMCII_ADAPT_WAIT] / np / 1e6, (double)s[ARMCII_ADAPT_CONG] / np / 1e6,
                why, on == cur ? "kept" : held ? "kept (proposals dropped in a row)"
                                               : on ? "proposed on" : "proposed off");
        fflush(stderr);
    }
    if (on == cur || held) {
        R.stage = ST_IDLE;
        return;
    }
    R.epoch++;
    R.want = on;
    /* A user acknowledged while outside applies the last outcome only at
     * its next entry, so its line may still show the setting before: the
     * lines can agree on a setting already left.  A drop then carried that
     * stale setting, and the users that had not applied the commit went
     * back while one inside a long call kept it; with the settings mixed the
     * ghosts decided nothing until that call ended (test_adapt_drops;
     * docs/progress.md).  A drop changes nothing: it carries the last
     * outcome's setting. */
    R.was = R.after >= 0 ? R.after : cur;
    R.deadline = now + R.ack_wait;
    __atomic_store_n(&line(R.me)->proposal, R.epoch << 1 | on, __ATOMIC_SEQ_CST);
    R.stage = ST_ACKS;
}

/* Acknowledge quiet users myself; 1 when all of mine are acknowledged. */
static int count_acks(void)
{
    int all = 1;
    for (int k = 0; k < R.nbound; k++) {
        if (R.fin[k])
            continue;
        long *w = &line(R.bound[k])->state;
        long st = __atomic_load_n(w, __ATOMIC_SEQ_CST);
        if ((RS_FLAG(st) == RS_ACK || RS_FLAG(st) == RS_WAIT) && RS_EPOCH(st) == R.epoch)
            continue;
        /* outside and quiet, or acknowledged by me earlier and still outside */
        if ((RS_FLAG(st) == RS_QUIET || RS_FLAG(st) == RS_ACK) &&
            __atomic_compare_exchange_n(w, &st, RS(R.epoch, RS_ACK), 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            continue;
        all = 0;
        R.late_line = R.bound[k];
        R.late_flag = RS_FLAG(st);
    }
    return all;
}

static void resolve(int commit)
{
    int after = commit ? R.want : R.was;
    R.after = after;
    __atomic_store_n(&line(R.me)->outcome, R.epoch << 2 | (long)commit << 1 | after,
                     __ATOMIC_SEQ_CST);
    R.switches += commit;
    if (commit)
        R.served = after;
    /* Users that acknowledged waited for this outcome inside a call: that
     * time measures neither setting, so the next round starts now (after a
     * commit it measures the new setting alone).  After a drop the next
     * 2^drops proposals (up to 64) are not sent: under GA's
     * NGA_Scatter_acc, each of whose calls outlasts ARMCI_ADAPT_ACK_MS,
     * a probe was proposed and dropped nearly every round, and every drop
     * held the acknowledged users for the whole wait (automatic far slower
     * than either static setting: results/ga_irreg_auto.2core.txt). */
    long long drop[RV_N];
    sample(mono(), drop);
    R.drops = commit ? 0 : R.drops < MAX_DROP_SHIFT ? R.drops + 1 : MAX_DROP_SHIFT;
    R.hold = commit ? 0 : 1L << R.drops;
    if (!commit)
        R.hist.probing = 0; /* nothing was measured at the proposed setting */
    if (R.grank == 0 && R.verbose >= 1) {
        static const char *flag[] = {"inside a call", "outside", "outside, writes in flight",
                                     "waiting", "acknowledged"};
        fprintf(stderr, "[ghost] ARMCI adapt: epoch %ld: redirection %s %s", R.epoch,
                R.want ? "on" : "off", commit ? "committed\n" : "dropped (a process did not "
                "acknowledge within ARMCI_ADAPT_ACK_MS");
        if (!commit && R.late_line >= 0) /* this ghost's: another's may be the one */
            fprintf(stderr, "; here: node rank %d, %s", R.late_line, flag[R.late_flag % 5]);
        if (!commit)
            fprintf(stderr, ")\n");
        fflush(stderr);
    }
    R.stage = ST_IDLE;
}

int armcii_round_ghost_step(int users_done, int grow_ready)
{
    if (!R.on)
        return STEP_OVER | (grow_ready ? STEP_GROW : 0);
    double now = mono();
    int flag = 0;
    switch (R.stage) {
    case ST_IDLE:
        /* a probe of the other setting is judged after half an interval:
         * each probe of the worse path costs its time at that path's price,
         * and a dense phase's calls give a figure soon enough; a pending
         * pool's users wait for it: no wait */
        if (!users_done && !grow_ready &&
            now - R.last < (R.hist.probing ? 0.5 : 1.0) * R.interval)
            return 0;
        sample(now, R.v);
        R.v[RV_DONE] = users_done;
        R.v[RV_GROW] = grow_ready;
        ARMCII_MPI(PMPI_Iallreduce(R.v, R.s, RV_N, MPI_LONG_LONG, MPI_SUM, R.gcomm, &R.req));
        R.stage = ST_REDUCE;
        return 0;
    case ST_REDUCE:
        ARMCII_MPI(PMPI_Test(&R.req, &flag, MPI_STATUS_IGNORE));
        if (!flag)
            return 0;
        int n;
        ARMCII_MPI(PMPI_Comm_size(R.gcomm, &n));
        if (R.s[RV_DONE] == n)
            return STEP_OVER; /* every ghost's users finished: no more rounds */
        if (R.s[RV_GROW] > 0) { /* a pool is pending: no decision */
            R.stage = ST_IDLE;
            return R.s[RV_GROW] == n ? STEP_GROW : 0;
        }
        decide(now);
        return 0;
    case ST_ACKS:
        R.late_line = -1;
        R.v[0] = !count_acks();
        /* a pending pool's users acknowledge nothing until it exists */
        R.v[1] = now > R.deadline || grow_ready;
        ARMCII_MPI(PMPI_Iallreduce(R.v, R.s, 2, MPI_LONG_LONG, MPI_SUM, R.gcomm, &R.req));
        R.stage = ST_VOTE;
        return 0;
    default: /* ST_VOTE */
        ARMCII_MPI(PMPI_Test(&R.req, &flag, MPI_STATUS_IGNORE));
        if (!flag)
            return 0;
        if (R.s[0] == 0)
            resolve(1);
        else if (R.s[1] > 0)
            resolve(0);
        else
            R.stage = ST_ACKS;
        return 0;
    }
}

#ifdef ARMCII_GHOSTS
/* The ghost layer drives the rounds through these (ghost.h); registered at
 * load time, before the application's MPI_Init reaches the ghost layer. */
__attribute__((constructor)) static void register_rounds(void)
{
    static const armcii_ghost_rounds_t ops = {armcii_round_setup, armcii_round_free,
                                              armcii_round_ghost_step, armcii_round_ghost_busy,
                                              armcii_round_ghost_serving,
                                              armcii_round_user_finished};
    armcii_ghost_set_rounds(&ops);
}
#endif
