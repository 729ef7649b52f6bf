/*
 * Small allocations sharing windows (slabs).
 *
 * Making a window is a collective of its own, and where MPI's collectives
 * spin on a crowded host it costs 40-70 ms (MPICH, 4 processes on 2 cores:
 * benchmarks/results/nwchem_tce_np2.mpich.2core.txt, part 4), while Global
 * Arrays creates and destroys small arrays as it goes: NWChem's tce_h2o
 * keeps up to 46 arrays alive at once, none over 11 KB per process, and
 * made a window for each even with freed ones kept (gmr_recycle.c).
 *
 * So an allocation over all processes, in the world's order, whose largest
 * slice is at most an eighth of ARMCI_REGION_SLAB takes a place in a slab: windows of that
 * many bytes per process, made once, in one epoch for their life.  A place
 * is one offset for every member, sized by the largest request, so it
 * needs no message of its own: the allocation's gather gives every member
 * every size, and the slabs and their free places change only inside
 * collectives over all processes, in the same order everywhere, so every
 * member picks the same place.  A member's slice is its slab slice from
 * that offset on; the MPI path reaches it at the offset's displacement, the
 * node-local path at the offset in the node-shared mapping.  The slab's
 * accumulate lock (the direct path's) serves all its places.
 *
 * Freed places return to their slab; a slab left empty is freed unless it
 * is the only one.
 *
 * The ghost build: an allocation that wants ghost-reachable memory (one
 * that spans nodes, with redirection wanted) takes a place in a slab whose
 * memory the ghosts' pools hold, and reaches the ghosts at its offset in
 * the slab's slices (armcii_gmr_ghost_place); one that does not takes a
 * place in a slab of ordinary windows.  The two kinds never share a slab.
 */
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"

#define GS armcii_gmr_state
#define SLAB_SHARE 8  /* an allocation takes at most this part of a slab */
#define PLACE_ALIGN 64

typedef struct {
    size_t off, len;
} place_t;

struct armcii_gmr_slab {
    armcii_gmr_t *host;  /* holds the windows and every member's slab slice */
    size_t cap;          /* bytes per process */
    place_t *free;       /* free places, by offset, neighbours merged */
    int nfree, maxfree;
    int users;           /* regions with a place here */
    int ghost;           /* for allocations that want ghost-reachable memory */
    struct armcii_gmr_slab *next;
};
typedef struct armcii_gmr_slab slab_t;

/* First fit over the slabs of kind ghost in creation order; the place is
 * taken off. */
static slab_t *find_place(size_t len, int ghost, size_t *off)
{
    for (slab_t *s = GS.slabs; s; s = s->next)
        for (int i = 0; s->ghost == ghost && i < s->nfree; i++) {
            place_t *p = &s->free[i];
            if (p->len < len)
                continue;
            *off = p->off;
            p->off += len;
            p->len -= len;
            if (!p->len) {
                memmove(p, p + 1, (size_t)(s->nfree - i - 1) * sizeof *p);
                s->nfree--;
            }
            return s;
        }
    return NULL;
}

static void give_back(slab_t *s, size_t off, size_t len)
{
    int i = 0;
    while (i < s->nfree && s->free[i].off < off)
        i++;
    int left = i > 0 && s->free[i - 1].off + s->free[i - 1].len == off;
    int right = i < s->nfree && off + len == s->free[i].off;
    if (left && right) {
        s->free[i - 1].len += len + s->free[i].len;
        memmove(&s->free[i], &s->free[i + 1], (size_t)(s->nfree - i - 1) * sizeof(place_t));
        s->nfree--;
    } else if (left) {
        s->free[i - 1].len += len;
    } else if (right) {
        s->free[i].off = off;
        s->free[i].len += len;
    } else {
        if (s->nfree == s->maxfree)
            s->free = armcii_grow(s->free, &s->maxfree, 8, sizeof(place_t), "ARMCI_Free",
                                  "a slab's free places");
        memmove(&s->free[i + 1], &s->free[i], (size_t)(s->nfree - i) * sizeof(place_t));
        s->free[i] = (place_t){off, len};
        s->nfree++;
    }
}

/* A new slab over comm at the end of the list (collective over comm); its
 * windows are over ghost-reachable memory where every member wants it
 * (ghost), as a fresh allocation's would be. */
