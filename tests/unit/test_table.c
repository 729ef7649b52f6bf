/* Translation table against a brute-force list: random inserts, removals
 * and lookups at boundaries (first byte, last byte, one past the end). */
#include <stdio.h>
#include <stdlib.h>
#include "../../src/gmr/gmr_impl.h"
#include "unit_check.h"

#define NPROC 5
#define MAXE 400

typedef struct { uintptr_t base; size_t size; int live; } ref_t;
static ref_t ref[NPROC][MAXE];
static int nref[NPROC];

static const ref_t *ref_find(int p, uintptr_t a)
{
    for (int i = 0; i < nref[p]; i++)
        if (ref[p][i].live && a >= ref[p][i].base && a < ref[p][i].base + ref[p][i].size)
            return &ref[p][i];
    return NULL;
}

static int ref_overlaps(int p, uintptr_t b, size_t s)
{
    for (int i = 0; i < nref[p]; i++)
        if (ref[p][i].live && b < ref[p][i].base + ref[p][i].size && ref[p][i].base < b + s)
            return 1;
    return 0;
}

static void check_lookup(armcii_gmr_table_t *t, int p, uintptr_t a)
{
    const armcii_gmr_entry_t *e = armcii_gmr_table_find(t, p, a);
    const ref_t *r = ref_find(p, a);
    FAILIF(!e != !r, "proc %d addr %#lx: table %s, reference %s", p, (unsigned long)a,
           e ? "found" : "missing", r ? "found" : "missing");
    if (e && r)
        FAILIF(e->base != r->base || e->size != r->size, "proc %d addr %#lx: wrong entry", p,
               (unsigned long)a);
}

int main(void)
{
    armcii_gmr_table_t t;
    srand(12345);
    if (armcii_gmr_table_init(&t, NPROC)) {
        printf("FAIL test_table: init\n");
        return 1;
    }
    for (int step = 0; step < 20000; step++) {
        int p = rand() % NPROC, op = rand() % 10;
        uintptr_t b = 4096 + (uintptr_t)(rand() % 100000);
        size_t s = 1 + (size_t)(rand() % 700);
        if (op < 4 && nref[p] < MAXE) {
            armcii_gmr_entry_t e = {b, s, NULL, step};
            int rc = armcii_gmr_table_insert(&t, p, &e), ov = ref_overlaps(p, b, s);
            FAILIF((rc != 0) != ov, "insert [%#lx,+%zu) on %d: rc %d, overlap %d",
                   (unsigned long)b, s, p, rc, ov);
            if (!rc)
                ref[p][nref[p]++] = (ref_t){b, s, 1};
        } else if (op < 6 && nref[p]) {
            int i = rand() % nref[p];
            int rc = armcii_gmr_table_remove(&t, p, ref[p][i].base + (ref[p][i].live ? 0 : 1));
            FAILIF((rc == 0) != ref[p][i].live, "remove on %d: rc %d live %d", p, rc, ref[p][i].live);
            ref[p][i].live = 0;
        } else {
            check_lookup(&t, p, b);
            if (nref[p]) {
                const ref_t *r = &ref[p][rand() % nref[p]];
                check_lookup(&t, p, r->base);
                check_lookup(&t, p, r->base + r->size - 1);
                check_lookup(&t, p, r->base + r->size);
                check_lookup(&t, p, r->base - 1);
            }
        }
    }
    /* zero-size entries are refused; bad procs find nothing */
    armcii_gmr_entry_t z = {1, 0, NULL, 0};
    FAILIF(armcii_gmr_table_insert(&t, 0, &z) == 0, "zero-size insert accepted");
    FAILIF(armcii_gmr_table_find(&t, -1, 5000) || armcii_gmr_table_find(&t, NPROC, 5000),
           "lookup with proc out of range");
    armcii_gmr_table_destroy(&t);
    printf("%s test_table\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
