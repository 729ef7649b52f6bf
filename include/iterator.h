/*
 * iterator.h - the stride iterator of classic ARMCI (a strided descriptor's
 * contiguous segments, in ARMCI order), as Global Arrays knows it.
 */
#ifndef ARMCI_ITERATOR_H
#define ARMCI_ITERATOR_H

#include <armci.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Caller-allocated; the layout is classic ARMCI's. */
typedef struct {
    char *base_ptr;
    int stride_levels;
    int stride_arr[ARMCI_MAX_STRIDE_LEVEL];
    int seg_count[ARMCI_MAX_STRIDE_LEVEL + 1];
    int size, pos, itr[ARMCI_MAX_STRIDE_LEVEL];
} stride_info_t;

/* Start at the first segment of (base_ptr, stride_arr, seg_count); seg_count[0] bytes each. */
void armci_stride_info_init(stride_info_t *sinfo, void *base_ptr, int stride_levels,
                            const int *stride_arr, const int *seg_count);
/* Nothing to release (kept for source compatibility). */
void armci_stride_info_destroy(stride_info_t *sinfo);
/* Number of segments. */
int armci_stride_info_size(stride_info_t *sinfo);
/* Index of the current segment, 0..size. */
int armci_stride_info_pos(stride_info_t *sinfo);
/* Nonzero while pos < size. */
int armci_stride_info_has_more(stride_info_t *sinfo);
/* Advance to the next segment (ARMCI_Error past the end). */
void armci_stride_info_next(stride_info_t *sinfo);
/* Current segment: address, byte offset from base_ptr, size in bytes. */
void *armci_stride_info_seg_ptr(stride_info_t *sinfo);
int armci_stride_info_seg_off(stride_info_t *sinfo);
int armci_stride_info_seg_size(stride_info_t *sinfo);

#if defined(__cplusplus)
}
#endif
#endif /* ARMCI_ITERATOR_H */