static void new_slab(const char *call, MPI_Comm comm, int ghost)
{
    slab_t *s = calloc(1, sizeof *s);
    if (!s)
        armcii_error(call, "out of memory");
    s->cap = GS.slab_bytes;
    s->ghost = ghost;
    s->host = armcii_gmr_new_region(call, comm);
    char *mybase = armcii_gmr_new_windows(s->host, s->cap);
    s->host->recyclable = 0;
    armcii_gmr_gather_slices(s->host, mybase, s->cap);
    give_back(s, 0, s->cap);
    slab_t **pp = &GS.slabs;
    while (*pp)
        pp = &(*pp)->next;
    *pp = s;
    armcii_log(2, "%s: a slab of %zu bytes per process for small allocations%s (%d slabs)",
               call, s->cap, ghost ? " reaching ghosts" : "", armcii_gmr_slab_count());
}

/* The region at place off of s for the sizes in req. */
static armcii_gmr_t *place_region(const char *call, slab_t *s, size_t off, size_t len,
                                  const unsigned long *req)
{
    const armcii_gmr_t *h = s->host;
    armcii_gmr_t *g = armcii_gmr_region_shell(call, armcii_gmr_comm_get(h->comm));
    memcpy(g->abs_of, h->abs_of, (size_t)h->size * sizeof *g->abs_of);
    g->win = h->win;
    g->shm_win = h->shm_win;
    g->node_comm = h->node_comm;
    g->disp_hdr = h->disp_hdr + (MPI_Aint)off;
    g->all_local = h->all_local;
    g->flush_each = h->flush_each;
    g->by_req = h->by_req;
    g->mybase = h->mybase + off;
    g->slab = s;
    g->slab_off = off;
    g->slab_len = len;
    for (int r = 0; r < g->size; r++) {
        const armcii_gmr_slice_t *hs = &h->slice[r];
        armcii_gmr_slice_t *gs = &g->slice[r];
        gs->size = req[r] >> 1;
        gs->base = gs->size ? hs->base + off : NULL;
        gs->direct = gs->size && hs->direct ? hs->direct + off : NULL;
        gs->acc_lock = hs->acc_lock;
    }
    armcii_gmr_ghost_place(g, h, off);
    armcii_gmr_table_enter(g);
    s->users++;
    return g;
}

armcii_gmr_t *armcii_gmr_slab_take(const char *call, MPI_Comm comm, const unsigned long *req,
                                   size_t max)
{
    if (!GS.slab_bytes || max > GS.slab_bytes / SLAB_SHARE)
        return NULL;
    /* Slabs are the world's, in its order: a group of every process in
     * another order (its ranks and req's order differ) takes windows. */
    int res;
    ARMCII_MPI(MPI_Comm_compare(comm, armcii_state.world, &res));
    if (res != MPI_IDENT && res != MPI_CONGRUENT)
        return NULL;
    /* Whether the members want ghost-reachable memory (the low bit of a
     * request, gmr_recycle.c): where they disagree, windows decide. */
    int ghost = (int)(req[0] & 1);
    for (int r = 1; r < armcii_state.nproc; r++)
        if ((int)(req[r] & 1) != ghost)
            return NULL;
    size_t len = (max + PLACE_ALIGN - 1) / PLACE_ALIGN * PLACE_ALIGN, off = 0;
    slab_t *s = find_place(len, ghost, &off);
    if (!s) { /* a new slab, last in the list, has the room */
        new_slab(call, comm, ghost);
        s = find_place(len, ghost, &off);
    }
    GS.world_allocs++; /* as armcii_gmr_recycle_take counts */
    return place_region(call, s, off, len, req);
}

static void slab_free(slab_t *s)
{
    slab_t **pp = &GS.slabs;
    while (*pp != s)
        pp = &(*pp)->next;
    *pp = s->next;
    ARMCII_MPI(MPI_Win_unlock_all(s->host->win));
    armcii_gmr_release(s->host);
    free(s->free);
    free(s);
}

void armcii_gmr_slab_put(armcii_gmr_t *g)
{
    slab_t *s = g->slab;
    give_back(s, g->slab_off, g->slab_len);
    s->users--;
    armcii_gmr_ghost_release(g); /* the place's view; the memory stays the slab's */
    armcii_gmr_free_fields(g);
    if (!s->users && (GS.slabs != s || s->next))
        slab_free(s);
}

void armcii_gmr_slab_drain(void)
{
    while (GS.slabs)
        slab_free(GS.slabs);
}

int armcii_gmr_slab_count(void)
{
    int n = 0;
    for (const slab_t *s = GS.slabs; s; s = s->next)
        n++;
    return n;
}
