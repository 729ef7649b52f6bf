/*
 * Strided API (ARMCI_PutS/GetS/AccS, Nb forms, PutS_flag) and the local
 * pack/unpack helpers.  This file validates arguments; src/iov moves data.
 * Conventions (ARMCI strided API): count[0] is BYTES per block, count[1..L] block
 * counts, strides are byte distances, L = 0 is contiguous and then the
 * stride arrays may be NULL; any zero count means nothing to do.
 */
#include <limits.h>
#include "armci_api.h"
#include "../iov/iov.h"
#include "../gmr/gmr.h"

/* Abort on malformed descriptors; returns 0 when there is nothing to move. */
static int check_strided(const char *call, const void *src, const int *sstr,
                         const void *dst, const int *dstr, const int *count,
                         int levels, int proc)
{
    char err[256];
    int empty;
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    /* a 1-D patch, GA's commonest call: nothing more to check */
    if (levels == 0 && count && count[0] > 0 && src && dst)
        return 1;
    if (ARMCII_UNLIKELY(armcii_iov_check_strided(src, sstr, dst, dstr, count, levels,
                                                 &empty, err, sizeof err)))
        armcii_error(call, "%s", err);
    return !empty;
}

/* Bytes of a valid, non-empty descriptor whose blocks lie back to back on
 * both sides (levels 0, or each level's stride equal to the span below it;
 * a level of count 1 adds nothing), else -1.  GA sends every 1-D patch and
 * every patch of whole columns through the strided calls, and node-locally
 * the contiguous path costs a fraction of the strided one (no iterator,
 * extent or method choice: benchmarks/results/ga_patch.hotpath.2core.txt). */
static int contiguous_bytes(const int sstr[], const int dstr[], const int count[],
                            int levels)
{
    long span = count[0];
    for (int k = 1; k <= levels; k++) {
        if (count[k] == 1)
            continue;
        if (sstr[k - 1] != span || dstr[k - 1] != span)
            return -1;
        span *= count[k];
        if (span > INT_MAX)
            return -1;
    }
    return (int)span;
}

/* The contiguous path for a descriptor contiguous_bytes accepted; a put's
 * class is PutS_flag's NOTIFY (served where a polling target needs it, as
 * ARMCI_Put_flag's data) or PUT. */
static void as_contiguous(const char *call, armcii_iov_kind_t kind, armcii_opclass_t put_cls,
                          int datatype, void *scale, void *src, void *dst, int bytes,
                          int proc, const armcii_gmr_cmpl_t *c)
{
    if (kind == ARMCII_IOV_PUT)
        armcii_gmr_put_contig(call, src, dst, bytes, proc, c, put_cls);
    else if (kind == ARMCII_IOV_GET)
        armcii_gmr_get_contig(call, src, dst, bytes, proc, c);
    else
        armcii_gmr_acc_contig(call, datatype, scale, src, dst, bytes, proc, c);
}

static int strided_cls(const char *call, armcii_iov_kind_t kind, armcii_opclass_t put_cls,
                       int datatype, void *scale, void *src, int sstr[], void *dst,
                       int dstr[], int count[], int levels, int proc, armci_hdl_t *hdl,
                       int blocking)
{
    armcii_api_enter(call);
    int work = check_strided(call, src, sstr, dst, dstr, count, levels, proc);
    if (kind == ARMCII_IOV_ACC && work)
        armcii_api_acc_check(call, datatype, scale, count[0]);
    else if (kind == ARMCII_IOV_ACC)
        armcii_api_acc_elem(call, datatype);
    int bytes = work ? contiguous_bytes(sstr, dstr, count, levels) : -1;
    if (bytes > 0) {
        armcii_gmr_cmpl_t c = {blocking, hdl};
        as_contiguous(call, kind, put_cls, datatype, scale, src, dst, bytes, proc, &c);
    } else if (work) {
        armcii_iov_op_t op = {call, kind, proc, datatype, scale, {blocking, hdl}};
        if (kind == ARMCII_IOV_GET)
            armcii_iov_strided(&op, dst, dstr, src, sstr, count, levels);
        else
            armcii_iov_strided(&op, src, sstr, dst, dstr, count, levels);
    }
    armcii_api_leave();
    return 0;
}

static int strided(const char *call, armcii_iov_kind_t kind, int datatype, void *scale,
                   void *src, int sstr[], void *dst, int dstr[], int count[],
                   int levels, int proc, armci_hdl_t *hdl, int blocking)
{
    return strided_cls(call, kind, ARMCII_OP_PUT, datatype, scale, src, sstr, dst, dstr,
                       count, levels, proc, hdl, blocking);
}

