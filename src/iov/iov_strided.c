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
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "iov.h"
#include "../armci/armci_int.h"
#include "../gmr/gmr.h"

/* Below this many blocks a datatype costs more than it saves: building and
 * freeing two types is ~0.35 us, while one put/get per block costs ~0.04 us
 * (bench_strided, osc rdma, one node: 8 blocks of 16 B took 0.45 us as one
 * hvector operation vs 0.22 us batched; the two meet near 16 blocks). */
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
            armcii_gmr_acc_kernel(op->datatype, op->scale, loc + lo, rbase + ro, b);
        armcii_gmr_slice_unlock(t);
    }
}

/* MPI path: one operation with a byte-stride datatype on each side. */
static void strided_mpi(const armcii_iov_op_t *op, char *loc, const int lstride[],
                        const armcii_target_t *t, const int rstride[],
                        const int count[], int levels, long nseg)
{
    MPI_Datatype base = MPI_BYTE, ltype, rtype;
    int nbase = count[0], elem = 1, mult = 1, scaled = 0;
    if (op->kind == ARMCII_IOV_ACC) {
        armcii_gmr_acc_type(op->datatype, &base, &elem, &mult);
        nbase = count[0] / elem * mult;
        scaled = !armcii_gmr_acc_identity(op->datatype, op->scale);
    }
    armcii_iov_strided_type(levels, count, rstride, base, nbase, &rtype);
    char *tmp = NULL, *lbuf = loc;
    if (scaled) {
        /* MPI only sums: pack scale*src contiguously; complete before return. */
        if ((double)nseg * nbase > INT_MAX)
            armcii_error(op->call, "scaled strided accumulate of %ld blocks is too large", nseg);
        tmp = malloc((size_t)nseg * (size_t)count[0]);
        if (!tmp)
            armcii_error(op->call, "out of memory for a scaled buffer of %ld blocks", nseg);
        armcii_iov_iter_t it;
        ptrdiff_t lo;
        armcii_iov_iter_init(&it, levels, count, lstride, NULL);
        for (size_t pos = 0; armcii_iov_iter_next(&it, &lo, NULL); pos += (size_t)count[0])
            armcii_gmr_acc_scale(op->datatype, op->scale, loc + lo, tmp + pos,
                                 (size_t)count[0]);
        ARMCII_MPI(MPI_Type_contiguous((int)(nseg * nbase), base, &ltype));
        ARMCII_MPI(MPI_Type_commit(&ltype));
        lbuf = tmp;
    } else {
        armcii_iov_strided_type(levels, count, lstride, base, nbase, &ltype);
    }
    if (op->kind == ARMCII_IOV_PUT)
        armcii_gmr_put(t, lbuf, 1, ltype, 1, rtype);
    else if (op->kind == ARMCII_IOV_GET)
        armcii_gmr_get(t, lbuf, 1, ltype, 1, rtype);
    else
        armcii_gmr_acc(t, lbuf, 1, ltype, 1, rtype);
    ARMCII_MPI(MPI_Type_free(&ltype));
    ARMCII_MPI(MPI_Type_free(&rtype));
    if (op->blocking || tmp)
        armcii_gmr_complete_local(t);
    else
        armcii_nb_track(op->hdl, t);
    free(tmp);
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
    seq.disjoint = armcii_iov_strided_disjoint(levels, count, rstride);
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
    armcii_opclass_t cls = op->kind == ARMCII_IOV_PUT ? ARMCII_OP_PUT
                         : op->kind == ARMCII_IOV_GET ? ARMCII_OP_GET : ARMCII_OP_ACC;
    int in_slice = armcii_gmr_xlate_try(rem + lo, (size_t)(hi - lo), op->proc, cls, &t) == 0;
    int split = op->kind == ARMCII_IOV_ACC &&
                (armcii_iov_mpi_quirks() & ARMCII_QUIRK_ACC_DTYPE_SPLIT);
    int local = in_slice && t.direct && (op->kind != ARMCII_IOV_ACC || t.gmr->all_local);
    int overlap = op->kind != ARMCII_IOV_GET &&
                  !armcii_iov_strided_disjoint(levels, count, rstride);
    int few = nseg < STRIDED_DTYPE_MIN_BLOCKS;
    if (!in_slice || (!local && (split || overlap || few))) {
        /* Several regions (or a bad address: translated and reported per
         * segment), a datatype MPI would mishandle, or overlapping target
         * blocks (not allowed in one MPI datatype): one op per block. */
        armcii_log(1, "%s: strided method DIRECT -> IOV (%s), %ld blocks", op->call,
                   !in_slice ? "not one slice" : split ? "acc quirk" : overlap ? "overlap" : "few blocks",
                   nseg);
        strided_as_iov(op, loc, lstride, rem, rstride, count, levels, nseg,
                       in_slice && !overlap ? ARMCII_IOV_BATCHED : ARMCII_IOV_CONSRV);
        return;
    }
    /* t describes rem + lo; the datatypes are relative to rem. */
    t.disp -= lo;
    if (t.direct)
        t.direct -= lo;
    armcii_log(1, "%s: strided method DIRECT%s, %ld blocks of %d bytes to %d", op->call,
               local ? " (node-local)" : "", nseg, count[0], op->proc);
    if (local)
        strided_local(op, loc, lstride, &t, rstride, count, levels);
    else
        strided_mpi(op, loc, lstride, &t, rstride, count, levels, nseg);
}
