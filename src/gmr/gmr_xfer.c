/*
 * Contiguous transfers: node-local targets are served by load/store
 * (accumulates only on regions whose members all share the node);
 * everything else is one MPI operation plus the completion asked for.
 */
#include <string.h>
#include "gmr_impl.h"
#include "../common/common_wait.h"

/* The hot path of blocking contiguous put and get (bench_samewin measures
 * it against raw MPI): the thread's translation hint covers the target and
 * nothing needs the general path (profiling counts classes, pokes count
 * completions; for targets off the node, ghost_rw regions send puts and
 * gets to ghosts and the automatic redirection times MPI-path calls, which
 * node-local load/store never needs).  Returns
 * the region with the byte offset and group rank of the target, or NULL:
 * take the general path, which also reports bad addresses. */
static inline armcii_gmr_t *fast_target(const void *addr, int bytes, int proc, size_t *off,
                                        int *grank)
{
    if (ARMCII_UNLIKELY((armcii_gmr_state.measure & ARMCII_MEASURE_COUNT) | armcii_gmr_state.poke))
        return NULL;
    const armcii_gmr_entry_t *e =
        armcii_gmr_table_lookup(&armcii_gmr_state.table, proc, (uintptr_t)addr);
    if (ARMCII_UNLIKELY(!e))
        return NULL;
    size_t o = (uintptr_t)addr - e->base;
    armcii_gmr_t *g = e->region;
    if (ARMCII_UNLIKELY((size_t)bytes > e->size - o ||
                        ((g->ghost_rw | (armcii_gmr_state.measure & ARMCII_MEASURE_TIME)) &&
                         !g->slice[e->grank].direct)))
        return NULL;
    *off = o;
    *grank = e->grank;
    return g;
}

/* 1 when the put was done on the hot path.  A node-local put is complete
 * on return whether or not it was asked to block (GA issues nonblocking
 * ones and waits); a put through the window needs a blocking call and the
 * target already marked as put to through the window only (mark_dirty in
 * gmr_ops.c does the first marking and path switches). */
static inline int fast_put(const void *src, void *dst, int bytes, int proc, int blocking)
{
    size_t off;
    int r;
    armcii_gmr_t *g = fast_target(dst, bytes, proc, &off, &r);
    if (!g)
        return 0;
    char *d = g->slice[r].direct;
    if (d) {
        memmove(d + off, src, (size_t)bytes);
        return 1;
    }
    /* request-based operations where waits yield (gmr_yield.c) take the
     * general path */
    if (!blocking || g->dirty[r] != (ARMCII_DIRTY_WIN | ARMCII_DIRTY_PUT) ||
        armcii_gmr_state.yield_rma)
        return 0;
    MPI_Aint disp = g->disp_hdr + (MPI_Aint)off;
    if (g->by_req) { /* ARMCII_QUIRK_BY_REQUEST: the request, not a flush */
        MPI_Request q;
        ARMCII_MPI(MPI_Rput(src, bytes, MPI_BYTE, r, disp, bytes, MPI_BYTE, g->win, &q));
        armcii_wait(&q);
        return 1;
    }
    ARMCII_MPI(MPI_Put(src, bytes, MPI_BYTE, r, disp, bytes, MPI_BYTE, g->win));
    armcii_gmr_count_write(g, r, 0);
    /* armcii_gmr_complete_win without its poke (fast_target excluded it) */
    if (ARMCII_UNLIKELY(armcii_gmr_state.no_flush_local))
        ARMCII_MPI(MPI_Win_flush(r, g->win));
    else
        ARMCII_MPI(MPI_Win_flush_local(r, g->win));
    return 1;
}

/* A get needs no unfenced write of this process to the target (those are
 * flushed first on the general path: location consistency); through the
 * window, a blocking call as for fast_put. */
