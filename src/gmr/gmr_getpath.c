/*
 * Where a contiguous get goes while redirection is on, by measured cost
 * (ARMCI_GHOST_PUTGET=AUTO in the ghost build): to the target's ghost or
 * to the target itself.
 *
 * Why measured: on an MPI that needs the target's software for gets
 * (MPICH), a target that waits inside MPI answers at once while a ghost
 * sharing a core must first be scheduled (NWChem's TCE: gets to the target
 * took 0.88x), and a target that computes answers only when it next enters
 * MPI while its ghost answers at once (localize-pm-aa: 2.07x)
 * (benchmarks/results/ghost_putget.mpich.2core.txt).  Which case holds
 * changes with the phase and is seen only by timing the gets, and it may
 * differ with the size (a ghost copies the data once more), so each size
 * class (armcii_getpath_size_class) keeps its own choice.
 *
 * The rule, per process (reads take either path safely: a read first
 * completes this process's writes to its target on both paths,
 * armcii_gmr_order_read): gets go to the preferred path; every
 * EXPLORE_EVERY-th goes to the other one while what the explorations took
 * stays within EXPLORE_BUDGET of the time since the first get, so a path
 * that costs 50x the other is tried rarely and the tries cost at most that
 * share of the run.  Of the run, not of the gets' time: where gets are few
 * and targets compute (bench_multiphase's comp phase under MPICH, where a
 * get to the target waited 7-20 ms for it against 0.2-0.4 ms through a
 * ghost) one try would exceed a budget of the gets' time for thousands of
 * gets, and the next phase, where the target answered in 17 us against
 * 81 us (its read phase), would run on ghosts.  Each path keeps a decaying
 * mean of what its gets cost, from issue to completion, with a shorter
 * memory for the explored path, whose few samples must speak for now; the
 * other path becomes the preferred one once its mean is below SWITCH_GAIN
 * of the preferred one's.  A preferred path whose cost grows is left once
 * its mean passes the other's last figure by a quarter: a stale figure is
 * only an invitation to measure that path again.
 * No MPI here: the unit test drives it with synthetic costs.
 */
#include "gmr.h"

#define EXPLORE_EVERY 16
#define EXPLORE_BUDGET 0.05
#define SWITCH_GAIN 0.8
#define MIN_SAMPLES 4
#define ALPHA_PREF (1.0 / 32)
#define ALPHA_OTHER (1.0 / 2)

int armcii_getpath_size_class(size_t len)
{
    int c = 0;
    for (size_t lim = 64; len > lim && c < ARMCII_GETPATH_SIZES - 1; lim *= 4)
        c++;
    return c;
}

void armcii_getpath_init(armcii_getpath_t *p)
{
    *p = (armcii_getpath_t){.pref = ARMCII_GETPATH_GHOST};
}

int armcii_getpath_choose(armcii_getpath_t *p, double now)
{
    if (p->tick++ == 0)
        p->t0 = now;
    if (p->tick % EXPLORE_EVERY == 0 && p->explored <= EXPLORE_BUDGET * (now - p->t0))
        return !p->pref;
    return p->pref;
}

void armcii_getpath_sample(armcii_getpath_t *p, int path, double secs)
{
    if (path != ARMCII_GETPATH_TARGET && path != ARMCII_GETPATH_GHOST)
        return;
    if (secs < 0)
        secs = 0;
    p->spent += secs;
    if (path != p->pref)
        p->explored += secs;
    long n = ++p->n[path];
    double a = path == p->pref ? ALPHA_PREF : ALPHA_OTHER;
    if (1.0 / (double)n > a)
        a = 1.0 / (double)n;
    p->mean[path] += a * (secs - p->mean[path]);
    int other = !p->pref;
    if (p->n[other] >= MIN_SAMPLES && p->mean[other] < SWITCH_GAIN * p->mean[p->pref]) {
        p->pref = other;
        p->switches++;
    }
}
