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
 * May call: src/common.
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

typedef struct armcii_ghost_free {
    size_t off, len;                 /* a free range of a partition */
    struct armcii_ghost_free *next;  /* by offset */
} armcii_ghost_free_t;

typedef struct {
    MPI_Win win;          /* over pworld */
    size_t part;          /* bytes of every user's partition in this pool */
    char *base;           /* user: my partition; ghost: its users' partitions */
    int fd;               /* user: my partition's memory file (reservations) */
    MPI_Aint disp;        /* user: my partition's displacement at my ghost */
    armcii_ghost_free_t *free; /* user: what is free in my partition */
} armcii_ghost_pool_t;

/* Where a user's slice lives. */
typedef struct {
    char *ptr;            /* my mapping (the region's memory here) */
    int pool;             /* index into the pools */
    MPI_Aint gdisp;       /* displacement at my ghost in that pool's window */
} armcii_ghost_slice_t;

/* ---- module state: the one global of src/ghost ---- */
typedef struct {
    int ghosts_on;             /* ghosts exist in this job */
    int is_ghost;
    int ghosts_per_node, users_per_chunk;
    MPI_Comm pworld;           /* dup of the real (PMPI) world */
    MPI_Comm user_world;       /* what MPI_COMM_WORLD means to the application */
    MPI_Comm cmd_comm;         /* users <-> ghosts command channel */
    int my_ghost;              /* user: my bound ghost's rank in pworld */
    int bound_users;           /* ghost: users bound to me */
    int *bound_rank;           /* ghost: their pworld ranks */
    int *bound_pid;            /* ghost: their process ids (same host); 0 once finished */
    long shm_counter;
    unsigned logged_osc;       /* user: components whose redirection was logged */
    int set_up;                /* armcii_ghost_setup ran (C or Fortran MPI_Init) */
    MPI_Fint fworld, fuser;    /* Fortran handles: MPI_COMM_WORLD, the user world */
    size_t pool_first;         /* ARMCI_GHOST_POOL_SIZE: first partition's bytes */
    armcii_ghost_pool_t pool[ARMCII_GHOST_MAX_POOLS];
    int npools;
    armcii_lock_t pool_lock;   /* user: the free lists (threaded runs) */
    int grow_count;            /* ghost: users mapped into the pool being made */
    char *grow_base;           /* ghost: that pool's mapping */
    size_t grow_part;
    int node_procs;            /* processes on my real node (ghost: whether to nap) */
    int attr_view[3];          /* user: the user-world values of MPI_UNIVERSE_SIZE,
                                * MPI_IO, MPI_HOST handed out by pointer (ghost_pmpi.c) */
} armcii_ghost_state_t;
extern armcii_ghost_state_t armcii_ghost_state;

/* Command protocol between a user and its bound ghost (on cmd_comm): the
 * user sends a request with ARMCII_GHOST_TAG_CMD and, except for FIN, waits
 * for the reply (an MPI_Aint) with ARMCII_GHOST_TAG_REPLY. */
enum { ARMCII_GHOST_GROW = 1, ARMCII_GHOST_FIN };
enum { ARMCII_GHOST_TAG_CMD = 7001, ARMCII_GHOST_TAG_REPLY = 7002 };
typedef struct {
    long op;
    long size;          /* GROW: the partition's bytes */
    long pid, fd;       /* GROW: the partition's memory file, as /proc/pid/fd/fd */
    char name[48];      /* GROW: or a POSIX shm object name ("" if none) */
} armcii_ghost_cmd_t;

/* What the ghost layer set up, for armci-info. */
typedef struct {
    int ghosts_on, ghosts_per_node, users_per_node, npools;
    size_t pool_bytes_per_user;  /* summed over the pools' partitions */
} armcii_ghost_info_t;
armcii_ghost_info_t armcii_ghost_info(void);

/* After PMPI_Init*: place ghosts and build the user world (ghosts do not
 * return); before PMPI_Finalize on users. */
void armcii_ghost_setup(void);
void armcii_ghost_teardown(void);
/* User side: send a command to my ghost and wait for its reply. */
MPI_Aint armcii_ghost_command(const armcii_ghost_cmd_t *c);

/* ---- pools (ghost_pool.c) ---- */
/* Collective over every user and ghost: a new pool whose partitions hold at
 * least min_part bytes (and twice the last one, up to the growth cap). The
 * caller checks that a pool is left (armcii_ghost_state.npools < ARMCII_GHOST_MAX_POOLS). */
void armcii_ghost_pool_grow(size_t min_part);
/* User: carve size > 0 bytes out of my partitions; 0, or -1 when none has room. */
int armcii_ghost_pool_alloc(size_t size, armcii_ghost_slice_t *s);
/* User: give a slice back (no operation on it may be in flight). */
void armcii_ghost_pool_free(const armcii_ghost_slice_t *s, size_t size);
/* Ghost: one GROW command from user src (pworld rank). */
void armcii_ghost_pool_serve(const armcii_ghost_cmd_t *c, int src);
/* Both sides at finalize: free every pool's window and memory. */
void armcii_ghost_pool_destroy(void);

#endif /* ARMCI_GHOST_H */