static inline int fast_get(const void *src, void *dst, int bytes, int proc, int blocking)
{
    size_t off;
    int r;
    armcii_gmr_t *g = fast_target(src, bytes, proc, &off, &r);
    if (!g || armcii_gmr_has_unfenced(g, r))
        return 0;
    char *d = g->slice[r].direct;
    if (d) {
        memmove(dst, d + off, (size_t)bytes);
        return 1;
    }
    if (!blocking || ARMCII_UNLIKELY(armcii_gmr_state.yield_rma))
        return 0;
    MPI_Aint disp = g->disp_hdr + (MPI_Aint)off;
    if (g->by_req) { /* ARMCII_QUIRK_BY_REQUEST: complete with the data */
        MPI_Request q;
        ARMCII_MPI(MPI_Rget(dst, bytes, MPI_BYTE, r, disp, bytes, MPI_BYTE, g->win, &q));
        armcii_wait(&q);
        return 1;
    }
    ARMCII_MPI(MPI_Get(dst, bytes, MPI_BYTE, r, disp, bytes, MPI_BYTE, g->win));
    ARMCII_MPI(MPI_Win_flush(r, g->win)); /* reads complete with flush (gmr_ops.c) */
    return 1;
}

void armcii_gmr_put_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c, armcii_opclass_t cls)
{
    if (cls == ARMCII_OP_PUT && fast_put(src, dst, bytes, proc, c->blocking))
        return;
    armcii_target_t t;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, cls, &t);
    if (t.direct) {
        memmove(t.direct, src, (size_t)bytes);
        return;
    }
    armcii_gmr_put(&t, src, bytes, MPI_BYTE, bytes, MPI_BYTE);
    armcii_gmr_complete(c, &t);
}

void armcii_gmr_get_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c)
{
    if (fast_get(src, dst, bytes, proc, c->blocking))
        return;
    armcii_target_t t;
    armcii_gmr_xlate(call, src, (size_t)bytes, proc, ARMCII_OP_GET, &t);
    if (t.direct) {
        armcii_gmr_order_read(&t); /* an earlier MPI accumulate to it */
        memmove(dst, t.direct, (size_t)bytes);
        return;
    }
    /* a path chosen by cost is timed to completion: here where the call
     * completes it (a message to a ghost always does), else by its
     * completion set (gmr_cset.c) */
    double t0 = t.getpath ? MPI_Wtime() : 0;
    armcii_gmr_get(&t, dst, bytes, MPI_BYTE, bytes, MPI_BYTE);
    armcii_gmr_complete(c, &t);
    if (t.getpath && (c->blocking || t.am))
        armcii_gmr_getpath_sample(t.getpath, MPI_Wtime() - t0);
}

void armcii_gmr_acc_contig(const char *call, int datatype, const void *scale,
                           const void *src, void *dst, int bytes, int proc,
                           const armcii_gmr_cmpl_t *c)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, ARMCII_OP_ACC, &t);
    if (t.direct && t.all_local) {
        armcii_gmr_acc_direct(&t, datatype, scale, src, (size_t)bytes);
        return;
    }
    armcii_gmr_acc_t a;
    armcii_gmr_src_t s = {src, MPI_DATATYPE_NULL, (size_t)bytes, NULL, NULL};
    armcii_gmr_acc_begin(&a, datatype, scale, (size_t)bytes);
    armcii_gmr_acc_issue(&a, &t, &s, MPI_DATATYPE_NULL);
    armcii_gmr_acc_complete(&a, c, &t);
    armcii_gmr_acc_end(&a);
}

/* Data, then a fence, then the flag; the flag is remotely complete on return
 * because the target polls it with plain loads and makes no calls. */
void armcii_gmr_put_flag(const char *call, int *flag, int value, int proc)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, flag, sizeof(int), proc, ARMCII_OP_NOTIFY, &t);
    armcii_gmr_fence(proc);
    if (t.direct) {
        __atomic_store_n((int *)t.direct, value, __ATOMIC_RELEASE);
        return;
    }
    if (t.am) { /* its ghost stores it: one atomic int store, remotely complete */
        armcii_gmr_rmw_am(&t, ARMCI_SWAP, value, 0);
        return;
    }
    armcii_gmr_put(&t, &value, 1, MPI_INT, 1, MPI_INT);
    armcii_gmr_fence(proc);
}
