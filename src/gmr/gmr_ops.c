/*
 * MPI-path primitives and completion.
 *
 * Blocking ARMCI operations promise local completion (MPI_Win_flush_local);
 * remote completion (MPI_Win_flush) happens at Fence/AllFence/Barrier, and
 * before a read of a target that has unfenced writes from this process, which
 * gives ARMCI's location consistency without flushing every put remotely.
 */
#include <string.h>
#include "gmr_impl.h"
#include "../common/common_acc.h"
#include "../common/common_quirks.h"
#include "../common/common_wait.h"

/* dirty[] bits: DIRTY_WIN for writes through the region's window,
 * DIRTY_GHOST for writes redirected to a ghost; each is flushed only where
 * it was used, so fencing a busy target does not wait on its own window.
 * DIRTY_PUT beside DIRTY_WIN: a put among those writes, which an atomic
 * must wait for (armcii_gmr_order_atomic); cleared with DIRTY_WIN. */
enum { DIRTY_WIN = ARMCII_DIRTY_WIN, DIRTY_GHOST = ARMCII_DIRTY_GHOST,
       DIRTY_PUT = ARMCII_DIRTY_PUT };

static void flush_paths(armcii_gmr_t *g, int r, unsigned char bits);

/* Threads (armcii_state.threaded): a bit cleared by one thread's fence
 * between another thread's marking and its MPI call would hide that write
 * from every later fence.  So threaded runs count instead (gmr.h, wcnt and
 * fcnt per target and path): a write is counted after its MPI call; a flush
 * first reads the count, flushes, then records that count as complete.  A
 * write counted before the read was issued before the flush (complete); one
 * counted after it keeps the target unfenced, so its own fence flushes.
 * The bits stay set (they only say "ever written": fences visit the
 * target, fast paths keep their shape).  The region and dirty lists are
 * guarded by armcii_gmr_state.lock (insertion here, traversal in the
 * fences, removal when a region is freed). */
static void clear_bits(armcii_gmr_t *g, int r, unsigned char bits)
{
    if (armcii_state.threaded)
        return;
    if (bits & DIRTY_WIN)
        bits |= DIRTY_PUT;
    g->dirty[r] &= (unsigned char)~bits;
    if (bits && !g->dirty[r])
        g->ndirty--;
}

