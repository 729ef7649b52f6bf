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
 * target goes through its one ghost, from any origin including same-node
 * ones and the target itself, so MPI's per-target atomicity and ordering
 * hold; the region is never all_local, so no CPU accumulate path runs on
 * it.  Both paths stay valid for the region's life: redirection is switched
 * only where every operation is complete (armcii_gmr_phase).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../ghost/ghost.h"


typedef struct {
    armcii_ghost_slice_t mine; /* my slice (ptr NULL: empty) */
    size_t size;
    long *where;               /* by group rank: {ghost in pworld, pool, displacement} */
    armcii_ghost_poolset_t pools; /* the pools holding the region's slices (fences) */
} ghost_region_t;

enum { W_GHOST, W_POOL, W_DISP, W_N };

void armcii_gmr_ghost_init(void)
{
    armcii_ghost_info_t gi = armcii_ghost_info();
    if (!gi.ghosts_on)
        return;
    armcii_log(1, "ghosts: %d per node, %d users per node, bound ghost %d; redirection "
               "%s (ARMCI_GHOST_ASYNC); first pool %zu KiB per user", gi.ghosts_per_node,
               gi.users_per_node, gi.my_ghost,
               armcii_config_choice("ARMCI_GHOST_ASYNC", armcii_state.cfg.ghost_async),
               gi.first_part >> 10);
}

void armcii_gmr_ghost_finalize(void) {}

int armcii_gmr_ghost_usable(void) { return armcii_ghost_info().ghosts_on; }

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
    g->ghost_rw = on && (g->ghost_classes & (1u << ARMCII_OP_PUT | 1u << ARMCII_OP_GET));
}

static int async_wanted(const armcii_gmr_t *g)
{
    if (!armcii_ghost_info().ghosts_on)
        return 0;
    int on = armcii_gmr_state.async_hint >= 0 ? armcii_gmr_state.async_hint
                                : armcii_state.cfg.ghost_async != ARMCII_ASYNC_OFF;
    int node0 = armcii_node_of(g->abs_of[0]), spans = 0;
    for (int r = 1; r < g->size && !spans; r++)
        spans = armcii_node_of(g->abs_of[r]) != node0;
    return on && spans; /* within one node the direct path needs no ghost */
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

void armcii_gmr_ghost_created(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    g->ghost_async = 0;
    if (!pr)
        return;
    pr->where = malloc((size_t)g->size * W_N * sizeof(long));
    if (!pr->where)
        armcii_error("ARMCI_Malloc", "out of memory");
    long mine[W_N] = {armcii_ghost_info().my_ghost, pr->size ? pr->mine.pool : 0, (long)pr->mine.gdisp};
    armcii_allgather(mine, W_N, MPI_LONG, pr->where, g->comm);
    for (int r = 0; r < g->size; r++)
        pr->pools |= (armcii_ghost_poolset_t)1 << pr->where[r * W_N + W_POOL];
    int osc = armcii_win_component(g->win);
    g->ghost_classes = armcii_gmr_software_classes(osc);
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
                ARMCII_MPI(MPI_Win_flush(ghost, armcii_ghost_pool_win(i)));
        }
}

void armcii_gmr_ghost_freed(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    if (!pr)
        return;
    /* Nobody may touch the slices through either path after the barrier;
     * then my slice can go back to my partition (a window created later
     * over the same bytes is legal once this one is unused). */
    armcii_gmr_flush_all(g->win, g->flush_each);
    flush_pools(pr, -1, -1);
    armcii_barrier(g->comm);
    if (pr->size)
        armcii_ghost_pool_free(&pr->mine, pr->size);
    free(pr->where);
    free(pr);
    g->ghost = NULL;
    set_async(g, 0);
}

void armcii_gmr_ghost_redirect(armcii_opclass_t cls, armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    if (!g->ghost_async || !(g->ghost_classes & 1u << cls))
        return;
    const long *w = ((ghost_region_t *)g->ghost)->where + (size_t)t->grank * W_N;
    t->win = armcii_ghost_pool_win((int)w[W_POOL]);
    t->rank = (int)w[W_GHOST];
    t->disp = (MPI_Aint)w[W_DISP] + (t->disp - g->disp_hdr);
    t->direct = NULL;
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
    if (grank < 0)
        flush_pools(pr, -1, -1);
    else
        flush_pools(pr, (int)pr->where[grank * W_N + W_GHOST],
                    (int)pr->where[grank * W_N + W_POOL]);
}
