/*
 * Strided transfers.  Two methods (ARMCI_STRIDED_METHOD):
 *  DIRECT  one datatype per side built from BYTE strides (hvector per
 *          level), one RMA operation.  Subarray types would assume each
 *          stride is a multiple of the level below; GA's are not.
 *  IOV     the descriptor becomes a segment sequence walked by the
 *          iterator and handed to the IOV method (ARMCI_IOV_METHOD).
 * Node-local targets are served by load/store under DIRECT: put/get copy
 * block by block; accumulates (all_local regions only) take the slice lock
 * once for the whole operation.
 */
#include <stdlib.h>
#include <string.h>
#include "iov.h"
#include "../common/common_acc.h"
#include "../common/common_quirks.h"

/* Below this many blocks a datatype costs more than it saves: building and
 * freeing two types costs several times one put/get per block (bench_strided,
 * osc rdma, one node; the crossing point and the figures:
 * benchmarks/results/design_measurements.txt, "strided datatype"). */
#define STRIDED_DTYPE_MIN_BLOCKS 16

void armcii_iov_strided_type(int levels, const int count[], const int stride[],
                             MPI_Datatype base, int nbase, MPI_Datatype *out)
{
    MPI_Datatype cur, next;
    ARMCII_MPI(MPI_Type_contiguous(nbase, base, &cur));
    for (int k = 1; k <= levels; k++) {
        if (count[k] == 1)
            continue;
        ARMCII_MPI(MPI_Type_create_hvector(count[k], 1, (MPI_Aint)stride[k - 1], cur, &next));
        ARMCII_MPI(MPI_Type_free(&cur));
        cur = next;
    }
    ARMCII_MPI(MPI_Type_commit(&cur));
    *out = cur;
}

/* Node-local target t at the remote base: load/store block by block. */
static void strided_local(const armcii_iov_op_t *op, char *loc, const int lstride[],
                          const armcii_target_t *t, const int rstride[],
                          const int count[], int levels)
{
    armcii_iov_iter_t it;
    ptrdiff_t lo, ro;
    size_t b = (size_t)count[0];
    char *rbase = t->direct;
    armcii_iov_iter_init(&it, levels, count, lstride, rstride);
    if (op->kind == ARMCII_IOV_PUT) {
        while (armcii_iov_iter_next(&it, &lo, &ro))
            memmove(rbase + ro, loc + lo, b);
    } else if (op->kind == ARMCII_IOV_GET) {
        armcii_gmr_order_read(t);  /* an earlier MPI accumulate to it */
        while (armcii_iov_iter_next(&it, &lo, &ro))
            memmove(loc + lo, rbase + ro, b);
    } else {
        armcii_gmr_slice_lock(t);
        while (armcii_iov_iter_next(&it, &lo, &ro))
            armcii_acc_kernel(op->datatype, op->scale, loc + lo, rbase + ro, b);
        armcii_gmr_slice_unlock(t);
    }
}

/* Local blocks in pack order, for staging a scaled accumulate. */
typedef struct {
    armcii_iov_iter_t it;
    const char *loc;
    size_t block;
} blocks_t;

static int next_block(void *ctx, const char **p, size_t *len)
{
    blocks_t *b = ctx;
    ptrdiff_t lo;
    if (!armcii_iov_iter_next(&b->it, &lo, NULL))
        return 0;
    *p = b->loc + lo;
    *len = b->block;
    return 1;
}

/* MPI path: one operation with a byte-stride datatype on each side. */
static void strided_mpi(const armcii_iov_op_t *op, char *loc, const int lstride[],
                        const armcii_target_t *t, const int rstride[],
                        const int count[], int levels, long nseg)
{
    MPI_Datatype base, ltype = MPI_DATATYPE_NULL, rtype;
    armcii_gmr_acc_t a;
    int nbase = armcii_iov_typed_begin(op, count[0], &a, &base);
    armcii_iov_strided_type(levels, count, rstride, base, nbase, &rtype);
    if (op->kind != ARMCII_IOV_ACC || !a.scaled)
        armcii_iov_strided_type(levels, count, lstride, base, nbase, &ltype);
    blocks_t b = {.loc = loc, .block = (size_t)count[0]};
    if (op->kind == ARMCII_IOV_ACC)
        armcii_iov_iter_init(&b.it, levels, count, lstride, NULL);
    armcii_gmr_src_t s = {loc, ltype, (size_t)nseg * (size_t)count[0], next_block, &b};
    armcii_iov_typed_issue(op, t, &a, &s, rtype);
    if (ltype != MPI_DATATYPE_NULL)
        ARMCII_MPI(MPI_Type_free(&ltype));
    ARMCII_MPI(MPI_Type_free(&rtype));
}

/* Ghost build: the transfer travels to or from the target's ghost in one
 * message (src/gmr/gmr_ghost.c); t describes rem + lo, the strides rem. */
static void strided_am(const armcii_iov_op_t *op, char *loc, const int lstride[],
                       armcii_target_t *t, const int rstride[], const int count[], int levels,
                       long nseg, ptrdiff_t lo)
{
    blocks_t b = {.loc = loc, .block = (size_t)count[0]};
    armcii_iov_iter_init(&b.it, levels, count, lstride, NULL);
    armcii_gmr_src_t s = {loc, MPI_DATATYPE_NULL, (size_t)nseg * (size_t)count[0], next_block,
                          &b};
    t->disp -= lo; /* rem's own place (lo < 0 only where a stride is negative) */
    armcii_log(3, "%s: strided transfer through %d's ghost, %ld blocks of %d bytes", op->call,
               op->proc, nseg, count[0]);
    if (op->kind == ARMCII_IOV_ACC)
        armcii_gmr_acc_am(t, op->datatype, op->scale, &s, levels, count, rstride);
    else
        armcii_gmr_xfer_am(t, op->kind == ARMCII_IOV_PUT, &s, levels, count, rstride);
}

