/*
 * src/gmr: global memory regions.
 *
 * Role: allocate and free regions (one per ARMCI_Malloc*), keep the
 * translation table (absolute proc, remote address) -> (region, window rank,
 * displacement, node-local pointer), issue every contiguous operation and
 * every accumulate (the scaled-accumulate policy lives in gmr_acc.c only),
 * and own completion: local and remote flushes, the dirty tracking behind
 * location consistency and fences, and the completion sets behind
 * nonblocking handles (gmr_cset.c).
 *
 * Invariants:
 *  - every region's RMA window stays in one MPI_Win_lock_all epoch for life;
 *  - a target is "direct" (node-local load/store) only when the node-local
 *    path is on and the target shares this process's (virtual) node;
 *  - accumulates and RMW use the direct path only on regions whose members
 *    all share the node (gmr->all_local), so CPU and MPI atomics never mix
 *    on one region;
 *  - unfenced remote writes are tracked per (region, target, path) so that
 *    a get or RMW after a put/acc to the same target flushes first
 *    (location consistency), a write on one path remote-completes the other
 *    path's writes first (ordering), and Fence(p) touches only regions that
 *    contain p;
 *  - a completion set never refers to a freed region: freeing purges it;
 *  - a scaled accumulate's temporary lives until local completion, so even
 *    its nonblocking form completes before returning.
 * Translation goes through armcii_gmr_xlate(), the single hook where an
 * operation class may be redirected to a ghost (gmr_ghost.c).
 * May call: src/common, src/ghost (ghost build: layout and commands).
 */
#ifndef ARMCI_GMR_H
#define ARMCI_GMR_H

#include <stddef.h>
#include <stdint.h>
#include "../common/common.h"

/* Bytes reserved in front of each node-shared slice (accumulate lock). */
#define ARMCII_SLICE_HDR 64

typedef struct armcii_gmr_slice {
    char *base;       /* the owner's address, as returned to the user */
    size_t size;      /* 0: empty slice, base NULL */
    char *direct;     /* my mapping of the slice, or NULL */
    int *acc_lock;    /* node-shared lock word of the slice (direct only) */
} armcii_gmr_slice_t;

/* Communicators shared by the regions over one group (gmr_comm.c). */
typedef struct armcii_gmr_comm {
    MPI_Comm comm;            /* dup of the group's communicator */
    MPI_Comm node_comm;       /* its members on my (virtual) node, made on demand */
    int refs;                 /* live regions using it */
    struct armcii_gmr_comm *next;
} armcii_gmr_comm_t;

typedef struct armcii_gmr {
    MPI_Win win;              /* RMA window over comm */
    MPI_Win shm_win;          /* node-shared window, or MPI_WIN_NULL */
    armcii_gmr_comm_t *gcomm; /* the group's shared communicators */
    MPI_Comm comm;            /* gcomm->comm */
    MPI_Comm node_comm;       /* gcomm's node communicator where used, or NULL */
    int size, rank;           /* in comm */
    int *abs_of;              /* group rank -> absolute rank */
    armcii_gmr_slice_t *slice;/* indexed by group rank */
    MPI_Aint disp_hdr;        /* window displacement of each slice's byte 0 */
    int all_local;            /* all members share my node and direct is on */
    int ghost_async;          /* ghost build: software-handled ops go to ghosts */
    unsigned ghost_classes;   /* ghost build: the classes that go (armcii_software_classes) */
    int ghost_rw;             /* ghost_async and contiguous put/get among them: no fast path */
    unsigned char *dirty;     /* per group rank: unfenced remote writes, by path
                                 (ARMCII_DIRTY_WIN | ARMCII_DIRTY_GHOST) */
    int ndirty;               /* number of nonzero entries in dirty */
    /* threaded runs (gmr_ops.c): per (group rank r, path p), index 2*r+p,
     * writes issued so far, writes known remotely complete, and a fence's
     * snapshot (under armcii_gmr_state.lock); NULL otherwise */
    unsigned long *wcnt, *fcnt, *wsnap;
    struct armcii_gmr *next_dirty; /* list of regions with ndirty > 0 */
    int in_dirty_list;
    struct armcii_gmr *prev, *next; /* all live regions */
    void *ghost;              /* gmr_ghost.c: ghost-side exposure */
} armcii_gmr_t;

