/*
 * Validation of strided and vector descriptors.  Pure C, no MPI and no
 * abort: it returns the reason, so the API layer reports it with the rank
 * and the call, and the fuzzer (tests/fuzz) can drive it with any bytes.
 */
#include <stdio.h>
#include "iov.h"

int armcii_iov_check_strided(const void *src, const int *sstr, const void *dst,
                             const int *dstr, const int *count, int levels, int *empty,
                             char *err, size_t errlen)
{
    *empty = 0;
    if (levels < 0 || levels > ARMCII_IOV_MAX_LEVELS) {
        snprintf(err, errlen, "stride_levels %d out of range [0, %d]", levels,
                 ARMCII_IOV_MAX_LEVELS);
        return -1;
    }
    if (!count) {
        snprintf(err, errlen, "count array is NULL");
        return -1;
    }
    if (levels > 0 && (!sstr || !dstr)) {
        snprintf(err, errlen, "%s stride array is NULL with stride_levels %d",
                 !sstr ? "source" : "destination", levels);
        return -1;
    }
    for (int k = 0; k <= levels; k++) {
        if (count[k] < 0) {
            snprintf(err, errlen, "count[%d] = %d is negative", k, count[k]);
            return -1;
        }
        if (count[k] == 0)
            *empty = 1;
    }
    if (*empty)
        return 0;
    if (!src || !dst) {
        snprintf(err, errlen, "%s pointer is NULL", !src ? "source" : "destination");
        return -1;
    }
    /* The whole descriptor must fit the address arithmetic (and MPI's int
     * counts): the product of the counts times the largest stride. */
    double span = (double)count[0];
    for (int k = 1; k <= levels; k++)
        span *= (double)count[k];
    if (span > 9.0e15) {
        snprintf(err, errlen, "descriptor of %.0f bytes is too large", span);
        return -1;
    }
    return 0;
}

int armcii_iov_check_vector(const armci_giov_t *iov, int len, int elem, char *err,
                            size_t errlen)
{
    if (len < 0) {
        snprintf(err, errlen, "negative descriptor count %d", len);
        return -1;
    }
    if (len > 0 && !iov) {
        snprintf(err, errlen, "descriptor array is NULL");
        return -1;
    }
    for (int d = 0; d < len; d++) {
        const armci_giov_t *v = &iov[d];
        if (v->bytes < 0 || v->ptr_array_len < 0) {
            snprintf(err, errlen, "descriptor %d: negative %s (%d)", d,
                     v->bytes < 0 ? "bytes" : "ptr_array_len",
                     v->bytes < 0 ? v->bytes : v->ptr_array_len);
            return -1;
        }
        if (v->bytes % elem) {
            snprintf(err, errlen, "descriptor %d: %d bytes is not a multiple of the element "
                     "size %d", d, v->bytes, elem);
            return -1;
        }
        if (v->bytes == 0 || v->ptr_array_len == 0)
            continue;
        if (!v->src_ptr_array || !v->dst_ptr_array) {
            snprintf(err, errlen, "descriptor %d: %s pointer array is NULL", d,
                     !v->src_ptr_array ? "source" : "destination");
            return -1;
        }
    }
    return 0;
}
