/*
 * Ghost backend, user side: region memory the ghosts can reach, and the
 * redirection of software-handled operations.
 *
 * Memory.  A region that spans nodes and has redirection wanted gets each
 * user's slice carved out of that user's partition of a ghost pool
 * (src/ghost/ghost_pool.c): the bound ghost already exposes the partition
 * in the pool's window, so allocation involves no ghost and no limit on
 * the number of regions.  When some user's partitions are full, an
 * allocation over all users grows the pools (collectively, ghosts too);
 * an allocation over a smaller group cannot, and its region then stays on
 * the direct path (warned once; raise ARMCI_GHOST_POOL_SIZE).  The users'
 * own window is MPI_Win_create over the same memory (created by gmr), so
 * classes the transport does in hardware go to the target directly and only
 * the software-handled ones go to (ghost, pool window, displacement).
 *
 * Atomicity: on such a region EVERY operation of a redirected class to a
 * target goes through its one ghost, so MPI's per-target atomicity and
 * ordering hold.  Where the ghost carries accumulates and RMW out itself
 * from messages (ARMCI_GHOST_AM), it applies them with the CPU: RMW as
 * CPU atomics, accumulates under the target partition's lock word; the
 * origins that map the target (its node's users, the target itself) then
 * do exactly that themselves, without a message, and both kinds stay
 * atomic together.  Both paths stay valid for the region's life:
 * redirection is switched only where every operation is complete
 * (armcii_gmr_phase).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../ghost/ghost.h"
#include "../common/common_config.h"
#include "../common/common_quirks.h"
#include "../common/common_topo.h"
#include "../common/common_wait.h"


typedef struct {
    armcii_ghost_slice_t mine; /* my slice (ptr NULL: empty) */
    size_t size;
    long *where;               /* by group rank: W_N longs (W_*) */
    armcii_ghost_poolset_t pools; /* the pools holding the region's slices (fences) */
} ghost_region_t;

/* a slice's ghost (in pworld), pool, displacement in the pool's window and
 * offset in its partition */
enum { W_GHOST, W_POOL, W_DISP, W_OFF, W_N };

void armcii_gmr_ghost_init(void)
{
    armcii_ghost_info_t gi = armcii_ghost_info();
    if (!gi.ghosts_on)
        return;
    /* Every process must take the same path to a target (atomicity): the
     * messages only if everyone asks for them. */
    static const int level[] = {[ARMCII_GHOST_AM_ON] = ARMCII_AMLEVEL_MSG,
                                [ARMCII_GHOST_AM_OFF] = ARMCII_AMLEVEL_RMA,
                                [ARMCII_GHOST_AM_ALL] = ARMCII_AMLEVEL_ALL};
    int am = level[armcii_state.cfg.ghost_am];
    int dflt = !armcii_config_from_env(&armcii_state.cfg, "ARMCI_GHOST_ASYNC");
    if (dflt) /* before the progress engine reads it (armcii_adapt_init) */
        armcii_gmr_state.async_setting = gi.async_default;
    armcii_allreduce(&am, &armcii_gmr_state.ghost_am, 1, MPI_INT, MPI_MIN, armcii_state.world);
    /* Where targets wait inside MPI (NWChem's TCE, for its task counter) a
     * get answered by the target beats one a ghost must be scheduled for
     * on a crowded host; where they compute the ghost wins
     * (benchmarks/results/ghost_putget.mpich.2core.txt). */
    static const int pg_level[] = {[ARMCII_GHOST_PUTGET_ON] = ARMCII_PUTGET_GHOSTS,
                                   [ARMCII_GHOST_PUTGET_OFF] = ARMCII_PUTGET_TARGET,
                                   [ARMCII_GHOST_PUTGET_AUTO] = ARMCII_PUTGET_BY_COST};
    int pg = pg_level[armcii_state.cfg.ghost_putget];
    armcii_allreduce(&pg, &armcii_gmr_state.ghost_putget, 1, MPI_INT, MPI_MIN,
                     armcii_state.world);
    for (int c = 0; c < ARMCII_GETPATH_SIZES; c++)
        armcii_getpath_init(&armcii_gmr_state.getpath[c]);
    armcii_log(1, "ghosts: %d per node, %d users per node, bound ghost %d; redirection "
               "%s (ARMCI_GHOST_ASYNC%s); first pool %zu KiB per user; accumulates and RMW "
               "%s (ARMCI_GHOST_AM); contiguous puts and gets the MPI leaves to the target "
               "%s (ARMCI_GHOST_PUTGET)", gi.ghosts_per_node, gi.users_per_node, gi.my_ghost,
               armcii_config_choice("ARMCI_GHOST_ASYNC", armcii_gmr_state.async_setting),
               !dflt ? ""
               : gi.async_default == ARMCII_ASYNC_AUTO
                   ? " unset: a host has more processes than CPUs and MPI spins in its waits"
                   : " unset",
               gi.first_part >> 10,
               armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_ALL
                   ? "(and puts, gets) applied by ghosts from messages"
               : armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_MSG
                   ? "applied by ghosts from messages"
                   : "through MPI RMA on the ghosts' windows",
               armcii_gmr_state.ghost_putget == ARMCII_PUTGET_GHOSTS ? "to ghosts"
               : armcii_gmr_state.ghost_putget == ARMCII_PUTGET_BY_COST
                   ? "puts to ghosts, gets where they cost less"
                   : "to the target");
}

