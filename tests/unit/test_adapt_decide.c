/* The automatic redirection rule (src/progress/progress_adapt.c) on
 * synthetic interval sums, no MPI: the thresholds of the model, the ratio
 * clamp, and the measured comparison in communication-dense intervals
 * (first dense interval keeps "on", the second probes "off", the cheaper
 * measured setting wins while fresh, a stale figure is probed again once
 * the last lost probe is paid for, a figure spans its stretch of
 * intervals, and near-equal costs do not flip).  Each step feeds one
 * interval as the library would and applies the returned setting. */
#include <stdio.h>
#include <string.h>
#include "../../src/progress/progress_impl.h"
#include "unit_check.h"
#include "../../src/common/common_config.h"

/* The decision's inputs and memory, as progress_adapt.c keeps them. */
static int cur;
static armcii_adapt_hist_t hist;

/* One interval: T, T_comm, W, C in microseconds and the ghostable calls
 * (a dense interval's cost is T_comm per such call).  Returns the decided
 * setting and applies it; want -1: any. */
static int step(long long t, long long comm, long long w, long long c, long long calls,
                const char *what, int want)
{
    long long s[ARMCII_ADAPT_NSUM] = {0};
    s[ARMCII_ADAPT_T] = t;
    s[ARMCII_ADAPT_COMM] = comm;
    s[ARMCII_ADAPT_WAIT] = w;
    s[ARMCII_ADAPT_CONG] = c;
    s[ARMCII_ADAPT_GCALLS] = calls;
    char why[256];
    armcii_adapt_rule_t rule = armcii_adapt_rule(&armcii_state.cfg);
    armcii_adapt_hist_t before = hist, out;
    int on = armcii_adapt_decide(&rule, cur, &hist, s, &out, why, sizeof why);
    FAILIF(want >= 0 && on != want, "%s: from %s decided %s, expected %s (%s)", what,
           cur ? "on" : "off", on ? "on" : "off", want ? "on" : "off", why);
    /* pure: the input history is untouched, the same inputs decide the same */
    FAILIF(memcmp(&before, &hist, sizeof hist) != 0, "%s: decide wrote its input", what);
    armcii_adapt_hist_t again;
    char why2[256];
    FAILIF(armcii_adapt_decide(&rule, cur, &hist, s, &again, why2, sizeof why2) != on ||
               memcmp(&again, &out, sizeof out) != 0 || strcmp(why, why2) != 0,
           "%s: the same inputs decided differently", what);
    hist = out;
    cur = on;
    return on;
}

static const char *no_env(const char *name)
{
    (void)name;
    return NULL; /* the defaults, whatever the test's environment says */
}

static void reset(int redirect)
{
    cur = redirect;
    hist = (armcii_adapt_hist_t){.dense_at = {-1, -1}};
}