/* fcnt = max(fcnt, done): several threads may complete the same target. */
static void record_complete(armcii_gmr_t *g, int i, unsigned long done)
{
    unsigned long cur = __atomic_load_n(&g->fcnt[i], __ATOMIC_RELAXED);
    while (cur < done && !__atomic_compare_exchange_n(&g->fcnt[i], &cur, done, 1,
                                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

/* Writes to one target through two paths (direct window, ghost) are not
 * ordered with each other by MPI: a put issued before an accumulate could
 * land after it.  Remote-complete the other path's writes before switching
 * paths; free when a target is only ever written one way. */
static void mark_dirty(const armcii_target_t *t, int put)
{
    armcii_gmr_t *g = t->gmr;
    unsigned char bit = t->win == g->win ? DIRTY_WIN : DIRTY_GHOST;
    unsigned char other = bit ^ (DIRTY_WIN | DIRTY_GHOST);
    if (ARMCII_UNLIKELY(g->dirty[t->grank] & other))
        flush_paths(g, t->grank, other);
    if (put && bit == DIRTY_WIN)
        bit |= DIRTY_PUT;
    if ((g->dirty[t->grank] & bit) == bit)
        return;
    if (armcii_state.threaded) {
        if (!__atomic_fetch_or(&g->dirty[t->grank], bit, __ATOMIC_RELAXED))
            __atomic_add_fetch(&g->ndirty, 1, __ATOMIC_RELAXED);
    } else {
        if (!g->dirty[t->grank])
            g->ndirty++;
        g->dirty[t->grank] |= bit;
    }
    if (!g->in_dirty_list) {
        armcii_lock(&armcii_gmr_state.lock);
        if (!g->in_dirty_list) {
            g->in_dirty_list = 1;
            g->next_dirty = armcii_gmr_state.dirty;
            armcii_gmr_state.dirty = g;
        }
        armcii_unlock(&armcii_gmr_state.lock);
    }
}

void armcii_gmr_mark_write(const armcii_target_t *t) { mark_dirty(t, 0); }

/* Debian's MPICH 4.0.2 aborts the job ("Assertion failed in file
 * ./src/include/mpir_request.h ...: req != NULL") once about 2^18 RMA
 * operations are outstanding on a shared-memory window without a
 * completion (tests/mpi/many_ops_repro.c: 262,145 gets completed, 300,000
 * aborted); GA's sprsmatmult.x got there through one ARMCI_GetV in mode
 * off (tests/mpi/test_many_op_calls.c).  Completing early is always
 * allowed, so after every ARMCII_OPS_BOUND-th MPI operation of the process
 * every window in use completes what it has (flush_all: reads included).
 * It holds on every MPI: per operation an increment and a branch, and a
 * flush per live region every 65,536 operations. */
#define ARMCII_OPS_BOUND 65536
static void bound_outstanding(MPI_Win win)
{
    unsigned long n = armcii_state.threaded
                          ? __atomic_add_fetch(&armcii_gmr_state.issued, 1, __ATOMIC_RELAXED)
                          : ++armcii_gmr_state.issued;
    if (ARMCII_LIKELY(n % ARMCII_OPS_BOUND))
        return;
    armcii_gmr_flush_all(win, -1); /* a ghost's window is not in the list */
    armcii_lock(&armcii_gmr_state.lock);
    for (armcii_gmr_t *g = armcii_gmr_state.regions; g; g = g->next)
        if (g->win != win)
            armcii_gmr_flush_all(g->win, g->flush_each);
    armcii_unlock(&armcii_gmr_state.lock);
}

/*
 * MPICH's flush_all on windows other than shared ones can leave the get
 * just issued in flight, and the caller's MPI_Win_flush to that target
 * then finds nothing to wait for (common_quirks.c, FLUSH_ALL_EARLY).  The
 * per-rank loop costs a flush per member, so only those windows take it.
 */
void armcii_gmr_flush_all(MPI_Win win, int each)
{
    if (each < 0)
        each = (armcii_quirks() & ARMCII_QUIRK_FLUSH_ALL_EARLY) &&
               (armcii_win_quirks(win) & ARMCII_QUIRK_FLUSH_ALL_EARLY);
    if (ARMCII_LIKELY(!each)) {
        ARMCII_MPIOP(ARMCII_MPIOP_FLUSH_ALL, ARMCII_MPI(MPI_Win_flush_all(win)));
        return;
    }
    MPI_Group grp;
    int n;
    ARMCII_MPI(MPI_Win_get_group(win, &grp));
    ARMCII_MPI(MPI_Group_size(grp, &n));
    ARMCII_MPI(MPI_Group_free(&grp));
    for (int r = 0; r < n; r++)
        ARMCII_MPIOP(ARMCII_MPIOP_FLUSH, ARMCII_MPI(MPI_Win_flush(r, win)));
}

/* Contiguous bytes to or from a ghost that moves them itself (t->am). */
static void xfer_am(const armcii_target_t *t, int put, void *buf, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype)
{
    if (stype != MPI_BYTE || ttype != MPI_BYTE || scount != tcount)
        armcii_error(armcii_current_call, "internal: a datatype transfer aimed at a ghost");
    armcii_gmr_src_t s = {buf, MPI_DATATYPE_NULL, (size_t)scount, NULL, NULL};
    int count[1] = {scount};
    armcii_gmr_xfer_am(t, put, &s, 0, count, NULL);
}

/* Whether t's operations take the request-based forms: where waits yield
 * (gmr_yield.c), and on windows whose flush costs more than waiting for
 * requests (ARMCII_QUIRK_BY_REQUEST; their local completion is then the
 * requests alone, armcii_gmr_complete_win). */
static inline int by_req(const armcii_target_t *t)
{
    return armcii_gmr_win_by_req(t->gmr, t->win);
}

static inline int req_forms(const armcii_target_t *t)
{
    return ARMCII_UNLIKELY(armcii_gmr_state.yield_rma) || by_req(t);
}

void armcii_gmr_put(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype)
{
    if (t->am) {
        xfer_am(t, 1, (void *)src, scount, stype, tcount, ttype);
        return;
    }
    mark_dirty(t, 1); /* first: it may have to complete the other path */
    double t0 = armcii_gmr_mpiop_begin();
    if (req_forms(t))
        ARMCII_MPI(MPI_Rput(src, scount, stype, t->rank, t->disp, tcount, ttype, t->win,
                            armcii_gmr_yield_slot(t->win, t->rank)));
    else
        ARMCII_MPI(MPI_Put(src, scount, stype, t->rank, t->disp, tcount, ttype, t->win));
    armcii_gmr_mpiop_end(ARMCII_MPIOP_PUT, t0);
    armcii_gmr_count_write(t->gmr, t->grank, t->win != t->gmr->win);
    bound_outstanding(t->win);
}

void armcii_gmr_get(const armcii_target_t *t, void *dst, int dcount,
                    MPI_Datatype dtype, int tcount, MPI_Datatype ttype)
{
    if (t->am) {
        xfer_am(t, 0, dst, dcount, dtype, tcount, ttype);
        return;
    }
    armcii_gmr_order_read(t);
    double t0 = armcii_gmr_mpiop_begin();
    if (req_forms(t)) {
        MPI_Request *r = armcii_gmr_yield_slot(t->win, t->rank);
        /* a request that completes with the data (gmr_yield.c); contiguous
         * gets are always MPI_BYTE, and their MPI_Rget is complete */
        if (armcii_gmr_state.rget_acc && (dtype != MPI_BYTE || ttype != MPI_BYTE))
            ARMCII_MPI(MPI_Rget_accumulate(NULL, 0, MPI_BYTE, dst, dcount, dtype, t->rank,
                                           t->disp, tcount, ttype, MPI_NO_OP, t->win, r));
        else
            ARMCII_MPI(MPI_Rget(dst, dcount, dtype, t->rank, t->disp, tcount, ttype, t->win, r));
    } else
        ARMCII_MPI(MPI_Get(dst, dcount, dtype, t->rank, t->disp, tcount, ttype, t->win));
    armcii_gmr_mpiop_end(ARMCII_MPIOP_GET, t0);
    bound_outstanding(t->win);
}

void armcii_gmr_acc_mpi(const armcii_target_t *t, const void *src, int scount,
                        MPI_Datatype stype, int tcount, MPI_Datatype ttype)
{
    mark_dirty(t, 0);
    double t0 = armcii_gmr_mpiop_begin();
    if (req_forms(t))
        ARMCII_MPI(MPI_Raccumulate(src, scount, stype, t->rank, t->disp, tcount, ttype,
                                   MPI_SUM, t->win, armcii_gmr_yield_slot(t->win, t->rank)));
    else
        ARMCII_MPI(MPI_Accumulate(src, scount, stype, t->rank, t->disp, tcount, ttype,
                                  MPI_SUM, t->win));
    armcii_gmr_mpiop_end(ARMCII_MPIOP_ACC, t0);
    armcii_gmr_count_write(t->gmr, t->grank, t->win != t->gmr->win);
    bound_outstanding(t->win);
}

/* Open MPI 4.1's osc/pt2pt hangs in MPI_Win_flush_local while gets to
 * more than one target are outstanding (tests/mpi/ompi_pt2pt_getflush_repro.c).
 * A get is complete at the origin only once its data has arrived, which is
 * what MPI_Win_flush waits for anyway, so reads always complete with flush:
 * the same cost on every other osc and on MPICH, and no hang on pt2pt. */
/* Open MPI 4.1's osc/ucx serves the atomics other processes aim at this
 * one (UCX's shared-memory transports emulate them in software, and
 * accumulates take a lock word with such an atomic) only from
 * opal_progress(), which its own RMA calls never run: a process that polls
 * through RMA alone starves every atomic and accumulate aimed at it
 * (tests/mpi/ompi_ucx_rma_progress_repro.c).  Where a window is such an
 * osc/ucx window (armcii_gmr_state.poke), every ARMCII_POKE_EVERY-th completion on the
 * MPI path also calls MPI_Iprobe, which keeps the process serving others
 * at a small fraction of an operation's cost.  Elsewhere no poke: under
 * mpi_yield_when_idle (oversubscribed runs) an idle MPI_Iprobe yields the
 * core, for no use (the costs: benchmarks/results/design_measurements.txt,
 * "poke"). */
#define ARMCII_POKE_EVERY 64
static inline void poke(void)
{
    if (ARMCII_UNLIKELY(armcii_gmr_state.poke) &&
        __atomic_add_fetch(&armcii_gmr_state.completions, 1, __ATOMIC_RELAXED) %
                ARMCII_POKE_EVERY == 0)
        armcii_gmr_progress();
}

unsigned long armcii_gmr_redirected(void)
{
    return __atomic_load_n(&armcii_gmr_state.redirected, __ATOMIC_RELAXED);
}

void armcii_gmr_progress(void)
{
    int flag;
    ARMCII_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.internal, &flag,
                          MPI_STATUS_IGNORE));
}

/* Where waits yield, the flush after the requests' wait is not redundant:
 * MPICH 4.0.2 and 4.3.2 complete a derived-datatype MPI_Rget's request
 * before its data arrives, and only the flush brings it
 * (tests/mpi/rget_dtype_repro.c; without the flush test_strided's GetS
 * read stale blocks). */
void armcii_gmr_complete_win(MPI_Win win, int rank, int reads, int by_request)
{
    poke();
    if (by_request) { /* every operation there took a request: they are all */
        armcii_gmr_yield_wait(win, rank);
        return;
    }
    if (ARMCII_UNLIKELY(armcii_gmr_state.nyreq))
        armcii_gmr_yield_wait(win, rank);
    double t0 = armcii_gmr_mpiop_begin();
    if (reads || armcii_gmr_state.no_flush_local)
        ARMCII_MPI(MPI_Win_flush(rank, win));
    else
        ARMCII_MPI(MPI_Win_flush_local(rank, win));
    armcii_gmr_mpiop_end(reads || armcii_gmr_state.no_flush_local ? ARMCII_MPIOP_FLUSH
                                                                  : ARMCII_MPIOP_FLUSH_LOCAL, t0);
}

void armcii_gmr_complete_local(const armcii_target_t *t)
{
    armcii_gmr_complete_win(t->win, t->rank, t->reads, by_req(t));
}

void armcii_gmr_complete(const armcii_gmr_cmpl_t *c, const armcii_target_t *t)
{
    if (t->am) /* the message was sent from a copy: locally complete already */
        return;
    if (c->blocking)
        armcii_gmr_complete_local(t);
    else
        armcii_gmr_nb_track(c->hdl, t);
}

/* Remote completion of (win, rank): its requests first (gmr_yield.c). */
static void flush_target(MPI_Win win, int rank)
{
    if (ARMCII_UNLIKELY(armcii_gmr_state.nyreq))
        armcii_gmr_yield_wait(win, rank);
    ARMCII_MPIOP(ARMCII_MPIOP_FLUSH, ARMCII_MPI(MPI_Win_flush(rank, win)));
}

void armcii_gmr_complete_remote(const armcii_target_t *t)
{
    poke();
    flush_target(t->win, t->rank);
}

/* MPI_Fetch_and_op has no request-based form; MPI_Rget_accumulate is the
 * same atomic (one predefined type, the same op), and its request completes
 * once the fetched value is here, which the wait can test and yield for
 * (gmr_yield.c), and which costs less than a flush on some windows
 * (ARMCII_QUIRK_BY_REQUEST).  Without `remote`, the request's local
 * completion is enough: the target is then marked as written, so a later
 * read from it or a fence completes the update remotely, and a later atomic
 * or accumulate is ordered after it by MPI. */
void armcii_gmr_fetch_op(const armcii_target_t *t, const void *in, void *out,
                         MPI_Datatype dt, MPI_Op op, int remote)
{
    if (t->am) {
        int is_long = dt == MPI_LONG, add = op == MPI_SUM;
        long v = is_long ? *(const long *)in : *(const int *)in;
        int code = add ? (is_long ? ARMCI_FETCH_AND_ADD_LONG : ARMCI_FETCH_AND_ADD)
                       : (is_long ? ARMCI_SWAP_LONG : ARMCI_SWAP);
        long old = armcii_gmr_rmw_am(t, code, v, 0);
        if (is_long)
            *(long *)out = old;
        else
            *(int *)out = (int)old;
        return;
    }
    int local = !remote && by_req(t);
    if (local)
        mark_dirty(t, 0);
    double t0 = armcii_gmr_mpiop_begin();
    if (local || ARMCII_UNLIKELY(armcii_gmr_state.yield_rma)) {
        MPI_Request r;
        ARMCII_MPI(MPI_Rget_accumulate(in, 1, dt, out, 1, dt, t->rank, t->disp, 1, dt, op,
                                       t->win, &r));
        armcii_wait(&r);
    } else {
        ARMCII_MPI(MPI_Fetch_and_op(in, out, dt, t->rank, t->disp, op, t->win));
    }
    armcii_gmr_mpiop_end(ARMCII_MPIOP_ATOMIC, t0);
    if (!local)
        armcii_gmr_complete_remote(t);
}

int armcii_gmr_cas_int(const armcii_target_t *t, int compare, int value)
{
    if (t->am)
        return (int)armcii_gmr_rmw_am(t, ARMCII_CPU_CAS_INT, compare, value);
    int old;
    ARMCII_MPIOP(ARMCII_MPIOP_ATOMIC, ARMCII_MPI(MPI_Compare_and_swap(&value, &compare, &old,
                                                                      MPI_INT, t->rank, t->disp,
                                                                      t->win)));
    armcii_gmr_complete_remote(t);
    return old;
}

/* Remote-complete what this process wrote to g's rank r on the paths in
 * bits; the region stays in the dirty list (pruned at the next fence). */
static void flush_paths(armcii_gmr_t *g, int r, unsigned char bits)
{
    bits &= g->dirty[r];
    unsigned long w[2] = {0, 0};
    if (g->wcnt) { /* threaded: only paths with uncounted-complete writes */
        for (int p = 0; p < 2; p++) {
            if (!(bits & (DIRTY_WIN << p)) || !armcii_gmr_path_pending(g, r, p))
                bits &= (unsigned char)~(DIRTY_WIN << p);
            w[p] = __atomic_load_n(&g->wcnt[2 * r + p], __ATOMIC_ACQUIRE);
        }
    }
    if (bits & DIRTY_WIN)
        flush_target(g->win, r);
    if (bits & DIRTY_GHOST)
        armcii_gmr_ghost_fence(g, r);
    if (g->wcnt) {
        for (int p = 0; p < 2; p++)
            if (bits & (DIRTY_WIN << p))
                record_complete(g, 2 * r + p, w[p]);
    }
    clear_bits(g, r, bits);
}

/* Remote-complete what this process wrote to g's rank r, by path. */
static void flush_dirty(armcii_gmr_t *g, int r)
{
    flush_paths(g, r, DIRTY_WIN | DIRTY_GHOST);
}

void armcii_gmr_order_read(const armcii_target_t *t)
{
    if (!armcii_gmr_has_unfenced(t->gmr, t->grank))
        return;
    /* With ARMCI_GHOST_AM=ALL everything bound for a ghost travels as a
     * message, and a read its ghost serves from one follows my earlier
     * messages to it anyway: only the window's writes need completing.
     * Otherwise the ghost path also holds RMA on the ghost's window, which
     * messages do not order. */
    if (t->am && armcii_gmr_state.ghost_am == ARMCII_AMLEVEL_ALL)
        flush_paths(t->gmr, t->grank, DIRTY_WIN);
    else
        flush_dirty(t->gmr, t->grank);
}

void armcii_gmr_order_atomic(const armcii_target_t *t)
{
    const armcii_gmr_t *g = t->gmr;
    if (armcii_state.threaded || t->win != g->win || (g->dirty[t->grank] & ~DIRTY_WIN))
        armcii_gmr_order_read(t); /* a put, the other path, or counted writes */
}

/* Drop regions with nothing left to fence from the dirty list. */
static void prune_dirty(void)
{
    if (armcii_state.threaded)
        return;
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
    armcii_lock(&armcii_gmr_state.lock);
    for (armcii_gmr_t *g = armcii_gmr_state.dirty; g; g = g->next_dirty) {
        int r = grank_of(g, abs); /* regions without abs are skipped */
        if (r >= 0 && g->dirty[r])
            flush_dirty(g, r);
    }
    prune_dirty();
    armcii_unlock(&armcii_gmr_state.lock);
}

void armcii_gmr_fence_region(armcii_gmr_t *g)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    armcii_lock(&armcii_gmr_state.lock);
    for (int r = 0; r < g->size; r++)
        if (armcii_gmr_has_unfenced(g, r))
            flush_dirty(g, r);
    armcii_unlock(&armcii_gmr_state.lock);
}

