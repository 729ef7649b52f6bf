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

/* dirty[] bits: DIRTY_WIN for writes through the region's window,
 * DIRTY_GHOST for writes redirected to a ghost; each is flushed only where
 * it was used, so fencing a busy target does not wait on its own window. */
enum { DIRTY_WIN = 1, DIRTY_GHOST = 2 };

static void mark_dirty(const armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    unsigned char bit = t->win == g->win ? DIRTY_WIN : DIRTY_GHOST;
    if (g->dirty[t->grank] & bit)
        return;
    if (!g->dirty[t->grank])
        g->ndirty++;
    g->dirty[t->grank] |= bit;
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

/* Open MPI 4.1's osc/pt2pt hangs in MPI_Win_flush_local while gets to
 * more than one target are outstanding (tests/mpi/ompi_pt2pt_getflush_repro.c).
 * A get is complete at the origin only once its data has arrived, which is
 * what MPI_Win_flush waits for anyway, so reads always complete with flush:
 * the same cost on every other osc and on MPICH, and no hang on pt2pt. */
void armcii_gmr_complete_win(MPI_Win win, int rank, int reads)
{
    if (reads || armcii_state.cfg.no_flush_local)
        ARMCII_MPI(MPI_Win_flush(rank, win));
    else
        ARMCII_MPI(MPI_Win_flush_local(rank, win));
}

void armcii_gmr_complete_local(const armcii_target_t *t)
{
    armcii_gmr_complete_win(t->win, t->rank, t->reads);
}

static void clear_dirty(armcii_gmr_t *g, int grank)
{
    g->dirty[grank] = 0;
    g->ndirty--;
}

/* Remote-complete what this process wrote to g's rank r, by path. */
static void flush_dirty(armcii_gmr_t *g, int r)
{
    if (g->dirty[r] & DIRTY_WIN)
        ARMCII_MPI(MPI_Win_flush(r, g->win));
    if (g->dirty[r] & DIRTY_GHOST)
        armcii_progress_fence(g, r);
    clear_dirty(g, r);
}

void armcii_gmr_order_read(const armcii_target_t *t)
{
    if (t->gmr->dirty[t->grank])
        flush_dirty(t->gmr, t->grank);
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
        if (r >= 0 && g->dirty[r])
            flush_dirty(g, r);
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
