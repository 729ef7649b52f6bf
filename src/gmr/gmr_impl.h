/*
 * src/gmr, inside: the regions, the translation table, the module state and
 * the ghost hooks, shared by gmr's files (and the table's unit and fuzz
 * tests).  Other modules use gmr.h only.
 */
#ifndef ARMCI_GMR_IMPL_H
#define ARMCI_GMR_IMPL_H

#include "gmr.h"
#include "../common/common_acc.h"
#include "../common/common_quirks.h"

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
    MPI_Comm comm;            /* dup of the group's communicator; the world's own if congruent */
    int owned;                /* comm is a dup this entry frees */
    MPI_Comm node_comm;       /* its members on my (virtual) node, made on demand */
    int refs;                 /* live regions using it */
    struct armcii_gmr_comm *next;
} armcii_gmr_comm_t;

struct armcii_gmr {
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
    int flush_each;           /* win has ARMCII_QUIRK_FLUSH_ALL_EARLY */
    int by_req;               /* win has ARMCII_QUIRK_BY_REQUEST, unthreaded run */
    int ghost_async;          /* ghost build: software-handled ops go to ghosts */
    unsigned ghost_classes;   /* ghost build: the classes that go (armcii_gmr_software_classes) */
    int ghost_rw;             /* ghost_async and contiguous put/get among them: no fast path */
    unsigned char *dirty;     /* per group rank: unfenced remote writes, by path
                                 (ARMCII_DIRTY_WIN | ARMCII_DIRTY_GHOST), and
                                 whether a put is among the window's (ARMCII_DIRTY_PUT) */
    int ndirty;               /* number of nonzero entries in dirty */
    /* threaded runs (gmr_ops.c): per (group rank r, path p), index 2*r+p,
     * writes issued so far, writes known remotely complete, and a fence's
     * snapshot (under armcii_gmr_state.lock); NULL otherwise */
    unsigned long *wcnt, *fcnt, *wsnap;
    struct armcii_gmr *next_dirty; /* list of regions with ndirty > 0 */
    int in_dirty_list;
    struct armcii_gmr *prev, *next; /* all live regions (recycled ones: that list) */
    void *ghost;              /* gmr_ghost.c: ghost-side exposure */
    char *mybase;             /* my slice's user base as the windows gave it */
    int recyclable;           /* world-sized, memory from the default path */
    size_t *cap;              /* recycled: each slice's bytes as created */
    char **cap_base;          /* recycled: each slice's base as created (NULL where empty) */
    unsigned long kept_at;    /* recycled: world_allocs when it was kept */
    struct armcii_gmr_slab *slab; /* gmr_slab.c: the shared windows g has a place in, or NULL */
    size_t slab_off, slab_len;    /* that place, the same on every member */
};

/* dirty[] bits: writes through the region's window, through a ghost; and
 * beside DIRTY_WIN, whether a put is among them (MPI orders accumulates and
 * atomics of one origin to one place, never a put before them). */
enum { ARMCII_DIRTY_WIN = 1, ARMCII_DIRTY_GHOST = 2, ARMCII_DIRTY_PUT = 4 };

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

/* An MPI-path operation issued with a request (gmr_yield.c). */
typedef struct {
    MPI_Request req;
    MPI_Win win;
    int rank;
} armcii_gmr_yreq_t;
#define ARMCII_YREQ_MAX 64

/* ---- module state shared by gmr's files (gmr_region.c); the completion
 * sets and the private-memory list are file-local state of gmr_cset.c and
 * gmr_local.c, each one static struct ---- */