void armcii_gmr_fence_all(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    armcii_lock(&armcii_gmr_state.lock);
    for (armcii_gmr_t *g = armcii_gmr_state.dirty; g; g = g->next_dirty) {
        size_t n = 2 * (size_t)g->size;
        for (size_t i = 0; g->wcnt && i < n; i++) /* lock held: wsnap is ours */
            g->wsnap[i] = __atomic_load_n(&g->wcnt[i], __ATOMIC_ACQUIRE);
        /* each path only where it was written (threaded runs keep the bits
         * set: they say "ever written") */
        unsigned char paths = 0;
        for (int r = 0; r < g->size && paths != (DIRTY_WIN | DIRTY_GHOST); r++)
            paths |= __atomic_load_n(&g->dirty[r], __ATOMIC_RELAXED);
        if (!(paths & DIRTY_WIN)) {
            /* nothing through the window: the ghost path alone */
        } else if (g->flush_each) { /* a fence needs the written targets only */
            for (int r = 0; r < g->size; r++)
                if (__atomic_load_n(&g->dirty[r], __ATOMIC_RELAXED) & DIRTY_WIN)
                    ARMCII_MPIOP(ARMCII_MPIOP_FLUSH, ARMCII_MPI(MPI_Win_flush(r, g->win)));
        } else {
            ARMCII_MPIOP(ARMCII_MPIOP_FLUSH_ALL, ARMCII_MPI(MPI_Win_flush_all(g->win)));
        }
        if (paths & DIRTY_GHOST)
            armcii_gmr_ghost_fence(g, -1);
        if (g->wcnt) {
            for (size_t i = 0; i < n; i++)
                record_complete(g, (int)i, g->wsnap[i]);
        } else {
            memset(g->dirty, 0, (size_t)g->size);
            g->ndirty = 0;
        }
    }
    prune_dirty();
    armcii_unlock(&armcii_gmr_state.lock);
}

