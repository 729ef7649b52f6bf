/*
 * Translation table: for each absolute process, its live slices sorted by
 * base address.  Lookup is a binary search, O(log n) in the number of live
 * regions, behind a per-thread copy of the most recent hit (GA tends to hit
 * the same array many times in a row).
 *
 * Threads: lookups never lock.  Insert and remove (collective allocation
 * and free, possibly from several threads on different groups) take the
 * table lock and bump a sequence number around the change; a lookup that
 * saw the number change retries.  An array that is outgrown is kept until
 * the table is destroyed, so a concurrent lookup never reads freed memory
 * (arrays double, so the kept ones never exceed the live one).  Pure C: no
 * MPI, unit-tested.
 */
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include "gmr_impl.h"

/* The per-thread hint (gmr.h: armcii_gmr_table_lookup checks it inline). */
__thread armcii_gmr_hint_t armcii_gmr_hint __attribute__((tls_model("initial-exec")));
#define hint armcii_gmr_hint

typedef struct retired { struct retired *next; } retired_t;

/* Sequence numbers keep growing across a destroy and a new init, so a
 * thread's hint from an earlier table at the same address never matches. */
static unsigned long seq_next;

int armcii_gmr_table_init(armcii_gmr_table_t *t, int nproc)
{
    memset(t, 0, sizeof *t);
    t->per = calloc((size_t)nproc, sizeof *t->per);
    if (!t->per)
        return -1;
    t->nproc = nproc;
    t->seq = seq_next;
    return 0;
}

void armcii_gmr_table_destroy(armcii_gmr_table_t *t)
{
    for (int p = 0; p < t->nproc; p++)
        if (t->per[p].e)
            free(t->per[p].e - 1); /* the array starts one entry earlier (grow) */
    free(t->per);
    while (t->retired) {
        retired_t *r = t->retired;
        t->retired = r->next;
        free(r);
    }
    seq_next = t->seq + 2;
    memset(t, 0, sizeof *t);
    hint.t = NULL;
}

/* Index of the first entry whose base is > addr. */
static int upper_bound(const armcii_gmr_entry_t *e, int n, uintptr_t addr)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (e[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void write_begin(armcii_gmr_table_t *t)
{
    armcii_lock(&t->lock);
    __atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(armcii_gmr_table_t *t)
{
    __atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELEASE);
    armcii_unlock(&t->lock);
}

/* Room for one more entry of proc; the old array is retired, not freed. */
static int grow(armcii_gmr_table_t *t, int proc)
{
    typeof(t->per[0]) *pp = &t->per[proc];
    if (pp->n < pp->cap)
        return 0;
    int cap = pp->cap ? 2 * pp->cap : 8;
    /* The retired-list link lives in front of the entries. */
    char *raw = malloc(sizeof(armcii_gmr_entry_t) + (size_t)cap * sizeof(armcii_gmr_entry_t));
    if (!raw)
        return -1;
    armcii_gmr_entry_t *e = (armcii_gmr_entry_t *)raw + 1;
    if (pp->n)
        memcpy(e, pp->e, (size_t)pp->n * sizeof *e);
    if (pp->e) {
        retired_t *r = (retired_t *)(pp->e - 1);
        r->next = t->retired;
        t->retired = r;
    }
    __atomic_store_n(&pp->e, e, __ATOMIC_RELEASE);
    pp->cap = cap;
    return 0;
}

int armcii_gmr_table_insert(armcii_gmr_table_t *t, int proc, const armcii_gmr_entry_t *ne)
{
    /* A range that wraps past the top of the address space, or ends exactly
     * there, is refused: the overlap checks below compute base + size, and
     * the lookups compare addr - base with size modulo 2^N, so such an entry
     * let overlapping entries in and was found for addresses below its base
     * (tests/fuzz/fuzz_table.c; no real allocation can look like that). */
    if (proc < 0 || proc >= t->nproc || ne->size == 0 || ne->size > UINTPTR_MAX - ne->base)
        return -1;
    typeof(t->per[0]) *pp = &t->per[proc];
    int i = upper_bound(pp->e, pp->n, ne->base);
    if (i > 0 && pp->e[i - 1].base + pp->e[i - 1].size > ne->base)
        return -1;
    if (i < pp->n && ne->base + ne->size > pp->e[i].base)
        return -1;
    write_begin(t);
    int rc = grow(t, proc);
    if (rc == 0) {
        memmove(&pp->e[i + 1], &pp->e[i], (size_t)(pp->n - i) * sizeof *pp->e);
        pp->e[i] = *ne;
        pp->n++;
        t->live++;
    }
    write_end(t);
    return rc;
}

int armcii_gmr_table_remove(armcii_gmr_table_t *t, int proc, uintptr_t base)
{
    if (proc < 0 || proc >= t->nproc)
        return -1;
    typeof(t->per[0]) *pp = &t->per[proc];
    int i = upper_bound(pp->e, pp->n, base) - 1;
    if (i < 0 || pp->e[i].base != base)
        return -1;
    write_begin(t);
    memmove(&pp->e[i], &pp->e[i + 1], (size_t)(pp->n - i - 1) * sizeof *pp->e);
    pp->n--;
    t->live--;
    write_end(t);
    return 0;
}

const armcii_gmr_entry_t *armcii_gmr_table_find(const armcii_gmr_table_t *t, int proc,
                                                uintptr_t addr)
{
    unsigned long seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
    if (ARMCII_LIKELY(hint.t == t && hint.seq == seq && hint.proc == proc &&
                      addr - hint.e.base < hint.e.size))
        return &hint.e;
    if (proc < 0 || proc >= t->nproc)
        return NULL;
    for (;;) {
        if (seq & 1) {
            sched_yield();
            seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
            continue;
        }
        const armcii_gmr_entry_t *e = __atomic_load_n(&t->per[proc].e, __ATOMIC_ACQUIRE);
        int n = __atomic_load_n(&t->per[proc].n, __ATOMIC_RELAXED);
        int i = upper_bound(e, n, addr) - 1;
        armcii_gmr_entry_t found = {0, 0, NULL, 0};
        if (i >= 0)
            found = e[i];
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        unsigned long again = __atomic_load_n(&t->seq, __ATOMIC_RELAXED);
        if (again != seq) {
            seq = again;
            continue;
        }
        if (i < 0 || addr - found.base >= found.size)
            return NULL;
        hint.t = t;
        hint.seq = seq;
        hint.proc = proc;
        hint.e = found;
        return &hint.e;
    }
}
