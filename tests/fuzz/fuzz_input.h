/*
 * Decoding of fuzzer input bytes into values, shared by the harnesses.
 * Reads past the end give zeros, so every input decodes to something.
 * Integers favour the values where validation has edges: small ones,
 * the int limits and powers of two, and now and then all 32 bits.
 */
#ifndef ARMCI_FUZZ_INPUT_H
#define ARMCI_FUZZ_INPUT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const uint8_t *p;
    size_t n;
} fz_t;

static inline uint8_t fz_u8(fz_t *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint32_t fz_u32(fz_t *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)fz_u8(in) << (8 * i);
    return v;
}

static inline uint64_t fz_u64(fz_t *in)
{
    uint64_t lo = fz_u32(in);
    return lo | (uint64_t)fz_u32(in) << 32;
}

/* One selector byte: low 2 bits pick the form, the other 6 the value. */
static inline int fz_int(fz_t *in)
{
    static const int special[] = {INT_MIN, INT_MIN + 1, INT_MAX, INT_MAX - 1, -1,
                                  1 << 30, 1 << 24, 1 << 16, 1 << 20, 46341 /* sqrt 2^31 */,
                                  65536 + 1, 3, 1000000, -1000000, 2147483, 7};
    uint8_t b = fz_u8(in);
    switch (b & 3) {
    case 0: return b >> 2;                          /* 0..63 */
    case 1: return -(int)(b >> 2) - 1;              /* -1..-64 */
    case 2: return (int)fz_u32(in);                 /* anything */
    default: return special[(b >> 2) % (sizeof special / sizeof special[0])];
    }
}

#endif /* ARMCI_FUZZ_INPUT_H */
