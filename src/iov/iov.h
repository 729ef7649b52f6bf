/*
 * src/iov: the noncontiguous engine.
 *
 * Role: carry out strided (ARMCI_*S) and I/O-vector (ARMCI_*V) transfers
 * that src/armci has already validated.  It owns the AVL conflict tree
 * (insert-or-report-conflict of byte intervals), the strided iterator (walks
 * a strided descriptor segment by segment without building the segment
 * list), the byte-stride MPI datatype builder, the IOV methods (CONSERVATIVE,
 * BATCHED, DIRECT, AUTO: named ops tables so the verbose log can say which
 * ran) and the table of MPI implementation quirks.
 *
 * Invariants:
 *  - every remote segment is translated on its own (a vector descriptor may
 *    span regions); a single MPI operation with a derived datatype is only
 *    issued when every segment lies in one region's slice of one target;
 *  - an accumulate uses the node-local path only on regions with all_local
 *    set, so CPU and MPI atomics never mix on one region;
 *  - a slice lock is never held across an MPI call (a peer spinning on it is
 *    not in MPI and could not progress our operation);
 *  - accumulates on the MPI path are issued and completed through
 *    armcii_gmr_acc_issue/complete, which own the scaled-accumulate policy;
 *  - descriptor validation (iov_check.c) and the conflict tree and iterator
 *    (iov_avl.c, iov_iter.c) are pure C with no MPI calls, so unit tests and
 *    fuzzers link them alone.
 * May call: src/gmr (translation, primitives, completion, accumulates) and
 * src/common (errors, logging, state, quirks).
 */
#ifndef ARMCI_IOV_H
#define ARMCI_IOV_H

#include <stddef.h>
#include <stdint.h>
#include "../common/common.h"
#include "../gmr/gmr.h"

/* Deepest strided descriptor accepted (GA uses at most 6 for 7-d arrays). */
#define ARMCII_IOV_MAX_LEVELS 32

/* ---- conflict tree (iov_avl.c; pure C) ---- */
typedef struct {
    uintptr_t lo, hi;       /* [lo, hi) */
    int left, right;        /* node indices, -1 = none */
    int height;
} armcii_iov_avl_node_t;

typedef struct {
    armcii_iov_avl_node_t *node; /* pool; reset() keeps it for reuse */
    int n, cap;
    int root;
} armcii_iov_tree_t;

void armcii_iov_tree_init(armcii_iov_tree_t *t);
/* Empty the tree, keeping its memory. */
void armcii_iov_tree_reset(armcii_iov_tree_t *t);
void armcii_iov_tree_destroy(armcii_iov_tree_t *t);
/* Insert [lo, hi) unless it overlaps a stored interval (touching intervals
 * do not overlap; an empty one never conflicts and is not stored).
 * Returns 0 inserted, 1 conflict (tree unchanged), -1 out of memory. */
int armcii_iov_tree_insert(armcii_iov_tree_t *t, uintptr_t lo, uintptr_t hi);

/* ---- strided iterator and geometry (iov_iter.c; pure C) ---- */
typedef struct {
    int levels;                          /* levels left after dropping count 1 */
    int count[ARMCII_IOV_MAX_LEVELS];
    ptrdiff_t stride[2][ARMCII_IOV_MAX_LEVELS]; /* [0] one side, [1] the other */
    int idx[ARMCII_IOV_MAX_LEVELS];
    ptrdiff_t off[2];
    long remaining;
} armcii_iov_iter_t;

/* Segments of the descriptor: product of count[1..levels], 0 if any is 0. */
long armcii_iov_strided_nseg(int levels, const int count[]);
/* Iterate the block offsets of (count, s0) and in step those of s1 (s1 may
 * be NULL).  Level 1 varies fastest, as in ARMCI's pack order. */
void armcii_iov_iter_init(armcii_iov_iter_t *it, int levels, const int count[],
                          const int s0[], const int s1[]);
/* Next block's offsets; returns 0 when the descriptor is exhausted. */
int armcii_iov_iter_next(armcii_iov_iter_t *it, ptrdiff_t *o0, ptrdiff_t *o1);
/* Byte range touched relative to the base: [*lo, *hi). */
void armcii_iov_strided_extent(int levels, const int count[], const int stride[],
                               ptrdiff_t *lo, ptrdiff_t *hi);
/* 1 when the blocks are provably pairwise disjoint (each level's stride
 * clears the extent of the levels nested in it); 0 = may overlap. */
int armcii_iov_strided_disjoint(int levels, const int count[], const int stride[]);
/* Local pack (dir 0: strided -> buf) or unpack (dir 1: buf -> strided). */
void armcii_iov_strided_copy(char *ptr, int levels, const int stride[],
                             const int count[], char *buf, int dir);

/* ---- operations (iov_methods.c, iov_strided.c) ---- */
typedef enum { ARMCII_IOV_PUT, ARMCII_IOV_GET, ARMCII_IOV_ACC } armcii_iov_kind_t;

