/*
 * AVL conflict tree: a set of pairwise disjoint byte intervals where insert
 * either stores the new interval or reports that it overlaps one already
 * there, in O(log n).  Unlike an interval tree it never holds overlapping
 * entries, so the search is a plain binary descent.  Nodes live in one pool
 * addressed by index: reset() makes a check of the next descriptor free of
 * allocation.  Pure C, no MPI (unit-tested by tests/unit/test_avl.c).
 */
#include <stdlib.h>
#include "iov.h"

void armcii_iov_tree_init(armcii_iov_tree_t *t)
{
    t->node = NULL;
    t->n = t->cap = 0;
    t->root = -1;
}

void armcii_iov_tree_reset(armcii_iov_tree_t *t)
{
    t->n = 0;
    t->root = -1;
}

void armcii_iov_tree_destroy(armcii_iov_tree_t *t)
{
    free(t->node);
    armcii_iov_tree_init(t);
}

static inline int height(const armcii_iov_tree_t *t, int i)
{
    return i < 0 ? 0 : t->node[i].height;
}

static inline void update(armcii_iov_tree_t *t, int i)
{
    int hl = height(t, t->node[i].left), hr = height(t, t->node[i].right);
    t->node[i].height = 1 + (hl > hr ? hl : hr);
}

static int rotate_right(armcii_iov_tree_t *t, int i)
{
    int l = t->node[i].left;
    t->node[i].left = t->node[l].right;
    t->node[l].right = i;
    update(t, i);
    update(t, l);
    return l;
}

static int rotate_left(armcii_iov_tree_t *t, int i)
{
    int r = t->node[i].right;
    t->node[i].right = t->node[r].left;
    t->node[r].left = i;
    update(t, i);
    update(t, r);
    return r;
}

static int rebalance(armcii_iov_tree_t *t, int i)
{
    update(t, i);
    int bal = height(t, t->node[i].left) - height(t, t->node[i].right);
    if (bal > 1) {
        int l = t->node[i].left;
        if (height(t, t->node[l].left) < height(t, t->node[l].right))
            t->node[i].left = rotate_left(t, l);
        return rotate_right(t, i);
    }
    if (bal < -1) {
        int r = t->node[i].right;
        if (height(t, t->node[r].right) < height(t, t->node[r].left))
            t->node[i].right = rotate_right(t, r);
        return rotate_left(t, i);
    }
    return i;
}

/* Insert node k below i; *conflict set (and nothing linked) on overlap.
 * Depth is O(log n), so recursion is bounded (~1.44 log2 n). */
static int insert_at(armcii_iov_tree_t *t, int i, int k, int *conflict)
{
    if (i < 0)
        return k;
    armcii_iov_avl_node_t *n = &t->node[i];
    uintptr_t lo = t->node[k].lo, hi = t->node[k].hi;
    if (hi <= n->lo) {
        int c = insert_at(t, n->left, k, conflict);
        if (*conflict)
            return i;
        t->node[i].left = c;
    } else if (lo >= n->hi) {
        int c = insert_at(t, n->right, k, conflict);
        if (*conflict)
            return i;
        t->node[i].right = c;
    } else {
        *conflict = 1;
        return i;
    }
    return rebalance(t, i);
}

int armcii_iov_tree_insert(armcii_iov_tree_t *t, uintptr_t lo, uintptr_t hi)
{
    if (hi <= lo)
        return 0;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        armcii_iov_avl_node_t *p = realloc(t->node, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        t->node = p;
        t->cap = cap;
    }
    int k = t->n;
    t->node[k] = (armcii_iov_avl_node_t){lo, hi, -1, -1, 1};
    int conflict = 0;
    int root = insert_at(t, t->root, k, &conflict);
    if (conflict)
        return 1;   /* node k stays unused: it is overwritten next time */
    t->root = root;
    t->n++;
    return 0;
}
