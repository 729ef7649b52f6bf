/*
 * IOV methods.  Each is a named ops table so the verbose log says which ran:
 *  CONSERVATIVE  one operation and one completion per segment (any layout:
 *                segments in different regions, overlapping segments);
 *  BATCHED       one operation per segment, one completion per target at the
 *                end (or every ARMCI_IOV_BATCHED_LIMIT operations); needs
 *                remote segments that do not overlap;
 *  DIRECT        one hindexed datatype per side, one operation; needs all
 *                segments in one slice of one target and no overlap, else it
 *                falls back (and the log says why);
 *  AUTO          BATCHED where the written side ascends (an O(N) scan),
 *                CONSERVATIVE for a node-local target (no tree: its segments
 *                run in order anyway); otherwise the conflict tree decides:
 *                overlapping segments -> CONSERVATIVE, else BATCHED, which
 *                beat DIRECT at every size measured with bench_strided on
 *                Open MPI 4.1 (docs/benchmarks.md, "Noncontiguous method
 *                choice").
 */
#include <stdlib.h>
#include <string.h>
#include "iov.h"
#include "../common/common_acc.h"
#include "../common/common_quirks.h"

typedef struct {
    const char *name;
    void (*run)(const armcii_iov_op_t *op, armcii_iov_seq_t *seq);
} iov_method_t;

/* The conflict tree is reused call after call; one per thread. */
static __thread armcii_iov_tree_t conflict_tree
    __attribute__((tls_model("initial-exec")));
static __thread int conflict_tree_ready __attribute__((tls_model("initial-exec")));

void armcii_iov_seq_rewind(armcii_iov_seq_t *s)
{
    s->pos = 0;
    if (s->it) {
        int levels = s->it->levels;
        for (int k = 0; k < levels; k++)
            s->it->idx[k] = 0;
        s->it->off[0] = s->it->off[1] = 0;
        s->it->remaining = s->n;
    }
}

int armcii_iov_seq_next(armcii_iov_seq_t *s, char **loc, char **rem)
{
    if (s->pos >= s->n)
        return 0;
    if (s->it) {
        ptrdiff_t lo, ro;
        armcii_iov_iter_next(s->it, &lo, &ro);
        *loc = s->lbase + lo;
        *rem = s->rbase + ro;
    } else {
        *loc = s->loc[s->pos];
        *rem = s->rem[s->pos];
    }
    s->pos++;
    return 1;
}

/* ---- the per-segment engine shared by CONSERVATIVE and BATCHED ---- */
typedef struct {
    const armcii_iov_op_t *op;
    armcii_gmr_acc_t acc;  /* accumulates: arithmetic and staging */
    armcii_target_t *pend; /* distinct (win, rank) with incomplete operations */
    int npend, cappend;
    armcii_target_t lock;  /* slice lock held (direct accumulates) */
    int locked;
    long issued;
} eng_t;

static void eng_init(eng_t *e, const armcii_iov_op_t *op, int bytes, long batch)
{
    memset(e, 0, sizeof *e);
    e->op = op;
    if (op->kind == ARMCII_IOV_ACC)
        armcii_gmr_acc_begin(&e->acc, op->datatype, op->scale,
                             (size_t)bytes * (size_t)(batch > 0 ? batch : 1));
}

static void eng_unlock(eng_t *e)
{
    if (e->locked)
        armcii_gmr_slice_unlock(&e->lock);
    e->locked = 0;
}

static void eng_pend(eng_t *e, const armcii_target_t *t)
{
    for (int i = e->npend - 1; i >= 0; i--)
        if (e->pend[i].win == t->win && e->pend[i].rank == t->rank)
            return;
    if (e->npend == e->cappend)
        e->pend = armcii_grow(e->pend, &e->cappend, 8, sizeof(armcii_target_t), e->op->call,
                              "completion bookkeeping");
    e->pend[e->npend++] = *t;
}