typedef struct {
    armcii_gmr_table_t table;
    armcii_gmr_t *regions;        /* all live regions */
    armcii_gmr_comm_t *comms;     /* communicators shared by regions (gmr_comm.c) */
    armcii_gmr_t *recycled;       /* freed world regions kept for reuse, oldest first
                                   * (gmr_recycle.c) */
    int nrecycled;
    size_t recycled_bytes;        /* sum of their largest slices */
    unsigned long world_allocs;   /* allocations over all processes so far */
    size_t recycle_limit;         /* ARMCI_REGION_CACHE, the least any process asked */
    unsigned long recycle_age;    /* ARMCI_REGION_CACHE_AGE, likewise */
    struct armcii_gmr_slab *slabs; /* windows shared by small allocations (gmr_slab.c) */
    size_t slab_bytes;            /* ARMCI_REGION_SLAB, the least any process asked; 0: none */
    armcii_gmr_t *dirty;          /* regions with unfenced remote writes */
    int shm_ok;                   /* MPI_Win_allocate_shared works here */
    int direct;                   /* node-local path in use */
    long allocations;
    unsigned long completions;    /* MPI-path completions (progress pokes) */
    unsigned long issued;         /* MPI RMA operations issued (gmr_ops.c, bound_outstanding) */
    int poke;                     /* a window needs pokes (gmr_ops.c, poke()) */
    unsigned measure;             /* ARMCII_MEASURE_* bits (set by src/progress);
                                   * beside poke: the hot path reads both */
    int yield_rma;                /* MPI-path operations take requests, completions
                                   * test and yield (gmr_yield.c) */
    int nyreq;                    /* their requests not yet waited for */
    int rget_acc;                 /* beside yield_rma: derived-datatype gets as
                                   * MPI_Rget_accumulate (ARMCII_QUIRK_RGET_DTYPE_EARLY) */
    armcii_gmr_yreq_t yreq[ARMCII_YREQ_MAX];
    int no_flush_local;           /* a window's flush_local can hang: flush only
                                   * (ARMCII_QUIRK_NO_FLUSH_LOCAL) */
    int async_hint;               /* ARMCIX_Set_async_hint: -1 default, 0, 1 */
    int phase;                    /* redirection switched by a phase: -1 never, 0 off, 1 on */
    int async_setting;            /* ARMCI_GHOST_ASYNC in force (ARMCII_ASYNC_*): the
                                   * environment's, else the ghost layer's default */
    MPI_Win create_lock;          /* serializes group window creation */
    unsigned long redirected;     /* operations sent to ghosts (always counted) */
    unsigned ghost_logged_osc;    /* ghost build: components whose redirection was logged */
    unsigned region_classes;      /* software classes of the regions' windows so far
                                   * (armcii_gmr_ghost_served) */
    int region_made;              /* a region's window was made since init */
    int ghost_async_regions;      /* ghost build: live regions redirected now */
    int ghost_am;                 /* ghost build: ARMCII_AMLEVEL_*, who applies accumulates
                                   * and RMW (ARMCI_GHOST_AM, agreed by all) */
    int ghost_putget;             /* ghost build: ARMCII_PUTGET_*, where contiguous put/get
                                   * the component leaves to software go (agreed by all) */
    armcii_getpath_t getpath[ARMCII_GETPATH_SIZES]; /* ghost build, gets by cost: the
                                   * choice per size class (prof_lock) */
    armcii_lock_t lock;           /* dirty list (threaded runs) */
    armcii_lock_t prof_lock;      /* profiler counters (threaded runs) */
    long ops[ARMCII_TO_N][ARMCII_OP_NCLASS]; /* ARMCII_MEASURE_COUNT: per target place, class */
    double bytes[ARMCII_OP_NCLASS];
    double mpiop_calls[ARMCII_MPIOP_N], mpiop_secs[ARMCII_MPIOP_N]; /* the same: per MPI op */
} armcii_gmr_state_t;
extern armcii_gmr_state_t armcii_gmr_state;

/* After an MPI write to g's rank r on path p (0: g->win, 1: a ghost) in a
 * threaded run: count it (a fence compares counts, see gmr_ops.c). */
static inline void armcii_gmr_count_write(armcii_gmr_t *g, int r, int p)
{
    if (ARMCII_UNLIKELY(g->wcnt != NULL))
        __atomic_add_fetch(&g->wcnt[2 * r + p], 1, __ATOMIC_RELEASE);
}
/* Whether operations on win take the request forms and complete by their
 * requests alone: g's own window where it has ARMCII_QUIRK_BY_REQUEST. */