/* dirty[] bits: writes through the region's window, through a ghost. */
enum { ARMCII_DIRTY_WIN = 1, ARMCII_DIRTY_GHOST = 2 };

/* Operation classes: translation may redirect some to ghosts, and the
 * profiler counts them. */
typedef enum {
    ARMCII_OP_PUT = ARMCII_CLASS_PUT, ARMCII_OP_GET = ARMCII_CLASS_GET,
    ARMCII_OP_ACC = ARMCII_CLASS_ACC, ARMCII_OP_RMW = ARMCII_CLASS_RMW,
    ARMCII_OP_NONCONTIG = ARMCII_CLASS_NONCONTIG, /* strided/vector put and get data */
    /* Put_flag's data and flag: the target polls with no calls, so where
     * the MPI needs target software even for puts it is served like an
     * accumulate (by a ghost), but it needs no atomicity (direct stays). */
    ARMCII_OP_NOTIFY = ARMCII_CLASS_NOTIFY,
    ARMCII_OP_NCLASS = ARMCII_CLASS_N
} armcii_opclass_t;

/* Where one operation goes. */
typedef struct armcii_target {
    armcii_gmr_t *gmr;
    MPI_Win win;       /* window to use (region's, or a ghost's) */
    int rank;          /* target rank in win */
    int grank;         /* target's rank in gmr->comm */
    int abs;           /* absolute target */
    MPI_Aint disp;     /* byte displacement in win */
    char *direct;      /* node-local pointer to the target bytes, or NULL */
    int reads;         /* the operation fetches data (see complete_local) */
} armcii_target_t;

/* How an issued operation completes: now (locally) or in a handle's set. */
typedef struct {
    int blocking;
    armci_hdl_t *hdl;  /* nonblocking: explicit handle, or NULL = implicit set */
} armcii_gmr_cmpl_t;

/* ---- translation table (gmr_table.c; pure C, unit-tested) ---- */
typedef struct {
    uintptr_t base;
    size_t size;
    void *region;
    int grank;
} armcii_gmr_entry_t;

typedef struct {
    int nproc;
    struct { armcii_gmr_entry_t *e; int n, cap; } *per;  /* by absolute proc */
    long live;                /* entries in the table */
    unsigned long seq;        /* odd while a change is in progress */
    armcii_lock_t lock;       /* writers (allocation and free) */
    struct retired *retired;  /* outgrown arrays, freed at destroy */
} armcii_gmr_table_t;

int armcii_gmr_table_init(armcii_gmr_table_t *t, int nproc);
void armcii_gmr_table_destroy(armcii_gmr_table_t *t);
/* 0 on success, -1 if [base, base+size) overlaps an entry of proc, is empty
 * or does not end below the top of the address space. */
int armcii_gmr_table_insert(armcii_gmr_table_t *t, int proc, const armcii_gmr_entry_t *e);
/* 0 on success, -1 if no entry of proc starts at base. */
int armcii_gmr_table_remove(armcii_gmr_table_t *t, int proc, uintptr_t base);
/* The entry of proc containing addr, or NULL.  O(log n).  The entry is the
 * calling thread's copy: valid until its next lookup. */
const armcii_gmr_entry_t *armcii_gmr_table_find(const armcii_gmr_table_t *t, int proc,
                                                uintptr_t addr);

/* Per-thread hint: a copy of the last entry found, valid while the table's
 * sequence number is unchanged (a writer makes it odd, then new).  It is
 * per thread, so it needs no lock; it sits in a header so that the hot
 * path checks it inline. */
