/*
 * Automatic ghost redirection (ARMCI_GHOST_ASYNC=AUTO, ARMCIX_Async_phase(-1)).
 *
 * Why: a ghost serving the n users of its node completes their
 * software-handled operations at once while they compute (redirection
 * pays in computation-heavy phases), but aggregates all their traffic
 * onto one process, which becomes the bottleneck when the node's users
 * communicate densely (casper-adaptive-progress-multiphase, sections 4-5:
 * redirection hurts when r*T_hd exceeds T_comp).  So the setting follows
 * the phase.
 *
 * What each process measures per interval (progress_profile.c feeds it,
 * from the calls that reach the MPI path and the synchronizing calls):
 *  - T: the interval's length; T_comm: time in timed library calls;
 *    T_comp = T - T_comm;
 *  - W, the wait for progress: what calls of the classes ghosts would
 *    serve took on the direct path beyond their unloaded cost (the fastest
 *    such call seen).  It is what redirection would save;
 *  - C, the ghost congestion: what redirected calls took beyond their
 *    unloaded cost on the ghost path.  With redirection on, W against busy
 *    targets disappears, so C is the signal that "on" hurts: queueing
 *    behind the other users of a ghost (the paper's r*T_hd).
 * Excess over the unloaded cost also contains plain contention, which is
 * why W alone cannot say "switch on": in a communication-dense phase with
 * redirection off every call is slowed by the others, W is large, and yet
 * a ghost would be overloaded.  The paper's communication ratio CR =
 * T_comm / T separates the two, taken as it would be with redirection on:
 * measured when on, and estimated when off by removing the waiting that
 * ghosts would save, CR_on = (T_comm - W) / (T - W).
 *
 * The decision (the same on every process: it is computed from integer
 * sums over the world):
 *  - off -> on when W >= ARMCI_ADAPT_WAIT_ON % of T and
 *    CR_on <= ARMCI_ADAPT_CR_LOW %: time is lost waiting on targets that
 *    compute, and the phase computes enough for a ghost to keep up;
 *  - on -> off when CR >= ARMCI_ADAPT_CR_HIGH % (so communication-dense
 *    that ghosts cannot keep up), or when C >= ARMCI_ADAPT_CONGESTION % of
 *    T and CR > ARMCI_ADAPT_CR_LOW % (ghosts are queueing, and the phase is
 *    not one of computation where only a ghost gets the operations done:
 *    there a slow ghost still beats waiting for the targets);
 *  - in a communication-heavy interval (CR > CR_LOW) the time in library
 *    calls per ghostable call is measured under each setting, and while
 *    the other setting's figure is fresh the cheaper one wins over the
 *    rules above; a stale figure is measured again from either side
 *    (a probe), and probes that keep losing back off (decide()).  The
 *    rules above alone decide in computation-heavy intervals, and
 *    everywhere with ARMCI_ADAPT_REPROBE=0.
 * Hysteresis: CR_LOW < CR_HIGH, and W and C have their own thresholds; an
 * interval that straddles two phases usually keeps the setting, and the
 * next one decides.
 *
 * Where (ARMCI_ADAPT_INPHASE=0, or ARMCIX_Async_phase(-1) without
 * ARMCI_GHOST_ASYNC=AUTO; otherwise the ghosts decide, progress_round.c):
 * at ARMCI_Barrier, at armci_msg_barrier over the world (GA_Sync is
 * ARMCI_AllFence + armci_msg_barrier in GA 5.8.2's pnga_sync) and at
 * ARMCIX_Async_phase(-1), never sooner than ARMCI_ADAPT_INTERVAL ms after
 * the last decision (the paper's PREDICT_INT; its GSYNC_INT, the ghosts'
 * own periodic exchange, is progress_round.c).  One allreduce of a few
 * integers replaces the barrier; no process leaves it before all entered,
 * and each entered with its writes remotely complete (Barrier fences all;
 * msg_barrier checks, and any process with unfenced writes vetoes the
 * switch), so every operation has completed on the old path before any is
 * issued on the new one: the invariant of armcii_gmr_phase.
 */
#include <stdio.h>
#include <string.h>
#include "progress_impl.h"
#include "../common/common_config.h"
#include "../common/common_host.h"
#include "../common/common_wait.h"

#define PG armcii_progress_state

