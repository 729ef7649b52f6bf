/*
 * Private local memory (ARMCI_Malloc_local): MPI_Alloc_mem, which some
 * networks register for RMA.  Live blocks are kept in a hash set, so that
 * freeing a foreign pointer or freeing twice is reported instead of
 * touching memory MPI may already have unmapped.
 *
 * Freed blocks are kept for reuse (a few, up to CACHE_BYTES): Global Arrays
 * takes a 40 MB buffer from ARMCI_Malloc_local on every GA_Dgemm
 * (gai_get_armci_memory) and frees it after, thousands of times in one
 * NWChem DFT run.  A fresh MPI_Alloc_mem each time costs an mmap, page
 * faults and, on networks that register it, a registration; under glibc's
 * MALLOC_PERTURB_ (NWChem's QA scripts set it) also a 40 MB memset per call
 * (measured effect: docs/ga-nwchem.md, "NWChem").
 * Threads: the set and the cache are locked in MPI_THREAD_MULTIPLE runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"

enum { CACHE_BLOCKS = 4 };
#define CACHE_BYTES ((size_t)256 << 20)

typedef struct {
    void *p;     /* NULL empty, TOMB deleted */
    size_t size; /* what MPI_Alloc_mem was asked for */
} block_t;

static struct {
    block_t *slot; /* open addressing */
    size_t cap, used, live;
    block_t cache[CACHE_BLOCKS]; /* freed blocks, oldest first */
    int ncache;
    size_t cached;
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
    block_t *old = loc.slot;
    size_t oldcap = loc.cap;
    loc.slot = calloc(cap, sizeof *loc.slot);
    if (!loc.slot)
        armcii_error("ARMCI_Malloc_local", "out of memory for the local-block table");
    loc.cap = cap;
    loc.used = loc.live;
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].p || old[i].p == TOMB)
            continue;
        size_t h = hash_ptr(old[i].p, cap);
        while (loc.slot[h].p)
            h = (h + 1) & (cap - 1);
        loc.slot[h] = old[i];
    }
    free(old);
}

static void set_add(block_t b)
{
    if (2 * (loc.used + 1) > loc.cap)
        rehash(loc.cap ? (loc.live * 4 > loc.cap ? 2 * loc.cap : loc.cap) : 64);
    size_t h = hash_ptr(b.p, loc.cap);
    while (loc.slot[h].p && loc.slot[h].p != TOMB)
        h = (h + 1) & (loc.cap - 1);
    if (!loc.slot[h].p)
        loc.used++;
    loc.slot[h] = b;
    loc.live++;
}

/* 1 and the block in *b when p is live (removed), else 0. */
static int set_remove(void *p, block_t *b)
{
    if (!loc.cap)
        return 0;
    for (size_t h = hash_ptr(p, loc.cap); loc.slot[h].p; h = (h + 1) & (loc.cap - 1)) {
        if (loc.slot[h].p == p) {
            *b = loc.slot[h];
            loc.slot[h].p = TOMB;
            loc.live--;
            return 1;
        }
    }
    return 0;
}

/* The smallest cached block of n to 2n bytes (a small request does not
 * pin a large block), taken out of the cache; {NULL, 0} if none. */
static block_t cache_take(size_t n)
{
    int best = -1;
    for (int i = 0; i < loc.ncache; i++)
        if (loc.cache[i].size >= n && loc.cache[i].size / 2 <= n &&
            (best < 0 || loc.cache[i].size < loc.cache[best].size))
            best = i;
    if (best < 0)
        return (block_t){NULL, 0};
    block_t b = loc.cache[best];
    memmove(&loc.cache[best], &loc.cache[best + 1],
            (size_t)(loc.ncache - best - 1) * sizeof(block_t));
    loc.ncache--;
    loc.cached -= b.size;
    return b;
}

/* Keeps b for reuse, giving the oldest blocks back to MPI to make room;
 * a block larger than the whole cache goes back at once. */
static void cache_put(block_t b)
{
    if (b.size > CACHE_BYTES) {
        ARMCII_MPI(MPI_Free_mem(b.p));
        return;
    }
    while (loc.ncache == CACHE_BLOCKS || loc.cached + b.size > CACHE_BYTES) {
        ARMCII_MPI(MPI_Free_mem(loc.cache[0].p));
        loc.cached -= loc.cache[0].size;
        memmove(&loc.cache[0], &loc.cache[1], (size_t)(--loc.ncache) * sizeof(block_t));
    }
    loc.cache[loc.ncache++] = b;
    loc.cached += b.size;
}

void *armcii_gmr_local_alloc(const char *call, size_t size)
{
    /* A 0-byte request still returns a unique pointer that can be freed. */
    size_t n = size ? size : 1;
    armcii_lock(&loc.lock);
    block_t b = cache_take(n);
    armcii_unlock(&loc.lock);
    if (!b.p) {
        if (MPI_Alloc_mem((MPI_Aint)n, MPI_INFO_NULL, &b.p) != MPI_SUCCESS || !b.p)
            armcii_error(call, "MPI_Alloc_mem of %zu bytes failed", size);
        b.size = n;
    }
    if (armcii_state.cfg.debug_alloc)
        memset(b.p, 0, size);
    armcii_lock(&loc.lock);
    set_add(b);
    armcii_unlock(&loc.lock);
    return b.p;
}

void armcii_gmr_local_free(const char *call, void *p)
{
    block_t b;
    armcii_lock(&loc.lock);
    int live = set_remove(p, &b);
    if (live)
        cache_put(b);
    armcii_unlock(&loc.lock);
    if (!live)
        armcii_error(call, "%p was not returned by ARMCI_Malloc_local (or was freed "
                     "already)", p);
}

void armcii_gmr_local_finalize(void)
{
    for (int i = 0; i < loc.ncache; i++)
        ARMCII_MPI(MPI_Free_mem(loc.cache[i].p));
    loc.ncache = 0;
    loc.cached = 0;
    free(loc.slot);
    loc.slot = NULL;
    loc.cap = loc.used = loc.live = 0;
}
