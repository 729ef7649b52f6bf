/*
 * src/gmr: global memory regions.
 *
 * Role: allocate and free regions (one per ARMCI_Malloc*), keep the
 * translation table (absolute proc, remote address) -> (region, window rank,
 * displacement, node-local pointer), and provide the contiguous RMA
 * primitives and completion (flush) that every operation uses.
 *
 * Invariants:
 *  - every region's RMA window stays in one MPI_Win_lock_all epoch for life;
 *  - a target is "direct" (node-local load/store) only when the node-local
 *    path is on and the target shares this process's (virtual) node;
 *  - accumulates and RMW use the direct path only on regions whose members
 *    all share the node (gmr->all_local), so CPU and MPI atomics never mix
 *    on one region;
 *  - unfenced remote writes are tracked per (region, target) so that a get
 *    or RMW after a put/acc to the same target flushes first (location
 *    consistency) and Fence(p) touches only regions that contain p.
 * Translation goes through armcii_gmr_xlate(), the single hook where the
 * progress module may redirect an operation class to a ghost.
 * May call: src/armci (errors, state), src/progress (redirection hook).
 */
#ifndef ARMCI_GMR_H
#define ARMCI_GMR_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

/* Bytes reserved in front of each node-shared slice (accumulate lock). */
#define ARMCII_SLICE_HDR 64

typedef struct armcii_gmr_slice {
    char *base;       /* the owner's address, as returned to the user */
    size_t size;      /* 0: empty slice, base NULL */
    char *direct;     /* my mapping of the slice, or NULL */
    int *acc_lock;    /* node-shared lock word of the slice (direct only) */
} armcii_gmr_slice_t;

typedef struct armcii_gmr {
    MPI_Win win;              /* RMA window over comm */
    MPI_Win shm_win;          /* node-shared window, or MPI_WIN_NULL */
    MPI_Comm comm;            /* dup of the group communicator */
    MPI_Comm node_comm;       /* members on my (virtual) node, or NULL */
    int size, rank;           /* in comm */
    int *abs_of;              /* group rank -> absolute rank */
    armcii_gmr_slice_t *slice;/* indexed by group rank */
    MPI_Aint disp_hdr;        /* window displacement of each slice's byte 0 */
    int all_local;            /* all members share my node and direct is on */
    int ghost_async;          /* progress: redirect software-handled ops */
    unsigned char *dirty;     /* per group rank: unfenced remote writes */
    int ndirty;               /* number of set entries in dirty */
    struct armcii_gmr *next_dirty; /* list of regions with ndirty > 0 */
    int in_dirty_list;
    struct armcii_gmr *prev, *next; /* all live regions */
    void *progress;           /* owned by src/progress (ghost windows) */
} armcii_gmr_t;

/* Operation classes for translation (the progress module redirects some). */
typedef enum {
    ARMCII_OP_PUT, ARMCII_OP_GET, ARMCII_OP_ACC, ARMCII_OP_RMW, ARMCII_OP_NONCONTIG,
    /* Put_flag's data and flag: the target polls with no calls, so where
     * the MPI needs target software even for puts it is served like an
     * accumulate (by a ghost), but it needs no atomicity (direct stays). */
    ARMCII_OP_NOTIFY,
    ARMCII_OP_NCLASS
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
    int hint_proc;            /* most recent hit */
    const armcii_gmr_entry_t *hint;
    long live;                /* entries in the table */
} armcii_gmr_table_t;

int armcii_gmr_table_init(armcii_gmr_table_t *t, int nproc);
void armcii_gmr_table_destroy(armcii_gmr_table_t *t);
/* 0 on success, -1 if [base, base+size) overlaps an entry of proc. */
int armcii_gmr_table_insert(armcii_gmr_table_t *t, int proc, const armcii_gmr_entry_t *e);
/* 0 on success, -1 if no entry of proc starts at base. */
int armcii_gmr_table_remove(armcii_gmr_table_t *t, int proc, uintptr_t base);
/* The entry of proc containing addr, or NULL.  O(log n). */
const armcii_gmr_entry_t *armcii_gmr_table_find(armcii_gmr_table_t *t, int proc, uintptr_t addr);

/* ---- module lifecycle (gmr_region.c) ---- */
void armcii_gmr_init(void);
/* Frees leaked regions collectively; returns how many there were. */
int armcii_gmr_finalize(void);

/* Collective over comm (an intracommunicator of absolute ranks abs_of).
 * Fills base_ptrs[group rank]. */
