/*
 * Translation of (address, proc) into a target, and the node-local checks.
 * This is the one place every operation passes through before it is issued.
 */
#include "gmr.h"

__thread armcii_gmr_callop_t armcii_gmr_callop = {-1, -1, 0, 0, 0, 0};

/* Profiler counters and the call's first operation (gmr.h, callop).
 * offered: the operation was offered to the ghost layer (its path may be a
 * ghost's); it is timed in automatic mode from here, being an MPI-path
 * operation (the others are load/store, which never wait for a target). */
static void note_op(const armcii_gmr_t *g, armcii_opclass_t cls, int proc, size_t len,
                    const armcii_target_t *t, int offered)
{
    armcii_gmr_callop_t *op = &armcii_gmr_callop;
    if (armcii_gmr_state.profile) {
        armcii_lock(&armcii_gmr_state.prof_lock); /* threaded runs: exact counts */
        armcii_gmr_state.ops[cls]++;
        armcii_gmr_state.bytes[cls] += (double)len;
        armcii_unlock(&armcii_gmr_state.prof_lock);
    }
    if (op->cls < 0) {
        op->cls = (int)cls;
        op->proc = proc;
        op->ghostable = offered && (g->ghost_classes >> cls & 1u);
        op->ghost = t->win != g->win;
    }
    op->bytes += (double)len;
    if (armcii_gmr_state.timed && offered && op->t0 == 0)
        op->t0 = MPI_Wtime();
}

int armcii_gmr_xlate_try(const void *addr, size_t len, int proc,
                         armcii_opclass_t cls, armcii_target_t *t)
{
    const armcii_gmr_entry_t *e =
        armcii_gmr_table_lookup(&armcii_gmr_state.table, proc, (uintptr_t)addr);
    if (ARMCII_UNLIKELY(!e))
        return -1;
    size_t off = (uintptr_t)addr - e->base;
    if (ARMCII_UNLIKELY(len > e->size - off))
        return -2;
    armcii_gmr_t *g = e->region;
    const armcii_gmr_slice_t *s = &g->slice[e->grank];
    t->gmr = g;
    t->win = g->win;
    t->rank = e->grank;
    t->grank = e->grank;
    t->abs = proc;
    t->disp = g->disp_hdr + (MPI_Aint)off;
    t->direct = s->direct ? s->direct + off : NULL;
    t->reads = cls == ARMCII_OP_GET || cls == ARMCII_OP_RMW;
    /* Accumulate-class operations of a region must all take one path
     * (atomicity), so they are offered for redirection even when the
     * target is node-local, unless the region is served by CPU atomics. */
    int offered = !t->direct || ((cls == ARMCII_OP_ACC || cls == ARMCII_OP_RMW) && !g->all_local);
    if (offered)
        armcii_gmr_ghost_redirect(cls, t);
    if (ARMCII_UNLIKELY(armcii_gmr_state.profile | armcii_gmr_state.timed))
        note_op(g, cls, proc, len, t, offered);
    return 0;
}

void armcii_gmr_xlate(const char *call, const void *addr, size_t len, int proc,
                      armcii_opclass_t cls, armcii_target_t *t)
{
    int rc = armcii_gmr_xlate_try(addr, len, proc, cls, t);
    if (ARMCII_LIKELY(rc == 0))
        return;
    if (rc == -1)
        armcii_error(call, "remote address %p is not inside an ARMCI allocation of "
                     "process %d", addr, proc);
    armcii_error(call, "transfer of %zu bytes at %p runs past the end of process %d's "
                 "slice", len, addr, proc);
}
