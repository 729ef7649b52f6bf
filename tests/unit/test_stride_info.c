/* The classic stride iterator (iterator.h) against a reference nested
 * loop: every level count 0..3 with odd strides, segment order, offsets,
 * sizes and positions. */
#include <stdio.h>
#include <stdlib.h>
#include <iterator.h>
#include "unit_check.h"

static void check(int levels, const int *stride, const int *count, char *base)
{
    stride_info_t it;
    armci_stride_info_init(&it, base, levels, stride, count);
    long total = 1;
    for (int i = 1; i <= levels; i++)
        total *= count[i];
    CHECK(armci_stride_info_size(&it) == total, "levels %d: size %d, expected %ld", levels,
           armci_stride_info_size(&it), total);
    int idx[ARMCI_MAX_STRIDE_LEVEL] = {0};
    for (long k = 0; k < total; k++) {
        long off = 0;
        for (int i = 0; i < levels; i++)
            off += (long)idx[i] * stride[i];
        CHECK(armci_stride_info_has_more(&it), "levels %d: ended after %ld segments", levels,
               k);
        CHECK(armci_stride_info_pos(&it) == k, "levels %d: pos %d, expected %ld", levels,
               armci_stride_info_pos(&it), k);
        CHECK(armci_stride_info_seg_off(&it) == off, "levels %d seg %ld: offset %d, expected %ld",
               levels, k, armci_stride_info_seg_off(&it), off);
        CHECK(armci_stride_info_seg_ptr(&it) == base + off, "levels %d seg %ld: pointer",
               levels, k);
        CHECK(armci_stride_info_seg_size(&it) == count[0], "levels %d: seg size %d", levels,
               armci_stride_info_seg_size(&it));
        armci_stride_info_next(&it);
        for (int i = 0; i < levels; i++) {
            if (++idx[i] < count[i + 1])
                break;
            idx[i] = 0;
        }
    }
    CHECK(!armci_stride_info_has_more(&it), "levels %d: more than %ld segments", levels,
           total);
    armci_stride_info_destroy(&it);
}

int main(void)
{
    static char buf[1 << 16];
    int count[ARMCI_MAX_STRIDE_LEVEL + 1], stride[ARMCI_MAX_STRIDE_LEVEL];
    int cases = 0;
    for (int levels = 0; levels <= 4; levels++)
        for (int c = 1; c <= 3; c++) {
            count[0] = 7;
            int s = 9;
            for (int i = 0; i < levels; i++) {
                count[i + 1] = c + (i % 2);
                stride[i] = s;
                s = s * count[i + 1] + 3;
            }
            check(levels, stride, count, buf);
            cases++;
        }
    /* eight levels of two: 256 segments */
    count[0] = 1;
    for (int i = 0; i < ARMCI_MAX_STRIDE_LEVEL; i++) {
        count[i + 1] = 2;
        stride[i] = 1 << (i + 1);
    }
    check(ARMCI_MAX_STRIDE_LEVEL, stride, count, buf);
    cases++;
    if (failures) {
        printf("FAIL test_stride_info: %d check(s) failed\n", failures);
        return 1;
    }
    printf("PASS test_stride_info (%d descriptors)\n", cases);
    return 0;
}
