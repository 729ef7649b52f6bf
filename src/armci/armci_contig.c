/*
 * Contiguous transfers and value operations.  Node-local targets are served
 * by load/store (accumulates only on regions whose members all share the
 * node); everything else is one MPI operation plus local completion.
 */
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"
#include "../gmr/gmr.h"
#include "../progress/progress.h"

static inline void check_xfer(const char *call, const void *local, int bytes, int proc)
{
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    if (ARMCII_UNLIKELY(bytes < 0))
        armcii_error(call, "negative size %d", bytes);
    if (ARMCII_UNLIKELY(!local && bytes > 0))
        armcii_error(call, "local buffer is NULL");
}

static int put_op(const char *call, const void *src, void *dst, int bytes, int proc,
                  armci_hdl_t *hdl, int blocking, armcii_opclass_t cls)
{
    armcii_target_t t;
    check_xfer(call, src, bytes, proc);
    if (bytes == 0)
        return 0;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, cls, &t);
    if (t.direct) {
        memmove(t.direct, src, (size_t)bytes);
        return 0;
    }
    armcii_gmr_put(&t, src, bytes, MPI_BYTE, bytes, MPI_BYTE);
    if (blocking)
        armcii_gmr_complete_local(&t);
    else
        armcii_nb_track(hdl, &t);
    return 0;
}

/* Time inside the library counts as communication for the profiler. */
int armcii_put(const char *call, const void *src, void *dst, int bytes, int proc,
               armci_hdl_t *hdl, int blocking)
{
    armcii_profile_enter();
    int rc = put_op(call, src, dst, bytes, proc, hdl, blocking, ARMCII_OP_PUT);
    armcii_profile_leave();
    return rc;
}

static int get_op(const char *call, const void *src, void *dst, int bytes, int proc,
                  armci_hdl_t *hdl, int blocking)
{
    armcii_target_t t;
    check_xfer(call, dst, bytes, proc);
    if (bytes == 0)
        return 0;
    armcii_gmr_xlate(call, src, (size_t)bytes, proc, ARMCII_OP_GET, &t);
    if (t.direct) {
        armcii_gmr_order_read(&t); /* an earlier MPI accumulate to it */
        memmove(dst, t.direct, (size_t)bytes);
        return 0;
    }
    armcii_gmr_get(&t, dst, bytes, MPI_BYTE, bytes, MPI_BYTE);
    if (blocking)
        armcii_gmr_complete_local(&t);
    else
        armcii_nb_track(hdl, &t);
    return 0;
}

int armcii_get(const char *call, const void *src, void *dst, int bytes, int proc,
               armci_hdl_t *hdl, int blocking)
{
    armcii_profile_enter();
    int rc = get_op(call, src, dst, bytes, proc, hdl, blocking);
    armcii_profile_leave();
    return rc;
}

int armcii_acc_check(const char *call, int datatype, const void *scale, int bytes)
{
    int elem = armcii_acc_elem_size(call, datatype);
    if (ARMCII_UNLIKELY(!scale))
        armcii_error(call, "scale is NULL");
    if (ARMCII_UNLIKELY(bytes % elem))
        armcii_error(call, "%d bytes is not a multiple of the element size %d", bytes, elem);
    return elem;
}

static int acc_op(const char *call, int datatype, const void *scale, const void *src,
                  void *dst, int bytes, int proc, armci_hdl_t *hdl, int blocking)
{
    armcii_target_t t;
    check_xfer(call, src, bytes, proc);
    armcii_acc_check(call, datatype, scale, bytes);
    if (bytes == 0)
        return 0;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, ARMCII_OP_ACC, &t);
    if (t.direct && t.gmr->all_local) {
        armcii_gmr_acc_direct(&t, datatype, scale, src, (size_t)bytes);
        return 0;
    }
    MPI_Datatype mt;
    int elem, mult;
    armcii_gmr_acc_type(datatype, &mt, &elem, &mult);
    int count = bytes / elem * mult;
    if (armcii_gmr_acc_identity(datatype, scale)) {
        armcii_gmr_acc(&t, src, count, mt, count, mt);
        if (blocking)
            armcii_gmr_complete_local(&t);
        else
            armcii_nb_track(hdl, &t);
        return 0;
    }
    /* MPI only sums: scale at the origin into a buffer that must live until
     * local completion, so even the nonblocking form completes here. */
    double stackbuf[32];
    void *tmp = bytes <= (int)sizeof stackbuf ? stackbuf : malloc((size_t)bytes);
    if (!tmp)
        armcii_error(call, "out of memory for a %d-byte scaled buffer", bytes);
    armcii_gmr_acc_scale(datatype, scale, src, tmp, (size_t)bytes);
    armcii_gmr_acc(&t, tmp, count, mt, count, mt);
    armcii_gmr_complete_local(&t);
    if (tmp != stackbuf)
        free(tmp);
    return 0;
}

