/* Freed allocations over all processes are kept and reused
 * (src/gmr/gmr_recycle.c): the same sizes come back at the same addresses,
 * a reused region carries puts, gets and accumulates between every pair
 * like a new one, a request that does not fit gets new memory, zero-size
 * slices mix with others, past the limit (ARMCI_REGION_CACHE, 16 MiB here)
 * further frees are not kept while the kept ones are recent, and once
 * ARMCI_REGION_CACHE_AGE (10 here) allocations went by without taking
 * them, the oldest make room.  The
 * ghost build keeps nothing (its regions come from the ghost pools). */
#include <stdint.h>
#include <string.h>
#include <armci.h>
#include <armciconf.h>
#include "../testutil.h"

static int me, np;

static int reuse_expected(void)
{
    const char *c = getenv("ARMCI_REGION_CACHE");
    return !ARMCI_GHOST_PROGRESS && !(c && atol(c) == 0);
}

/* Every rank puts, accumulates into and gets from every slice of ptr
 * (slices of n[p] longs); checks what it reads and what it holds. */
static void exercise(void **ptr, const long *n, const char *what)
{
    for (int p = 0; p < np; p++)
        if (n[p]) {
            long v = 1000 * me + p;
            ARMCI_Put(&v, (long *)ptr[p] + me % n[p], sizeof v, p);
        }
    ARMCI_Barrier();
    long one = 1, scale = 1;
    for (int p = 0; p < np; p++)
        if (n[p])
            ARMCI_Acc(ARMCI_ACC_LNG, &scale, &one, (long *)ptr[p] + n[p] - 1, sizeof one, p);
    ARMCI_Barrier();
    for (int p = 0; p < np; p++) {
        if (!n[p])
            continue;
        long got = -1;
        ARMCI_Get((long *)ptr[p] + me % n[p], &got, sizeof got, p);
        if (n[p] > np) /* every rank has an index of its own */
            CHECK(got == 1000 * me + p, "%s: slice of %d, index %ld: %ld, expected %ld", what, p,
                  me % n[p], got, 1000L * me + p);
        long tail = -1;
        ARMCI_Get((long *)ptr[p] + n[p] - 1, &tail, sizeof tail, p);
        if (n[p] > np)
            CHECK(tail == np, "%s: slice of %d: last element %ld after %d accumulates to 0", what,
                  p, tail, np);
    }
    ARMCI_Barrier();
}

static void **alloc_longs(const long *n)
{
    void **ptr = malloc(np * sizeof *ptr);
    ARMCI_Malloc(ptr, n[me] * (long)sizeof(long));
    if (n[me])
        memset(ptr[me], 0, (size_t)n[me] * sizeof(long));
    ARMCI_Barrier();
    return ptr;
}