armcii_gmr_t *armcii_gmr_create(const char *call, MPI_Comm comm, size_t size, void **base_ptrs);
/* Collective over comm: ptr may be NULL on any process. */
void armcii_gmr_destroy(const char *call, MPI_Comm comm, void *ptr);
/* Region containing my own address ptr, or NULL. */
armcii_gmr_t *armcii_gmr_find_local(const void *ptr);
/* Whether the node-shared/direct path can be used at all in this run. */
int armcii_gmr_direct_enabled(void);
/* Absolute ranks sharing my (virtual) node: count and membership. */
int armcii_gmr_node_size(void);
int armcii_gmr_node_rank_of(int abs);   /* index in my node, or -1 */
int armcii_gmr_node_first(void);        /* lowest absolute rank in my node */
int armcii_gmr_node_of(int abs);        /* node index of any process */
int armcii_gmr_node_count(void);
/* 1 when win belongs to Open MPI < 5's osc/ucx, whose bugs need keyed
 * workarounds (see poke() in gmr_ops.c and the ghost dynamic window);
 * PMPI only, so it may run inside the ghost layer's MPI_Init. */
int armcii_gmr_win_is_ompi4_ucx(MPI_Win win);
/* Why this MPI may refuse windows, for the error message ("" if unknown);
 * PMPI only, like the above. */
const char *armcii_gmr_no_windows_hint(void);

/* ---- translation (gmr_xlate.c) ---- */
/* Translate [addr, addr+len) on proc for an operation class, or abort with
 * "call: <reason>" when it is not inside one region's slice. */
void armcii_gmr_xlate(const char *call, const void *addr, size_t len, int proc,
                      armcii_opclass_t cls, armcii_target_t *t);
/* Same, but returns -1 instead of aborting. */
int armcii_gmr_xlate_try(const void *addr, size_t len, int proc,
                         armcii_opclass_t cls, armcii_target_t *t);

/* ---- primitives (gmr_ops.c): issue on the MPI path, complete separately ---- */
void armcii_gmr_put(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype);
void armcii_gmr_get(const armcii_target_t *t, void *dst, int dcount,
                    MPI_Datatype dtype, int tcount, MPI_Datatype ttype);
void armcii_gmr_acc(const armcii_target_t *t, const void *src, int scount,
                    MPI_Datatype stype, int tcount, MPI_Datatype ttype);
/* Local completion of everything issued to t's target on t's window. */
void armcii_gmr_complete_local(const armcii_target_t *t);
/* Remote completion of everything issued to t's target on t's window
 * (atomics: the fetched value and the update are both complete). */
void armcii_gmr_complete_remote(const armcii_target_t *t);
/* Local completion of operations on (win, rank); reads: some fetched data. */
void armcii_gmr_complete_win(MPI_Win win, int rank, int reads);
/* Before a read (get, RMW) of t: remote-complete earlier writes to it. */
void armcii_gmr_order_read(const armcii_target_t *t);
/* Remote completion: one target (all regions containing it) or everything. */
void armcii_gmr_fence(int abs);
void armcii_gmr_fence_all(void);

/* ---- accumulate helpers (gmr_acc.c) ---- */
/* MPI element type, element size and MPI elements per ARMCI element. */
void armcii_gmr_acc_type(int datatype, MPI_Datatype *mt, int *elem, int *mult);
/* 1 when scale is the identity for datatype. */
int armcii_gmr_acc_identity(int datatype, const void *scale);
/* dst[i] = scale * src[i] for bytes/elem elements. */
void armcii_gmr_acc_scale(int datatype, const void *scale, const void *src,
                          void *dst, size_t bytes);
/* dst[i] += scale * src[i], under the slice lock of t (direct path). */
void armcii_gmr_acc_direct(const armcii_target_t *t, int datatype, const void *scale,
                           const void *src, size_t bytes);
/* The same arithmetic without a lock (caller holds it). */
void armcii_gmr_acc_kernel(int datatype, const void *scale, const void *src,
                           void *dst, size_t bytes);
void armcii_gmr_slice_lock(const armcii_target_t *t);
void armcii_gmr_slice_unlock(const armcii_target_t *t);

/* ---- module state: the one global of src/gmr ---- */
typedef struct {
    armcii_gmr_table_t table;
    armcii_gmr_t *regions;        /* all live regions */
    armcii_gmr_t *dirty;          /* regions with unfenced remote writes */
    int shm_ok;                   /* MPI_Win_allocate_shared works here */
    int direct;                   /* node-local path in use */
    MPI_Comm node;                /* my (virtual) node within world */
    int node_size, node_rank;
    int *node_of;                 /* absolute rank -> node index */
    int *node_index;              /* absolute rank -> index in its node */
    int nnodes;
    int node_first;
    long allocations;
    unsigned long completions;    /* MPI-path completions (progress pokes) */
    int poke;                     /* a window needs pokes (gmr_ops.c, poke()) */
    MPI_Win create_lock;          /* serializes group window creation */
} armcii_gmr_state_t;
extern armcii_gmr_state_t armcii_gmr_state;

#endif /* ARMCI_GMR_H */
