/*
 * src/ghost: the ghost-process layer (built with --enable-ghost-progress).
 *
 * Role: at MPI_Init, split the job into user processes and ghosts (the last
 * ARMCI_GHOSTS_PER_NODE ranks of every (virtual) node), keep ghosts inside
 * the ghost loop until the application finalizes, hide them from the
 * application through the PMPI layer (MPI_COMM_WORLD means the user world
 * in every wrapped call), and carry the command protocol between a user and
 * its bound ghost.  What ghosts expose and which operations go to them is
 * decided by src/gmr (gmr_ghost.c).
 *
 * Invariants: each user is bound to one ghost of its node for life (one
 * ghost per target keeps MPI's accumulate atomicity and ordering); the
 * library itself never uses the real world communicator, only pworld for
 * ghost business and its duplicate of the user world for everything else.
 * This header is what src/gmr and src/info may use; ghost_impl.h is the
 * module's inside (the state, the pools' bookkeeping, the command protocol).
 * May call: src/common.  The ghosts' side of automatic decisions inside
 * phases lives in src/progress, which registers it here
 * (armcii_ghost_set_rounds: the ghost loop steps the rounds).
 */
#ifndef ARMCI_GHOST_H
#define ARMCI_GHOST_H

#include <stdint.h>
#include "../common/common.h"
#include "../common/common_acc.h"

/* Ghost-reachable memory: pools.  Each pool is one window over the real
 * world, created collectively by every user and ghost (at MPI_Init and
 * whenever an allocation over all users finds a partition full): a user
 * exposes 0 bytes in it, a ghost exposes its bound users' partitions back
 * to back.  A user's regions are carved out of its own partitions, so a
 * region costs the ghosts nothing: no command, no attachment, no window. */
#define ARMCII_GHOST_MAX_POOLS 64
/* A region records the pools holding its slices as a bit set of this type
 * (gmr_ghost.c), so the pool count may not exceed its bits. */
typedef uint64_t armcii_ghost_poolset_t;
_Static_assert(ARMCII_GHOST_MAX_POOLS <= 64, "a pool set must hold every pool");
/* Later pools double, up to this multiple of the first partition: doubling
 * without a bound would make the 64th pool 2^63 times the first. */
#define ARMCII_GHOST_POOL_GROWTH_CAP 16
#define ARMCII_GHOST_ALIGN 64


/* Where a user's slice lives. */
typedef struct {
    char *ptr;            /* my mapping (the region's memory here) */
    int pool;             /* index into the pools */
    MPI_Aint gdisp;       /* displacement at my ghost in that pool's window */
    size_t off;           /* offset in my partition of that pool */
} armcii_ghost_slice_t;



/* What the ghost layer set up (gmr_ghost.c, armci-info). */
typedef struct {
    int ghosts_on, ghosts_per_node, users_per_node, npools;
    int my_ghost;                /* user: my bound ghost's rank in the pools' windows */
    size_t first_part;           /* the first pool's partition bytes */
    size_t pool_bytes_per_user;  /* summed over the pools' partitions */
    int async_default;           /* ARMCI_GHOST_ASYNC where unset: ON, or AUTO on a
                                  * host with more processes than CPUs whose MPI
                                  * spins (the same in every process) */
} armcii_ghost_info_t;
armcii_ghost_info_t armcii_ghost_info(void);
/* User: tell my ghost whether any of my regions is redirected to ghosts
 * now (a ghost whose users have none naps instead of polling, leaving the
 * core to users where processes outnumber cores).  Only where nothing is
 * in flight to the ghost: after a switch or a region's creation or free. */
void armcii_ghost_set_busy(int busy);
/* Pool i's window (over the real world; ranks are real-world ranks). */
MPI_Win armcii_ghost_pool_win(int i);


/* Every partition starts with ARMCII_GHOST_ALIGN bytes of its own: an int
 * there is the lock of the accumulates applied with the CPU to any of its
 * slices, by the ghost or by the users of the node. */
/* User: my mapping of the partition of user-world rank `user` in pool `pool`
 * when that user shares my (virtual) node and its partition could be
 * mapped here, else NULL (the node-local path into ghost-reachable memory). */
char *armcii_ghost_peer_partition(int pool, int user);

/* ---- the automatic mode's rounds, as the ghost layer drives them ----
 * The rounds live in src/progress (progress_round.c: the decisions inside
 * phases), above this layer, which therefore names none of their functions:
 * src/progress registers them here when the library is loaded (before any
 * MPI_Init), and without a registration the layer runs no rounds. */