/* The other setting must have been this much cheaper per call to win: a
 * margin against noise, so near-equal paths do not flip. */
#define DENSE_GAIN 0.9
/* Probes of a setting that keeps losing back off up to 2^6 times the
 * interval ARMCI_ADAPT_REPROBE sets: each probe of the worse path costs a
 * whole interval at its price (osc ucx, communication phase:
 * benchmarks/results/bench_multiphase.inphase.txt). */
#define MAX_BACKOFF 6
/* A lost probe may cost at most this share of the dense time at the
 * setting that won before the next one: a probe lasts a whole interval,
 * and where a decision waits for a barrier an interval is a whole step,
 * where the worse path can cost ten times the better (MPICH on a crowded
 * host: one probe per ARMCI_ADAPT_REPROBE steps doubled a communication
 * phase; docs/progress.md, benchmarks/results/bench_multiphase.mpich_auto.txt). */
#define PROBE_BUDGET 0.03
/* Weight of the earlier intervals of a stretch in a setting's figure:
 * one interval alone is noisy where an interval is short against the
 * steps (inside phases under MPICH, a round that a step's barrier stalled
 * read "off" many times dearer than the phase really ran, and switched
 * on; docs/progress.md). */
#define RUN_DECAY 0.75

static void start_interval(void)
{
    PG.tot.comm += PG.ivl.comm;
    PG.tot.wait += PG.ivl.wait;
    PG.tot.cong += PG.ivl.cong;
    PG.tot.gcalls += PG.ivl.gcalls;
    PG.ivl = (armcii_adapt_ivl_t){.t0 = MPI_Wtime()};
}

/* Timing and the general path on while deciding (gmr's measure bits).  Not
 * in threaded runs: a barrier in one thread says nothing about the
 * operations other threads of the process have in flight, so no point is
 * safe to switch at (ARMCIX_Async_phase(0/1) remains, the caller's
 * collective promise); PG.fixed holds there instead. */
static void set_adapt(int on, int asked)
{
    /* asked: the user's AUTO or ARMCIX_Async_phase(-1), not the default's */
    if (on && asked && armcii_state.threaded && armcii_gmr_ghost_usable() &&
        armcii_state.rank == 0)
        armcii_warn_once("automatic ghost redirection is not available under "
                         "MPI_THREAD_MULTIPLE; redirection stays %s for the run "
                         "(docs/progress.md)", PG.fixed ? "on" : "off");
    PG.adapt = on && armcii_gmr_ghost_usable() && !armcii_state.threaded;
    /* Once on, per-call timing stays on (a branch and a nesting count per
     * call; the clock is read by synchronizing calls only once gmr's timing
     * is off): it is switched from inside a call (ARMCIX_Async_phase), and
     * turning it off there would leave that call's nesting count behind. */
    PG.timing = PG.timing || PG.profile || PG.adapt || armcii_round_live();
    armcii_round_set_manual(!PG.adapt);
    armcii_gmr_set_measure((PG.profile ? ARMCII_MEASURE_COUNT : 0u) |
                           (PG.adapt ? ARMCII_MEASURE_TIME : 0u));
}

/* The one setting of a threaded run (collective).  ARMCI_GHOST_ASYNC=AUTO
 * picks off where any host has more processes than CPUs: ghosts there
 * share cores with the users' threads, and every redirected call waits
 * until its ghost is scheduled (measured with GA's threaded tests:
 * docs/progress.md, "Threaded runs").  Elsewhere it picks on, where the
 * automatic mode starts.  Every process joins the allreduce whatever its
 * own ARMCI_GHOST_ASYNC says, so a setting that differs between processes
 * cannot leave the others waiting in it. */
static int threaded_setting(void)
{
    int mode = armcii_gmr_async_setting(), crowded = armcii_host_crowded(), any;
    armcii_allreduce(&crowded, &any, 1, MPI_INT, MPI_MAX, armcii_state.world);
    if (mode != ARMCII_ASYNC_AUTO)
        return mode == ARMCII_ASYNC_ON;
    if (armcii_state.rank == 0)
        armcii_log(1, "adapt: threaded run, no automatic mode; ARMCI_GHOST_ASYNC=AUTO "
                   "redirects %s for the run (%s)", any ? "off" : "on",
                   any ? "a host has more processes than CPUs" : "every process has a CPU");
    return !any;
}

