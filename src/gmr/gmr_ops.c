/*
 * MPI-path primitives and completion.
 *
 * Blocking ARMCI operations promise local completion (MPI_Win_flush_local);
 * remote completion (MPI_Win_flush) happens at Fence/AllFence/Barrier, and
 * before a read of a target that has unfenced writes from this process, which
 * gives ARMCI's location consistency without flushing every put remotely.
 */
#include <string.h>
#include "gmr.h"
#include "../armci/armci_int.h"
#include "../progress/progress.h"

static void mark_dirty(const armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    if (g->dirty[t->grank])
        return;
    g->dirty[t->grank] = 1;
    g->ndirty++;
    if (!g->in_dirty_list) {
        g->in_dirty_list = 1;
        g->next_dirty = armcii_gmr_state.dirty;
        armcii_gmr_state.dirty = g;
    }
}

void armcii_gmr_put(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype)
{
    ARMCII_MPI(MPI_Put(src, scount, stype, t->rank, t->disp, tcount, ttype, t->win));
    mark_dirty(t);
}

void armcii_gmr_get(const armcii_target_t *t, void *dst, int dcount,
                    MPI_Datatype dtype, int tcount, MPI_Datatype ttype)
{
    armcii_gmr_order_read(t);
    ARMCII_MPI(MPI_Get(dst, dcount, dtype, t->rank, t->disp, tcount, ttype, t->win));
}

void armcii_gmr_acc(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype)
{
    ARMCII_MPI(MPI_Accumulate(src, scount, stype, t->rank, t->disp, tcount, ttype,
                              MPI_SUM, t->win));
    mark_dirty(t);
}

void armcii_gmr_complete_local(const armcii_target_t *t)
{
    if (armcii_state.cfg.no_flush_local)
        ARMCII_MPI(MPI_Win_flush(t->rank, t->win));
    else
        ARMCII_MPI(MPI_Win_flush_local(t->rank, t->win));
}

static void clear_dirty(armcii_gmr_t *g, int grank)
{
    g->dirty[grank] = 0;
    g->ndirty--;
}

void armcii_gmr_order_read(const armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    if (!g->dirty[t->grank])
        return;
    ARMCII_MPI(MPI_Win_flush(t->grank, g->win));
    armcii_progress_fence(g, t->grank);
    clear_dirty(g, t->grank);
}

/* Drop regions with nothing left to fence from the dirty list. */
static void prune_dirty(void)
{
    armcii_gmr_t **pp = &armcii_gmr_state.dirty;
    while (*pp) {
        armcii_gmr_t *g = *pp;
        if (g->ndirty == 0) {
            g->in_dirty_list = 0;
            *pp = g->next_dirty;
        } else {
            pp = &g->next_dirty;
        }
    }
}

static int grank_of(const armcii_gmr_t *g, int abs)
{
    if (g->size == armcii_state.nproc && g->abs_of[abs] == abs)
        return abs;
    for (int r = 0; r < g->size; r++)
        if (g->abs_of[r] == abs)
            return r;
    return -1;
}

void armcii_gmr_fence(int abs)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (armcii_gmr_t *g = armcii_gmr_state.dirty; g; g = g->next_dirty) {
        int r = grank_of(g, abs); /* regions without abs are skipped */
        if (r < 0 || !g->dirty[r])
            continue;
        ARMCII_MPI(MPI_Win_flush(r, g->win));
        armcii_progress_fence(g, r);
        clear_dirty(g, r);
    }
    prune_dirty();
}

void armcii_gmr_fence_all(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (armcii_gmr_t *g = armcii_gmr_state.dirty; g; g = g->next_dirty) {
        ARMCII_MPI(MPI_Win_flush_all(g->win));
        armcii_progress_fence(g, -1);
        memset(g->dirty, 0, (size_t)g->size);
        g->ndirty = 0;
    }
    prune_dirty();
}