/* ARMCI_VERBOSE: where each size class's gets went (ARMCI_GHOST_PUTGET=AUTO). */
static void log_getpaths(void)
{
    for (int c = 0; c < ARMCII_GETPATH_SIZES; c++) {
        const armcii_getpath_t *p = &armcii_gmr_state.getpath[c];
        if (p->tick)
            armcii_log(1, "gets by cost (ARMCI_GHOST_PUTGET=AUTO), up to %s: %ld measured "
                       "to the target (mean %.1f us), %ld to ghosts (mean %.1f us), %ld "
                       "switches, ending with %s",
                       (const char *[]){"64 B", "256 B", "1 KiB", "4 KiB", "16 KiB", "64 KiB",
                                        "256 KiB", "any size"}[c],
                       p->n[ARMCII_GETPATH_TARGET], 1e6 * p->mean[ARMCII_GETPATH_TARGET],
                       p->n[ARMCII_GETPATH_GHOST], 1e6 * p->mean[ARMCII_GETPATH_GHOST],
                       p->switches, p->pref == ARMCII_GETPATH_GHOST ? "ghosts" : "targets");
    }
}

void armcii_gmr_ghost_finalize(void)
{
    if (!armcii_ghost_info().ghosts_on)
        return;
    armcii_ghost_am_fence(-1);
    if (armcii_gmr_state.ghost_putget == ARMCII_PUTGET_BY_COST)
        log_getpaths();
}

int armcii_gmr_ghost_usable(void) { return armcii_ghost_info().ghosts_on; }

int armcii_gmr_ghost_putget(void)
{
    return armcii_gmr_ghost_usable() ? armcii_gmr_state.ghost_putget : ARMCII_PUTGET_TARGET;
}

void armcii_gmr_getpath_sample(int getpath, double secs)
{
    int c = (getpath - 1) / 2;
    if (getpath < 1 || c >= ARMCII_GETPATH_SIZES)
        return;
    armcii_lock(&armcii_gmr_state.prof_lock);
    armcii_getpath_sample(&armcii_gmr_state.getpath[c], (getpath - 1) % 2, secs);
    armcii_unlock(&armcii_gmr_state.prof_lock);
}

armcii_getpath_t armcii_gmr_getpath_stats(int cls)
{
    armcii_getpath_t s = {0};
    armcii_lock(&armcii_gmr_state.prof_lock);
    for (int c = 0; c < ARMCII_GETPATH_SIZES; c++) {
        const armcii_getpath_t *p = &armcii_gmr_state.getpath[c];
        if (c == cls)
            s = *p;
        if (cls >= 0)
            continue;
        s.tick += p->tick;
        s.switches += p->switches;
        s.spent += p->spent;
        s.explored += p->explored;
        for (int k = 0; k < 2; k++)
            s.n[k] += p->n[k];
    }
    armcii_unlock(&armcii_gmr_state.prof_lock);
    return s;
}

/* ARMCI_GHOST_PUTGET=AUTO: whether this get of len bytes goes to the
 * target's ghost, chosen by cost for its size (gmr_getpath.c) and marked
 * for its sample. */
static int get_to_ghost(armcii_target_t *t, size_t len)
{
    int c = armcii_getpath_size_class(len);
    double now = MPI_Wtime();
    armcii_lock(&armcii_gmr_state.prof_lock);
    int path = armcii_getpath_choose(&armcii_gmr_state.getpath[c], now);
    armcii_unlock(&armcii_gmr_state.prof_lock);
    t->getpath = 1 + path + 2 * c;
    return path == ARMCII_GETPATH_GHOST;
}

