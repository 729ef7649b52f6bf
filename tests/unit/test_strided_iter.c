/* The strided iterator against a reference nested loop (ARMCI strided convention: block
 * order), levels 0..8 with strides that are not multiples of the level
 * below, negative and overlapping strides, count-1 and zero levels; also the
 * extent, the disjointness proof (checked against brute force) and local
 * pack/unpack.  No MPI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/iov/iov.h"
#include "unit_check.h"

/* Reference: offsets of every block by an odometer over all levels. */
static long reference(int levels, const int count[], const int s[], ptrdiff_t *out)
{
    int idx[16] = {0};
    long n = 0;
    for (int k = 0; k <= levels; k++)
        if (count[k] == 0)
            return 0;
    for (;;) {
        ptrdiff_t off = 0;
        for (int k = 1; k <= levels; k++)
            off += (ptrdiff_t)s[k - 1] * idx[k];
        out[n++] = off;
        int k = 1;
        while (k <= levels && ++idx[k] == count[k])
            idx[k++] = 0;
        if (k > levels)
            return n;
    }
}

static void one_case(int levels, const int count[], const int s0[], const int s1[])
{
    static ptrdiff_t r0[1 << 16], r1[1 << 16];
    long n = reference(levels, count, s0, r0);
    reference(levels, count, s1, r1);
    CHECK(armcii_iov_strided_nseg(levels, count) == n, "nseg %ld, reference %ld",
          armcii_iov_strided_nseg(levels, count), n);
    armcii_iov_iter_t it;
    armcii_iov_iter_init(&it, levels, count, s0, s1);
    ptrdiff_t a, b, lo = 0, hi = 0;
    long i = 0;
    while (armcii_iov_iter_next(&it, &a, &b)) {
        if (i < n)
            CHECK(a == r0[i] && b == r1[i], "levels %d block %ld: (%td,%td), expected "
                  "(%td,%td)", levels, i, a, b, r0[i], r1[i]);
        if (i == 0 || a < lo)
            lo = a;
        if (i == 0 || a + count[0] > hi)
            hi = a + count[0];
        i++;
    }
    CHECK(i == n, "levels %d: iterator gave %ld blocks, reference %ld", levels, i, n);
    if (n > 0) {
        ptrdiff_t elo, ehi;
        armcii_iov_strided_extent(levels, count, s0, &elo, &ehi);
        CHECK(elo == lo && ehi == hi, "extent [%td,%td), actual [%td,%td)", elo, ehi, lo, hi);
        /* the disjointness proof must never claim disjoint wrongly */
        if (armcii_iov_strided_disjoint(levels, count, s0) && n <= 4096) {
            char *mark = calloc((size_t)(hi - lo), 1);
            for (long k = 0; k < n; k++)
                for (int j = 0; j < count[0]; j++)
                    CHECK(!mark[r0[k] - lo + j]++, "claimed disjoint but blocks overlap "
                          "(levels %d)", levels);
            free(mark);
        }
    }
}

static void pack_unpack(void)
{
    /* 3 levels, byte strides 7 (> 5-byte blocks), 24 (not a multiple of 7), 100 */
    int count[4] = {5, 3, 4, 2}, stride[3] = {7, 24, 100};
    char src[256], buf[256], back[256];
    for (int i = 0; i < 256; i++)
        src[i] = (char)i;
    memset(back, 0, sizeof back);
    armcii_iov_strided_copy(src, 3, stride, count, buf, 0);
    int pos = 0;
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 4; b++)
            for (int a = 0; a < 3; a++)
                for (int j = 0; j < 5; j++, pos++)
                    CHECK(buf[pos] == src[a * 7 + b * 24 + c * 100 + j], "pack byte %d", pos);
    armcii_iov_strided_copy(back, 3, stride, count, buf, 1);
    for (int c = 0; c < 2; c++)
        for (int b = 0; b < 4; b++)
            for (int a = 0; a < 3; a++)
                for (int j = 0; j < 5; j++) {
                    int o = a * 7 + b * 24 + c * 100 + j;
                    CHECK(back[o] == src[o], "unpack byte %d", o);
                }
}

int main(void)
{
    srand(7);
    /* level 0: one block, no stride arrays read */
    int c0[1] = {12};
    one_case(0, c0, NULL, NULL);
    for (int rep = 0; rep < 3000; rep++) {
        int levels = rep % 9, count[10], s0[9], s1[9];
        count[0] = 1 + rand() % 9;
        long total = 1;
        for (int k = 1; k <= levels; k++) {
            int maxc = total > 4096 ? 1 : 4;
            count[k] = 1 + rand() % maxc;
            total *= count[k];
        }
        if (levels && rep % 50 == 49)
            count[1 + rand() % levels] = 0;   /* nothing to do */
        ptrdiff_t ext0 = count[0], ext1 = count[0];
        for (int k = 1; k <= levels; k++) {
            int kind = rand() % 6;
            /* natural: at least the inner extent, often not a multiple */
            s0[k - 1] = (int)ext0 + rand() % 5;
            s1[k - 1] = (int)ext1 + rand() % 13;
            if (kind == 4)
                s0[k - 1] = -s0[k - 1];           /* negative stride */
            else if (kind == 5)
                s1[k - 1] = 1 + rand() % 3;       /* overlapping blocks */
            ext0 += (ptrdiff_t)(s0[k - 1] < 0 ? -s0[k - 1] : s0[k - 1]) * (count[k] - 1);
            ext1 += (ptrdiff_t)(s1[k - 1] < 0 ? -s1[k - 1] : s1[k - 1]) * (count[k] - 1);
        }
        one_case(levels, count, s0, s1);
        one_case(levels, count, s1, s0);
    }
    /* a fixed 8-level case with count-1 levels inside */
    int c8[9] = {3, 2, 1, 3, 2, 1, 2, 3, 2}, a8[8] = {5, 11, 13, 41, 83, 90, 181, 547},
        b8[8] = {4, 9, 9, 29, 60, 61, 123, 370};
    one_case(8, c8, a8, b8);
    CHECK(armcii_iov_strided_disjoint(8, c8, a8) == 1, "8-level GA-like layout is disjoint");
    int cov[3] = {4, 3, 2}, sov[2] = {2, 100};
    CHECK(armcii_iov_strided_disjoint(2, cov, sov) == 0, "stride 2 < block 4 overlaps");
    pack_unpack();
    printf("%s test_strided_iter\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
