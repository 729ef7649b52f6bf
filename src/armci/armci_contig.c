/*
 * Contiguous transfers and value operations: checks, then src/gmr.
 */
#include <string.h>
#include "armci_api.h"
#include "../gmr/gmr.h"

static const armcii_gmr_cmpl_t blocking = {1, NULL};

static inline void check_xfer(const char *call, const void *local, const void *remote,
                              int bytes, int proc)
{
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    if (ARMCII_UNLIKELY(bytes < 0))
        armcii_error(call, "negative size %d", bytes);
    if (ARMCII_UNLIKELY((!local || !remote) && bytes > 0))
        armcii_error(call, "%s buffer is NULL", !local ? "local" : "remote");
}

int armcii_api_acc_elem(const char *call, int datatype)
{
    int elem = armcii_gmr_acc_elem(datatype);
    if (ARMCII_UNLIKELY(elem < 0))
        armcii_error(call, "unknown accumulate type %d (expected ARMCI_ACC_INT..DCP, "
                     "0..5)", datatype);
    return elem;
}

int armcii_api_acc_check(const char *call, int datatype, const void *scale, int bytes)
{
    int elem = armcii_api_acc_elem(call, datatype);
    if (ARMCII_UNLIKELY(!scale))
        armcii_error(call, "scale is NULL");
    if (ARMCII_UNLIKELY(bytes % elem))
        armcii_error(call, "%d bytes is not a multiple of the element size %d", bytes, elem);
    return elem;
}

static int put(const char *call, void *src, void *dst, int bytes, int proc,
               const armcii_gmr_cmpl_t *c)
{
    armcii_api_enter(call);
    check_xfer(call, src, dst, bytes, proc);
    if (bytes)
        armcii_gmr_put_contig(call, src, dst, bytes, proc, c, ARMCII_OP_PUT);
    armcii_api_leave();
    return 0;
}

static int get(const char *call, void *src, void *dst, int bytes, int proc,
               const armcii_gmr_cmpl_t *c)
{
    armcii_api_enter(call);
    check_xfer(call, dst, src, bytes, proc);
    if (bytes)
        armcii_gmr_get_contig(call, src, dst, bytes, proc, c);
    armcii_api_leave();
    return 0;
}

static int acc(const char *call, int datatype, void *scale, void *src, void *dst, int bytes,
               int proc, const armcii_gmr_cmpl_t *c)
{
    armcii_api_enter(call);
    check_xfer(call, src, dst, bytes, proc);
    armcii_api_acc_check(call, datatype, scale, bytes);
    if (bytes)
        armcii_gmr_acc_contig(call, datatype, scale, src, dst, bytes, proc, c);
    armcii_api_leave();
    return 0;
}

int PARMCI_Put(void *src, void *dst, int size, int target)
{
    return put("ARMCI_Put", src, dst, size, target, &blocking);
}
ARMCII_WEAK(Put)

int PARMCI_Get(void *src, void *dst, int size, int target)
{
    return get("ARMCI_Get", src, dst, size, target, &blocking);
}
ARMCII_WEAK(Get)

int PARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc)
{
    return acc("ARMCI_Acc", datatype, scale, src, dst, bytes, proc, &blocking);
}
ARMCII_WEAK(Acc)

int PARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl)
{
    armcii_gmr_cmpl_t c = {0, hdl};
    return put("ARMCI_NbPut", src, dst, bytes, proc, &c);
}
ARMCII_WEAK(NbPut)

int PARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl)
{
    armcii_gmr_cmpl_t c = {0, hdl};
    return get("ARMCI_NbGet", src, dst, bytes, proc, &c);
}
ARMCII_WEAK(NbGet)

int PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes, int proc,
                 armci_hdl_t *hdl)
{
    armcii_gmr_cmpl_t c = {0, hdl};
    return acc("ARMCI_NbAcc", datatype, scale, src, dst, bytes, proc, &c);
}
ARMCII_WEAK(NbAcc)

/* Put, fence, then the flag: visible at the target only after the data. */
int PARMCI_Put_flag(void *src, void *dst, int size, int *flag, int value, int proc)
{
    static const char call[] = "ARMCI_Put_flag";
    armcii_api_enter(call);
    check_xfer(call, src, dst, size, proc);
    if (ARMCII_UNLIKELY(!flag))
        armcii_error(call, "flag pointer is NULL");
    if (size)
        armcii_gmr_put_contig(call, src, dst, size, proc, &blocking, ARMCII_OP_NOTIFY);
    armcii_gmr_put_flag(call, flag, value, proc);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(Put_flag)

#define PUT_VALUE(Name, T)                                                    \
    int PARMCI_PutValue##Name(T src, void *dst, int proc)                     \
    {                                                                         \
        return put("ARMCI_PutValue" #Name, &src, dst, sizeof(T), proc,        \
                   &blocking);                                                \
    }                                                                         \
    ARMCII_WEAK(PutValue##Name)                                               \
    /* Blocking, like the reference implementation; hdl is left untouched. */ \
    int PARMCI_NbPutValue##Name(T src, void *dst, int proc, armci_hdl_t *hdl) \
    {                                                                         \
        (void)hdl;                                                            \
        return put("ARMCI_NbPutValue" #Name, &src, dst, sizeof(T), proc,      \
                   &blocking);                                                \
    }                                                                         \
    ARMCII_WEAK(NbPutValue##Name)                                             \
    T PARMCI_GetValue##Name(void *src, int proc)                              \
    {                                                                         \
        T v;                                                                  \
        get("ARMCI_GetValue" #Name, src, &v, sizeof(T), proc, &blocking);     \
        return v;                                                             \
    }                                                                         \
    ARMCII_WEAK(GetValue##Name)

PUT_VALUE(Int, int)
PUT_VALUE(Long, long)
PUT_VALUE(Float, float)
PUT_VALUE(Double, double)

/* Local memmove (note the (src, dst) order of the ARMCI API). */
void ARMCI_Copy(void *src, void *dst, int size)
{
    static const char call[] = "ARMCI_Copy";
    if (size < 0)
        armcii_error(call, "negative size %d", size);
    if (size && (!src || !dst))
        armcii_error(call, "%s pointer is NULL", !src ? "source" : "destination");
    if (size)
        memmove(dst, src, (size_t)size);
}