int main(void)
{
    char err[256];
    if (armcii_config_parse(&armcii_state.cfg, no_env, NULL, NULL, err, sizeof err)) {
        fprintf(stderr, "test_adapt_decide: default configuration rejected: %s\n", err);
        return 1;
    }
    armcii_config_t *c = &armcii_state.cfg;
    FAILIF(c->adapt_cr_low != 50 || c->adapt_cr_high != 80 || c->adapt_reprobe != 8,
           "defaults changed: CR_LOW %d CR_HIGH %d REPROBE %d (this test assumes 50/80/8)",
           c->adapt_cr_low, c->adapt_cr_high, c->adapt_reprobe);

    /* The model (alone: ARMCI_ADAPT_REPROBE=0). */
    c->adapt_reprobe = 0;
    reset(0);
    step(100000, 40000, 30000, 0, 100, "computing, waiting on targets", 1);
    step(100000, 10000, 0, 1000, 100, "computing, ghost keeps up", 1);
    step(100000, 60000, 0, 30000, 100, "ghost congested, CR 60%", 0);
    step(100000, 60000, 2000, 0, 100, "off, little waiting", 0);
    /* Rounding: T_comm 3 us above T must read as 100%, not above a
     * threshold of 100% (the off->on test would never hold). */
    c->adapt_cr_low = 100;
    c->adapt_wait_on = 0;
    reset(0);
    c->adapt_reprobe = 0; /* model only */
    step(100000, 100003, 100000, 0, 10, "off, all in calls, CR_LOW 100", 1);
    c->adapt_cr_low = 50;
    c->adapt_wait_on = 10;

    /* Dense intervals: ghost path 250 us a call, direct 1400. */
    c->adapt_reprobe = 8;
    reset(1);
    step(100000, 99000, 0, 70000, 400, "first dense interval", 1);
    step(100000, 99000, 0, 70000, 400, "second dense interval probes off", 0);
    step(100000, 99900, 99000, 0, 70, "off measured 1400 us > 250 us", 1);
    for (int i = 0; i < 6; i++)
        step(100000, 99000, 0, 70000, 400, "on while off's figure is fresh", 1);
    step(100000, 10000, 30000, 0, 100, "a computing interval between", 1);
    /* CR 60% > CR_LOW: measured, not the congestion rule (off's figure
     * 7 dense old: on stays; counts as a dense interval) */
    step(100000, 60000, 0, 30000, 100, "CR 60%, congested, off's figure fresh", 1);
    /* The probe lost: the next one comes after 16 dense intervals
     * (backoff 1) and once dense time at "on" paid for it: it lost
     * 1 - 247.5/1427 = 82.7% of a 100 ms interval, which PROBE_BUDGET (3%)
     * spreads over 2.76 s of dense time: the 29th dense interval after the
     * judging one probes. */
    FAILIF(hist.backoff != 1, "a lost probe: backoff %d, expected 1", hist.backoff);
    FAILIF(hist.debt < 2.00e6 || hist.debt > 2.10e6, "a probe lost by 82.7%% of 100 ms, 7 "
           "dense intervals since: %.0f us of dense time owed, expected 2.06e6", hist.debt);
    for (int i = 8; i < 29; i++)
        step(100000, 99000, 0, 70000, 400, "off's figure 8-28 dense old: backed off, owed", 1);
    step(100000, 99000, 0, 70000, 400, "off's figure 29 dense old, paid: probe", 0);
    step(100000, 99900, 99000, 0, 70, "off lost again: 1400 us > 250 us", 1);
    FAILIF(hist.backoff != 2, "two lost probes: backoff %d, expected 2", hist.backoff);

    /* Off cheaper (direct 100 us, ghost 250 us): stays off. */
    reset(1);
    step(100000, 99000, 0, 70000, 400, "first dense", 1);
    step(100000, 99000, 0, 70000, 400, "probe off", 0);
    step(100000, 99000, 1000, 0, 990, "off measured 100 us < 250 us", 0);
    step(100000, 99000, 1000, 0, 990, "off stays", 0);
    FAILIF(hist.backoff != 0, "a probe that won: backoff %d, expected 0", hist.backoff);

    /* From off without a figure for on: the second dense interval probes
     * on (the model alone would stay off for good); on measured cheaper
     * stays. */
    reset(0);
    step(100000, 99000, 1000, 0, 990, "off, first dense", 0);
    step(100000, 99000, 1000, 0, 990, "off, second dense probes on", 1);
    step(100000, 99000, 0, 70000, 400, "on measured 248 us/call > off 100 us/call: back off", 0);

    /* A stretch's figure spans its intervals: one interval that a step's
     * barrier stalled (120 calls in 99 ms, 825 us a call) among intervals
     * at 25 us a call does not make "on" (247.5) look cheaper. */
    reset(1);
    step(100000, 99000, 0, 70000, 400, "first dense at 247.5 us", 1);
    step(100000, 99000, 0, 70000, 400, "probe off", 0);
    step(100000, 99000, 90000, 0, 4000, "off measured 25 us < 247.5 us", 0);
    step(100000, 99000, 90000, 0, 4000, "off stays", 0);
    step(100000, 99000, 50000, 0, 120, "a stalled interval at 825 us a call", 0);
    step(100000, 99000, 90000, 0, 4000, "off again", 0);
    FAILIF(hist.dense_cost[0] > 50.0, "off's figure after a stall: %.1f us a call, expected "
           "under 50", hist.dense_cost[0]);
    /* ... while a stretch that really became dearer changes its figure
     * within a few intervals: the earlier ones weigh 3/4 per interval, but
     * by their calls, so 4000-call intervals fade slowly against 100-call
     * ones; the stale figure of "on" is probed first, after 8 dense
     * intervals at "off" */
    int k = 0;
    while (cur == 0 && k < 12) {
        step(100000, 99000, 90000, 0, 100, "off now at 990 us a call", -1);
        k++;
    }
    FAILIF(cur != 1 || k > 4, "off at 990 us a call against on at 247.5: %s after %d "
           "intervals, expected on within 4 (off's figure %.1f us a call)",
           cur ? "on" : "still off", k, hist.dense_cost[0]);

    /* Near-equal (5% apart): the current setting is kept either way. */
    reset(1);
    step(100000, 99000, 0, 10000, 1000, "first dense, 99 us", 1);
    step(100000, 99000, 0, 10000, 1000, "probe off", 0);
    step(100000, 99000, 1000, 0, 950, "off 104 us vs on 99 us", 0);

    /* ARMCI_ADAPT_REPROBE=0: the model alone (dense -> off, stays off). */
    c->adapt_reprobe = 0;
    reset(1);
    step(100000, 99000, 0, 70000, 400, "model only: dense", 0);
    step(100000, 99900, 99000, 0, 70, "model only: off stays off", 0);

    if (failures)
        fprintf(stderr, "FAIL test_adapt_decide: %d check(s) failed\n", failures);
    else
        printf("PASS test_adapt_decide\n");
    return failures != 0;
}
