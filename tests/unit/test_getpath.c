/* The choice of a contiguous get's path by cost (src/gmr/gmr_getpath.c,
 * ARMCI_GHOST_PUTGET=AUTO) on synthetic costs, no MPI: each step asks for
 * a path and feeds back what a get on it cost in the scenario.  Checked:
 * it starts with ghosts, moves to the target when gets there cost less and
 * back when they cost more, leaves near-equal costs alone, keeps what the
 * explorations of a dear path cost within its budget, sorts sizes into
 * their classes, and ignores samples of no path. */
#include <math.h>
#include <stdio.h>
#include "../../src/gmr/gmr.h"
#include "unit_check.h"

enum { T = ARMCII_GETPATH_TARGET, G = ARMCII_GETPATH_GHOST };

typedef struct {
    long gets[2];       /* gets sent to each path */
    double cost;        /* what they cost */
    long first_switch;  /* the step of the first switch, -1 none */
} run_t;

static double now; /* the run's clock, seconds: each get advances it */

/* n gets with the two paths costing us[T] and us[G] microseconds, each
 * after gap_us of computing. */
static run_t run_gap(armcii_getpath_t *p, long n, const double us[2], double gap_us)
{
    run_t r = {{0, 0}, 0, -1};
    long sw = p->switches;
    for (long i = 0; i < n; i++) {
        now += gap_us * 1e-6;
        int path = armcii_getpath_choose(p, now);
        now += us[path] * 1e-6;
        CHECK(path == T || path == G, "choose returned %d", path);
        r.gets[path]++;
        r.cost += us[path] * 1e-6;
        armcii_getpath_sample(p, path, us[path] * 1e-6);
        if (r.first_switch < 0 && p->switches != sw)
            r.first_switch = i;
    }
    return r;
}

static run_t run(armcii_getpath_t *p, long n, const double us[2])
{
    return run_gap(p, n, us, 0);
}

