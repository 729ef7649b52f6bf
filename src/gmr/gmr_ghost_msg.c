/*
 * Ghost backend, user side: operations that ghosts carry out from
 * messages (ARMCI_GHOST_AM; gmr_ghost.c decides which go there and sets
 * the target's ghost, pool and displacement).  A strided or vector
 * transfer travels as one message with its block structure, so the ghost
 * applies a packed patch where MPI would handle every block in software.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../ghost/ghost.h"

_Static_assert(ARMCII_AM_LEVELS == ARMCII_AM_MAX_LEVELS, "one depth for shipped strides");

/* h's target: t's place and the block structure (levels, count, rstride). */
static void describe(armcii_ghost_am_t *h, const armcii_target_t *t, int levels,
                     const int count[], const int rstride[])
{
    if (levels > ARMCII_AM_MAX_LEVELS) /* src/iov sends deeper ones block by block */
        armcii_error(armcii_current_call, "internal: %d stride levels for a ghost", levels);
    h->pool = t->am_pool;
    h->disp = (int64_t)t->disp;
    h->levels = levels;
    h->count[0] = count[0];
    for (int k = 1; k <= levels; k++) {
        h->count[k] = count[k];
        h->stride[k - 1] = rstride[k - 1];
    }
}

/* One get of the blocks h describes (payload: what follows h) into src's
 * destination. */
static void get_one(const armcii_target_t *t, armcii_ghost_am_t *h, size_t payload,
                    const armcii_gmr_src_t *src)
{
    if (!src->next) {
        ARMCII_MPIOP(ARMCII_MPIOP_MSG_READ,
                     armcii_ghost_am_get(t->rank, h, payload, (void *)src->base, src->bytes));
        return;
    }
    char *tmp = malloc(src->bytes ? src->bytes : 1);
    if (!tmp)
        armcii_error(armcii_current_call, "out of memory for a %zu-byte get", src->bytes);
    ARMCII_MPIOP(ARMCII_MPIOP_MSG_READ,
                 armcii_ghost_am_get(t->rank, h, payload, tmp, src->bytes));
    const char *b;
    size_t len, pos = 0;
    while (pos < src->bytes && src->next(src->ctx, &b, &len)) {
        memcpy((char *)b, tmp + pos, len);
        pos += len;
    }
    free(tmp);
}

/* One accumulate (datatype >= 0) or put (-1) message. */
static void write_one(const armcii_target_t *t, int datatype, const void *scale,
                      const armcii_gmr_src_t *src, int levels, const int count[],
                      const int rstride[])
{
    armcii_ghost_am_t *h;
    char *p = armcii_ghost_am_msg(src->bytes, &h);
    describe(h, t, levels, count, rstride);
    h->kind = datatype < 0 ? ARMCII_AM_PUT : ARMCII_AM_ACC;
    h->datatype = datatype;
    if (datatype >= 0) /* a scale is one element */
        memcpy(h->scale, scale, (size_t)armcii_gmr_acc_elem(datatype));
    if (!src->next) {
        memcpy(p, src->base, src->bytes);
    } else {
        const char *b;
        size_t len, pos = 0;
        while (pos < src->bytes && src->next(src->ctx, &b, &len)) {
            memcpy(p + pos, b, len);
            pos += len;
        }
    }
    ARMCII_MPIOP(ARMCII_MPIOP_MSG_WRITE, armcii_ghost_am_post(t->rank, h, src->bytes));
    armcii_gmr_count_write(t->gmr, t->grank, 1);
}

/* A transfer (datatype: ARMCI_ACC_* accumulate, -1 put, -2 get): one
 * message, or contiguous pieces of at most ARMCII_AM_MAX_BYTES (MPI counts
 * are ints; src/iov sends larger strided ones block by block). */