int armcii_acc(const char *call, int datatype, const void *scale, const void *src,
               void *dst, int bytes, int proc, armci_hdl_t *hdl, int blocking)
{
    armcii_profile_enter();
    int rc = acc_op(call, datatype, scale, src, dst, bytes, proc, hdl, blocking);
    armcii_profile_leave();
    return rc;
}

int armcii_acc_elem_size(const char *call, int datatype)
{
    static const int size[] = {4, 8, 4, 8, 8, 16};
    if (ARMCII_UNLIKELY(datatype < ARMCI_ACC_INT || datatype > ARMCI_ACC_DCP))
        armcii_error(call, "unknown accumulate type %d (expected ARMCI_ACC_INT..DCP, "
                     "0..5)", datatype);
    return size[datatype];
}

int PARMCI_Put(void *src, void *dst, int size, int target)
{
    return armcii_put("ARMCI_Put", src, dst, size, target, NULL, 1);
}
ARMCII_WEAK(Put)

int PARMCI_Get(void *src, void *dst, int size, int target)
{
    return armcii_get("ARMCI_Get", src, dst, size, target, NULL, 1);
}
ARMCII_WEAK(Get)

int PARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc)
{
    return armcii_acc("ARMCI_Acc", datatype, scale, src, dst, bytes, proc, NULL, 1);
}
ARMCII_WEAK(Acc)

/* Data, then a fence, then the flag; the flag is remotely complete on return
 * because the target polls it with plain loads and makes no calls. */
void armcii_put_flag(const char *call, int *flag, int value, int proc)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, flag, sizeof(int), proc, ARMCII_OP_NOTIFY, &t);
    if (t.direct) {
        armcii_gmr_fence(proc);
        __atomic_store_n((int *)t.direct, value, __ATOMIC_RELEASE);
        return;
    }
    armcii_gmr_fence(proc);
    armcii_gmr_put(&t, &value, 1, MPI_INT, 1, MPI_INT);
    armcii_gmr_fence(proc);
}

int PARMCI_Put_flag(void *src, void *dst, int size, int *flag, int value, int proc)
{
    static const char call[] = "ARMCI_Put_flag";
    armcii_profile_enter();
    put_op(call, src, dst, size, proc, NULL, 1, ARMCII_OP_NOTIFY);
    armcii_put_flag(call, flag, value, proc);
    armcii_profile_leave();
    return 0;
}
ARMCII_WEAK(Put_flag)

#define PUT_VALUE(Name, T)                                                    \
    int PARMCI_PutValue##Name(T src, void *dst, int proc)                     \
    {                                                                         \
        return armcii_put("ARMCI_PutValue" #Name, &src, dst, sizeof(T), proc, \
                          NULL, 1);                                           \
    }                                                                         \
    ARMCII_WEAK(PutValue##Name)                                               \
    /* Blocking, like the reference implementation; hdl is left untouched. */ \
    int PARMCI_NbPutValue##Name(T src, void *dst, int proc, armci_hdl_t *hdl) \
    {                                                                         \
        (void)hdl;                                                            \
        return armcii_put("ARMCI_NbPutValue" #Name, &src, dst, sizeof(T),     \
                          proc, NULL, 1);                                     \
    }                                                                         \
    ARMCII_WEAK(NbPutValue##Name)                                             \
    T PARMCI_GetValue##Name(void *src, int proc)                              \
    {                                                                         \
        T v;                                                                  \
        armcii_get("ARMCI_GetValue" #Name, src, &v, sizeof(T), proc, NULL, 1);\
        return v;                                                             \
    }                                                                         \
    ARMCII_WEAK(GetValue##Name)

PUT_VALUE(Int, int)
PUT_VALUE(Long, long)
PUT_VALUE(Float, float)
PUT_VALUE(Double, double)

/* Public: local memmove (note the (src, dst) order of the ARMCI API). */
void ARMCI_Copy(void *src, void *dst, int size)
{
    if (size < 0)
        armcii_error("ARMCI_Copy", "negative size %d", size);
    if (size)
        memmove(dst, src, (size_t)size);
}
