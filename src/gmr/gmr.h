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
 * This header is what other modules may call; gmr_impl.h is the module's
 * inside (regions, the table, the state, the ghost hooks).
 * May call: src/common, src/ghost (ghost build: layout and commands).
 */
#ifndef ARMCI_GMR_H
#define ARMCI_GMR_H

#include <stddef.h>
#include <stdint.h>
#include "../common/common.h"

/* A region (one per ARMCI_Malloc*); its contents are gmr's (gmr_impl.h). */
typedef struct armcii_gmr armcii_gmr_t;
/* Its window, and the absolute rank of its member grank. */
MPI_Win armcii_gmr_window(const armcii_gmr_t *g);
int armcii_gmr_abs(const armcii_gmr_t *g, int grank);


/* Operation classes: translation may redirect some to ghosts, and the
 * profiler counts them (a mask bit is 1 << class). */
typedef enum {
    ARMCII_OP_PUT, ARMCII_OP_GET, ARMCII_OP_ACC, ARMCII_OP_RMW,
    ARMCII_OP_NONCONTIG, /* strided/vector put and get data */
    /* Put_flag's data and flag: the target polls with no calls, so where
     * the MPI needs target software even for puts it is served like an
     * accumulate (by a ghost), but it needs no atomicity (direct stays). */
    ARMCII_OP_NOTIFY,
    ARMCII_OP_NCLASS
} armcii_opclass_t;
/* The classes a window of component osc (ARMCII_OSC_*) completes only with
 * the target's software, so that a ghost should serve them (gmr_class.c). */
unsigned armcii_gmr_software_classes(int osc);
/* "put", "get", ... of one class; "put get acc ..." for a mask (logs,
 * armci-info; buf of 64 bytes, "none" for 0). */
const char *armcii_gmr_class_name(int cls);
const char *armcii_gmr_class_names(unsigned mask, char *buf, size_t len);

/* Where one operation goes. */
typedef struct armcii_target {
    armcii_gmr_t *gmr;
    MPI_Win win;       /* window to use (region's, or a ghost's) */
    int rank;          /* target rank in win */
    int grank;         /* target's rank in gmr->comm */
    int abs;           /* absolute target */
    MPI_Aint disp;     /* byte displacement in win */
    char *direct;      /* node-local pointer to the target bytes, or NULL */
    int all_local;     /* the region's members all share the node and direct is
                        * on: its accumulates and RMW use CPU atomics (ghost
                        * build: RMW only, where ghosts apply the others') */
    int reads;         /* the operation fetches data (see complete_local) */
    int am;            /* ghost build: an accumulate or RMW its ghost applies from
                        * a message (rank: the ghost, disp: in pool am_pool) */
    int am_pool;
    int getpath;       /* ghost build, ARMCI_GHOST_PUTGET=AUTO: a contiguous get
                        * whose path was chosen by cost, 1 + ARMCII_GETPATH_* +
                        * 2 * its size class; 0 for every other operation */
} armcii_target_t;

/* Deepest strided target an accumulate shipped to a ghost may describe
 * (t->am; GA's 7-d arrays need 6); deeper ones go block by block. */
#define ARMCII_AM_LEVELS 8
/* The largest transfer one such message carries (MPI counts are ints). */
#define ARMCII_AM_MAX_BYTES ((size_t)1 << 30)

/* How an issued operation completes: now (locally) or in a handle's set. */
typedef struct {
    int blocking;
    armci_hdl_t *hdl;  /* nonblocking: explicit handle, or NULL = implicit set */
} armcii_gmr_cmpl_t;


/* The per-call record that the profiler and the automatic redirection
 * (src/progress) read when a call returns: the class, first target and bytes
 * of the operations the calling thread's current library call translated,
 * whether the first one would go to a ghost with redirection on
 * (ghostable) and whether it did (ghost), and, in automatic mode, when the
 * call's first operation on the MPI path was translated (the call is timed
 * from there: node-local load/store calls never read the clock).  gmr fills
 * it in translation; src/progress drives it through the three functions
 * below and the measure bits. */
