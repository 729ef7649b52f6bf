/*
 * Accumulates, for every caller (contiguous, strided, vector): the MPI
 * element type of each ARMCI_ACC_* code, the direct
 * node-local accumulate under the target slice's lock, and the one
 * function that issues accumulates on the MPI path with its policy for
 * scaled operations (armcii_gmr_acc_issue / armcii_gmr_acc_complete).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../common/common_acc.h"

int armcii_gmr_acc_elem(int datatype)
{
    static const int size[] = {4, 8, 4, 8, 8, 16};
    return datatype >= ARMCI_ACC_INT && datatype <= ARMCI_ACC_DCP ? size[datatype] : -1;
}

void armcii_gmr_acc_type(int datatype, MPI_Datatype *mt, int *elem, int *mult)
{
    /* Complex values are summed as pairs of reals: MPI_SUM is component-wise. */
    static const struct { int elem, mult; } info[] = {
        {4, 1}, {8, 1}, {4, 1}, {8, 1}, {8, 2}, {16, 2}};
    MPI_Datatype types[] = {MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE, MPI_FLOAT, MPI_DOUBLE};
    *mt = types[datatype];
    *elem = info[datatype].elem;
    *mult = info[datatype].mult;
}

static int acc_identity(int datatype, const void *scale)
{
    switch (datatype) {
    case ARMCI_ACC_INT: return *(const int *)scale == 1;
    case ARMCI_ACC_LNG: return *(const long *)scale == 1;
    case ARMCI_ACC_FLT: return fabsf(*(const float *)scale - 1.0f) < FLT_EPSILON;
    case ARMCI_ACC_DBL: return fabs(*(const double *)scale - 1.0) < DBL_EPSILON;
    case ARMCI_ACC_CPL: {
        const float *s = scale;
        return fabsf(s[0] - 1.0f) < FLT_EPSILON && fabsf(s[1]) < FLT_EPSILON;
    }
    default: {
        const double *s = scale;
        return fabs(s[0] - 1.0) < DBL_EPSILON && fabs(s[1]) < DBL_EPSILON;
    }
    }
}

void armcii_gmr_slice_lock(const armcii_target_t *t)
{
    armcii_spin_lock(t->gmr->slice[t->grank].acc_lock);
}

void armcii_gmr_slice_unlock(const armcii_target_t *t)
{
    armcii_spin_unlock(t->gmr->slice[t->grank].acc_lock);
}

void armcii_gmr_acc_direct(const armcii_target_t *t, int datatype, const void *scale,
                           const void *src, size_t bytes)
{
    armcii_gmr_slice_lock(t);
    armcii_acc_kernel(datatype, scale, src, t->direct, bytes);
    armcii_gmr_slice_unlock(t);
}

/* ---- the MPI-path accumulate and its scaling policy ---- */

static void stage_reserve(armcii_gmr_acc_t *a, size_t cap)
{
    if (a->tmp && a->tmp != (char *)a->inl)
        free(a->tmp);
    a->tmp = cap <= sizeof a->inl ? (char *)a->inl : malloc(cap);
    if (!a->tmp)
        armcii_error(armcii_current_call ? armcii_current_call : "ARMCI_Acc",
                     "out of memory for a %zu-byte scaled accumulate buffer", cap);
    a->cap = cap;
    a->used = 0;
}

void armcii_gmr_acc_begin(armcii_gmr_acc_t *a, int datatype, const void *scale, size_t cap)
{
    a->datatype = datatype;
    a->scale = scale;
    armcii_gmr_acc_type(datatype, &a->mt, &a->elem, &a->mult);
    a->scaled = !acc_identity(datatype, scale);
    a->tmp = NULL;
    a->cap = a->used = 0;
    if (a->scaled && cap)
        stage_reserve(a, cap);
}

int armcii_gmr_acc_issue(armcii_gmr_acc_t *a, const armcii_target_t *t,
                         const armcii_gmr_src_t *src, MPI_Datatype ttype)
{
    size_t nel = src->bytes / (size_t)a->elem * (size_t)a->mult;
    if (ARMCII_UNLIKELY(nel > INT_MAX))
        armcii_error(armcii_current_call ? armcii_current_call : "ARMCI_Acc",
                     "accumulate of %zu bytes is too large for one MPI operation", src->bytes);
    if (t->am) { /* strided and vector targets arrive here block by block (src/iov) */
        if (ttype != MPI_DATATYPE_NULL)
            armcii_error(armcii_current_call, "internal: a datatype accumulate aimed at a ghost");
        int count[1] = {(int)src->bytes};
        armcii_gmr_acc_am(t, a->datatype, a->scale, src, 0, count, NULL);
        return 0;
    }
    int n = (int)nel, tc = ttype == MPI_DATATYPE_NULL ? n : 1;
    MPI_Datatype tt = ttype == MPI_DATATYPE_NULL ? a->mt : ttype;
    if (!a->scaled) {
        if (src->ltype != MPI_DATATYPE_NULL)
            armcii_gmr_acc_mpi(t, src->base, 1, src->ltype, tc, tt);
        else
            armcii_gmr_acc_mpi(t, src->base, n, a->mt, tc, tt);
        return 0;
    }
    /* MPI only sums: scale*src goes to a temporary, contiguous, that must
     * live until the operation is locally complete. */
    if (!a->tmp || (a->used == 0 && src->bytes > a->cap))
        stage_reserve(a, src->bytes);
    if (a->used + src->bytes > a->cap)
        return 1;
    char *s = a->tmp + a->used;
    if (!src->next) {
        armcii_acc_scale(a->datatype, a->scale, src->base, s, src->bytes);
    } else {
        const char *p;
        size_t len, pos = 0;
        while (pos < src->bytes && src->next(src->ctx, &p, &len)) {
            armcii_acc_scale(a->datatype, a->scale, p, s + pos, len);
            pos += len;
        }
    }
    a->used += src->bytes;
    armcii_gmr_acc_mpi(t, s, n, a->mt, tc, tt);
    return 0;
}

void armcii_gmr_acc_complete(armcii_gmr_acc_t *a, const armcii_gmr_cmpl_t *c,
                             const armcii_target_t *t)
{
    if (a->used)
        armcii_gmr_complete_local(t);
    else
        armcii_gmr_complete(c, t);
}

void armcii_gmr_acc_reset(armcii_gmr_acc_t *a) { a->used = 0; }

void armcii_gmr_acc_end(armcii_gmr_acc_t *a)
{
    if (a->tmp && a->tmp != (char *)a->inl)
        free(a->tmp);
    a->tmp = NULL;
    a->cap = a->used = 0;
}