typedef struct {
    const armcii_gmr_table_t *t;
    unsigned long seq;
    int proc;
    armcii_gmr_entry_t e;
} armcii_gmr_hint_t;
extern __thread armcii_gmr_hint_t armcii_gmr_hint __attribute__((tls_model("initial-exec")));

/* armcii_gmr_table_find with the hint checked inline. */
static inline const armcii_gmr_entry_t *armcii_gmr_table_lookup(const armcii_gmr_table_t *t,
                                                                int proc, uintptr_t addr)
{
    const armcii_gmr_hint_t *h = &armcii_gmr_hint;
    if (__builtin_expect(h->t == t && h->proc == proc && addr - h->e.base < h->e.size &&
                             h->seq == __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE), 1))
        return &h->e;
    return armcii_gmr_table_find(t, proc, addr);
}

/* Profiler (ARMCI_PROFILE=1) and automatic redirection: the class, first
 * target and bytes of the operations the calling thread's current library
 * call translated, whether the first one would go to a ghost with
 * redirection on (ghostable) and whether it did (ghost), and, in automatic
 * mode, when the call's first operation on the MPI path was translated
 * (the call is timed from there: node-local load/store calls never read
 * the clock).  Read by src/progress when the call returns; reset when it
 * starts. */
typedef struct {
    int cls, proc;   /* cls -1: no operation translated */
    double bytes;
    int ghostable, ghost;
    double t0;       /* 0: not timed (yet) */
} armcii_gmr_callop_t;
extern __thread armcii_gmr_callop_t armcii_gmr_callop
    __attribute__((tls_model("initial-exec")));

/* ---- module state: the one global of src/gmr ---- */
typedef struct {
    armcii_gmr_table_t table;
    armcii_gmr_t *regions;        /* all live regions */
    armcii_gmr_comm_t *comms;     /* communicators shared by regions (gmr_comm.c) */
    armcii_gmr_t *dirty;          /* regions with unfenced remote writes */
    int shm_ok;                   /* MPI_Win_allocate_shared works here */
    int direct;                   /* node-local path in use */
    long allocations;
    unsigned long completions;    /* MPI-path completions (progress pokes) */
    int poke;                     /* a window needs pokes (gmr_ops.c, poke()) */
    int no_flush_local;           /* a window's flush_local can hang: flush only
                                   * (ARMCII_QUIRK_NO_FLUSH_LOCAL) */
    int async_hint;               /* ARMCIX_Set_async_hint: -1 default, 0, 1 */
    int phase_off;                /* ARMCIX_Async_phase(0): redirection switched off */
    MPI_Win create_lock;          /* serializes group window creation */
    unsigned long redirected;     /* operations sent to ghosts (always counted) */
    armcii_lock_t lock;           /* dirty list (threaded runs) */
    armcii_lock_t prof_lock;      /* profiler counters (threaded runs) */
    /* profiler counters, kept only when ARMCI_PROFILE is on */
    int profile;
    /* automatic redirection: note each call's first operation (callop) and
     * take the general path to targets off the node (the contiguous fast
     * path is not timed) */
    int timed;
    long ops[ARMCII_OP_NCLASS];
    double bytes[ARMCII_OP_NCLASS];
} armcii_gmr_state_t;
extern armcii_gmr_state_t armcii_gmr_state;

/* Collective over the world (ARMCIX_Async_phase): complete every operation,
 * barrier, then switch ghost redirection on (1, -1) or off (0). */
void armcii_gmr_phase(int mode);
/* Switch ghost redirection of every ghost-reachable region, live and
 * future, on or off.  Only where every process of the world has completed
 * every operation and none issues one until all have switched (after
 * armcii_gmr_fence_all and a collective that acts as a barrier). */
void armcii_gmr_redirect(int on);
/* This process has no write that is not yet remotely complete (no region
 * in the dirty list with unfenced writes): a collective entered by every
 * process in this state may switch redirection (GA_Sync's path). */