typedef struct {
    int cls, proc;   /* cls -1: no operation translated */
    double bytes;
    int ghostable, ghost;
    double t0;       /* 0: not timed (yet) */
} armcii_gmr_callop_t;
/* What translation records (armcii_gmr_set_measure): per-class operation
 * counts, and the per-call record with MPI-path calls timed (which also
 * takes the general path to targets off the node: the contiguous fast
 * path is not timed). */
enum { ARMCII_MEASURE_COUNT = 1, ARMCII_MEASURE_TIME = 2 };
void armcii_gmr_set_measure(unsigned bits);
/* A call starts: clear the calling thread's record. */
void armcii_gmr_call_begin(void);
/* Time the call from now unless its clock already runs (synchronizing calls). */
void armcii_gmr_call_clock(void);
/* The calling thread's record of the call that is returning. */
armcii_gmr_callop_t armcii_gmr_call_end(void);
/* The MPI operations gmr issues for the classes above, counted and timed
 * while operations are counted (ARMCII_MEASURE_COUNT: the profiler), so that
 * a class's time can be told apart by what the MPI did with it.  MSG_*:
 * messages to ghosts (ghost build): writes, requests with a reply (get,
 * RMW), fences. */
typedef enum {
    ARMCII_MPIOP_PUT, ARMCII_MPIOP_GET, ARMCII_MPIOP_ACC, ARMCII_MPIOP_ATOMIC,
    ARMCII_MPIOP_FLUSH_LOCAL, ARMCII_MPIOP_FLUSH, ARMCII_MPIOP_FLUSH_ALL,
    ARMCII_MPIOP_MSG_WRITE, ARMCII_MPIOP_MSG_READ, ARMCII_MPIOP_MSG_FENCE, ARMCII_MPIOP_N
} armcii_mpiop_t;
/* "MPI_Put", ... for the report. */
const char *armcii_gmr_mpiop_name(int k);
/* Calls and seconds per MPI operation so far. */
void armcii_gmr_mpiop_stats(double calls[ARMCII_MPIOP_N], double secs[ARMCII_MPIOP_N]);
/* A strided operation was translated by its extent: count payload bytes
 * for it instead (the per-class bytes and the call's record). */
void armcii_gmr_count_payload(armcii_opclass_t cls, size_t extent, size_t payload);
/* The extent's operation is carried out segment by segment after all,
 * each segment translated (and counted) on its own: uncount the extent. */
void armcii_gmr_uncount(armcii_opclass_t cls, int proc, size_t extent);
/* Where an operation's target is, as the profiler counts it: the calling
 * process, another process of its (virtual) node, another node. */
enum { ARMCII_TO_SELF, ARMCII_TO_NODE, ARMCII_TO_OFFNODE, ARMCII_TO_N };
/* Operations per target place and class, and bytes per class, translated
 * so far (ARMCII_MEASURE_COUNT). */
void armcii_gmr_op_stats(long ops[ARMCII_TO_N][ARMCII_OP_NCLASS], double bytes[ARMCII_OP_NCLASS]);

/* Ghost redirection hint for regions allocated from now on: 1 on, 0 off,
 * -1 back to ARMCI_GHOST_ASYNC (ARMCIX_Set_async_hint; outlives init). */
void armcii_gmr_set_async_hint(int mode);
/* The redirection setting in force: the last phase switch's (1 on, 0 off),
 * else ARMCI_GHOST_ASYNC's. */
int armcii_gmr_redirecting(void);
/* ARMCI_GHOST_ASYNC in force (ARMCII_ASYNC_*): the environment's, else the
 * ghost build's default for this job, resolved in ARMCI_Init. */
int armcii_gmr_async_setting(void);


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