static void transfer(const armcii_target_t *t, int datatype, const void *scale,
                     const armcii_gmr_src_t *src, int levels, const int count[],
                     const int rstride[])
{
    if (datatype == -2)
        armcii_gmr_order_read(t);
    else
        armcii_gmr_mark_write(t);
    int whole = levels || src->next || src->bytes <= ARMCII_AM_MAX_BYTES;
    size_t step = whole ? src->bytes : ARMCII_AM_MAX_BYTES;
    size_t pieces = whole ? 1 : (src->bytes + step - 1) / step;
    for (size_t k = 0; k < pieces; k++) {
        armcii_target_t piece = *t;
        armcii_gmr_src_t s = *src;
        int c[ARMCII_AM_MAX_LEVELS + 1];
        memcpy(c, count, (size_t)(levels + 1) * sizeof(int));
        if (!whole) {
            size_t off = k * step;
            piece.disp += (MPI_Aint)off;
            s.base = src->base + off;
            s.bytes = src->bytes - off < step ? src->bytes - off : step;
            c[0] = (int)s.bytes;
        }
        if (datatype == -2) {
            armcii_ghost_am_t *h;
            armcii_ghost_am_msg(0, &h);
            describe(h, &piece, levels, c, rstride);
            get_one(&piece, h, 0, &s);
        } else {
            write_one(&piece, datatype, scale, &s, levels, c, rstride);
        }
    }
}

void armcii_gmr_xfer_am(const armcii_target_t *t, int put, const armcii_gmr_src_t *src,
                        int levels, const int count[], const int rstride[])
{
    transfer(t, put ? -1 : -2, NULL, src, levels, count, rstride);
}

void armcii_gmr_acc_am(const armcii_target_t *t, int datatype, const void *scale,
                       const armcii_gmr_src_t *src, int levels, const int count[],
                       const int rstride[])
{
    transfer(t, datatype, scale, src, levels, count, rstride);
}

void armcii_gmr_vec_am(const armcii_target_t *t, int datatype, const void *scale, long n,
                       int block, char *const loc[], const MPI_Aint tdisp[])
{
    size_t data = (size_t)n * (size_t)block, nd = (size_t)n * sizeof(int64_t);
    if (data > ARMCII_AM_MAX_BYTES || n > INT_MAX)
        armcii_error(armcii_current_call, "internal: a vector of %zu bytes for one message", data);
    if (datatype == -2)
        armcii_gmr_order_read(t);
    else
        armcii_gmr_mark_write(t);
    armcii_ghost_am_t *h;
    char *p = armcii_ghost_am_msg(nd + (datatype == -2 ? 0 : data), &h);
    h->pool = t->am_pool;
    h->levels = -1;
    h->count[0] = block;
    h->count[1] = (int32_t)n;
    for (long k = 0; k < n; k++)
        ((int64_t *)p)[k] = (int64_t)tdisp[k];
    if (datatype == -2) {
        char *tmp = malloc(data ? data : 1);
        if (!tmp)
            armcii_error(armcii_current_call, "out of memory for a %zu-byte get", data);
        ARMCII_MPIOP(ARMCII_MPIOP_MSG_READ, armcii_ghost_am_get(t->rank, h, nd, tmp, data));
        for (long k = 0; k < n; k++)
            memcpy(loc[k], tmp + (size_t)k * (size_t)block, (size_t)block);
        free(tmp);
        return;
    }
    h->kind = datatype < 0 ? ARMCII_AM_PUT : ARMCII_AM_ACC;
    h->datatype = datatype;
    if (datatype >= 0)
        memcpy(h->scale, scale, (size_t)armcii_gmr_acc_elem(datatype));
    for (long k = 0; k < n; k++)
        memcpy(p + nd + (size_t)k * (size_t)block, loc[k], (size_t)block);
    ARMCII_MPIOP(ARMCII_MPIOP_MSG_WRITE, armcii_ghost_am_post(t->rank, h, nd + data));
    armcii_gmr_count_write(t->gmr, t->grank, 1);
}

long armcii_gmr_rmw_am(const armcii_target_t *t, int op, long a, long b)
{
    long old;
    ARMCII_MPIOP(ARMCII_MPIOP_MSG_READ,
                 old = armcii_ghost_am_rmw(t->rank, t->am_pool, t->disp, op, a, b));
    return old;
}
