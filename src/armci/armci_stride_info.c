/*
 * The stride iterator of classic ARMCI (iterator.h; GA's configure detects
 * armci_stride_info_init): walks the contiguous segments of a strided
 * descriptor in ARMCI order (level 1 fastest).  Pure C, no library state:
 * usable before ARMCI_Init.  Bad descriptors end in ARMCI_Error.
 */
#include "armci_api.h"
/* iterator.h comes with common.h (default visibility) */

/* An iterator armci_stride_info_init did not fill (or that was overwritten)
 * is refused before its levels index anything. */
static stride_info_t *checked(const char *call, stride_info_t *s)
{
    if (!s)
        armcii_error(call, "iterator is NULL");
    if (s->stride_levels < 0 || s->stride_levels > ARMCI_MAX_STRIDE_LEVEL || s->size < 0 ||
        s->pos < 0 || s->pos > s->size)
        armcii_error(call, "the iterator is not initialized (or overwritten): stride_levels "
                     "%d, position %d of %d", s->stride_levels, s->pos, s->size);
    return s;
}

void armci_stride_info_init(stride_info_t *sinfo, void *base_ptr, int stride_levels,
                            const int *stride_arr, const int *seg_count)
{
    static const char call[] = "armci_stride_info_init";
    stride_info_t *s = sinfo; /* caller-allocated: its contents are not read */
    if (!s)
        armcii_error(call, "iterator is NULL");
    if (stride_levels < 0 || stride_levels > ARMCI_MAX_STRIDE_LEVEL)
        armcii_error(call, "stride_levels %d out of range [0, %d]", stride_levels,
                     ARMCI_MAX_STRIDE_LEVEL);
    if (!seg_count || (stride_levels > 0 && !stride_arr))
        armcii_error(call, "%s is NULL", !seg_count ? "seg_count" : "stride_arr");
    if (seg_count[0] < 0)
        armcii_error(call, "seg_count[0] = %d bytes is negative", seg_count[0]);
    long size = 1;
    for (int i = 1; i <= stride_levels; i++) {
        if (seg_count[i] < 1)
            armcii_error(call, "seg_count[%d] = %d, must be at least 1", i, seg_count[i]);
        size *= seg_count[i];
        if (size > 0x7fffffffL)
            armcii_error(call, "more than 2^31-1 segments");
    }
    s->base_ptr = base_ptr;
    s->stride_levels = stride_levels;
    for (int i = 0; i < ARMCI_MAX_STRIDE_LEVEL; i++) {
        s->stride_arr[i] = i < stride_levels ? stride_arr[i] : 0;
        s->itr[i] = 0;
    }
    for (int i = 0; i <= ARMCI_MAX_STRIDE_LEVEL; i++)
        s->seg_count[i] = i <= stride_levels ? seg_count[i] : 1;
    s->size = (int)size;
    s->pos = 0;
}

void armci_stride_info_destroy(stride_info_t *sinfo) { (void)sinfo; }

int armci_stride_info_size(stride_info_t *sinfo)
{
    return checked("armci_stride_info_size", sinfo)->size;
}

int armci_stride_info_pos(stride_info_t *sinfo)
{
    return checked("armci_stride_info_pos", sinfo)->pos;
}

int armci_stride_info_has_more(stride_info_t *sinfo)
{
    stride_info_t *s = checked("armci_stride_info_has_more", sinfo);
    return s->pos < s->size;
}

/* Odometer step: level 0 of itr counts segments of stride level 1. */
void armci_stride_info_next(stride_info_t *sinfo)
{
    static const char call[] = "armci_stride_info_next";
    stride_info_t *s = checked(call, sinfo);
    if (s->pos >= s->size)
        armcii_error(call, "the iterator is past its last segment (%d)", s->size);
    s->pos++;
    for (int i = 0; i < s->stride_levels; i++) {
        if (++s->itr[i] < s->seg_count[i + 1] || i == s->stride_levels - 1)
            break;
        s->itr[i] = 0;
    }
}

int armci_stride_info_seg_off(stride_info_t *sinfo)
{
    stride_info_t *s = checked("armci_stride_info_seg_off", sinfo);
    long off = 0;
    for (int i = 0; i < s->stride_levels; i++)
        off += (long)s->itr[i] * s->stride_arr[i];
    return (int)off;
}

void *armci_stride_info_seg_ptr(stride_info_t *sinfo)
{
    stride_info_t *s = checked("armci_stride_info_seg_ptr", sinfo);
    return s->base_ptr + armci_stride_info_seg_off(s);
}

int armci_stride_info_seg_size(stride_info_t *sinfo)
{
    return checked("armci_stride_info_seg_size", sinfo)->seg_count[0];
}