int armcii_gmr_quiescent(void);

/* After an MPI write to g's rank r on path p (0: g->win, 1: a ghost) in a
 * threaded run: count it (a fence compares counts, see gmr_ops.c). */
static inline void armcii_gmr_count_write(armcii_gmr_t *g, int r, int p)
{
    if (ARMCII_UNLIKELY(g->wcnt != NULL))
        __atomic_add_fetch(&g->wcnt[2 * r + p], 1, __ATOMIC_RELEASE);
}
/* Threaded run: writes to g's rank r on path p not yet known complete. */
static inline int armcii_gmr_path_pending(const armcii_gmr_t *g, int r, int p)
{
    return __atomic_load_n(&g->wcnt[2 * r + p], __ATOMIC_ACQUIRE) >
           __atomic_load_n(&g->fcnt[2 * r + p], __ATOMIC_ACQUIRE);
}
/* This process has writes to g's rank r that are not known complete. */
static inline int armcii_gmr_has_unfenced(const armcii_gmr_t *g, int r)
{
    if (ARMCII_LIKELY(g->wcnt == NULL))
        return g->dirty[r] != 0;
    return armcii_gmr_path_pending(g, r, 0) || armcii_gmr_path_pending(g, r, 1);
}

/* Operations this process has redirected to ghosts so far (tests, profiler). */
unsigned long armcii_gmr_redirected(void);

/* ---- module lifecycle (gmr_region.c) ---- */
void armcii_gmr_init(void);
/* Completes and frees everything left; returns how many regions leaked. */
int armcii_gmr_finalize(void);

/* Collective over comm (an intracommunicator of absolute ranks abs_of).
 * Fills base_ptrs[group rank]; NULL when every size is 0. */
armcii_gmr_t *armcii_gmr_create(const char *call, MPI_Comm comm, size_t size, void **base_ptrs);
/* Collective over comm: ptr may be NULL on any process. */
void armcii_gmr_destroy(const char *call, MPI_Comm comm, void *ptr);
/* Region containing my own address ptr, or NULL. */
armcii_gmr_t *armcii_gmr_find_local(const void *ptr);

/* ---- private local memory (gmr_local.c) ---- */
void *armcii_gmr_local_alloc(const char *call, size_t size);
/* Abort naming call when p is not a live block of armcii_gmr_local_alloc. */
void armcii_gmr_local_free(const char *call, void *p);
void armcii_gmr_local_finalize(void);

/* ---- translation (gmr_xlate.c) ---- */
/* Translate [addr, addr+len) on proc for an operation class, or abort with
 * "call: <reason>" when it is not inside one region's slice. */
void armcii_gmr_xlate(const char *call, const void *addr, size_t len, int proc,
                      armcii_opclass_t cls, armcii_target_t *t);
/* Same, but returns -1 (no region) or -2 (runs past the slice) instead. */
int armcii_gmr_xlate_try(const void *addr, size_t len, int proc,
                         armcii_opclass_t cls, armcii_target_t *t);

/* ---- primitives (gmr_ops.c): issue on the MPI path, complete separately ---- */
void armcii_gmr_put(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype);
void armcii_gmr_get(const armcii_target_t *t, void *dst, int dcount,
                    MPI_Datatype dtype, int tcount, MPI_Datatype ttype);
/* MPI_Accumulate(MPI_SUM) with dirty tracking; gmr-internal: everyone else
 * goes through armcii_gmr_acc_issue(), which owns the scaling policy. */
void armcii_gmr_acc_mpi(const armcii_target_t *t, const void *src, int scount,
                        MPI_Datatype stype, int tcount, MPI_Datatype ttype);
/* Local completion of operations on (win, rank); reads: some fetched data. */
void armcii_gmr_complete_win(MPI_Win win, int rank, int reads);
/* Local completion of everything issued to t's target on t's window. */
void armcii_gmr_complete_local(const armcii_target_t *t);
/* Remote completion of everything issued to t's target on t's window
 * (atomics: the fetched value and the update are both complete). */