/* One validated user call. */
typedef struct {
    const char *call;
    armcii_iov_kind_t kind;
    int proc;
    int datatype;            /* ACC only */
    const void *scale;       /* ACC only */
    armcii_gmr_cmpl_t cmpl;  /* blocking, or the handle's set */
} armcii_iov_op_t;

/* Translate one remote range of op (0, or armcii_gmr_xlate_try's error
 * when !must).  Gets fetch data, so their completion must cover reads
 * (armcii_gmr_complete_win): the NONCONTIG class alone does not say so. */
static inline int armcii_iov_xlate(const armcii_iov_op_t *op, const void *rem, size_t len,
                                   int must, armcii_target_t *t)
{
    armcii_opclass_t cls = op->kind == ARMCII_IOV_ACC ? ARMCII_OP_ACC : ARMCII_OP_NONCONTIG;
    int rc = 0;
    if (must)
        armcii_gmr_xlate(op->call, rem, len, op->proc, cls, t);
    else
        rc = armcii_gmr_xlate_try(rem, len, op->proc, cls, t);
    t->reads |= op->kind == ARMCII_IOV_GET;
    return rc;
}

/* A sequence of equal-sized segments: a vector descriptor (loc/rem arrays)
 * or a strided descriptor walked by an iterator (it != NULL). */
typedef struct {
    int bytes;
    long n;
    void **loc, **rem;
    char *lbase, *rbase;
    armcii_iov_iter_t *it;   /* stride[0] local, stride[1] remote */
    int disjoint;            /* strided: the written side's blocks proven disjoint */
    long pos;
} armcii_iov_seq_t;

/* Rewind and step a sequence: local and remote address of the next segment. */
void armcii_iov_seq_rewind(armcii_iov_seq_t *s);
int armcii_iov_seq_next(armcii_iov_seq_t *s, char **loc, char **rem);

/* One operation described by datatypes (iov_methods.c; shared by the
 * indexed and strided MPI paths).  typed_begin returns the count of base
 * elements per block of block_bytes and starts a for accumulates;
 * typed_issue issues put/get of (s->base, s->ltype) or the accumulate of
 * the source s into rtype at t, completes as op asks and ends a. */
int armcii_iov_typed_begin(const armcii_iov_op_t *op, int block_bytes, armcii_gmr_acc_t *a,
                           MPI_Datatype *base);
void armcii_iov_typed_issue(const armcii_iov_op_t *op, const armcii_target_t *t,
                            armcii_gmr_acc_t *a, const armcii_gmr_src_t *s, MPI_Datatype rtype);

/* Run a sequence with the configured IOV method (ARMCI_IOV_METHOD). */
void armcii_iov_run(const armcii_iov_op_t *op, armcii_iov_seq_t *seq);
/* Run with a given method (ARMCII_IOV_AUTO..DIRECT). */
void armcii_iov_run_method(const armcii_iov_op_t *op, armcii_iov_seq_t *seq, int method);
/* A strided transfer (count[0] bytes per block, byte strides) with the
 * configured ARMCI_STRIDED_METHOD. */
void armcii_iov_strided(const armcii_iov_op_t *op, char *loc, const int lstride[],
                        char *rem, const int rstride[], const int count[], int levels);

/* ---- sieved gets (iov_sieve.c) ---- */
/* 1 when a get of nseg blocks of `bytes` covering span bytes at t (MPI
 * path) reads the range instead (ARMCI_IOV_SIEVE). */
int armcii_iov_sieve_ok(const armcii_iov_op_t *op, const armcii_target_t *t, long nseg,
                        int bytes, size_t span);
/* A vector get read as the range covering its segments when that is worth
 * it; 1 when done (complete), 0 when the caller must run a method. */
int armcii_iov_sieve_vector(const armcii_iov_op_t *op, armcii_iov_seq_t *seq);
/* A strided get read as its extent [lo, hi) relative to rem, which t
 * describes from rem + lo (armcii_iov_sieve_ok said yes); complete. */
void armcii_iov_sieve_strided(const armcii_iov_op_t *op, char *loc, const int lstride[],
                              const armcii_target_t *t, const int rstride[], const int count[],
                              int levels, long nseg, ptrdiff_t lo, ptrdiff_t hi);

/* ---- byte-stride datatypes (iov_strided.c) ---- */
/* Type of one strided side: each block is nbase items of base (count[0]
 * bytes), then one hvector per level with count[k] > 1.  Committed. */
void armcii_iov_strided_type(int levels, const int count[], const int stride[],
                             MPI_Datatype base, int nbase, MPI_Datatype *out);

/* ---- descriptor validation (iov_check.c; pure C, fuzzed) ---- */
/* 0 when the strided descriptor is well formed, else -1 with the reason in
 * err; *empty = 1 when some count is 0 (nothing to move). */
int armcii_iov_check_strided(const void *src, const int *sstr, const void *dst,
                             const int *dstr, const int *count, int levels, int *empty,
                             char *err, size_t errlen);
/* The same for vector descriptors; elem is the element size that every
 * segment length must be a multiple of (1 for put/get). */
int armcii_iov_check_vector(const armci_giov_t *iov, int len, int elem, char *err,
                            size_t errlen);

#endif /* ARMCI_IOV_H */