/* Complete everything issued so far as the call asks (conservative: now). */
static void eng_complete(eng_t *e, int now)
{
    static const armcii_gmr_cmpl_t local = {1, NULL};
    const armcii_gmr_cmpl_t *c = now ? &local : &e->op->cmpl;
    eng_unlock(e);
    for (int i = 0; i < e->npend; i++) {
        if (e->op->kind == ARMCII_IOV_ACC)
            armcii_gmr_acc_complete(&e->acc, c, &e->pend[i]);
        else
            armcii_gmr_complete(c, &e->pend[i]);
    }
    if (e->op->kind == ARMCII_IOV_ACC)
        armcii_gmr_acc_reset(&e->acc);
    e->npend = 0;
    e->issued = 0;
}

static void eng_done(eng_t *e)
{
    eng_complete(e, 0);
    if (e->op->kind == ARMCII_IOV_ACC)
        armcii_gmr_acc_end(&e->acc);
    free(e->pend);
}

static void eng_acc_direct(eng_t *e, const armcii_target_t *t, const char *l, int bytes)
{
    if (!e->locked || e->lock.gmr != t->gmr || e->lock.grank != t->grank) {
        eng_unlock(e);
        e->lock = *t;
        armcii_gmr_slice_lock(t);
        e->locked = 1;
    }
    armcii_acc_kernel(e->op->datatype, e->op->scale, l, t->direct, (size_t)bytes);
}

static void eng_acc_mpi(eng_t *e, const armcii_target_t *t, const char *l, int bytes)
{
    armcii_gmr_src_t s = {l, MPI_DATATYPE_NULL, (size_t)bytes, NULL, NULL};
    if (armcii_gmr_acc_issue(&e->acc, t, &s, MPI_DATATYPE_NULL)) {
        /* staging area full: its operations must complete before reuse */
        eng_complete(e, 1);
        armcii_gmr_acc_issue(&e->acc, t, &s, MPI_DATATYPE_NULL);
    }
}

/* One segment: node-local load/store where allowed, else one MPI operation. */
static void eng_segment(eng_t *e, char *l, char *r, int bytes)
{
    const armcii_iov_op_t *op = e->op;
    armcii_target_t t;
    armcii_iov_xlate(op, r, (size_t)bytes, 1, &t);
    if (t.direct && op->kind == ARMCII_IOV_PUT) {
        memmove(t.direct, l, (size_t)bytes);
        return;
    }
    if (t.direct && op->kind == ARMCII_IOV_GET) {
        eng_unlock(e);
        armcii_gmr_order_read(&t);
        memmove(l, t.direct, (size_t)bytes);
        return;
    }
    if (t.direct && t.all_local) {
        eng_acc_direct(e, &t, l, bytes);
        return;
    }
    eng_unlock(e);   /* never hold a slice lock inside MPI */
    if (op->kind == ARMCII_IOV_PUT)
        armcii_gmr_put(&t, l, bytes, MPI_BYTE, bytes, MPI_BYTE);
    else if (op->kind == ARMCII_IOV_GET)
        armcii_gmr_get(&t, l, bytes, MPI_BYTE, bytes, MPI_BYTE);
    else
        eng_acc_mpi(e, &t, l, bytes);
    eng_pend(e, &t);
    e->issued++;
}

static void run_conservative(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    eng_t e;
    char *l, *r;
    eng_init(&e, op, seq->bytes, 1);
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r)) {
        eng_segment(&e, l, r, seq->bytes);
        /* conservative: complete now, whatever the handle says.  A node-local
         * segment completed as it ran; keeping its slice lock for the next
         * one (as BATCHED does) saves a lock round trip per segment. */
        if (e.npend)
            eng_complete(&e, 1);
    }
    eng_done(&e);
}

static void run_batched(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    long limit = armcii_state.cfg.iov_batched_limit;
    /* The batch limit applies to blocking calls; a scaled accumulate always
     * completes within the call, so its staging area need not exceed one batch. */
    long batch = limit > 0 ? (limit < seq->n ? limit : seq->n) : seq->n;
    eng_t e;
    char *l, *r;
    eng_init(&e, op, seq->bytes, batch);
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r)) {
        eng_segment(&e, l, r, seq->bytes);
        if (limit > 0 && e.issued >= limit && (op->cmpl.blocking || e.acc.scaled))
            eng_complete(&e, 1);
    }
    eng_done(&e);
}