unsigned armcii_gmr_ghost_classes(int osc)
{
    unsigned c = armcii_gmr_software_classes(osc);
    if (armcii_gmr_ghost_usable() && armcii_gmr_state.ghost_putget == ARMCII_PUTGET_TARGET)
        c &= ~(1u << ARMCII_OP_PUT | 1u << ARMCII_OP_GET);
    return c;
}

int armcii_gmr_ghost_pools(void)
{
    armcii_ghost_info_t gi = armcii_ghost_info();
    return gi.ghosts_on ? gi.npools : 0;
}

/* Redirection of g on or off; contiguous put/get to ghosts close the fast
 * path (gmr_xfer.c), which never translates. */
static void set_async(armcii_gmr_t *g, int on)
{
    on = on != 0;
    if (on != g->ghost_async) { /* my ghost naps while none of my regions uses it */
        int n = __atomic_add_fetch(&armcii_gmr_state.ghost_async_regions, on ? 1 : -1,
                                   __ATOMIC_ACQ_REL);
        /* threaded runs: two threads' messages could cross, so busy stays */
        if (n == (on ? 1 : 0) && (on || !armcii_state.threaded))
            armcii_ghost_set_busy(on);
    }
    g->ghost_async = on;
    g->ghost_rw = on && ((g->ghost_classes & (1u << ARMCII_OP_PUT | 1u << ARMCII_OP_GET)) ||
                         armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_ALL);
}

/* Ghosts exist and the hint (else ARMCI_GHOST_ASYNC) asks for them. */
static int hint_wants(void)
{
    if (!armcii_ghost_info().ghosts_on)
        return 0;
    return armcii_gmr_state.async_hint >= 0 ? armcii_gmr_state.async_hint != 0
                                            : armcii_gmr_state.async_setting != ARMCII_ASYNC_OFF;
}

static int async_wanted(const armcii_gmr_t *g)
{
    int node0 = armcii_node_of(g->abs_of[0]), spans = 0;
    for (int r = 1; r < g->size && !spans; r++)
        spans = armcii_node_of(g->abs_of[r]) != node0;
    return hint_wants() && spans; /* within one node the direct path needs no ghost */
}

int armcii_gmr_ghost_wanted(MPI_Comm comm)
{
    (void)comm; /* world allocations only: they span every node */
    return hint_wants() && armcii_state.nnodes > 1;
}

/* Collective over g->comm: every member's slice carved (1), or none (0). */
static int carve_slices(armcii_gmr_t *g, ghost_region_t *pr)
{
    int ok = !pr->size || armcii_ghost_pool_alloc(pr->size, &pr->mine) == 0, all;
    armcii_allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, g->comm);
    if (all)
        return 1;
    if (g->size == armcii_state.nproc && armcii_ghost_info().npools < ARMCII_GHOST_MAX_POOLS) {
        /* Every user is here, in the same order: grow the pools with the
         * ghosts, so that the largest unmet slice fits. */
        unsigned long need = ok ? 0 : pr->size;
        armcii_allreduce(MPI_IN_PLACE, &need, 1, MPI_UNSIGNED_LONG, MPI_MAX, g->comm);
        armcii_ghost_pool_grow(need);
        if (!ok && armcii_ghost_pool_alloc(pr->size, &pr->mine))
            armcii_error("ARMCI_Malloc", "a new ghost pool cannot hold %zu bytes", pr->size);
        return 1;
    }
    if (ok && pr->size)
        armcii_ghost_pool_free(&pr->mine, pr->size);
    /* A group cannot grow the pools (every user and ghost must join), and
     * the pool table may be full: the region keeps the direct path. */
    armcii_warn_once("an allocation found the ghost pools full; its region is not "
                     "redirected to ghosts (raise ARMCI_GHOST_POOL_SIZE)");
    return 0;
}

int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem)
{
    int want = async_wanted(g), all;
    armcii_allreduce(&want, &all, 1, MPI_INT, MPI_MIN, g->comm);
    if (!all)
        return 0;
    ghost_region_t *pr = calloc(1, sizeof *pr);
    if (!pr)
        armcii_error("ARMCI_Malloc", "out of memory");
    pr->size = size;
    if (!carve_slices(g, pr)) {
        free(pr);
        return 0;
    }
    g->ghost = pr;
    *mem = pr->mine.ptr;
    return 1;
}

