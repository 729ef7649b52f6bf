/*
 * Contiguous transfers: node-local targets are served by load/store
 * (accumulates only on regions whose members all share the node);
 * everything else is one MPI operation plus the completion asked for.
 */
#include <string.h>
#include "gmr.h"

void armcii_gmr_put_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c, armcii_opclass_t cls)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, cls, &t);
    if (t.direct) {
        memmove(t.direct, src, (size_t)bytes);
        return;
    }
    armcii_gmr_put(&t, src, bytes, MPI_BYTE, bytes, MPI_BYTE);
    armcii_gmr_complete(c, &t);
}

void armcii_gmr_get_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, src, (size_t)bytes, proc, ARMCII_OP_GET, &t);
    if (t.direct) {
        armcii_gmr_order_read(&t); /* an earlier MPI accumulate to it */
        memmove(dst, t.direct, (size_t)bytes);
        return;
    }
    armcii_gmr_get(&t, dst, bytes, MPI_BYTE, bytes, MPI_BYTE);
    armcii_gmr_complete(c, &t);
}

void armcii_gmr_acc_contig(const char *call, int datatype, const void *scale,
                           const void *src, void *dst, int bytes, int proc,
                           const armcii_gmr_cmpl_t *c)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, dst, (size_t)bytes, proc, ARMCII_OP_ACC, &t);
    if (t.direct && t.gmr->all_local) {
        armcii_gmr_acc_direct(&t, datatype, scale, src, (size_t)bytes);
        return;
    }
    armcii_gmr_acc_t a;
    armcii_gmr_src_t s = {src, MPI_DATATYPE_NULL, (size_t)bytes, NULL, NULL};
    armcii_gmr_acc_begin(&a, datatype, scale, (size_t)bytes);
    armcii_gmr_acc_issue(&a, &t, &s, MPI_DATATYPE_NULL);
    armcii_gmr_acc_complete(&a, c, &t);
    armcii_gmr_acc_end(&a);
}

/* Data, then a fence, then the flag; the flag is remotely complete on return
 * because the target polls it with plain loads and makes no calls. */
void armcii_gmr_put_flag(const char *call, int *flag, int value, int proc)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, flag, sizeof(int), proc, ARMCII_OP_NOTIFY, &t);
    armcii_gmr_fence(proc);
    if (t.direct) {
        __atomic_store_n((int *)t.direct, value, __ATOMIC_RELEASE);
        return;
    }
    armcii_gmr_put(&t, &value, 1, MPI_INT, 1, MPI_INT);
    armcii_gmr_fence(proc);
}
