/*
 * Private local memory (ARMCI_Malloc_local): MPI_Alloc_mem, which some
 * networks register for RMA.  Live blocks are kept in a hash set, so that
 * freeing a foreign pointer or freeing twice is reported instead of
 * touching memory MPI may already have unmapped.
 * Threads: the set is locked in MPI_THREAD_MULTIPLE runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"

static struct {
    void **slot;          /* open addressing; NULL empty, TOMB deleted */
    size_t cap, used, live;
    armcii_lock_t lock;
} loc;

static char tomb_mark;
#define TOMB ((void *)&tomb_mark)

static size_t hash_ptr(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static void rehash(size_t cap)
{
    void **old = loc.slot;
    size_t oldcap = loc.cap;
    loc.slot = calloc(cap, sizeof *loc.slot);
    if (!loc.slot)
        armcii_error("ARMCI_Malloc_local", "out of memory for the local-block table");
    loc.cap = cap;
    loc.used = loc.live;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i] || old[i] == TOMB)
            continue;
        size_t h = hash_ptr(old[i], cap);
        while (loc.slot[h])
            h = (h + 1) & (cap - 1);
        loc.slot[h] = old[i];
    }
    free(old);
}

static void set_add(void *p)
{
    if (2 * (loc.used + 1) > loc.cap)
        rehash(loc.cap ? (loc.live * 4 > loc.cap ? 2 * loc.cap : loc.cap) : 64);
    size_t h = hash_ptr(p, loc.cap);
    while (loc.slot[h] && loc.slot[h] != TOMB)
        h = (h + 1) & (loc.cap - 1);
    if (!loc.slot[h])
        loc.used++;
    loc.slot[h] = p;
    loc.live++;
}

/* 1 and removed when p is live, else 0. */
static int set_remove(void *p)
{
    if (!loc.cap)
        return 0;
    for (size_t h = hash_ptr(p, loc.cap); loc.slot[h]; h = (h + 1) & (loc.cap - 1)) {
        if (loc.slot[h] == p) {
            loc.slot[h] = TOMB;
            loc.live--;
            return 1;
        }
    }
    return 0;
}

void *armcii_gmr_local_alloc(const char *call, size_t size)
{
    void *p;
    /* A 0-byte request still returns a unique pointer that can be freed. */
    if (MPI_Alloc_mem((MPI_Aint)(size ? size : 1), MPI_INFO_NULL, &p) != MPI_SUCCESS || !p)
        armcii_error(call, "MPI_Alloc_mem of %zu bytes failed", size);
    if (armcii_state.cfg.debug_alloc)
        memset(p, 0, size);
    armcii_lock(&loc.lock);
    set_add(p);
    armcii_unlock(&loc.lock);
    return p;
}

void armcii_gmr_local_free(const char *call, void *p)
{
    armcii_lock(&loc.lock);
    int live = set_remove(p);
    armcii_unlock(&loc.lock);
    if (!live)
        armcii_error(call, "%p was not returned by ARMCI_Malloc_local (or was freed "
                     "already)", p);
    ARMCII_MPI(MPI_Free_mem(p));
}

void armcii_gmr_local_finalize(void)
{
    free(loc.slot);
    loc.slot = NULL;
    loc.cap = loc.used = loc.live = 0;
}