/* Collective over g->comm: where every member's slice of pr lies. */
static void gather_where(const armcii_gmr_t *g, ghost_region_t *pr)
{
    pr->where = malloc((size_t)g->size * W_N * sizeof(long));
    if (!pr->where)
        armcii_error("ARMCI_Malloc", "out of memory");
    long mine[W_N] = {armcii_ghost_info().my_ghost, pr->size ? pr->mine.pool : 0,
                      (long)pr->mine.gdisp, pr->size ? (long)pr->mine.off : 0};
    armcii_allgather(mine, W_N, MPI_LONG, pr->where, g->comm);
}

void armcii_gmr_ghost_place(armcii_gmr_t *g, const armcii_gmr_t *host, size_t off)
{
    ghost_region_t *hp = host->ghost;
    if (!hp)
        return;
    if (!hp->where) /* the slab's first place */
        gather_where(host, hp);
    /* size 0: the place's memory is the slab's, which returns it to the
     * pools when the slab goes (armcii_gmr_ghost_release) */
    ghost_region_t *pr = calloc(1, sizeof *pr);
    size_t n = (size_t)host->size * W_N;
    if (!pr || !(pr->where = malloc(n * sizeof(long))))
        armcii_error("ARMCI_Malloc", "out of memory");
    memcpy(pr->where, hp->where, n * sizeof(long));
    for (int r = 0; r < host->size; r++) {
        pr->where[(size_t)r * W_N + W_DISP] += (long)off;
        pr->where[(size_t)r * W_N + W_OFF] += (long)off;
    }
    g->ghost = pr;
}

void armcii_gmr_ghost_created(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    g->ghost_async = 0;
    if (!pr)
        return;
    if (!pr->where) /* new (a region reused from gmr_recycle.c has its slices) */
        gather_where(g, pr);
    pr->pools = 0;
    for (int r = 0; r < g->size; r++) {
        const long *w = pr->where + (size_t)r * W_N;
        pr->pools |= (armcii_ghost_poolset_t)1 << w[W_POOL];
        /* node-local path: the slices of the users of my (virtual) node */
        char *part = armcii_gmr_state.direct && g->slice[r].size
                         ? armcii_ghost_peer_partition((int)w[W_POOL], g->abs_of[r]) : NULL;
        if (!part)
            continue;
        if (r != g->rank)
            g->slice[r].direct = part + w[W_OFF];
        g->slice[r].acc_lock = (int *)part; /* the partition's lock word */
    }
    int osc = armcii_win_component(g->win);
    g->ghost_classes = armcii_gmr_ghost_classes(osc);
    set_async(g, armcii_gmr_state.phase != 0);
    char names[64];
    armcii_gmr_class_names(g->ghost_classes, names, sizeof names);
    if (!(armcii_gmr_state.ghost_logged_osc & 1u << osc)) { /* once per component */
        armcii_gmr_state.ghost_logged_osc |= 1u << osc;
        armcii_log(1, "ghosts: %s windows: classes served by ghosts: %s (per class: "
                   "gmr_class.c, armcii_gmr_software_classes)", armcii_osc_name(osc), names);
    }
    armcii_log(2, "region of %d ranks (%s): %s go to ghosts", g->size, armcii_osc_name(osc),
               names);
}

/* Flush what went to g's slices through the pools (grank < 0: to all). */
static void flush_pools(const ghost_region_t *pr, int ghost, int pool)
{
    /* the region's pools all exist: pr->pools never names a pool past npools */
    for (int i = 0; i < ARMCII_GHOST_MAX_POOLS; i++)
        if (pool < 0 ? (pr->pools >> i & 1) : i == pool) {
            if (ghost < 0)
                armcii_gmr_flush_all(armcii_ghost_pool_win(i), -1);
            else
                ARMCII_MPIOP(ARMCII_MPIOP_FLUSH,
                             ARMCII_MPI(MPI_Win_flush(ghost, armcii_ghost_pool_win(i))));
        }
}

void armcii_gmr_ghost_freed(armcii_gmr_t *g)
{
    /* the caller completed my writes on both paths (armcii_gmr_fence_region)
     * and ends with a barrier; the region may be kept (gmr_recycle.c) */
    if (g->ghost)
        set_async(g, 0);
}

void armcii_gmr_ghost_release(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    if (!pr)
        return;
    /* my slice goes back to my partition (a window created later over the
     * same bytes is legal once this one is freed) */
    if (pr->size)
        armcii_ghost_pool_free(&pr->mine, pr->size);
    free(pr->where);
    free(pr);
    g->ghost = NULL;
}