void armcii_gmr_set_async_hint(int mode) { armcii_gmr_state.async_hint = mode; }

int armcii_gmr_async_setting(void) { return armcii_gmr_state.async_setting; }

int armcii_gmr_redirecting(void)
{
    int p = armcii_gmr_state.phase;
    return p >= 0 ? p : armcii_gmr_state.async_setting != ARMCII_ASYNC_OFF;
}

void armcii_gmr_redirect(int on)
{
    armcii_gmr_state.phase = on != 0;
    armcii_gmr_ghost_switch(on);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void armcii_gmr_phase(int mode)
{
    /* Every operation of every process completes on the path it took
     * before anyone issues one on the new path (one ghost per target and
     * ordering kept across the switch). */
    armcii_gmr_fence_all();
    armcii_barrier(armcii_state.world);
    armcii_gmr_redirect(mode != 0);
}

/* Reads need no check: they complete (flush) before their call returns,
 * nonblocking ones included once waited for, and a read in flight across
 * a switch touches no atomicity.  Writes stay in the dirty list until a
 * fence remote-completes them (threaded runs: until the counts match). */
int armcii_gmr_quiescent(void)
{
    int quiet = 1;
    armcii_lock(&armcii_gmr_state.lock);
    for (armcii_gmr_t *g = armcii_gmr_state.dirty; g && quiet; g = g->next_dirty) {
        if (!g->wcnt) {
            quiet = g->ndirty == 0;
            continue;
        }
        for (int r = 0; r < g->size && quiet; r++)
            quiet = !armcii_gmr_has_unfenced(g, r);
    }
    armcii_unlock(&armcii_gmr_state.lock);
    return quiet;
}

void armcii_gmr_barrier(void)
{
    armcii_gmr_fence_all();
    armcii_barrier(armcii_state.world);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
