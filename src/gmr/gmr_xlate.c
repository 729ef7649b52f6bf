/*
 * Translation of (address, proc) into a target, and the node-local checks.
 * This is the one place every operation passes through before it is issued.
 */
#include "gmr_impl.h"
#include "../common/common_topo.h"

/* The calling thread's record of its current call (gmr.h). */
static __thread armcii_gmr_callop_t callop __attribute__((tls_model("initial-exec"))) = {
    -1, -1, 0, 0, 0, 0};

MPI_Win armcii_gmr_window(const armcii_gmr_t *g) { return g->win; }

int armcii_gmr_abs(const armcii_gmr_t *g, int grank) { return g->abs_of[grank]; }

void armcii_gmr_set_measure(unsigned bits) { armcii_gmr_state.measure = bits; }

void armcii_gmr_call_begin(void) { callop = (armcii_gmr_callop_t){-1, -1, 0, 0, 0, 0}; }

void armcii_gmr_call_clock(void)
{
    if (callop.t0 == 0)
        callop.t0 = MPI_Wtime();
}

armcii_gmr_callop_t armcii_gmr_call_end(void) { return callop; }

void armcii_gmr_op_stats(long ops[ARMCII_TO_N][ARMCII_OP_NCLASS], double bytes[ARMCII_OP_NCLASS])
{
    armcii_lock(&armcii_gmr_state.prof_lock);
    for (int c = 0; c < ARMCII_OP_NCLASS; c++) {
        for (int w = 0; w < ARMCII_TO_N; w++)
            ops[w][c] = armcii_gmr_state.ops[w][c];
        bytes[c] = armcii_gmr_state.bytes[c];
    }
    armcii_unlock(&armcii_gmr_state.prof_lock);
}

const char *armcii_gmr_mpiop_name(int k)
{
    static const char *const n[ARMCII_MPIOP_N] = {
        "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI atomic (fetch-op, CAS)",
        "MPI_Win_flush_local", "MPI_Win_flush", "MPI_Win_flush_all",
        "message to a ghost (write)", "request to a ghost (get, RMW)", "fence of a ghost"};
    return k >= 0 && k < ARMCII_MPIOP_N ? n[k] : "?";
}

void armcii_gmr_mpiop_add(armcii_mpiop_t k, double secs)
{
    armcii_lock(&armcii_gmr_state.prof_lock);
    armcii_gmr_state.mpiop_calls[k] += 1;
    armcii_gmr_state.mpiop_secs[k] += secs;
    armcii_unlock(&armcii_gmr_state.prof_lock);
}

void armcii_gmr_mpiop_stats(double calls[ARMCII_MPIOP_N], double secs[ARMCII_MPIOP_N])
{
    armcii_lock(&armcii_gmr_state.prof_lock);
    for (int k = 0; k < ARMCII_MPIOP_N; k++) {
        calls[k] = armcii_gmr_state.mpiop_calls[k];
        secs[k] = armcii_gmr_state.mpiop_secs[k];
    }
    armcii_unlock(&armcii_gmr_state.prof_lock);
}

/* Where proc is from the calling process (ARMCII_TO_*): the cost model
 * (benchmarks/model.py) must not charge another node's cost to operations
 * a process aims at itself. */
static int place_of(int proc)
{
    if (proc == armcii_state.rank)
        return ARMCII_TO_SELF;
    return armcii_node_of(proc) == armcii_node_of(armcii_state.rank) ? ARMCII_TO_NODE
                                                                      : ARMCII_TO_OFFNODE;
}

/* Counters and the call's record.  offered: the operation was offered to
 * the ghost layer (its path may be a ghost's); it is timed in automatic
 * mode from here, being an MPI-path operation (the others are load/store,
 * which never wait for a target). */
static void note_op(const armcii_gmr_t *g, armcii_opclass_t cls, int proc, size_t len,
                    const armcii_target_t *t, int offered)
{
    armcii_gmr_callop_t *op = &callop;
    if (armcii_gmr_state.measure & ARMCII_MEASURE_COUNT) {
        armcii_lock(&armcii_gmr_state.prof_lock); /* threaded runs: exact counts */
        armcii_gmr_state.ops[place_of(proc)][cls]++;
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
    if ((armcii_gmr_state.measure & ARMCII_MEASURE_TIME) && offered && op->t0 == 0)
        op->t0 = MPI_Wtime();
}

/* Correct what note_op counted for an extent: ops (of target proc) and
 * bytes by the deltas. */
static void recount(armcii_opclass_t cls, int proc, long dops, double dbytes)
{
    if (ARMCII_LIKELY(!armcii_gmr_state.measure))
        return;
    if (armcii_gmr_state.measure & ARMCII_MEASURE_COUNT) {
        armcii_lock(&armcii_gmr_state.prof_lock);
        if (dops)
            armcii_gmr_state.ops[place_of(proc)][cls] += dops;
        armcii_gmr_state.bytes[cls] += dbytes;
        armcii_unlock(&armcii_gmr_state.prof_lock);
    }
    callop.bytes += dbytes;
}

void armcii_gmr_count_payload(armcii_opclass_t cls, size_t extent, size_t payload)
{
    recount(cls, -1, 0, (double)payload - (double)extent);
}

void armcii_gmr_uncount(armcii_opclass_t cls, int proc, size_t extent)
{
    recount(cls, proc, -1, -(double)extent);
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
    t->all_local = g->all_local;
    t->reads = cls == ARMCII_OP_GET || cls == ARMCII_OP_RMW;
    t->am = 0;
    t->getpath = 0;
    /* Accumulate-class operations of a region must all take one path
     * (atomicity), so they are offered for redirection even when the
     * target is node-local, unless the region is served by CPU atomics. */
    int offered = !t->direct || ((cls == ARMCII_OP_ACC || cls == ARMCII_OP_RMW) && !g->all_local);
    if (offered)
        armcii_gmr_ghost_redirect(cls, len, t);
    if (ARMCII_UNLIKELY(armcii_gmr_state.measure))
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
