/*
 * libFuzzer harness: the translation table (src/gmr/gmr_table.c).
 *
 * The input is a program: a first byte picks the number of processes
 * (1..8), then each operation is an opcode byte, a process byte (which
 * also reaches -1 and nproc, out of range) and addresses whose encoding
 * favours collisions: a small cluster, near an entry already inserted
 * (first byte, last byte, one past the end, one before), anywhere, and
 * the top of the address space.  A brute-force list of live entries is
 * the reference.
 *
 * Invariants (abort() when violated):
 *  - insert succeeds exactly when the process is in range, the size is not
 *    0, the range ends below the top of the address space (base + size
 *    does not wrap to 0 or past it) and it overlaps no live entry of that
 *    process (ranges compared as unbounded integers);
 *  - remove succeeds exactly when a live entry of the process starts at
 *    the address;
 *  - lookup (armcii_gmr_table_find, and armcii_gmr_table_lookup with the
 *    per-thread hint) returns the one entry containing the address, field
 *    for field, or NULL when none does;
 *  - the live count matches the reference; destroy frees everything
 *    (LeakSanitizer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/gmr/gmr_impl.h"
#include "fuzz_input.h"

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "fuzz_table: invariant '%s' violated at line %d\n", #c, __LINE__); \
            abort();                                                          \
        }                                                                     \
    } while (0)

#define MAXP 8
#define MAXE 256
#define MAXOPS 4096

typedef __int128 wide_t;
static armcii_gmr_entry_t ref[MAXP][MAXE];
static int nref[MAXP];

static int ref_overlaps(int p, uintptr_t b, size_t s)
{
    for (int i = 0; i < nref[p]; i++)
        if ((wide_t)b < (wide_t)ref[p][i].base + ref[p][i].size &&
            (wide_t)ref[p][i].base < (wide_t)b + s)
            return 1;
    return 0;
}

static const armcii_gmr_entry_t *ref_find(int p, uintptr_t a)
{
    for (int i = 0; i < nref[p]; i++)
        if (a >= ref[p][i].base && (wide_t)a < (wide_t)ref[p][i].base + ref[p][i].size)
            return &ref[p][i];
    return NULL;
}

/* An address for process p: see the header comment. */
static uintptr_t addr_of(fz_t *in, int p)
{
    uint8_t m = fz_u8(in);
    switch (m & 3) {
    case 0:
        return 4096 + (uintptr_t)(fz_u8(in) | (fz_u8(in) & 0x0f) << 8);
    case 1:
        if (p >= 0 && p < MAXP && nref[p]) {
            const armcii_gmr_entry_t *e = &ref[p][fz_u8(in) % nref[p]];
            switch ((m >> 2) & 3) {
            case 0: return e->base;
            case 1: return e->base + e->size - 1;
            case 2: return e->base + e->size;
            default: return e->base - 1;
            }
        }
        return (uintptr_t)fz_u8(in) << 4;
    case 2:
        return (uintptr_t)fz_u64(in);
    default:
        return UINTPTR_MAX - fz_u8(in);
    }
}

static size_t size_of(fz_t *in)
{
    uint8_t m = fz_u8(in);
    switch (m & 3) {
    case 0: return fz_u8(in);
    case 1: return (size_t)fz_u8(in) << 8 | fz_u8(in);
    case 2: return (size_t)fz_u64(in);
    default: return SIZE_MAX - fz_u8(in);
    }
}

static void check_lookup(const armcii_gmr_table_t *t, int proc, uintptr_t a)
{
    const armcii_gmr_entry_t *r = proc >= 0 && proc < t->nproc ? ref_find(proc, a) : NULL;
    const armcii_gmr_entry_t *e = armcii_gmr_table_find(t, proc, a);
    for (int pass = 0; pass < 2; pass++) {
        CHECK(!e == !r);
        if (e)
            CHECK(e->base == r->base && e->size == r->size && e->region == r->region &&
                  e->grank == r->grank);
        e = armcii_gmr_table_lookup(t, proc, a);   /* the hint path, right after */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_t in = {data, size};
    int nproc = 1 + fz_u8(&in) % MAXP;
    armcii_gmr_table_t t;
    CHECK(armcii_gmr_table_init(&t, nproc) == 0);
    memset(nref, 0, sizeof nref);
    long live = 0;
    for (int step = 0; step < MAXOPS && in.n > 0; step++) {
        uint8_t op = fz_u8(&in);
        int proc = (int)(fz_u8(&in) % (unsigned)(nproc + 2)) - 1;
        int valid = proc >= 0 && proc < nproc;
        switch (op % 8) {
        case 0: case 1: case 2: {
            armcii_gmr_entry_t e = {addr_of(&in, proc), size_of(&in),
                                    (void *)(uintptr_t)(step + 1), step};
            int rc = armcii_gmr_table_insert(&t, proc, &e);
            int ok = valid && e.size > 0 && e.size <= UINTPTR_MAX - e.base &&
                     !ref_overlaps(proc, e.base, e.size);
            if (ok && nref[proc] == MAXE) {   /* reference full: undo */
                CHECK(rc == 0);
                CHECK(armcii_gmr_table_remove(&t, proc, e.base) == 0);
                break;
            }
            CHECK(rc == (ok ? 0 : -1));
            if (ok) {
                ref[proc][nref[proc]++] = e;
                live++;
            }
            break;
        }
        case 3: {
            uintptr_t b = addr_of(&in, proc);
            int i = -1;
            if (valid)
                for (int k = 0; k < nref[proc]; k++)
                    if (ref[proc][k].base == b)
                        i = k;
            int rc = armcii_gmr_table_remove(&t, proc, b);
            CHECK(rc == (i >= 0 ? 0 : -1));
            if (i >= 0) {
                ref[proc][i] = ref[proc][--nref[proc]];
                live--;
            }
            break;
        }
        default:
            check_lookup(&t, proc, addr_of(&in, proc));
            break;
        }
        CHECK(t.live == live);
    }
    /* A last sweep over every entry's edges. */
    for (int p = 0; p < nproc; p++)
        for (int i = 0; i < nref[p]; i++) {
            const armcii_gmr_entry_t *e = &ref[p][i];
            check_lookup(&t, p, e->base);
            check_lookup(&t, p, e->base + e->size - 1);
            check_lookup(&t, p, e->base + e->size);
            check_lookup(&t, p, e->base - 1);
        }
    armcii_gmr_table_destroy(&t);
    return 0;
}