/* The written side of a segment: remote for put and accumulate, local for get. */
static uintptr_t written(const armcii_iov_op_t *op, const char *l, const char *r)
{
    return (uintptr_t)(op->kind == ARMCII_IOV_GET ? l : r);
}

/* 1 when the written side ascends without overlap, in O(N): GA's gather
 * writes its destination vector in order, and a tree costs it more than
 * the copies (benchmarks/results/ga_bundle.runtimes.16core.txt). */
static int ascending(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    char *l, *r;
    uintptr_t end = 0;
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r)) {
        uintptr_t w = written(op, l, r);
        if (w < end)
            return 0;
        end = w + (size_t)seq->bytes;
    }
    return 1;
}

/* 1 when no two segments of the written side overlap (the conflict tree,
 * O(N log N)). */
static int tree_disjoint(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    char *l, *r;
    if (!conflict_tree_ready) {
        armcii_iov_tree_init(&conflict_tree);
        conflict_tree_ready = 1;
    }
    armcii_iov_tree_reset(&conflict_tree);
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r)) {
        uintptr_t w = written(op, l, r);
        int rc = armcii_iov_tree_insert(&conflict_tree, w, w + (size_t)seq->bytes);
        if (rc < 0)
            armcii_error(op->call, "out of memory in the IOV conflict check");
        if (rc == 1)
            return 0;
    }
    return 1;
}

/* Why the written side is disjoint without the tree, or NULL (unknown). */
static const char *disjoint_cheap(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    if (seq->it && seq->disjoint)
        return "disjoint segments";
    return ascending(op, seq) ? "ascending segments" : NULL;
}

static int disjoint(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    return disjoint_cheap(op, seq) || tree_disjoint(op, seq);
}

/* ---- DIRECT: one hindexed datatype per side ---- */

/* Translate every segment; 1 when all lie in one slice of one target on the
 * MPI path (first: the translation of the first segment). */
static int one_slice(const armcii_iov_op_t *op, armcii_iov_seq_t *seq, armcii_target_t *first)
{
    armcii_target_t t;
    char *l, *r;
    int ok = 1;
    armcii_iov_seq_rewind(seq);
    for (long i = 0; armcii_iov_seq_next(seq, &l, &r); i++) {
        armcii_iov_xlate(op, r, (size_t)seq->bytes, 1, &t);
        if (i == 0)
            *first = t;
        else if (t.gmr != first->gmr || t.win != first->win || t.rank != first->rank)
            ok = 0;
    }
    return ok;
}

int armcii_iov_typed_begin(const armcii_iov_op_t *op, int block_bytes, armcii_gmr_acc_t *a,
                           MPI_Datatype *base)
{
    *base = MPI_BYTE;
    if (op->kind != ARMCII_IOV_ACC)
        return block_bytes;
    int elem, mult;
    armcii_gmr_acc_begin(a, op->datatype, op->scale, 0);
    armcii_gmr_acc_type(op->datatype, base, &elem, &mult);
    return block_bytes / elem * mult;
}

void armcii_iov_typed_issue(const armcii_iov_op_t *op, const armcii_target_t *t,
                            armcii_gmr_acc_t *a, const armcii_gmr_src_t *s, MPI_Datatype rtype)
{
    void *loc = (void *)s->base;
    if (op->kind == ARMCII_IOV_PUT) {
        armcii_gmr_put(t, loc, 1, s->ltype, 1, rtype);
        armcii_gmr_complete(&op->cmpl, t);
    } else if (op->kind == ARMCII_IOV_GET) {
        armcii_gmr_get(t, loc, 1, s->ltype, 1, rtype);
        armcii_gmr_complete(&op->cmpl, t);
    } else {
        armcii_gmr_acc_issue(a, t, s, rtype);
        armcii_gmr_acc_complete(a, &op->cmpl, t);
        armcii_gmr_acc_end(a);
    }
}

/* Local pieces of an indexed descriptor, for staging a scaled accumulate. */
typedef struct {
    const char *l0;
    const MPI_Aint *ldisp;
    long n, i;
    size_t bytes;
} pieces_t;

