/* The AVL conflict tree against a brute-force O(n^2) oracle: random
 * intervals biased towards every relation (touching, adjacent, nested,
 * identical, partial overlap, empty), plus the tree's balance invariant.
 * No MPI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../src/iov/iov.h"
#include "unit_check.h"

typedef struct { uintptr_t lo, hi; } ival_t;

static int oracle_conflict(const ival_t *set, int n, uintptr_t lo, uintptr_t hi)
{
    if (hi <= lo)
        return 0;
    for (int i = 0; i < n; i++)
        if (lo < set[i].hi && set[i].lo < hi)
            return 1;
    return 0;
}

/* Returns the height; checks ordering, disjointness and AVL balance. */
static int check_node(const armcii_iov_tree_t *t, int i, uintptr_t lo, uintptr_t hi, int *count)
{
    if (i < 0)
        return 0;
    const armcii_iov_avl_node_t *n = &t->node[i];
    (*count)++;
    CHECK(n->lo >= lo && n->hi <= hi && n->lo < n->hi,
          "node [%lu,%lu) outside its bounds [%lu,%lu)", (unsigned long)n->lo,
          (unsigned long)n->hi, (unsigned long)lo, (unsigned long)hi);
    int hl = check_node(t, n->left, lo, n->lo, count);
    int hr = check_node(t, n->right, n->hi, hi, count);
    CHECK(hl - hr <= 1 && hr - hl <= 1, "unbalanced node: heights %d and %d", hl, hr);
    int h = 1 + (hl > hr ? hl : hr);
    CHECK(n->height == h, "stored height %d, actual %d", n->height, h);
    return h;
}

/* Next candidate interval: mostly derived from a stored one. */
static ival_t candidate(const ival_t *set, int n, uintptr_t space)
{
    ival_t c;
    int rel = rand() % 9;
    if (n == 0 || rel == 0) {
        c.lo = (uintptr_t)(rand() % (int)space);
        c.hi = c.lo + 1 + (uintptr_t)(rand() % 16);
        return c;
    }
    ival_t s = set[rand() % n];
    uintptr_t len = s.hi - s.lo;
    switch (rel) {
    case 1: c.lo = s.hi; c.hi = s.hi + 1 + rand() % 8; break;              /* touch right */
    case 2: c.hi = s.lo; c.lo = s.lo > 8 ? s.lo - 1 - rand() % 8 : 0; break; /* touch left */
    case 3: c = s; break;                                                   /* identical */
    case 4: c.lo = s.lo + rand() % len; c.hi = c.lo + 1; break;             /* nested */
    case 5: c.lo = s.lo > 2 ? s.lo - 2 : 0; c.hi = s.hi + 2; break;          /* enclosing */
    case 6: c.lo = s.lo + len / 2; c.hi = s.hi + 3; break;                  /* partial */
    case 7: c.lo = s.hi + 1; c.hi = s.hi + 2; break;                        /* 1-byte gap */
    default: c.lo = s.lo + rand() % (len + 1); c.hi = c.lo; break;          /* empty */
    }
    return c;
}

static void run(unsigned seed, int nins, uintptr_t space)
{
    srand(seed);
    armcii_iov_tree_t t;
    armcii_iov_tree_init(&t);
    ival_t *set = malloc((size_t)nins * sizeof *set);
    int n = 0, conflicts = 0;
    for (int round = 0; round < 3; round++) {
        armcii_iov_tree_reset(&t);   /* reuse the pool, as the library does */
        n = 0;
        for (int k = 0; k < nins; k++) {
            ival_t c = candidate(set, n, space);
            int want = oracle_conflict(set, n, c.lo, c.hi);
            int got = armcii_iov_tree_insert(&t, c.lo, c.hi);
            CHECK(got == want, "seed %u insert [%lu,%lu): tree %d, oracle %d", seed,
                  (unsigned long)c.lo, (unsigned long)c.hi, got, want);
            if (got == 0 && c.hi > c.lo)
                set[n++] = c;
            conflicts += got == 1;
        }
        int count = 0;
        check_node(&t, t.root, 0, UINTPTR_MAX, &count);
        CHECK(count == n, "tree holds %d nodes, oracle %d", count, n);
        CHECK(t.n == n, "tree count %d, oracle %d", t.n, n);
    }
    CHECK(conflicts > 0 && n > 0, "seed %u: degenerate run (%d conflicts, %d stored)",
          seed, conflicts, n);
    free(set);
    armcii_iov_tree_destroy(&t);
}

int main(void)
{
    /* hand-picked relations first */
    armcii_iov_tree_t t;
    armcii_iov_tree_init(&t);
    CHECK(armcii_iov_tree_insert(&t, 10, 20) == 0, "first insert");
    CHECK(armcii_iov_tree_insert(&t, 20, 30) == 0, "touching right is not a conflict");
    CHECK(armcii_iov_tree_insert(&t, 5, 10) == 0, "touching left is not a conflict");
    CHECK(armcii_iov_tree_insert(&t, 10, 20) == 1, "identical is a conflict");
    CHECK(armcii_iov_tree_insert(&t, 12, 13) == 1, "nested is a conflict");
    CHECK(armcii_iov_tree_insert(&t, 0, 100) == 1, "enclosing is a conflict");
    CHECK(armcii_iov_tree_insert(&t, 29, 31) == 1, "partial overlap is a conflict");
    CHECK(armcii_iov_tree_insert(&t, 15, 15) == 0, "empty interval never conflicts");
    CHECK(armcii_iov_tree_insert(&t, 31, 32) == 0, "gap of one byte");
    CHECK(t.n == 4, "4 intervals stored, tree says %d", t.n);
    armcii_iov_tree_destroy(&t);
    /* sorted inserts stress rotations */
    armcii_iov_tree_init(&t);
    for (int i = 0; i < 100000; i++)
        CHECK(armcii_iov_tree_insert(&t, (uintptr_t)i * 8, (uintptr_t)i * 8 + 8) == 0,
              "sorted insert %d", i);
    int count = 0, h = check_node(&t, t.root, 0, UINTPTR_MAX, &count);
    CHECK(h <= 25, "height %d for 100000 sorted inserts (AVL bound ~24)", h);
    armcii_iov_tree_destroy(&t);
    for (unsigned seed = 1; seed <= 40; seed++)
        run(seed, 300 + (int)seed * 20, seed % 2 ? 4000 : 100000);
    printf("%s test_avl\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