static inline int armcii_gmr_win_by_req(const armcii_gmr_t *g, MPI_Win win)
{
    return g->by_req && win == g->win;
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

/* Time one MPI operation of kind k while counting (the profiler): 0, or
 * the start time to hand to armcii_gmr_mpiop_end. */
static inline double armcii_gmr_mpiop_begin(void)
{
    return ARMCII_UNLIKELY(armcii_gmr_state.measure & ARMCII_MEASURE_COUNT) ? MPI_Wtime() : 0;
}
void armcii_gmr_mpiop_add(armcii_mpiop_t k, double secs);
static inline void armcii_gmr_mpiop_end(armcii_mpiop_t k, double t0)
{
    if (ARMCII_UNLIKELY(t0 != 0))
        armcii_gmr_mpiop_add(k, MPI_Wtime() - t0);
}
/* stmt, timed as one MPI operation of kind k (see armcii_mpiop_t). */
#define ARMCII_MPIOP(k, stmt)                                                  \
    do {                                                                      \
        double t0_ = armcii_gmr_mpiop_begin();                                \
        stmt;                                                                 \
        armcii_gmr_mpiop_end(k, t0_);                                         \
    } while (0)

void armcii_gmr_local_finalize(void);

/* gmr_yield.c: request-based MPI-path operations where waits yield. */
void armcii_gmr_yield_init(void);
/* A request slot for an operation to (win, rank); waits out a full list. */
MPI_Request *armcii_gmr_yield_slot(MPI_Win win, int rank);
/* Test-and-yield until the operations to (win, rank) are done (rank -1:
 * every rank; MPI_WIN_NULL: every window). */
void armcii_gmr_yield_wait(MPI_Win win, int rank);

/* Before a write to t's target: note it for the fences (and remote-complete
 * the other path's writes first); gmr_ops.c. */
void armcii_gmr_mark_write(const armcii_target_t *t);

/* MPI_Accumulate(MPI_SUM) with dirty tracking; gmr-internal: everyone else
 * goes through armcii_gmr_acc_issue(), which owns the scaling policy. */
void armcii_gmr_acc_mpi(const armcii_target_t *t, const void *src, int scount,
                        MPI_Datatype stype, int tcount, MPI_Datatype ttype);

/* MPI_Win_flush_all(win), or one MPI_Win_flush per rank of its group where
 * flush_all may return before a get has completed (ARMCII_QUIRK_FLUSH_ALL_EARLY;
 * each: 1 or 0 as cached in a region's flush_each, -1: ask the MPI). */
void armcii_gmr_flush_all(MPI_Win win, int each);

/* Remote completion of what this process wrote to g, on every path it
 * used (nothing to do for a region it only read: gets complete at once). */
void armcii_gmr_fence_region(armcii_gmr_t *g);

/* Local completion of everything issued to t's target on t's window. */
void armcii_gmr_complete_local(const armcii_target_t *t);

/* The same under the slice lock of t (direct path, all_local regions). */
void armcii_gmr_acc_direct(const armcii_target_t *t, int datatype, const void *scale,
                           const void *src, size_t bytes);

/* Record an issued operation in hdl's set (NULL: the implicit set). */
void armcii_gmr_nb_track(armci_hdl_t *hdl, const armcii_target_t *t);

/* Drop every entry that refers to g (its window is about to go). */
void armcii_gmr_nb_purge(const armcii_gmr_t *g);

/* Complete what is left and release the sets (finalize). */
void armcii_gmr_nb_finalize(void);

/* ---- freed regions kept for reuse (gmr_recycle.c) ---- */
/* Collective over comm (all processes): every member's request as
 * size << 1 | ghost memory wanted, indexed by rank in comm (the caller
 * frees it); *max: the largest size.  An allocation's one gather. */
unsigned long *armcii_gmr_recycle_gather(MPI_Comm comm, size_t size, unsigned long *max);
/* A recycled region over comm whose slices hold every member's request in
 * req (from armcii_gmr_recycle_gather; taken off the list), or NULL.  Not
 * collective: every process keeps the same list and sees the same req. */
armcii_gmr_t *armcii_gmr_recycle_take(MPI_Comm comm, const unsigned long *req);
/* Collective over g->comm, after g left the live list and the table: keep
 * g for reuse (1), or 0 when it does not qualify (the caller frees it).
 * May free older kept regions to stay within the limit. */
int armcii_gmr_recycle_keep(armcii_gmr_t *g);
/* Collective over the world: free every kept region (finalize). */
void armcii_gmr_recycle_drain(void);
/* The window bytes a slice of size bytes gets outside the ghost pools
 * (size rounded up to 1 KiB): what a kept region offers a later request. */
size_t armcii_gmr_recycle_cap(size_t size);
/* Collective over g->comm: free g's windows, communicators and memory. */
void armcii_gmr_release(armcii_gmr_t *g);

/* ---- regions (gmr_region.c), for gmr_slab.c ---- */
/* A region over comm with no memory yet (collective over comm). */
armcii_gmr_t *armcii_gmr_new_region(const char *call, MPI_Comm comm);
/* A region's fields for g->size members, nothing filled (not collective):
 * the caller sets abs_of. */
armcii_gmr_t *armcii_gmr_region_shell(const char *call, armcii_gmr_comm_t *gc);
/* New windows for g, in its epoch: my slice's base (collective over g->comm). */
char *armcii_gmr_new_windows(armcii_gmr_t *g, size_t size);
/* Frees g's fields and drops its communicator (collective where the last). */
void armcii_gmr_free_fields(armcii_gmr_t *g);

/* ---- every member's slice (gmr_slices.c) ---- */
/* Every member's base and size gathered (collective over g->comm), my
 * slice at mybase, node members' slices mapped. */
void armcii_gmr_gather_slices(armcii_gmr_t *g, char *mybase, size_t size);
/* g's non-empty slices into the translation table. */
void armcii_gmr_table_enter(armcii_gmr_t *g);
/* New windows: gathered, mapped and in the table. */
void armcii_gmr_fill_slices(armcii_gmr_t *g, char *mybase, size_t size);
/* A recycled region's slices from the request's sizes (req: as
 * armcii_gmr_recycle_gather gives them), mapped and in the table. */
void armcii_gmr_refill_slices(armcii_gmr_t *g, char *mybase, const unsigned long *req);

/* ---- small allocations sharing windows (gmr_slab.c) ---- */
/* A region in a shared window for an allocation over all processes whose
 * largest slice is max (req: armcii_gmr_recycle_gather's), its slices
 * filled and in the table, or NULL where it takes windows of its own.
 * Collective over comm (the world's members). */
armcii_gmr_t *armcii_gmr_slab_take(const char *call, MPI_Comm comm, const unsigned long *req,
                                   size_t max);
/* g's place back to its slab, g freed; an emptied slab's windows freed
 * unless it is the only one (collective over g->comm). */
void armcii_gmr_slab_put(armcii_gmr_t *g);
/* Frees every slab (collective; finalize). */
void armcii_gmr_slab_drain(void);
/* Slabs alive (tests, logs). */
int armcii_gmr_slab_count(void);

/* ---- communicators shared by regions (gmr_comm.c) ---- */
/* Collective over comm: the entry for comm's membership (made if new). */
armcii_gmr_comm_t *armcii_gmr_comm_get(MPI_Comm comm);
/* Collective over c->comm: its members on my node. */
MPI_Comm armcii_gmr_comm_node(armcii_gmr_comm_t *c);
/* Collective over c->comm: drop one reference; the last frees it. */
void armcii_gmr_comm_put(armcii_gmr_comm_t *c);
/* Entries alive (tests: regions over one group share one). */
int armcii_gmr_comm_count(void);

#ifdef ARMCII_GHOSTS
/* Collective over g->comm: 1 when the ghost layer provides the memory of g
 * (then *mem is my slice, NULL for size 0, and g->win is created with
 * MPI_Win_create over it), 0 for the default path. */
int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem);
void armcii_gmr_ghost_created(armcii_gmr_t *g);
/* Collective over host->comm: g, a place off bytes into every slice of the
 * slab region host, reaches the ghosts where host does, off further. */
