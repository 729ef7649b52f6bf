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
 * May call: src/common; src/progress for the ghosts' side of automatic
 * decisions inside phases (armcii_round_*: the ghost loop steps them).
 */
#ifndef ARMCI_GHOST_H
#define ARMCI_GHOST_H

#include <stdint.h>
#include "../common/common.h"

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
} armcii_ghost_slice_t;



/* What the ghost layer set up (gmr_ghost.c, armci-info). */
typedef struct {
    int ghosts_on, ghosts_per_node, users_per_node, npools;
    int my_ghost;                /* user: my bound ghost's rank in the pools' windows */
    size_t first_part;           /* the first pool's partition bytes */
    size_t pool_bytes_per_user;  /* summed over the pools' partitions */
} armcii_ghost_info_t;
armcii_ghost_info_t armcii_ghost_info(void);
/* User: tell my ghost whether any of my regions is redirected to ghosts
 * now (a ghost whose users have none naps instead of polling, leaving the
 * core to users where processes outnumber cores).  Only where nothing is
 * in flight to the ghost: after a switch or a region's creation or free. */
void armcii_ghost_set_busy(int busy);
/* Pool i's window (over the real world; ranks are real-world ranks). */
MPI_Win armcii_ghost_pool_win(int i);


/* ---- pools (ghost_pool.c) ---- */
/* Collective over every user and ghost: a new pool whose partitions hold at
 * least min_part bytes (and twice the last one, up to the growth cap). The
 * caller checks that a pool is left (armcii_ghost_info().npools < ARMCII_GHOST_MAX_POOLS). */
void armcii_ghost_pool_grow(size_t min_part);
/* User: carve size > 0 bytes out of my partitions; 0, or -1 when none has room. */
int armcii_ghost_pool_alloc(size_t size, armcii_ghost_slice_t *s);
/* User: give a slice back (no operation on it may be in flight). */
void armcii_ghost_pool_free(const armcii_ghost_slice_t *s, size_t size);

#endif /* ARMCI_GHOST_H */