armcii_adapt_rule_t armcii_adapt_rule(const armcii_config_t *c)
{
    return (armcii_adapt_rule_t){c->adapt_wait_on, c->adapt_cr_low, c->adapt_cr_high,
                                 c->adapt_congestion, c->adapt_reprobe};
}

void armcii_adapt_init(void)
{
    const armcii_config_t *c = &armcii_state.cfg;
    PG.decisions = PG.switches = 0;
    PG.hist = (armcii_adapt_hist_t){.dense_at = {-1, -1}};
    PG.profile = c->profile;
    PG.tot = (armcii_adapt_ivl_t){0};
    armcii_round_start(1);
    PG.fixed = 1;
    if (armcii_state.threaded && armcii_gmr_ghost_usable()) {
        PG.fixed = threaded_setting();
        if (armcii_gmr_async_setting() == ARMCII_ASYNC_AUTO)
            armcii_gmr_redirect(PG.fixed); /* inside ARMCI_Init: nothing in flight */
    }
    set_adapt(armcii_gmr_async_setting() == ARMCII_ASYNC_AUTO,
              armcii_config_from_env(c, "ARMCI_GHOST_ASYNC"));
    start_interval();
    if (PG.adapt && armcii_state.rank == 0)
        armcii_log(1, "adapt: automatic ghost redirection, starting on; decisions at "
                   "barriers at least %d ms apart: on when W >= %d%% and CR_on <= %d%%, off "
                   "when CR >= %d%% or C >= %d%% with CR > %d%%", c->adapt_interval,
                   c->adapt_wait_on, c->adapt_cr_low, c->adapt_cr_high, c->adapt_congestion,
                   c->adapt_cr_low);
}

static long long usec(double s) { return (long long)(s * 1e6 + 0.5); }

/* The model's setting from the sums (microseconds over all processes). */
static int model(const armcii_adapt_rule_t *r, int cur, const long long *s, char *why,
                 size_t len)
{
    double t = (double)s[ARMCII_ADAPT_T], comm = (double)s[ARMCII_ADAPT_COMM];
    double wt = (double)s[ARMCII_ADAPT_WAIT];
    /* Each process rounds its sums to microseconds: in an interval spent
     * entirely in calls T_comm may exceed T by a few, and a ratio above
     * 100% would fail a threshold of 100%. */
    comm = comm < t ? comm : t;
    wt = wt < comm ? wt : comm;
    double w = 100.0 * wt / t, cg = 100.0 * (double)s[ARMCII_ADAPT_CONG] / t;
    if (!cur) {
        double cr = t - wt > 0 ? 100.0 * (comm - wt) / (t - wt) : 100.0;
        int on = w >= r->wait_on && cr <= r->cr_low;
        snprintf(why, len, "W %.1f%% %s %d%%, CR_on %.1f%% %s %d%%", w,
                 w >= r->wait_on ? ">=" : "<", r->wait_on, cr,
                 cr <= r->cr_low ? "<=" : ">", r->cr_low);
        return on;
    }
    double cr = 100.0 * comm / t;
    int off = cr >= r->cr_high || (cg >= r->congestion && cr > r->cr_low);
    snprintf(why, len, "C %.1f%% %s %d%%, CR %.1f%% %s %d%%/%d%%", cg,
             cg >= r->congestion ? ">=" : "<", r->congestion, cr,
             cr >= r->cr_high ? ">=" : cr > r->cr_low ? "in" : "<=", r->cr_low, r->cr_high);
    return !off;
}

/* The new setting.  In a communication-heavy interval (CR > CR_LOW) the
 * model says off when CR >= CR_HIGH or the ghosts queue, on the paper's
 * premise that the node's users then overload their ghost.  That premise
 * fails where the direct path itself waits for software progress (Open
 * MPI 4.1's osc ucx serves others' atomics only from its progress engine:
 * bench_multiphase's communication phase took several times longer off
 * than on, benchmarks/results/bench_multiphase.ucx.txt) and where targets
 * compute between calls (GA's SCF pattern on 16 cores: the congestion
 * rule switched "on" off every other interval,
 * benchmarks/results/bench_multiphase.inphase.txt).  So both settings are measured there: each such interval
 * records the time in library calls per ghostable call under the current
 * setting, and while the other setting's figure is fresh (measured at most
 * ARMCI_ADAPT_REPROBE << backoff such intervals ago: phases of an iterative
 * code are alike, so the figure outlives the phases between them) the
 * cheaper one is kept.  A stale or missing figure is measured (a probe),
 * but not in the first such interval in a row: it may straddle the end of
 * a computation phase, and a phase shorter than two intervals is not worth
 * a probe. */