void armcii_gmr_complete_remote(const armcii_target_t *t);
/* Complete an issued operation as c asks: locally now, or in a set. */
void armcii_gmr_complete(const armcii_gmr_cmpl_t *c, const armcii_target_t *t);
/* Before a read (get, RMW) of t: remote-complete earlier writes to it. */
void armcii_gmr_order_read(const armcii_target_t *t);
/* Remote completion: one target (all regions containing it) or everything. */
void armcii_gmr_fence(int abs);
void armcii_gmr_fence_all(void);
/* ARMCI_Barrier: everything remotely complete, then a world barrier. */
void armcii_gmr_barrier(void);
/* Poke MPI's progress engine once (ARMCIX_Progress). */
void armcii_gmr_progress(void);

/* ---- contiguous transfers (gmr_xfer.c): node-local or MPI, then completion ---- */
void armcii_gmr_put_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c, armcii_opclass_t cls);
void armcii_gmr_get_contig(const char *call, const void *src, void *dst, int bytes,
                           int proc, const armcii_gmr_cmpl_t *c);
void armcii_gmr_acc_contig(const char *call, int datatype, const void *scale,
                           const void *src, void *dst, int bytes, int proc,
                           const armcii_gmr_cmpl_t *c);
/* Fence proc, then write the int flag so that it is remotely visible. */
void armcii_gmr_put_flag(const char *call, int *flag, int value, int proc);

/* ---- accumulates (gmr_acc.c) ---- */
/* Element size of an ARMCI_ACC_* code, or -1 when the code is unknown. */
int armcii_gmr_acc_elem(int datatype);
/* MPI element type, element size and MPI elements per ARMCI element. */
void armcii_gmr_acc_type(int datatype, MPI_Datatype *mt, int *elem, int *mult);
/* dst[i] += scale * src[i] (the CPU kernel; the caller holds the slice lock). */
void armcii_gmr_acc_kernel(int datatype, const void *scale, const void *src,
                           void *dst, size_t bytes);
/* The same under the slice lock of t (direct path, all_local regions). */
void armcii_gmr_acc_direct(const armcii_target_t *t, int datatype, const void *scale,
                           const void *src, size_t bytes);
void armcii_gmr_slice_lock(const armcii_target_t *t);
void armcii_gmr_slice_unlock(const armcii_target_t *t);

/* Local side of an accumulate issued on the MPI path: contiguous at base, or
 * described for MPI by ltype and, for staging, by pieces in payload order. */
typedef struct {
    const char *base;
    MPI_Datatype ltype;   /* MPI_DATATYPE_NULL: `bytes` contiguous bytes */
    size_t bytes;         /* payload */
    int (*next)(void *ctx, const char **p, size_t *len); /* NULL: contiguous */
    void *ctx;
} armcii_gmr_src_t;

/* One accumulate call: its arithmetic, and the staging area of a scaled
 * accumulate (MPI only sums, so scale*src is formed at the origin). */
typedef struct {
    int datatype;
    const void *scale;
    MPI_Datatype mt;
    int elem, mult, scaled;
    char *tmp;
    size_t cap, used;
    double inl[32];
} armcii_gmr_acc_t;

/* cap: staging bytes wanted (scaled only); 0 = sized by the first issue. */
void armcii_gmr_acc_begin(armcii_gmr_acc_t *a, int datatype, const void *scale, size_t cap);
/* Issue dst += scale * src to t (tcount x ttype, or the payload's elements
 * when ttype is MPI_DATATYPE_NULL).  Returns 0, or 1 when the staging area
 * is full: complete what was issued, call armcii_gmr_acc_reset, retry. */
int armcii_gmr_acc_issue(armcii_gmr_acc_t *a, const armcii_target_t *t,
                         const armcii_gmr_src_t *src, MPI_Datatype ttype);