/* What the module found at init and since, for the profiler and armci-info. */
typedef struct {
    int shm_ok;          /* MPI_Win_allocate_shared works here */
    int direct;          /* node-local path in use */
    int poke;            /* a window needs progress pokes */
    int no_flush_local;  /* a window's flush_local can hang: flush only */
    int rget_acc;        /* derived-datatype gets as MPI_Rget_accumulate (gmr_yield.c) */
} armcii_gmr_facts_t;
armcii_gmr_facts_t armcii_gmr_facts(void);
/* The classes ghosts would serve on the windows the regions made so far got
 * (their union; those of the world-spanning windows' component before any
 * region): what the profiler's advisor may take off the users (gmr_region.c). */
unsigned armcii_gmr_ghost_served(void);

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
/* 1 where a get on the MPI path must use contiguous types on both sides,
 * one request per block, so that waiting for it yields: waits yield and
 * derived-datatype gets cannot go as MPI_Rget_accumulate (gmr_yield.c). */
int armcii_gmr_get_by_blocks(void);
/* Local completion of operations on (win, rank); reads: some fetched data;
 * by_request: every operation there was issued in request-based form (a
 * region's by_req window), so waiting for the requests completes them. */
void armcii_gmr_complete_win(MPI_Win win, int rank, int reads, int by_request);
/* Remote completion of everything issued to t's target on t's window
 * (atomics: the fetched value and the update are both complete). */
void armcii_gmr_complete_remote(const armcii_target_t *t);
/* One-element atomic fetch-and-op (MPI_SUM, MPI_REPLACE) on t's MPI path,
 * the result in on return, and the update remotely complete if `remote` or
 * else by the next read of t or fence; yields while waiting where waits
 * yield. */
void armcii_gmr_fetch_op(const armcii_target_t *t, const void *in, void *out,
                         MPI_Datatype dt, MPI_Op op, int remote);
/* One-element atomic compare-and-swap of an int on t's path, remotely
 * complete on return; returns the value found. */
int armcii_gmr_cas_int(const armcii_target_t *t, int compare, int value);
/* Complete an issued operation as c asks: locally now, or in a set. */
void armcii_gmr_complete(const armcii_gmr_cmpl_t *c, const armcii_target_t *t);
/* Before a read (get, RMW) of t: remote-complete earlier writes to it. */
void armcii_gmr_order_read(const armcii_target_t *t);
/* The same before an MPI atomic: only what MPI does not order before it
 * (puts, the other path's writes; threaded runs: everything). */
void armcii_gmr_order_atomic(const armcii_target_t *t);
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

/* Ghost build: ship an accumulate to the ghost t names (t->am): src in pack
 * order onto the target's blocks (levels 0: src->bytes contiguous; else
 * count[0] bytes per block at byte strides rstride[]), applied there with
 * scale; locally complete on return, remotely at the next fence of t. */
void armcii_gmr_acc_am(const armcii_target_t *t, int datatype, const void *scale,
                       const armcii_gmr_src_t *src, int levels, const int count[],
                       const int rstride[]);

/* Ghost build, ARMCI_GHOST_AM=ALL: a put (src: the origin's data in pack
 * order) or get (src: the local destination, filled in pack order) of the
 * target's blocks through t's ghost (t->am); complete on return (a put
 * locally, a get entirely). */
void armcii_gmr_xfer_am(const armcii_target_t *t, int put, const armcii_gmr_src_t *src,
                        int levels, const int count[], const int rstride[]);

/* Ghost build: a vector transfer through t's ghost in one message (t->am):
 * n blocks of block bytes between loc[k] and the window displacements
 * tdisp[k] (each translated like t); datatype ARMCI_ACC_* accumulates with
 * scale, -1 puts, -2 gets; complete on return as armcii_gmr_xfer_am. */
void armcii_gmr_vec_am(const armcii_target_t *t, int datatype, const void *scale, long n,
                       int block, char *const loc[], const MPI_Aint tdisp[]);

/* ---- completion sets behind nonblocking handles (gmr_cset.c) ---- */
/* Complete hdl's operations (none: returns at once) and release the set. */
void armcii_gmr_nb_wait(armci_hdl_t *hdl);
/* Complete the implicit operations to proc (-1: all of them). */
void armcii_gmr_nb_wait_proc(int proc);


