/*
 * Translation table: for each absolute process, its live slices sorted by
 * base address.  Lookup is a binary search, O(log n) in the number of live
 * regions, behind a one-entry cache of the most recent hit (GA tends to hit
 * the same array many times in a row).  Pure C: no MPI, unit-tested.
 */
#include <stdlib.h>
#include <string.h>
#include "gmr.h"

int armcii_gmr_table_init(armcii_gmr_table_t *t, int nproc)
{
    memset(t, 0, sizeof *t);
    t->per = calloc((size_t)nproc, sizeof *t->per);
    if (!t->per)
        return -1;
    t->nproc = nproc;
    t->hint_proc = -1;
    return 0;
}

void armcii_gmr_table_destroy(armcii_gmr_table_t *t)
{
    for (int p = 0; p < t->nproc; p++)
        free(t->per[p].e);
    free(t->per);
    memset(t, 0, sizeof *t);
    t->hint_proc = -1;
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

int armcii_gmr_table_insert(armcii_gmr_table_t *t, int proc, const armcii_gmr_entry_t *ne)
{
    if (proc < 0 || proc >= t->nproc || ne->size == 0)
        return -1;
    typeof(t->per[0]) *pp = &t->per[proc];
    int i = upper_bound(pp->e, pp->n, ne->base);
    if (i > 0 && pp->e[i - 1].base + pp->e[i - 1].size > ne->base)
        return -1;
    if (i < pp->n && ne->base + ne->size > pp->e[i].base)
        return -1;
    if (pp->n == pp->cap) {
        int cap = pp->cap ? 2 * pp->cap : 8;
        armcii_gmr_entry_t *e = realloc(pp->e, (size_t)cap * sizeof *e);
        if (!e)
            return -1;
        pp->e = e;
        pp->cap = cap;
    }
    memmove(&pp->e[i + 1], &pp->e[i], (size_t)(pp->n - i) * sizeof *pp->e);
    pp->e[i] = *ne;
    pp->n++;
    t->live++;
    t->hint = NULL; /* entries moved */
    t->hint_proc = -1;
    return 0;
}

int armcii_gmr_table_remove(armcii_gmr_table_t *t, int proc, uintptr_t base)
{
    if (proc < 0 || proc >= t->nproc)
        return -1;
    typeof(t->per[0]) *pp = &t->per[proc];
    int i = upper_bound(pp->e, pp->n, base) - 1;
    if (i < 0 || pp->e[i].base != base)
        return -1;
    memmove(&pp->e[i], &pp->e[i + 1], (size_t)(pp->n - i - 1) * sizeof *pp->e);
    pp->n--;
    t->live--;
    t->hint = NULL;
    t->hint_proc = -1;
    return 0;
}

const armcii_gmr_entry_t *armcii_gmr_table_find(armcii_gmr_table_t *t, int proc, uintptr_t addr)
{
    const armcii_gmr_entry_t *h = t->hint;
    if (h && t->hint_proc == proc && addr - h->base < h->size)
        return h;
    if (proc < 0 || proc >= t->nproc)
        return NULL;
    typeof(t->per[0]) *pp = &t->per[proc];
    int i = upper_bound(pp->e, pp->n, addr) - 1;
    if (i < 0 || addr - pp->e[i].base >= pp->e[i].size)
        return NULL;
    t->hint = &pp->e[i];
    t->hint_proc = proc;
    return t->hint;
}
