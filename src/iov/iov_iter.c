/*
 * Strided geometry in pure C (no MPI; unit-tested by
 * tests/unit/test_strided_iter.c): the segment iterator (Algorithm 1 of
 * Dinan et al., ARMCI over MPI one-sided communication, IPDPS 2012) as a
 * generator, so no segment list is ever built,
 * extents, a disjointness proof, and local pack/unpack.
 */
#include <stdlib.h>
#include <string.h>
#include "iov.h"

long armcii_iov_strided_nseg(int levels, const int count[])
{
    /* Zeros first: validation accepts an empty descriptor whatever its other
     * counts are (nothing moves), and the product of the counts before the
     * zero could overflow a long (signed overflow, found by
     * tests/fuzz/fuzz_iov.c through armci_write_strided's path).  A
     * non-empty validated descriptor has at most 9e15 segments. */
    for (int k = 0; k <= levels; k++)
        if (count[k] <= 0)
            return 0;
    long n = 1;
    for (int k = 1; k <= levels; k++)
        n *= count[k];
    return n;
}

void armcii_iov_iter_init(armcii_iov_iter_t *it, int levels, const int count[],
                          const int s0[], const int s1[])
{
    int m = 0;
    /* Levels with one block add no offsets: dropping them keeps next() short. */
    for (int k = 1; k <= levels; k++) {
        if (count[k] == 1)
            continue;
        it->count[m] = count[k];
        it->stride[0][m] = s0[k - 1];
        it->stride[1][m] = s1 ? s1[k - 1] : 0;
        it->idx[m] = 0;
        m++;
    }
    it->levels = m;
    it->off[0] = it->off[1] = 0;
    it->remaining = armcii_iov_strided_nseg(levels, count);
}

int armcii_iov_iter_next(armcii_iov_iter_t *it, ptrdiff_t *o0, ptrdiff_t *o1)
{
    if (it->remaining <= 0)
        return 0;
    *o0 = it->off[0];
    if (o1)
        *o1 = it->off[1];
    if (--it->remaining == 0)
        return 1;
    for (int k = 0; k < it->levels; k++) {
        it->off[0] += it->stride[0][k];
        it->off[1] += it->stride[1][k];
        if (++it->idx[k] < it->count[k])
            break;
        it->off[0] -= it->stride[0][k] * it->count[k];
        it->off[1] -= it->stride[1][k] * it->count[k];
        it->idx[k] = 0;
    }
    return 1;
}

void armcii_iov_strided_extent(int levels, const int count[], const int stride[],
                               ptrdiff_t *lo, ptrdiff_t *hi)
{
    ptrdiff_t l = 0, h = 0;
    for (int k = 1; k <= levels; k++) {
        ptrdiff_t span = (ptrdiff_t)stride[k - 1] * (count[k] - 1);
        if (span < 0)
            l += span;
        else
            h += span;
    }
    *lo = l;
    *hi = h + count[0];
}

static int cmp_level(const void *a, const void *b)
{
    const ptrdiff_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

int armcii_iov_strided_disjoint(int levels, const int count[], const int stride[])
{
    /* Sort levels by |stride|; if each stride is at least the extent of all
     * smaller levels nested inside it, no two blocks can meet (a sufficient
     * condition; GA's patches always satisfy it). */
    ptrdiff_t lv[ARMCII_IOV_MAX_LEVELS][2];
    int m = 0;
    for (int k = 1; k <= levels; k++) {
        if (count[k] <= 1)
            continue;
        ptrdiff_t s = stride[k - 1];
        lv[m][0] = s < 0 ? -s : s;
        lv[m][1] = count[k];
        m++;
    }
    qsort(lv, (size_t)m, sizeof lv[0], cmp_level);
    ptrdiff_t ext = count[0];
    for (int i = 0; i < m; i++) {
        if (lv[i][0] < ext)
            return 0;
        ext += lv[i][0] * (lv[i][1] - 1);
    }
    return 1;
}

void armcii_iov_strided_copy(char *ptr, int levels, const int stride[],
                             const int count[], char *buf, int dir)
{
    armcii_iov_iter_t it;
    ptrdiff_t off;
    size_t b = count[0] > 0 ? (size_t)count[0] : 0;
    armcii_iov_iter_init(&it, levels, count, stride, NULL);
    for (size_t pos = 0; armcii_iov_iter_next(&it, &off, NULL); pos += b) {
        if (dir == 0)
            memcpy(buf + pos, ptr + off, b);
        else
            memcpy(ptr + off, buf + pos, b);
    }
}