void armcii_gmr_ghost_place(armcii_gmr_t *g, const armcii_gmr_t *host, size_t off);
/* g is being freed (my writes to it complete; a barrier follows):
 * redirection off, as g may be kept for reuse; _release frees what the
 * ghost layer gave g. */
void armcii_gmr_ghost_freed(armcii_gmr_t *g);
void armcii_gmr_ghost_release(armcii_gmr_t *g);
/* Whether an allocation over comm (all processes) would get ghost-reachable
 * memory (this process's view: hint and configuration). */
int armcii_gmr_ghost_wanted(MPI_Comm comm);
/* RMW (an armcii_cpu_rmw op code) applied by t's ghost (t->am). */
long armcii_gmr_rmw_am(const armcii_target_t *t, int op, long a, long b);
/* May rewrite t->win, t->rank, t->disp to the target's ghost (an operation
 * of class cls on len bytes; t->am: the ghost carries it out from a message). */
void armcii_gmr_ghost_redirect(armcii_opclass_t cls, size_t len, armcii_target_t *t);
/* Remote-complete what was redirected for g's rank grank (-1: all). */
void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank);
/* Redirection of every ghost-reachable region, live and future, on or off;
 * the caller has completed every operation world-wide (armcii_gmr_phase). */
void armcii_gmr_ghost_switch(int on);
void armcii_gmr_ghost_init(void);
void armcii_gmr_ghost_finalize(void);
#else
static inline int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem)
{
    (void)g, (void)size, (void)mem;
    return 0;
}
static inline void armcii_gmr_ghost_created(armcii_gmr_t *g) { (void)g; }
static inline void armcii_gmr_ghost_place(armcii_gmr_t *g, const armcii_gmr_t *host,
                                          size_t off)
{
    (void)g, (void)host, (void)off;
}
static inline void armcii_gmr_ghost_freed(armcii_gmr_t *g) { (void)g; }
static inline void armcii_gmr_ghost_release(armcii_gmr_t *g) { (void)g; }
static inline int armcii_gmr_ghost_wanted(MPI_Comm comm)
{
    (void)comm;
    return 0;
}
static inline void armcii_gmr_ghost_redirect(armcii_opclass_t cls, size_t len,
                                             armcii_target_t *t)
{
    (void)cls, (void)len, (void)t;
}
static inline void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank) { (void)g, (void)grank; }
static inline void armcii_gmr_ghost_switch(int on) { (void)on; }
static inline void armcii_gmr_ghost_init(void) {}
static inline void armcii_gmr_ghost_finalize(void) {}
/* t->am is never set outside the ghost build */
static inline long armcii_gmr_rmw_am(const armcii_target_t *t, int op, long a, long b)
{
    (void)t, (void)op, (void)a, (void)b;
    return 0;
}
#endif

#endif /* ARMCI_GMR_IMPL_H */