int main(void)
{
    armcii_getpath_t p;
    armcii_getpath_init(&p);
    CHECK(p.pref == G && p.tick == 0 && p.n[T] == 0 && p.n[G] == 0,
          "init: preferred %d, tick %lu, samples %ld/%ld; expected ghosts, nothing measured",
          p.pref, p.tick, p.n[T], p.n[G]);

    /* 1. the target answers in 10 us, a ghost in 50: move to the target */
    run_t r = run(&p, 400, (double[2]){10, 50});
    CHECK(p.pref == T, "target 10 us, ghost 50 us: still prefers %s after 400 gets",
          p.pref == G ? "ghosts" : "targets");
    CHECK(r.first_switch >= 0 && r.first_switch < 100,
          "target cheaper: first switch at get %ld, expected within 100", r.first_switch);
    CHECK(r.gets[T] > 300, "target cheaper: only %ld of 400 gets went to the target", r.gets[T]);

    /* 2. the target starts computing (500 us): back to ghosts soon */
    long sw = p.switches;
    r = run(&p, 400, (double[2]){500, 50});
    CHECK(p.pref == G && p.switches == sw + 1,
          "target 500 us, ghost 50 us: prefers %s, %ld switches (expected ghosts, one)",
          p.pref == G ? "ghosts" : "targets", p.switches - sw);
    CHECK(r.first_switch >= 0 && r.first_switch < 40,
          "target dearer: left it at get %ld, expected within 40", r.first_switch);

    /* 3. a dear target explored within the budget: 5% of the run's time,
     * plus the one exploration that may start under it */
    armcii_getpath_init(&p);
    double t_start = now;
    r = run(&p, 20000, (double[2]){2000, 20});
    CHECK(p.pref == G && p.switches == 0, "target 100x dearer: prefers %s after %ld switches",
          p.pref == G ? "ghosts" : "targets", p.switches);
    double explored = r.gets[T] * 2000e-6, all = now - t_start;
    CHECK(explored <= 0.05 * all + 2000e-6,
          "target 100x dearer: explorations cost %.4f s of %.4f s (%ld gets), over 5%%",
          explored, all, r.gets[T]);

    /* 3b. gets between long computations (targets computing: a get to
     * the target waits 10 ms, to a ghost 0.3 ms, 40 ms of work between
     * gets): the budget is the run's time, so the target is tried again
     * now and then; then the targets wait inside MPI (17 us against 81
     * us, no computing): gets move to the target within 200 gets */
    armcii_getpath_init(&p);
    t_start = now;
    r = run_gap(&p, 400, (double[2]){10000, 300}, 40000);
    explored = r.gets[T] * 10000e-6;
    CHECK(p.pref == G && r.gets[T] >= 3 && explored <= 0.05 * (now - t_start) + 10000e-6,
          "targets computing: prefers %s, %ld tries of the target costing %.3f s of %.3f s",
          p.pref == G ? "ghosts" : "targets", r.gets[T], explored, now - t_start);
    r = run(&p, 2400, (double[2]){17, 81});
    CHECK(p.pref == T && r.first_switch >= 0 && r.first_switch < 200,
          "targets waiting in MPI after computing: prefers %s, first switch at get %ld "
          "(expected targets, within 200)", p.pref == G ? "ghosts" : "targets",
          r.first_switch);
    CHECK(r.gets[T] >= 2, "target 100x dearer: tried %ld times in 20000 gets, never again",
          r.gets[T]);

    /* 4. near-equal costs, either way, keep the preference (hysteresis) */
    armcii_getpath_init(&p);
    run(&p, 2000, (double[2]){45, 50});
    CHECK(p.pref == G && p.switches == 0,
          "target 45 us, ghost 50 us: %ld switches, prefers %s (expected none, ghosts)",
          p.switches, p.pref == G ? "ghosts" : "targets");
    run(&p, 2000, (double[2]){10, 50});
    sw = p.switches;
    run(&p, 2000, (double[2]){50, 45});
    CHECK(p.pref == T && p.switches == sw,
          "target 50 us, ghost 45 us after preferring targets: %ld switches, prefers %s",
          p.switches - sw, p.pref == G ? "ghosts" : "targets");

    /* 5. noise: a target whose gets cost 5 us or 3 ms at random moments
     * against a steady ghost at 100 us stays on ghosts */
    armcii_getpath_init(&p);
    unsigned x = 12345;
    long to_target = 0;
    for (long i = 0; i < 20000; i++) {
        int path = armcii_getpath_choose(&p, now);
        x = x * 1103515245u + 12345u;
        double us = path == G ? 100 : ((x >> 16) % 4 == 0 ? 3000 : 5);
        now += us * 1e-6;
        to_target += path == T;
        armcii_getpath_sample(&p, path, us * 1e-6);
    }
    CHECK(to_target < 20000 / 4, "target mean ~750 us against ghost 100 us: %ld of 20000 "
          "gets to the target", to_target);

    /* 6. size classes: up to 64 B, then 4x each, the last unbounded */
    static const struct { size_t len; int cls; } sz[] = {
        {0, 0}, {1, 0}, {64, 0}, {65, 1}, {256, 1}, {257, 2}, {1024, 2}, {4096, 3},
        {16384, 4}, {65536, 5}, {262144, 6}, {262145, 7}, {(size_t)1 << 40, 7}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        CHECK(armcii_getpath_size_class(sz[i].len) == sz[i].cls,
              "size class of %zu bytes: %d, expected %d", sz[i].len,
              armcii_getpath_size_class(sz[i].len), sz[i].cls);

    /* 7. samples of no path, or negative times, change nothing harmful */
    armcii_getpath_init(&p);
    armcii_getpath_sample(&p, 7, 1.0);
    armcii_getpath_sample(&p, -1, 1.0);
    CHECK(p.n[T] == 0 && p.n[G] == 0 && p.spent == 0, "samples of paths 7 and -1 were counted");
    armcii_getpath_sample(&p, G, -1.0);
    CHECK(p.n[G] == 1 && p.mean[G] == 0 && p.spent == 0,
          "a negative sample: mean %g, spent %g (expected 0, 0)", p.mean[G], p.spent);

    if (failures)
        fprintf(stderr, "test_getpath: %d failures\n", failures);
    else
        printf("test_getpath: ok\n");
    return failures ? 1 : 0;
}
