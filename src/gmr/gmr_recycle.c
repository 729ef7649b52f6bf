/*
 * Freed regions kept for reuse.
 *
 * A region's windows come with fresh memory: the first touch of each page
 * faults, and MPI's shared-window allocation has costs of its own (MPICH
 * probes the address space page by page for a symmetric mapping).  Programs
 * that create and destroy arrays as they go, as Global Arrays does for its
 * temporaries, paid that on every allocation, where GA's MPI-TS reuses its
 * heap (GA's elempatch.x: benchmarks/results/ga_elempatch.*.txt).
 *
 * So ARMCI_Free of a region over all processes keeps its windows, with
 * their touched memory, and a later allocation over all processes whose
 * every slice fits takes them back.  Members agree without a message of
 * their own: the list changes only inside collectives over all processes,
 * so it is the same list everywhere, and the choice depends on every
 * member's requested size (gathered) and on the kept sizes, which every
 * member knows.  The same gather gives the largest size, and for a kept
 * region every slice (each starts where it did when the windows were
 * made), so such an allocation meets the others only there and in its
 * closing barrier.  Group regions are not kept: freeing them at finalize
 * would need their groups' collectives in one order on every process.
 * Ghost-build regions in the ghosts' pools are kept with their slices and
 * windows too: their window is an MPI_Win_create over the group, as costly
 * to make as any (NWChem's tce_h2o_eomcc spent most of its time making
 * windows and communicators without it).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../common/common_wait.h"

#define GS armcii_gmr_state
#define RECYCLE_MAX 128 /* regions kept at most, whatever their size */
/*
 * Windows outside the ghost pools are made in whole KiB per slice.  Global
 * Arrays gives one process a few bytes more than the others, and not always
 * the same one, so with byte-exact slices a kept region fitted no later
 * request of the same array whose larger slice fell on another process, and
 * each such request made a window, which is dear where MPI's collectives
 * spin on a crowded host (benchmarks/results/region_cap.mpich.2core.txt;
 * benchmarks/region_replay.py chose the grain).
 */
#define CAP_GRAIN 1024

size_t armcii_gmr_recycle_cap(size_t size)
{
    return (size + CAP_GRAIN - 1) / CAP_GRAIN * CAP_GRAIN;
}

static size_t largest_slice(const armcii_gmr_t *g)
{
    size_t m = 0;
    for (int r = 0; r < g->size; r++)
        if (g->cap[r] > m)
            m = g->cap[r];
    return m;
}

/* Whether g holds every member's size (req: armcii_gmr_recycle_gather's
 * encoding), and at most doubles the bytes (a large kept region stays for
 * a large request); *held: its bytes. */
static int fits(const armcii_gmr_t *g, const unsigned long *req, size_t *held)
{
    size_t want = 0, have = 0;
    for (int r = 0; r < g->size; r++) {
        if (req[r] >> 1 > g->cap[r])
            return 0;
        want += req[r] >> 1;
        have += g->cap[r];
    }
    *held = have;
    return have <= 2 * want + 65536;
}

/* g as a region fresh from its windows: no writes pending, no slices. */
static void reset(armcii_gmr_t *g)
{
    memset(g->dirty, 0, (size_t)g->size);
    g->ndirty = 0;
    if (g->wcnt) {
        size_t n = 2 * (size_t)g->size * sizeof(unsigned long);
        memset(g->wcnt, 0, n);
        memset(g->fcnt, 0, n);
        memset(g->wsnap, 0, n);
    }
    g->next_dirty = g->prev = g->next = NULL;
    g->in_dirty_list = 0;
    for (int r = 0; r < g->size; r++)
        g->slice[r] = (armcii_gmr_slice_t){0};
}

unsigned long *armcii_gmr_recycle_gather(MPI_Comm comm, size_t size, unsigned long *max)
{
    /* Each member's size, and whether it wants ghost-reachable memory
     * (ghost build: a kept region serves only allocations of its kind; any
     * disagreement reuses nothing, on every member alike).  Sizes are at
     * most the node's memory (armci_memory.c), so the shift loses nothing. */
    unsigned long mine = (unsigned long)size << 1 | (unsigned long)armcii_gmr_ghost_wanted(comm);
    unsigned long *req = malloc((size_t)armcii_state.nproc * sizeof *req);
    if (!req)
        armcii_error("ARMCI_Malloc", "out of memory");
    armcii_allgather(&mine, 1, MPI_UNSIGNED_LONG, req, comm);
    *max = 0;
    for (int r = 0; r < armcii_state.nproc; r++)
        if (req[r] >> 1 > *max)
            *max = req[r] >> 1;
    return req;
}