int PARMCI_PutS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                int count[], int stride_levels, int proc)
{
    return strided("ARMCI_PutS", ARMCII_IOV_PUT, 0, NULL, src_ptr, src_stride_ar, dst_ptr,
                   dst_stride_ar, count, stride_levels, proc, NULL, 1);
}
ARMCII_WEAK(PutS)

int PARMCI_GetS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                int count[], int stride_levels, int proc)
{
    return strided("ARMCI_GetS", ARMCII_IOV_GET, 0, NULL, src_ptr, src_stride_ar, dst_ptr,
                   dst_stride_ar, count, stride_levels, proc, NULL, 1);
}
ARMCII_WEAK(GetS)

int PARMCI_AccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                void *dst_ptr, int dst_stride_ar[], int count[], int stride_levels, int proc)
{
    return strided("ARMCI_AccS", ARMCII_IOV_ACC, datatype, scale, src_ptr, src_stride_ar,
                   dst_ptr, dst_stride_ar, count, stride_levels, proc, NULL, 1);
}
ARMCII_WEAK(AccS)

int PARMCI_NbPutS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                  int count[], int stride_levels, int proc, armci_hdl_t *hdl)
{
    return strided("ARMCI_NbPutS", ARMCII_IOV_PUT, 0, NULL, src_ptr, src_stride_ar, dst_ptr,
                   dst_stride_ar, count, stride_levels, proc, hdl, 0);
}
ARMCII_WEAK(NbPutS)

int PARMCI_NbGetS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                  int count[], int stride_levels, int proc, armci_hdl_t *hdl)
{
    return strided("ARMCI_NbGetS", ARMCII_IOV_GET, 0, NULL, src_ptr, src_stride_ar, dst_ptr,
                   dst_stride_ar, count, stride_levels, proc, hdl, 0);
}
ARMCII_WEAK(NbGetS)

int PARMCI_NbAccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                  void *dst_ptr, int dst_stride_ar[], int count[], int stride_levels,
                  int proc, armci_hdl_t *hdl)
{
    return strided("ARMCI_NbAccS", ARMCII_IOV_ACC, datatype, scale, src_ptr, src_stride_ar,
                   dst_ptr, dst_stride_ar, count, stride_levels, proc, hdl, 0);
}
ARMCII_WEAK(NbAccS)

/* PutS, Fence, then the flag, remotely visible on return.  Returns 0 like
 * every other call here (upstream returns 1; GA ignores the value, and a
 * caller testing `== 0` for success is better served by 0). */
int PARMCI_PutS_flag(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                     int count[], int stride_levels, int *flag, int value, int proc)
{
    static const char call[] = "ARMCI_PutS_flag";
    strided_cls(call, ARMCII_IOV_PUT, ARMCII_OP_NOTIFY, 0, NULL, src_ptr, src_stride_ar,
                dst_ptr, dst_stride_ar, count, stride_levels, proc, NULL, 1);
    if (ARMCII_UNLIKELY(!flag))
        armcii_error(call, "flag pointer is NULL");
    armcii_api_enter(call);
    armcii_gmr_put_flag(call, flag, value, proc);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(PutS_flag)

static void check_local_strided(const char *call, void *ptr, int levels, int stride_arr[],
                                int count[], char *buf)
{
    char err[256];
    int empty;
    if (ARMCII_UNLIKELY(armcii_iov_check_strided(ptr, stride_arr, buf, stride_arr, count,
                                                 levels, &empty, err, sizeof err)))
        armcii_error(call, "%s", err);
}

/* Public: pack the strided region at ptr into the contiguous buf. */
void armci_write_strided(void *ptr, int stride_levels, int stride_arr[], int count[], char *buf)
{
    check_local_strided("armci_write_strided", ptr, stride_levels, stride_arr, count, buf);
    armcii_iov_strided_copy(ptr, stride_levels, stride_arr, count, buf, 0);
}

/* Public: unpack the contiguous buf into the strided region at ptr. */
void armci_read_strided(void *ptr, int stride_levels, int stride_arr[], int count[], char *buf)
{
    check_local_strided("armci_read_strided", ptr, stride_levels, stride_arr, count, buf);
    armcii_iov_strided_copy(ptr, stride_levels, stride_arr, count, buf, 1);
}