static void release(void **ptr)
{
    ARMCI_Free(ptr[me]);
    free(ptr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setenv("ARMCI_REGION_CACHE", getenv("ARMCI_REGION_CACHE") ? getenv("ARMCI_REGION_CACHE")
                                                               : "16777216", 1);
    setenv("ARMCI_REGION_CACHE_AGE", "10", 1);
    /* small allocations would take places in shared slab windows
     * (test_slab); this test is about windows kept whole */
    setenv("ARMCI_REGION_SLAB", "0", 1);
    ARMCI_Init();
    tu_name = "test_recycle";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int reuse = reuse_expected();
    long *n = malloc(np * sizeof *n), *m = malloc(np * sizeof *m);

    /* Irregular sizes, one zero-size slice: freed, then asked again. */
    for (int p = 0; p < np; p++)
        n[p] = p == 1 ? 0 : 100 + 37 * p;
    void **a = alloc_longs(n);
    exercise(a, n, "new region");
    void *was[64];
    memcpy(was, a, np * sizeof *a);
    release(a);
    void **b = alloc_longs(n);
    /* Without reuse an address may still come back (a pool, or mmap):
     * only reuse is checked. */
    for (int p = 0; p < np && reuse; p++)
        CHECK(b[p] == was[p], "same sizes again: slice of %d at %p, the kept one at %p", p,
              b[p], was[p]);
    exercise(b, n, "reused region");
    release(b);

    /* Slices are made in whole KiB: a request over a kept slice but within
     * its KiB (GA gives one process a few bytes more than another, and not
     * always the same one) still takes the kept region; here every slice
     * asks for its whole KiB (slice 0: 1024 bytes where it had 800). */
    for (int p = 0; p < np; p++)
        m[p] = (n[p] * (long)sizeof(long) + 1023) / 1024 * 1024 / (long)sizeof(long);
    void **e = alloc_longs(m);
    for (int p = 0; p < np && reuse; p++)
        CHECK(e[p] == was[p], "%ld bytes where a kept slice had %ld: slice of %d at %p, the "
              "kept one at %p", m[p] * (long)sizeof(long), n[p] * (long)sizeof(long), p, e[p],
              was[p]);
    exercise(e, m, "reused for slightly larger sizes");
    release(e);

    /* Smaller (within twice), then one slice larger than it was: reused,
     * then new memory. */
    for (int p = 0; p < np; p++)
        m[p] = n[p] ? n[p] - 20 : 0;
    void **c = alloc_longs(m);
    CHECK(!reuse || c[0] == was[0], "smaller sizes: slice of 0 at %p, the kept one at %p",
          c[0], was[0]);
    exercise(c, m, "reused for smaller sizes");
    release(c);
    m[0] = n[0] + 1000;
    void **d = alloc_longs(m);
    CHECK(!reuse || d[0] != was[0], "a larger slice was given the kept %ld-long slice", n[0]);
    exercise(d, m, "too large for the kept one");
    release(d);

    /* 20 live regions of 1 MiB - 1 KiB per process, freed: the first 16
     * fill the 16 MiB and are kept (the two small regions kept above, whose
     * largest slices take at most 12 KiB in whole KiB up to 8 processes,
     * leave room for 16, and are stale by the 17th), the rest are freed;
     * asking again takes the kept ones, oldest first, and makes the rest,
     * all usable. */
    enum { NR = 20 };
    void **r[NR];
    for (int p = 0; p < np; p++)
        n[p] = ((1 << 20) - 1024) / (long)sizeof(long);
    for (int i = 0; i < NR; i++)
        r[i] = alloc_longs(n);
    void *old[NR];
    for (int i = 0; i < NR; i++) {
        old[i] = r[i][me];
        release(r[i]);
    }
    for (int i = 0; i < NR; i++) {
        r[i] = alloc_longs(n);
        ((long *)r[i][me])[5] = i;
    }
    for (int i = 0; i < 16 && reuse; i++)
        CHECK(r[i][me] == old[i], "request %d with the cache full: %p, expected the region "
              "kept from request %d (%p)", i, r[i][me], i, old[i]);
    ARMCI_Barrier();
    for (int i = 0; i < NR; i++) {
        long got = -1;
        ARMCI_Get((long *)r[i][(me + 1) % np] + 5, &got, sizeof got, (me + 1) % np);
        CHECK(got == i, "region %d of %d: read %ld from process %d", i, NR, got, (me + 1) % np);
        for (int j = 0; j < i; j++)
            CHECK(r[i][me] != r[j][me], "regions %d and %d live at the same address", j, i);
    }
    exercise(r[NR - 1], n, "with the cache full");
    for (int i = 0; i < NR; i++)
        release(r[i]);

    /* A 32 KiB allocation, which none of them fits, over and over: it is
     * not kept while the kept 16 MiB are recent; 10 allocations later the
     * oldest of them is stale and makes room, and the 32 KiB one is reused. */
    void **t = malloc(np * sizeof *t);
    long seen = -1;
    for (int i = 0; i < 14; i++) {
        /* Not cleared: a reused region still holds the last round's mark. */
        ARMCI_Malloc(t, 32768);
        seen = ((long *)t[me])[3];
        ((long *)t[me])[3] = i;
        ARMCI_Free(t[me]);
    }
    free(t);
    CHECK(!reuse || seen == 12, "a small region is not reused after the kept ones went "
          "stale: the last one held %ld, not the previous round's 12", seen);
    for (int i = 0; i < NR; i++) {
        r[i] = alloc_longs(n);
        ((long *)r[i][me])[5] = i;
    }
    exercise(r[NR - 1], n, "after evictions");
    for (int i = 0; i < NR; i++)
        release(r[i]);
    free(n);
    free(m);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
