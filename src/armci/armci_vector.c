/*
 * I/O-vector API (ARMCI_PutV/GetV/AccV and Nb forms).  Each descriptor is
 * validated here and run by src/iov as one segment sequence; its segments
 * are translated one by one, so they may lie in different regions.
 */
#include "armci_api.h"
#include "../iov/iov.h"

static int vector(const char *call, armcii_iov_kind_t kind, int datatype, void *scale,
                  armci_giov_t *iov, int iov_len, int proc, armci_hdl_t *hdl, int blocking)
{
    char err[256];
    armcii_api_enter(call);
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    int elem = kind == ARMCII_IOV_ACC ? armcii_api_acc_elem(call, datatype) : 1;
    if (ARMCII_UNLIKELY(kind == ARMCII_IOV_ACC && !scale))
        armcii_error(call, "scale is NULL");
    if (ARMCII_UNLIKELY(armcii_iov_check_vector(iov, iov_len, elem, err, sizeof err)))
        armcii_error(call, "%s", err);
    /* The local side's pointers are the caller's memory, which nothing
     * later checks (the remote side's are translated): one compare per
     * segment, before the first descriptor runs. */
    for (int d = 0; d < iov_len; d++) {
        void **loc = kind == ARMCII_IOV_GET ? iov[d].dst_ptr_array : iov[d].src_ptr_array;
        for (int i = 0; iov[d].bytes && i < iov[d].ptr_array_len; i++)
            if (ARMCII_UNLIKELY(!loc[i]))
                armcii_error(call, "descriptor %d: %s pointer %d is NULL", d,
                             kind == ARMCII_IOV_GET ? "destination" : "source", i);
    }
    armcii_iov_op_t op = {call, kind, proc, datatype, scale, {blocking, hdl}};
    for (int d = 0; d < iov_len; d++) {
        armcii_iov_seq_t seq = {0};
        seq.bytes = iov[d].bytes;
        seq.n = iov[d].ptr_array_len;
        seq.loc = kind == ARMCII_IOV_GET ? iov[d].dst_ptr_array : iov[d].src_ptr_array;
        seq.rem = kind == ARMCII_IOV_GET ? iov[d].src_ptr_array : iov[d].dst_ptr_array;
        armcii_iov_run(&op, &seq);
    }
    armcii_api_leave();
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