static int next_piece(void *ctx, const char **p, size_t *len)
{
    pieces_t *pc = ctx;
    if (pc->i >= pc->n)
        return 0;
    *p = pc->l0 + pc->ldisp[pc->i++];
    *len = pc->bytes;
    return 1;
}

static void issue_indexed(const armcii_iov_op_t *op, armcii_iov_seq_t *seq,
                          const armcii_target_t *t)
{
    long n = seq->n;
    MPI_Aint *disp = malloc((size_t)n * 2 * sizeof(MPI_Aint)), *ldisp = disp + n;
    char *l0 = NULL, *r0 = NULL, *l, *r;
    if (!disp)
        armcii_error(op->call, "out of memory for %ld displacements", n);
    armcii_iov_seq_rewind(seq);
    for (long i = 0; armcii_iov_seq_next(seq, &l, &r); i++) {
        if (i == 0)
            l0 = l, r0 = r;
        disp[i] = (MPI_Aint)(r - r0);
        ldisp[i] = (MPI_Aint)(l - l0);
    }
    MPI_Datatype base, ltype = MPI_DATATYPE_NULL, rtype;
    armcii_gmr_acc_t a;
    int blen = armcii_iov_typed_begin(op, seq->bytes, &a, &base);
    ARMCII_MPI(MPI_Type_create_hindexed_block((int)n, blen, disp, base, &rtype));
    ARMCII_MPI(MPI_Type_commit(&rtype));
    if (op->kind != ARMCII_IOV_ACC || !a.scaled) {
        ARMCII_MPI(MPI_Type_create_hindexed_block((int)n, blen, ldisp, base, &ltype));
        ARMCII_MPI(MPI_Type_commit(&ltype));
    }
    pieces_t pc = {l0, ldisp, n, 0, (size_t)seq->bytes};
    armcii_gmr_src_t s = {l0, ltype, (size_t)n * (size_t)seq->bytes, next_piece, &pc};
    armcii_iov_typed_issue(op, t, &a, &s, rtype);
    if (ltype != MPI_DATATYPE_NULL)
        ARMCII_MPI(MPI_Type_free(&ltype));
    ARMCII_MPI(MPI_Type_free(&rtype));
    free(disp);
}

static const iov_method_t method_conservative = {"CONSERVATIVE", run_conservative};
static const iov_method_t method_batched = {"BATCHED", run_batched};

static void run_fallback(const armcii_iov_op_t *op, armcii_iov_seq_t *seq, const char *via,
                         const iov_method_t *m, const char *why)
{
    armcii_log(3, "%s: IOV method %s -> %s (%s), %ld segments of %d bytes to %d", op->call,
               via, m->name, why, seq->n, seq->bytes, op->proc);
    m->run(op, seq);
}

static void run_direct(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    armcii_target_t t;
    if (!one_slice(op, seq, &t)) {
        run_fallback(op, seq, "DIRECT", &method_conservative, "segments in several regions");
    } else if (!disjoint(op, seq)) {
        run_fallback(op, seq, "DIRECT", &method_conservative, "overlapping segments");
    } else if (t.direct) {
        run_fallback(op, seq, "DIRECT", &method_batched, "node-local target");
    } else if (t.am) {
        run_fallback(op, seq, "DIRECT", &method_batched, "carried out by a ghost");
    } else if (op->kind == ARMCII_IOV_ACC && armcii_acc_split()) {
        run_fallback(op, seq, "DIRECT", &method_batched, "acc_dtype_split");
    } else if (op->kind == ARMCII_IOV_GET && armcii_gmr_get_by_blocks()) {
        run_fallback(op, seq, "DIRECT", &method_batched, "gets by blocks where waits yield");
    } else {
        armcii_log(3, "%s: IOV method DIRECT, %ld segments of %d bytes to %d", op->call,
                   seq->n, seq->bytes, op->proc);
        issue_indexed(op, seq, &t);
    }
}

/* 1 when the first segment is node-local (load/store; its target's other
 * segments normally are too). */