/* The policy: a staged (scaled) operation completes locally now, whatever
 * c says, since its temporary is reused or freed next; else as c says. */
void armcii_gmr_acc_complete(armcii_gmr_acc_t *a, const armcii_gmr_cmpl_t *c,
                             const armcii_target_t *t);
/* Everything staged so far is locally complete: reuse the area. */
void armcii_gmr_acc_reset(armcii_gmr_acc_t *a);
void armcii_gmr_acc_end(armcii_gmr_acc_t *a);

/* ---- completion sets behind nonblocking handles (gmr_cset.c) ---- */
/* Record an issued operation in hdl's set (NULL: the implicit set). */
void armcii_gmr_nb_track(armci_hdl_t *hdl, const armcii_target_t *t);
/* Complete hdl's operations (none: returns at once) and release the set. */
void armcii_gmr_nb_wait(armci_hdl_t *hdl);
/* Complete the implicit operations to proc (-1: all of them). */
void armcii_gmr_nb_wait_proc(int proc);
/* Drop every entry that refers to g (its window is about to go). */
void armcii_gmr_nb_purge(const armcii_gmr_t *g);
/* Complete what is left and release the sets (finalize). */
void armcii_gmr_nb_finalize(void);

/* ---- communicators shared by regions (gmr_comm.c) ---- */
/* Collective over comm: the entry for comm's membership (made if new). */
armcii_gmr_comm_t *armcii_gmr_comm_get(MPI_Comm comm);
/* Collective over c->comm: its members on my node. */
MPI_Comm armcii_gmr_comm_node(armcii_gmr_comm_t *c);
/* Collective over c->comm: drop one reference; the last frees it. */
void armcii_gmr_comm_put(armcii_gmr_comm_t *c);
/* Entries alive (tests: regions over one group share one). */
int armcii_gmr_comm_count(void);

/* ---- ghost-build hooks (gmr_ghost.c; no-ops otherwise) ---- */
/* Ghost memory pools in use (for tests; 0 without ghosts or in other builds). */
int armcii_gmr_ghost_pools(void);
#ifdef ARMCII_GHOSTS
/* Collective over g->comm: 1 when the ghost layer provides the memory of g
 * (then *mem is my slice, NULL for size 0, and g->win is created with
 * MPI_Win_create over it), 0 for the default path. */
int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem);
void armcii_gmr_ghost_created(armcii_gmr_t *g);
void armcii_gmr_ghost_freed(armcii_gmr_t *g);
/* May rewrite t->win, t->rank, t->disp to the target's ghost. */
void armcii_gmr_ghost_redirect(armcii_opclass_t cls, armcii_target_t *t);
/* Remote-complete what was redirected for g's rank grank (-1: all). */
void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank);
/* Redirection of every ghost-reachable region, live and future, on or off;
 * the caller has completed every operation world-wide (armcii_gmr_phase). */
void armcii_gmr_ghost_switch(int on);
/* Ghosts exist and regions can be redirected to them in this job. */
int armcii_gmr_ghost_usable(void);
void armcii_gmr_ghost_init(void);
void armcii_gmr_ghost_finalize(void);
#else
static inline int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem)
{
    (void)g, (void)size, (void)mem;
    return 0;
}
static inline void armcii_gmr_ghost_created(armcii_gmr_t *g) { (void)g; }
static inline void armcii_gmr_ghost_freed(armcii_gmr_t *g) { (void)g; }
static inline void armcii_gmr_ghost_redirect(armcii_opclass_t cls, armcii_target_t *t)
{
    (void)cls, (void)t;
}
static inline void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank) { (void)g, (void)grank; }
static inline void armcii_gmr_ghost_switch(int on) { (void)on; }
static inline int armcii_gmr_ghost_usable(void) { return 0; }
static inline void armcii_gmr_ghost_init(void) {}
static inline void armcii_gmr_ghost_finalize(void) {}
#endif

#endif /* ARMCI_GMR_H */