int armcii_adapt_decide(const armcii_adapt_rule_t *rule, int cur, const armcii_adapt_hist_t *in,
                        const long long *s, armcii_adapt_hist_t *out, char *why, size_t len)
{
    int pick = model(rule, cur, s, why, len);
    double t = (double)s[ARMCII_ADAPT_T], comm = (double)s[ARMCII_ADAPT_COMM];
    *out = *in;
    if (100.0 * comm <= rule->cr_low * t || s[ARMCII_ADAPT_GCALLS] <= 0 || rule->reprobe <= 0) {
        out->dense_run = 0;
        out->probing = 0; /* a probe not followed by a dense interval: unjudged */
        return pick;
    }
    /* All time in calls per ghostable call, not the time in those calls
     * alone: a redirected call returns once queued, and its cost shows in
     * the fences and barriers that complete it (under osc pt2pt a
     * communication phase with cheaper calls on than off still took longer
     * on, and such figures once switched a communication phase on).  Over
     * the stretch of dense intervals at this setting (RUN_DECAY). */
    int cont = in->dense_run > 0 && in->dense_at[cur] == in->dense_n;
    out->run_comm = (cont ? RUN_DECAY * in->run_comm : 0) + comm;
    out->run_calls = (cont ? RUN_DECAY * in->run_calls : 0) + (double)s[ARMCII_ADAPT_GCALLS];
    double cost = out->run_comm / out->run_calls;
    out->dense_run++;
    out->dense_n++;
    out->dense_cost[cur] = cost;
    out->dense_at[cur] = out->dense_n;
    long age = out->dense_n - out->dense_at[!cur];
    size_t n = strlen(why);
    int fresh = age < ((long)rule->reprobe << out->backoff) || in->debt > 0;
    if (out->dense_at[!cur] >= 0 && fresh) {
        pick = out->dense_cost[!cur] < DENSE_GAIN * cost ? !cur : cur;
        /* The interval after a probe judges it: a probe the old setting
         * wins again was wasted, so the next comes twice as late (up to
         * 2^MAX_BACKOFF times ARMCI_ADAPT_REPROBE) and only once the dense
         * time at the winner paid for it (PROBE_BUDGET); one that wins
         * resets both. */
        if (in->probing) {
            int lost = pick != cur;
            out->backoff = lost ? (out->backoff < MAX_BACKOFF ? out->backoff + 1 : MAX_BACKOFF)
                                : 0;
            out->debt = lost ? t * (1.0 - out->dense_cost[!cur] / cost) / PROBE_BUDGET : 0;
        } else {
            out->debt = in->debt > t ? in->debt - t : 0;
        }
        out->probing = 0;
        snprintf(why + n, len - n, "; dense: %s %.0f us/call, %s %.0f us/call %ld dense "
                 "intervals ago", cur ? "on" : "off", cost, cur ? "off" : "on",
                 out->dense_cost[!cur], age);
    } else if (out->dense_run < 2) {
        pick = cur;
        snprintf(why + n, len - n, "; dense: first dense interval, %.0f us/call %s", cost,
                 cur ? "on" : "off");
    } else {
        /* The other setting's figure is missing or stale: measure it, from
         * either side (the model alone never leaves "off" in a dense
         * interval, and a stale figure for "on" must not keep a phase off
         * for good: GA's SCF pattern on 16 cores sat off,
         * benchmarks/results/bench_multiphase.inphase.txt). */
        pick = !cur;
        out->probing = 1;
        snprintf(why + n, len - n, "; dense: probe %s (%s %.0f us/call)", pick ? "on" : "off",
                 cur ? "on" : "off", cost);
    }
    return pick;
}