/* Contiguous puts up to this size travel to ghosts as messages with
 * ARMCI_GHOST_AM=ALL where the transport needs no target for them: the
 * message returns at once (buffered), while larger ones and every
 * contiguous get go faster through RMA (ga_patch, 2 virtual nodes, Open MPI
 * 4.1 osc/rdma: benchmarks/results/ghost_am.2core.txt). */
#define AM_PUT_MAX 2048

/* Whether ghosts carry out an operation from a message (ARMCI_GHOST_AM):
 * accumulates and RMW; with ALL also every class the transport leaves to
 * the target's software, and, where it moves put/get data by itself, the
 * strided and vector transfers (one message instead of an operation per
 * block) and small puts.  With ALL nothing reaches a ghost through RMA:
 * messages alone order what goes to it (armcii_gmr_order_read). */
static int by_message(const armcii_gmr_t *g, armcii_opclass_t cls, size_t len)
{
    int am = armcii_gmr_state.ghost_am;
    if (cls == ARMCII_OP_ACC || cls == ARMCII_OP_RMW)
        return am >= ARMCII_AMLEVEL_MSG;
    if (am < ARMCII_AMLEVEL_ALL)
        return 0;
    return (g->ghost_classes & 1u << cls) || cls == ARMCII_OP_NONCONTIG ||
           (cls == ARMCII_OP_PUT && len <= AM_PUT_MAX);
}

void armcii_gmr_ghost_redirect(armcii_opclass_t cls, size_t len, armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    if (!g->ghost_async)
        return;
    int msg = by_message(g, cls, len);
    if (!msg &&
        (armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_ALL || !(g->ghost_classes & 1u << cls)))
        return; /* with ALL, what is not a message goes to the target itself */
    if (cls == ARMCII_OP_GET && armcii_gmr_state.ghost_putget == ARMCII_PUTGET_BY_COST &&
        !get_to_ghost(t, len))
        return;
    if (msg && (cls == ARMCII_OP_RMW || cls == ARMCII_OP_ACC) && t->direct &&
        g->slice[t->grank].acc_lock) {
        /* Ghosts apply RMW with CPU atomics and accumulates with the CPU
         * under the target partition's lock, on memory this process maps
         * too: a node-mate's (or my own) operation is the same, done here
         * without a message (NWChem's shared task counter: half of all RMW
         * over 2 virtual nodes of 2), and no fence is then needed before
         * reading what it wrote. */
        t->all_local = 1;
        return;
    }
    const long *w = ((ghost_region_t *)g->ghost)->where + (size_t)t->grank * W_N;
    t->win = armcii_ghost_pool_win((int)w[W_POOL]);
    t->rank = (int)w[W_GHOST];
    t->disp = (MPI_Aint)w[W_DISP] + (t->disp - g->disp_hdr);
    t->direct = NULL;
    if (msg) {
        t->am = 1;
        t->am_pool = (int)w[W_POOL];
    }
    __atomic_add_fetch(&armcii_gmr_state.redirected, 1, __ATOMIC_RELAXED);
}

/* Both paths stay valid for a ghost-reachable region's life: switching only
 * flips the flag translation reads; ordering is the caller's barrier. */
void armcii_gmr_ghost_switch(int on)
{
    for (armcii_gmr_t *g = armcii_gmr_state.regions; g; g = g->next)
        if (g->ghost && ((ghost_region_t *)g->ghost)->where)
            set_async(g, on);
}

void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank)
{
    ghost_region_t *pr = g->ghost;
    if (!pr || !pr->where) /* not ghost-reachable: nothing can be pending there */
        return;
    if (armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_ALL) {
        /* with ARMCI_GHOST_AM=ALL nothing reaches a ghost's window by RMA */
    } else if (grank < 0) {
        flush_pools(pr, -1, -1);
    } else {
        flush_pools(pr, (int)pr->where[grank * W_N + W_GHOST],
                    (int)pr->where[grank * W_N + W_POOL]);
    }
    double t0 = armcii_gmr_mpiop_begin(); /* counted where a ghost was asked */
    if (armcii_ghost_am_fence(grank < 0 ? -1 : (int)pr->where[grank * W_N + W_GHOST]))
        armcii_gmr_mpiop_end(ARMCII_MPIOP_MSG_FENCE, t0);
}