static int first_direct(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    armcii_target_t t;
    char *l, *r;
    armcii_iov_seq_rewind(seq);
    armcii_iov_seq_next(seq, &l, &r);
    armcii_iov_xlate(op, r, (size_t)seq->bytes, 1, &t);
    return t.direct != NULL;
}

static void run_auto(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    /* Node-local segments run one after the other, so overlap cannot
     * reorder them and CONSERVATIVE costs what BATCHED does; it stays safe
     * for any segment that takes the MPI path after all.  The conflict
     * tree is built only where it can pay. */
    const char *why = disjoint_cheap(op, seq);
    if (why)
        run_fallback(op, seq, "AUTO", &method_batched, why);
    else if (first_direct(op, seq))
        run_fallback(op, seq, "AUTO", &method_conservative, "node-local target");
    else if (tree_disjoint(op, seq))
        run_fallback(op, seq, "AUTO", &method_batched, "disjoint segments");
    else
        run_fallback(op, seq, "AUTO", &method_conservative, "overlapping segments");
}

static const iov_method_t method_direct = {"DIRECT", run_direct};
static const iov_method_t method_auto = {"AUTO", run_auto};

/* Ghost build: a vector whose segments all lie in one slice of a target
 * its ghost serves from messages (t.am) travels as one message (GA's
 * gather and scatter: thousands of 8-byte segments).  1 when done. */
static int run_am(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    armcii_target_t t, first;
    char *l, *r;
    if (!armcii_gmr_ghost_usable())
        return 0;
    armcii_iov_seq_rewind(seq);
    armcii_iov_seq_next(seq, &l, &r);
    /* the message carries each segment's displacement (8 bytes) too */
    if (armcii_iov_xlate(op, r, (size_t)seq->bytes, 0, &first) || !first.am ||
        (size_t)seq->n * ((size_t)seq->bytes + 8) > ARMCII_AM_MAX_BYTES)
        return 0;
    char **loc = malloc((size_t)seq->n * sizeof(char *));
    MPI_Aint *disp = malloc((size_t)seq->n * sizeof(MPI_Aint));
    if (!loc || !disp)
        armcii_error(op->call, "out of memory for a vector of %ld segments", seq->n);
    int ok = 1;
    armcii_iov_seq_rewind(seq);
    for (long i = 0; ok && armcii_iov_seq_next(seq, &l, &r); i++) {
        armcii_iov_xlate(op, r, (size_t)seq->bytes, 1, &t);
        ok = t.am && t.gmr == first.gmr && t.rank == first.rank && t.am_pool == first.am_pool;
        loc[i] = l;
        disp[i] = t.disp;
    }
    if (ok) {
        armcii_log(3, "%s: vector through %d's ghost, %ld segments of %d bytes", op->call,
                   op->proc, seq->n, seq->bytes);
        armcii_gmr_vec_am(&first, op->kind == ARMCII_IOV_ACC ? op->datatype
                                  : op->kind == ARMCII_IOV_PUT ? -1 : -2,
                          op->scale, seq->n, seq->bytes, loc, disp);
    }
    free(loc);
    free(disp);
    return ok;
}

void armcii_iov_run_method(const armcii_iov_op_t *op, armcii_iov_seq_t *seq, int method)
{
    if (seq->n <= 0 || seq->bytes <= 0)
        return;
    if (run_am(op, seq))
        return;
    /* explicit methods stay what they say, for tests and comparisons */
    if (method == ARMCII_IOV_AUTO && armcii_iov_sieve_vector(op, seq))
        return;
    const iov_method_t *m = method == ARMCII_IOV_CONSRV ? &method_conservative
                          : method == ARMCII_IOV_BATCHED ? &method_batched
                          : method == ARMCII_IOV_DIRECT ? &method_direct : &method_auto;
    if (m == &method_conservative || m == &method_batched)
        armcii_log(3, "%s: IOV method %s, %ld segments of %d bytes to %d", op->call, m->name,
                   seq->n, seq->bytes, op->proc);
    m->run(op, seq);
}

void armcii_iov_run(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    armcii_iov_run_method(op, seq, armcii_state.cfg.iov_method);
}