static void log_decision(const long long *s, int cur, int on, const char *why)
{
    if (armcii_state.rank != 0 || armcii_state.cfg.verbose < 1)
        return;
    double np = armcii_state.nproc, t = (double)s[ARMCII_ADAPT_T] / np / 1e6;
    double comm = (double)s[ARMCII_ADAPT_COMM] / np / 1e6;
    armcii_log(1, "adapt: decision %ld: interval %.3f s, per process T_comm %.4f s, T_comp "
               "%.4f s, W %.4f s, C %.4f s (%s): redirection %s%s", PG.decisions, t, comm,
               t - comm, (double)s[ARMCII_ADAPT_WAIT] / np / 1e6,
               (double)s[ARMCII_ADAPT_CONG] / np / 1e6, why,
               on ? "on" : "off", on != cur ? (on ? " (switched on)" : " (switched off)")
                                                    : " (kept)");
}

/* The collective of a synchronization point: quiet says this process has
 * no write that is not remotely complete. */
static void sync_point(int quiet)
{
    long long v[ARMCII_ADAPT_NSUM], s[ARMCII_ADAPT_NSUM];
    double now = MPI_Wtime(), t0 = armcii_gmr_call_end().t0; /* this call so far counts */
    armcii_lock(&PG.lock);
    v[ARMCII_ADAPT_T] = usec(now - PG.ivl.t0);
    double since = t0 > PG.ivl.t0 ? t0 : PG.ivl.t0;
    v[ARMCII_ADAPT_COMM] = usec(PG.ivl.comm + (t0 > 0 ? now - since : 0));
    v[ARMCII_ADAPT_WAIT] = usec(PG.ivl.wait);
    v[ARMCII_ADAPT_CONG] = usec(PG.ivl.cong);
    v[ARMCII_ADAPT_GCALLS] = PG.ivl.gcalls;
    armcii_unlock(&PG.lock);
    v[ARMCII_ADAPT_BUSY] = !quiet;
    /* it stands in for the application's barrier, so it waits as the
     * library's barriers do: under MPICH on a crowded host a polling
     * MPI_Allreduce stalled every step (common_wait.c) */
    armcii_allreduce(v, s, ARMCII_ADAPT_NSUM, MPI_LONG_LONG, MPI_SUM, armcii_state.world);
    long long due = (long long)armcii_state.nproc * armcii_state.cfg.adapt_interval * 1000;
    if (s[ARMCII_ADAPT_BUSY] > 0 || s[ARMCII_ADAPT_T] < due || s[ARMCII_ADAPT_T] <= 0)
        return; /* keep measuring */
    char why[256];
    armcii_adapt_rule_t rule = armcii_adapt_rule(&armcii_state.cfg);
    int cur = armcii_gmr_redirecting();
    int on = armcii_adapt_decide(&rule, cur, &PG.hist, s, &PG.hist, why, sizeof why);
    PG.decisions++;
    log_decision(s, cur, on, why);
    if (on != cur) {
        armcii_gmr_redirect(on);
        PG.switches++;
    }
    start_interval();
}

int armcii_progress_sync(armcii_sync_kind_t kind)
{
    if (armcii_round_live()) { /* ghosts decide; the barrier only parks */
        if (kind == ARMCII_SYNC_BARRIER)
            armcii_gmr_fence_all();
        armcii_round_barrier(kind == ARMCII_SYNC_BARRIER);
        return 1;
    }
    if (!PG.adapt)
        return 0;
    if (kind == ARMCII_SYNC_BARRIER)
        armcii_gmr_fence_all();
    /* ARMCII_SYNC_MSG: msg_barrier checks; any process with unfenced
     * writes vetoes the switch */
    sync_point(kind == ARMCII_SYNC_BARRIER || armcii_gmr_quiescent());
    return 1;
}

void armcii_adapt_phase(int mode)
{
    if (mode >= 0) { /* the user decides until the next -1 */
        set_adapt(0, 0);
        armcii_gmr_phase(mode);
        armcii_round_set_manual(1); /* its setting, for the ghosts */
        start_interval();
        return;
    }
    if (PG.adapt) { /* already automatic */
        armcii_progress_sync(ARMCII_SYNC_BARRIER);
        return;
    }
    /* The library takes over, starting on as ARMCI_GHOST_ASYNC=AUTO does
     * (a computation phase gains from the start; a communication-dense
     * one is switched off at its first decision); a threaded run returns
     * to its one setting. */
    armcii_gmr_phase(armcii_state.threaded ? PG.fixed : -1);
    set_adapt(1, 1);
    start_interval();
}

int armcii_adapt_redirecting(void)
{
    return armcii_gmr_ghost_usable() ? armcii_gmr_redirecting() : -1;
}
