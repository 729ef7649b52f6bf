/*
 * libFuzzer harness: strided and vector descriptor validation
 * (src/iov/iov_check.c) and, for the strided descriptors it accepts, the
 * geometry that the transfer code then relies on (src/iov/iov_iter.c).
 *
 * The first byte picks strided or vector; the rest decodes into a
 * descriptor (tests/fuzz/fuzz_input.h).  Every array handed to the library
 * is a heap block of exactly its declared length, and the error buffer is
 * exactly errlen bytes, so AddressSanitizer reports any read or write past
 * what the caller declared.
 *
 * Invariants (abort() when violated):
 *  - the validator accepts exactly the descriptors the ARMCI contract
 *    allows: levels in [0, ARMCII_IOV_MAX_LEVELS], no negative count, no
 *    NULL array or pointer where data moves, at most 9e15 bytes; *empty is
 *    set exactly when some count is 0; a rejection leaves a non-empty,
 *    terminated message in err;
 *  - for an accepted strided descriptor: the segment count is the product
 *    of the counts; the extent [lo, hi) is exact (checked in 128-bit
 *    arithmetic); every block the iterator yields lies inside it; when
 *    the disjointness proof says "disjoint" the blocks really are; local
 *    pack/unpack (armcii_iov_strided_copy) stays inside a buffer of
 *    exactly the extent and round-trips the data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/iov/iov.h"
#include "fuzz_input.h"

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "fuzz_iov: invariant '%s' violated at line %d\n", #c, __LINE__); \
            abort();                                                          \
        }                                                                     \
    } while (0)

#define SPAN_LIMIT 9.0e15     /* the documented limit of the validator */
#define WALK_MAX 4096         /* blocks walked per descriptor */
#define COPY_MAX (1 << 20)    /* bytes of real memory per pack/unpack test */

static char dummy_src[16], dummy_dst[16];

/* A heap copy of n ints (n may be 0: a valid pointer to nothing). */
static int *int_array(fz_t *in, int n)
{
    int *a = malloc((size_t)n * sizeof *a + (n == 0));
    if (!a)
        abort();
    for (int i = 0; i < n; i++)
        a[i] = fz_int(in);
    return a;
}

/* The message contract of a rejection. */
static void check_err(const char *err, size_t errlen)
{
    if (errlen > 0) {
        size_t len = strnlen(err, errlen);
        CHECK(len < errlen);
        CHECK(len > 0 || errlen == 1);
    }
}

static int cmp_off(const void *a, const void *b)
{
    ptrdiff_t x = *(const ptrdiff_t *)a, y = *(const ptrdiff_t *)b;
    return (x > y) - (x < y);
}

/* Geometry of one side (strides s) of an accepted, non-empty descriptor. */
static void check_side(int levels, const int *count, const int *s, long nseg)
{
    ptrdiff_t lo, hi;
    armcii_iov_strided_extent(levels, count, s, &lo, &hi);
    __int128 rlo = 0, rhi = count[0];
    for (int k = 1; k <= levels; k++) {
        __int128 span = (__int128)s[k - 1] * (count[k] - 1);
        if (span < 0)
            rlo += span;
        else
            rhi += span;
    }
    CHECK(lo == rlo && hi == rhi);
    CHECK(lo <= 0 && hi >= count[0]);
    CHECK((__int128)hi - lo <= PTRDIFF_MAX);

    /* Every block yielded lies in [lo, hi); the count is right. */
    static ptrdiff_t off[WALK_MAX];
    armcii_iov_iter_t it;
    armcii_iov_iter_init(&it, levels, count, s, NULL);
    long n = 0;
    ptrdiff_t o;
    while (n < WALK_MAX && armcii_iov_iter_next(&it, &o, NULL)) {
        CHECK(o >= lo && o + count[0] <= hi);
        off[n++] = o;
    }
    CHECK(n == (nseg < WALK_MAX ? nseg : WALK_MAX));
    if (nseg <= WALK_MAX) {
        CHECK(!armcii_iov_iter_next(&it, &o, NULL));
        int disjoint = armcii_iov_strided_disjoint(levels, count, s);
        if (disjoint) {
            qsort(off, (size_t)n, sizeof off[0], cmp_off);
            for (long i = 1; i < n; i++)
                CHECK(off[i] >= off[i - 1] + count[0]);
        }
    }

    /* Pack and unpack through real memory of exactly the extent. */
    if (hi - lo > COPY_MAX || (__int128)nseg * count[0] > COPY_MAX)
        return;
    size_t ext = (size_t)(hi - lo), packed = (size_t)nseg * (size_t)count[0];
    char *region = malloc(ext), *region2 = calloc(ext, 1);
    char *buf = malloc(packed + 1), *buf2 = malloc(packed + 1);
    if (!region || !region2 || !buf || !buf2)
        abort();
    for (size_t i = 0; i < ext; i++)
        region[i] = (char)(i * 131 + 7);
    armcii_iov_strided_copy(region - lo, levels, s, count, buf, 0);
    armcii_iov_strided_copy(region2 - lo, levels, s, count, buf, 1);
    if (armcii_iov_strided_disjoint(levels, count, s)) {
        armcii_iov_strided_copy(region2 - lo, levels, s, count, buf2, 0);
        CHECK(!memcmp(buf, buf2, packed));
    }
    free(region);
    free(region2);
    free(buf);
    free(buf2);
}