static void strided_as_iov(const armcii_iov_op_t *op, char *loc, const int lstride[],
                           char *rem, const int rstride[], const int count[], int levels,
                           long nseg, int method)
{
    armcii_iov_iter_t it;
    armcii_iov_seq_t seq = {0};
    armcii_iov_iter_init(&it, levels, count, lstride, rstride);
    seq.bytes = count[0];
    seq.n = nseg;
    seq.lbase = loc;
    seq.rbase = rem;
    seq.it = &it;
    seq.disjoint = armcii_iov_strided_disjoint(levels, count,
                                               op->kind == ARMCII_IOV_GET ? lstride : rstride);
    armcii_iov_run_method(op, &seq, method);
}

void armcii_iov_strided(const armcii_iov_op_t *op, char *loc, const int lstride[],
                        char *rem, const int rstride[], const int count[], int levels)
{
    long nseg = armcii_iov_strided_nseg(levels, count);
    if (nseg == 0)
        return;
    if (armcii_state.cfg.strided_method == ARMCII_STRIDED_IOV) {
        strided_as_iov(op, loc, lstride, rem, rstride, count, levels, nseg,
                       armcii_state.cfg.iov_method);
        return;
    }
    ptrdiff_t lo, hi;
    armcii_iov_strided_extent(levels, count, rstride, &lo, &hi);
    armcii_target_t t;
    int in_slice = armcii_iov_xlate(op, rem + lo, (size_t)(hi - lo), 0, &t) == 0;
    armcii_opclass_t cls = op->kind == ARMCII_IOV_ACC ? ARMCII_OP_ACC : ARMCII_OP_NONCONTIG;
    int split = op->kind == ARMCII_IOV_ACC && armcii_acc_split();
    int local = in_slice && t.direct && (op->kind != ARMCII_IOV_ACC || t.all_local);
    /* The written side's blocks may not overlap in one MPI datatype: the
     * target's for put and accumulate, the origin's for get (node-local
     * load/store does not care, and skips the check: GA's hot path). */
    int overlap = in_slice && !local &&
                  !armcii_iov_strided_disjoint(levels, count,
                                               op->kind == ARMCII_IOV_GET ? lstride : rstride);
    int few = nseg < STRIDED_DTYPE_MIN_BLOCKS;
    /* where waits yield, a derived-datatype get cannot be waited for (gmr_yield.c) */
    int blocks = op->kind == ARMCII_IOV_GET && armcii_gmr_get_by_blocks();
    int perblock = !in_slice || (!local && (split || overlap || few || blocks));
    int am = in_slice && t.am && levels <= ARMCII_AM_LEVELS &&
             (size_t)nseg * (size_t)count[0] <= ARMCII_AM_MAX_BYTES;
    /* a get whose blocks crowd their extent: one contiguous get of it */
    int sieve = in_slice && !local && !am &&
                armcii_iov_sieve_ok(op, &t, nseg, count[0], (size_t)(hi - lo));
    /* the profiler counts one operation of the payload's bytes, or the
     * segments on their own (each is translated again) */
    if (in_slice && (am || sieve || !perblock))
        armcii_gmr_count_payload(cls, (size_t)(hi - lo), (size_t)nseg * (size_t)count[0]);
    else if (in_slice)
        armcii_gmr_uncount(cls, t.abs, (size_t)(hi - lo));
    if (sieve) {
        armcii_iov_sieve_strided(op, loc, lstride, &t, rstride, count, levels, nseg, lo, hi);
        return;
    }
    if (am) {
        /* a transfer its ghost carries out (ghost build): one message, any
         * block count, overlapping target blocks included (applied in order) */
        strided_am(op, loc, lstride, &t, rstride, count, levels, nseg, lo);
        return;
    }
    if (perblock) {
        /* Several regions (or a bad address: translated and reported per
         * segment), a datatype MPI would mishandle, overlapping target
         * blocks (not allowed in one MPI datatype), or a get that must be
         * waited for block by block: one op per block. */
        armcii_log(3, "%s: strided method DIRECT -> IOV (%s), %ld blocks", op->call,
                   !in_slice ? "not one slice" : split ? "acc_dtype_split" : overlap ? "overlap"
                   : few ? "few blocks" : "gets by blocks where waits yield",
                   nseg);
        strided_as_iov(op, loc, lstride, rem, rstride, count, levels, nseg,
                       in_slice && !overlap ? ARMCII_IOV_BATCHED : ARMCII_IOV_CONSRV);
        return;
    }
    /* t describes rem + lo; the datatypes are relative to rem. */
    t.disp -= lo;
    if (t.direct)
        t.direct -= lo;
    armcii_log(3, "%s: strided method DIRECT%s, %ld blocks of %d bytes to %d", op->call,
               local ? " (node-local)" : "", nseg, count[0], op->proc);
    if (local)
        strided_local(op, loc, lstride, &t, rstride, count, levels);
    else
        strided_mpi(op, loc, lstride, &t, rstride, count, levels, nseg);
}