/* ---- the path of a contiguous get by measured cost (gmr_getpath.c) ---- */
enum { ARMCII_GETPATH_TARGET = 0, ARMCII_GETPATH_GHOST = 1 };
typedef struct {
    int pref;            /* ARMCII_GETPATH_*: where gets go unless explored */
    unsigned long tick;  /* gets chosen so far */
    double mean[2];      /* decaying mean seconds per get, by path */
    long n[2];           /* gets measured, by path */
    double t0;           /* when the first get was chosen (MPI_Wtime) */
    double spent;        /* seconds of the measured gets */
    double explored;     /* of them, those on the path not preferred then */
    long switches;
} armcii_getpath_t;
/* Gets choose per size class, since what a path costs grows with the size at
 * its own rate: up to 64 bytes, then each class 4x larger, the last one
 * everything above 256 KiB. */
enum { ARMCII_GETPATH_SIZES = 8 };
int armcii_getpath_size_class(size_t len);
/* Start with gets to ghosts preferred and nothing measured. */
void armcii_getpath_init(armcii_getpath_t *p);
/* The path (ARMCII_GETPATH_*) of the next get, chosen at time now (s). */
int armcii_getpath_choose(armcii_getpath_t *p, double now);
/* A get on path took secs from issue to completion; may switch the preference. */
void armcii_getpath_sample(armcii_getpath_t *p, int path, double secs);

/* ---- ghost-build hooks (gmr_ghost.c; no-ops otherwise) ---- */
/* Where contiguous puts and gets that the MPI leaves to the target go with
 * ghosts, ordered so that the least of the processes' settings is the one
 * all can take: never to ghosts (ARMCI_GHOST_PUTGET=OFF, or no ghosts),
 * puts to ghosts and gets by cost (AUTO), both to ghosts (ON). */
enum { ARMCII_PUTGET_TARGET = 0, ARMCII_PUTGET_BY_COST = 1, ARMCII_PUTGET_GHOSTS = 2 };
/* Who applies accumulates and RMW with ghosts, ordered the same way: RMA
 * on the ghosts' windows (ARMCI_GHOST_AM=OFF), ghosts from messages (ON),
 * and puts and gets too (ALL). */
enum { ARMCII_AMLEVEL_RMA = 0, ARMCII_AMLEVEL_MSG = 1, ARMCII_AMLEVEL_ALL = 2 };
/* Ghost memory pools in use (for tests; 0 without ghosts or in other builds). */
int armcii_gmr_ghost_pools(void);
#ifdef ARMCII_GHOSTS
/* Ghosts exist and regions can be redirected to them in this job. */
int armcii_gmr_ghost_usable(void);
/* Whether ghosts serve contiguous puts and gets that the MPI leaves to the
 * target (ARMCII_PUTGET_*), as all processes agreed. */
int armcii_gmr_ghost_putget(void);
/* A contiguous get whose path was chosen by cost (its target's getpath)
 * took secs from issue to completion (ARMCI_GHOST_PUTGET=AUTO). */
void armcii_gmr_getpath_sample(int getpath, double secs);
/* The calling process's choice of get paths so far in size class cls, or
 * summed over the classes (cls -1: counts and times; pref, means: none). */
armcii_getpath_t armcii_gmr_getpath_stats(int cls);
/* The classes a ghost serves on windows of component osc: those the
 * component leaves to the target's software, less put and get where
 * ARMCI_GHOST_PUTGET keeps them at the target. */
unsigned armcii_gmr_ghost_classes(int osc);
#else
static inline int armcii_gmr_ghost_usable(void) { return 0; }
static inline int armcii_gmr_ghost_putget(void) { return ARMCII_PUTGET_TARGET; }
static inline void armcii_gmr_getpath_sample(int getpath, double secs)
{
    (void)getpath, (void)secs;
}
static inline armcii_getpath_t armcii_gmr_getpath_stats(int cls)
{
    (void)cls;
    return (armcii_getpath_t){0};
}
static inline unsigned armcii_gmr_ghost_classes(int osc)
{
    return armcii_gmr_software_classes(osc);
}
#endif

#endif /* ARMCI_GMR_H */