armcii_gmr_t *armcii_gmr_recycle_take(MPI_Comm comm, const unsigned long *req)
{
    GS.world_allocs++; /* the same count everywhere: world allocations are collective */
    if (!GS.recycled)
        return NULL;
    int ghost = (int)(req[0] & 1), agree = 1;
    for (int r = 0; r < armcii_state.nproc; r++)
        agree &= (int)(req[r] & 1) == ghost;
    armcii_gmr_t **best = NULL;
    size_t best_held = SIZE_MAX, held;
    armcii_lock(&GS.lock);
    for (armcii_gmr_t **pp = agree ? &GS.recycled : NULL; pp && *pp; pp = &(*pp)->next) {
        int res;
        ARMCII_MPI(MPI_Comm_compare(comm, (*pp)->comm, &res));
        if ((res == MPI_IDENT || res == MPI_CONGRUENT) && ((*pp)->ghost != NULL) == ghost &&
            fits(*pp, req, &held) && held < best_held)
            best = pp, best_held = held;
    }
    armcii_gmr_t *g = NULL;
    if (best) {
        g = *best;
        *best = g->next;
        GS.nrecycled--;
        GS.recycled_bytes -= largest_slice(g);
    }
    armcii_unlock(&GS.lock);
    if (g)
        reset(g);
    return g;
}

int armcii_gmr_recycle_keep(armcii_gmr_t *g)
{
    if (!g->recyclable || !GS.recycle_limit)
        return 0;
    if (!g->cap) { /* first free: the sizes and bases it was created with */
        g->cap = malloc((size_t)g->size * sizeof *g->cap);
        g->cap_base = malloc((size_t)g->size * sizeof *g->cap_base);
        if (!g->cap || !g->cap_base)
            armcii_error("ARMCI_Free", "out of memory");
        for (int r = 0; r < g->size; r++) { /* the windows were made that large */
            g->cap[r] = g->ghost ? g->slice[r].size : armcii_gmr_recycle_cap(g->slice[r].size);
            g->cap_base[r] = g->slice[r].base;
        }
    }
    size_t w = largest_slice(g);
    if (w > GS.recycle_limit)
        return 0;
    /*
     * Room comes only from stale regions (kept ARMCI_REGION_CACHE_AGE world
     * allocations ago or earlier), oldest first; when every kept
     * region is recent, g is the one freed.  Evicting recent ones instead
     * (least recently kept first) makes a cycle of allocations larger than
     * the cache miss on every allocation (GA's elempatch.x cycles through
     * 14 arrays at a time in 15 sizes); refusing keeps a stable part of the
     * cycle reused (benchmarks/results/ga_elempatch.mpich.txt).
     */
    armcii_lock(&GS.lock);
    while (GS.nrecycled >= RECYCLE_MAX || GS.recycled_bytes + w > GS.recycle_limit) {
        armcii_gmr_t *old = GS.recycled;
        if (!old || GS.world_allocs - old->kept_at < GS.recycle_age) {
            armcii_unlock(&GS.lock);
            return 0;
        }
        GS.recycled = old->next;
        GS.nrecycled--;
        GS.recycled_bytes -= largest_slice(old);
        armcii_unlock(&GS.lock);
        armcii_gmr_release(old); /* collective: outside the lock */
        armcii_lock(&GS.lock);
    }
    armcii_gmr_t **pp = &GS.recycled;
    while (*pp)
        pp = &(*pp)->next;
    g->next = NULL;
    g->kept_at = GS.world_allocs;
    *pp = g;
    GS.nrecycled++;
    GS.recycled_bytes += w;
    armcii_unlock(&GS.lock);
    return 1;
}

void armcii_gmr_recycle_drain(void)
{
    while (GS.recycled) {
        armcii_gmr_t *g = GS.recycled;
        GS.recycled = g->next;
        armcii_gmr_release(g);
    }
    GS.nrecycled = 0;
    GS.recycled_bytes = 0;
}