static void fuzz_strided(fz_t *in)
{
    uint8_t b = fz_u8(in);
    int levels = b < 240 ? (int)(b % 38) - 2 : fz_int(in);
    uint8_t nulls = fz_u8(in);
    size_t errlen = fz_u8(in);
    int in_range = levels >= 0 && levels <= ARMCII_IOV_MAX_LEVELS;
    /* Out of range levels: the arrays are empty, so reading them is caught. */
    int nc = in_range ? levels + 1 : 0, ns = in_range ? levels : 0;
    int *count = int_array(in, nc);
    int *sstr = int_array(in, ns), *dstr = int_array(in, ns);
    const void *src = nulls & 1 ? NULL : dummy_src;
    const void *dst = nulls & 2 ? NULL : dummy_dst;
    const int *sp = nulls & 4 ? NULL : sstr, *dp = nulls & 8 ? NULL : dstr;
    const int *cp = nulls & 16 ? NULL : count;
    char *err = malloc(errlen + (errlen == 0));
    if (!err)
        abort();
    int empty = -1;
    int rc = armcii_iov_check_strided(src, sp, dst, dp, cp, levels, &empty, err, errlen);
    CHECK(rc == 0 || rc == -1);

    /* The contract, decided independently. */
    int expect = 0, zero = 0, negative = 0;
    __int128 prod = 1;
    if (!in_range || !cp || (levels > 0 && (!sp || !dp))) {
        expect = -1;
    } else {
        for (int k = 0; k <= levels; k++) {
            negative |= count[k] < 0;
            zero |= count[k] == 0;
            if (count[k] > 0 && prod <= (__int128)1 << 64)
                prod *= count[k];
        }
        if (negative)
            expect = -1;
        else if (!zero && (!src || !dst || prod > (__int128)SPAN_LIMIT))
            expect = -1;
    }
    CHECK(rc == expect);
    if (rc) {
        check_err(err, errlen);
    } else {
        CHECK(empty == zero);
        if (!zero) {
            long nseg = armcii_iov_strided_nseg(levels, count);
            CHECK(nseg == prod / count[0]);
            CHECK(nseg > 0);
            check_side(levels, count, sstr, nseg);
            check_side(levels, count, dstr, nseg);
        } else {
            CHECK(armcii_iov_strided_nseg(levels, count) == 0);
        }
    }
    free(err);
    free(count);
    free(sstr);
    free(dstr);
}

#define VEC_MAX 64   /* descriptors / pointers backed by real arrays */

static void fuzz_vector(fz_t *in)
{
    static const int elems[] = {1, 4, 8, 16};   /* put/get, and the accumulate types */
    static void *big[VEC_MAX];                  /* stands in for longer pointer arrays */
    uint8_t b = fz_u8(in);
    int len = b < 250 ? (int)(b % 12) - 2 : fz_int(in);
    int elem = elems[fz_u8(in) % 4];
    size_t errlen = fz_u8(in);
    int iov_null = len > VEC_MAX || (fz_u8(in) & 1);
    int alloc = len > 0 && len <= VEC_MAX ? len : 0;
    armci_giov_t *iov = malloc((size_t)alloc * sizeof *iov + 1);
    void **arrays[2 * VEC_MAX];
    int expect = len < 0 ? -1 : 0, bad_desc = -1;
    if (!iov)
        abort();
    if (len > 0 && iov_null)
        expect = -1;
    for (int d = 0; d < alloc; d++) {
        armci_giov_t *v = &iov[d];
        uint8_t nulls = fz_u8(in);
        v->bytes = fz_int(in);
        v->ptr_array_len = fz_int(in);
        for (int side = 0; side < 2; side++) {
            int n = v->ptr_array_len;
            void **a = NULL;
            if (!(nulls & (1 << side))) {
                if (n >= 0 && n <= VEC_MAX) {
                    a = malloc((size_t)n * sizeof *a + 1);
                    if (!a)
                        abort();
                    for (int i = 0; i < n; i++)
                        a[i] = side ? dummy_dst : dummy_src;
                } else {
                    a = big;
                }
            }
            arrays[2 * d + side] = a;
        }
        v->src_ptr_array = arrays[2 * d];
        v->dst_ptr_array = arrays[2 * d + 1];
        int ok = v->bytes >= 0 && v->ptr_array_len >= 0 && v->bytes % elem == 0 &&
                 (v->bytes == 0 || v->ptr_array_len == 0 ||
                  (v->src_ptr_array && v->dst_ptr_array));
        if (!ok && bad_desc < 0 && expect == 0 && !iov_null)
            bad_desc = d;
    }
    if (bad_desc >= 0)
        expect = -1;
    char *err = malloc(errlen + (errlen == 0));
    if (!err)
        abort();
    int rc = armcii_iov_check_vector(iov_null ? NULL : iov, len, elem, err, errlen);
    CHECK(rc == expect);
    if (rc) {
        check_err(err, errlen);
        /* A descriptor's fault names that descriptor (the first bad one). */
        char want[32];
        int wl = snprintf(want, sizeof want, "descriptor %d:", bad_desc);
        if (bad_desc >= 0 && errlen > (size_t)wl)
            CHECK(!strncmp(err, want, (size_t)wl));
    }
    for (int i = 0; i < 2 * alloc; i++)
        if (arrays[i] != big)
            free(arrays[i]);
    free(iov);
    free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_t in = {data, size};
    if (fz_u8(&in) & 1)
        fuzz_vector(&in);
    else
        fuzz_strided(&in);
    return 0;
}