typedef struct {
    /* in setup, collective over the real node (see armcii_round_setup) */
    void (*setup)(MPI_Comm node, int ghost_line, const int *bound, int nbound,
                  MPI_Comm ghosts, const armcii_config_t *cfg);
    void (*release)(void);              /* at finalize, collective over the node */
    /* ghost loop: ARMCII_ROUNDS_* flags; grow_ready: every bound user's
     * partition of a new pool is mapped, and the pool waits for its window */
    int (*step)(int users_done, int grow_ready);
    int (*busy)(void);                  /* a proposal is open: no nap */
    int (*serving)(void);               /* the last commit turned redirection on */
    void (*user_finished)(int k);       /* bound user k sent FIN */
} armcii_ghost_rounds_t;
void armcii_ghost_set_rounds(const armcii_ghost_rounds_t *r);
/* What a step of the rounds tells the ghost loop.  A pool's window is the
 * ghosts' one collective with users, so the ghosts agree on entering it in
 * a round: one that entered it on its own while another had a proposal
 * open waited there for the other, which waited for the first's vote. */
enum { ARMCII_ROUNDS_OVER = 1, /* every ghost's users finished: the ghost may leave */
       ARMCII_ROUNDS_GROW = 2  /* every ghost is grow_ready: create the pool's window now */ };

/* ---- pools (ghost_pool.c) ---- */
/* Collective over every user and ghost: a new pool whose partitions hold at
 * least min_part bytes (and twice the last one, up to the growth cap). The
 * caller checks that a pool is left (armcii_ghost_info().npools < ARMCII_GHOST_MAX_POOLS). */
void armcii_ghost_pool_grow(size_t min_part);
/* User: carve size > 0 bytes out of my partitions; 0, or -1 when none has room. */
int armcii_ghost_pool_alloc(size_t size, armcii_ghost_slice_t *s);
/* User: give a slice back (no operation on it may be in flight). */
void armcii_ghost_pool_free(const armcii_ghost_slice_t *s, size_t size);


/* ---- operations shipped to ghosts as messages (ghost_am.c) ---- */
/* A request to a ghost: an accumulate or a put (header, then the origin's
 * data in ARMCI's pack order), a get, a read-modify-write or a fence
 * (header only; the reply carries the data, the old value or nothing). */
#define ARMCII_AM_MAX_LEVELS 8
enum { ARMCII_AM_ACC = 1, ARMCII_AM_RMW, ARMCII_AM_FENCE, ARMCII_AM_PUT, ARMCII_AM_GET };
/* RMW operation codes: those of armcii_cpu_rmw (src/common). */
typedef struct {
    int32_t kind;
    int32_t datatype;     /* ACC: ARMCI_ACC_*; RMW: the operation code */
    int32_t pool;         /* the pool holding the target */
    int32_t levels;       /* ACC, PUT, GET: stride levels of the target (0: contiguous;
                           * -1: a vector of count[1] blocks whose int64 displacements
                           * in the pool come first in the payload) */
    int32_t tag;          /* GET, RMW, FENCE: the reply's tag (set by ghost_am.c) */
    int32_t count[ARMCII_AM_MAX_LEVELS + 1]; /* count[0] bytes per block */
    int64_t disp;         /* the target's displacement in the pool's window */
    int64_t stride[ARMCII_AM_MAX_LEVELS];    /* the target's byte strides */
    union {
        double scale[2];  /* ACC: the ARMCI scale (as many bytes as the type's) */
        long operand[2];  /* RMW: the value (CAS: compare, value) */
    };
} armcii_ghost_am_t;
/* User: a zeroed header followed by payload bytes for the caller to fill
 * (the message is handed to armcii_ghost_am_post, which frees it). */
void *armcii_ghost_am_msg(size_t payload, armcii_ghost_am_t **hdr);
/* User: send an accumulate or put (h->kind) to ghost (pworld rank); locally
 * complete on return, applied at ghost before the reply to my next fence
 * of it and before any later request of mine. */
void armcii_ghost_am_post(int ghost, armcii_ghost_am_t *h, size_t payload);
/* User: the target's blocks h describes (a message from armcii_ghost_am_msg
 * with payload bytes after it: a vector's displacements), packed into dst
 * (bytes); frees h. */
void armcii_ghost_am_get(int ghost, armcii_ghost_am_t *h, size_t payload, void *dst,
                         size_t bytes);
/* User: one RMW at (pool, disp) applied by ghost; returns the old value. */
long armcii_ghost_am_rmw(int ghost, int pool, MPI_Aint disp, int op, long a, long b);
/* User: everything I sent to ghost (-1: to every ghost) is applied on
 * return; returns how many ghosts had to be asked. */
int armcii_ghost_am_fence(int ghost);
/* User: requests sent to ghosts so far (tests, profiler). */
unsigned long armcii_ghost_am_count(void);

#endif /* ARMCI_GHOST_H */
