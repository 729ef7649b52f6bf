/*
 * I/O-vector API (ARMCI_PutV/GetV/AccV and Nb forms).  Each descriptor is
 * validated here and run by src/iov as one segment sequence; its segments
 * are translated one by one, so they may lie in different regions.
 */
#include "armci_int.h"
#include "../iov/iov.h"
#include "../progress/progress.h"

static int vector(const char *call, armcii_iov_kind_t kind, int datatype, void *scale,
                  armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *hdl, int blocking)
{
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    if (ARMCII_UNLIKELY(iov_len < 0))
        armcii_error(call, "negative descriptor count %d", iov_len);
    if (ARMCII_UNLIKELY(iov_len > 0 && !iov))
        armcii_error(call, "descriptor array is NULL");
    int elem = kind == ARMCII_IOV_ACC ? armcii_acc_elem_size(call, datatype) : 1;
    if (ARMCII_UNLIKELY(kind == ARMCII_IOV_ACC && !scale))
        armcii_error(call, "scale is NULL");
    for (int d = 0; d < iov_len; d++) {
        const armci_giov_t *v = &iov[d];
        if (ARMCII_UNLIKELY(v->bytes < 0 || v->ptr_array_len < 0))
            armcii_error(call, "descriptor %d: negative %s (%d)", d,
                         v->bytes < 0 ? "bytes" : "ptr_array_len",
                         v->bytes < 0 ? v->bytes : v->ptr_array_len);
        if (ARMCII_UNLIKELY(v->bytes % elem))
            armcii_error(call, "descriptor %d: %d bytes is not a multiple of the element "
                         "size %d", d, v->bytes, elem);
        if (v->bytes == 0 || v->ptr_array_len == 0)
            continue;
        if (ARMCII_UNLIKELY(!v->src_ptr_array || !v->dst_ptr_array))
            armcii_error(call, "descriptor %d: %s pointer array is NULL", d,
                         !v->src_ptr_array ? "source" : "destination");
    }
    armcii_iov_op_t op = {call, kind, proc, datatype, scale, hdl, blocking};
    armcii_profile_enter(); /* time inside the library is communication */
    for (int d = 0; d < iov_len; d++) {
        armcii_iov_seq_t seq = {0};
        seq.bytes = iov[d].bytes;
        seq.n = iov[d].ptr_array_len;
        seq.loc = kind == ARMCII_IOV_GET ? iov[d].dst_ptr_array : iov[d].src_ptr_array;
        seq.rem = kind == ARMCII_IOV_GET ? iov[d].src_ptr_array : iov[d].dst_ptr_array;
        armcii_iov_run(&op, &seq);
    }
    armcii_profile_leave();
    return 0;
}

int PARMCI_PutV(armci_giov_t *iov, int iov_len, int proc)
{
    return vector("ARMCI_PutV", ARMCII_IOV_PUT, 0, NULL, iov, iov_len, proc, NULL, 1);
}
ARMCII_WEAK(PutV)

int PARMCI_GetV(armci_giov_t *iov, int iov_len, int proc)
{
    return vector("ARMCI_GetV", ARMCII_IOV_GET, 0, NULL, iov, iov_len, proc, NULL, 1);
}
ARMCII_WEAK(GetV)

int PARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc)
{
    return vector("ARMCI_AccV", ARMCII_IOV_ACC, datatype, scale, iov, iov_len, proc, NULL, 1);
}
ARMCII_WEAK(AccV)

int PARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *handle)
{
    return vector("ARMCI_NbPutV", ARMCII_IOV_PUT, 0, NULL, iov, iov_len, proc, handle, 0);
}
ARMCII_WEAK(NbPutV)

int PARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *handle)
{
    return vector("ARMCI_NbGetV", ARMCII_IOV_GET, 0, NULL, iov, iov_len, proc, handle, 0);
}
ARMCII_WEAK(NbGetV)

int PARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc,
                  armci_hdl_t *handle)
{
    return vector("ARMCI_NbAccV", ARMCII_IOV_ACC, datatype, scale, iov, iov_len, proc,
                  handle, 0);
}
ARMCII_WEAK(NbAccV)
