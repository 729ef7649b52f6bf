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

#include "../common/common.h"

/* A mapping of a user's slice (user: zombie list; ghost: exposed list). */
struct armcii_ghost_mapping {
    char *base;
    size_t size;
    struct armcii_ghost_mapping *next;
};

/* ---- module state: the one global of src/ghost ---- */
typedef struct {
    int ghosts_on;             /* ghosts exist in this job */
    int is_ghost;
    int ghosts_per_node, users_per_chunk;
    MPI_Comm pworld;           /* dup of the real (PMPI) world */
    MPI_Comm user_world;       /* what MPI_COMM_WORLD means to the application */
    MPI_Comm cmd_comm;         /* users <-> ghosts command channel */
    MPI_Win dyn_win;           /* ghosts expose mapped slices here */
    int my_ghost;              /* user: my bound ghost's rank in pworld */
    int bound_users;           /* ghost: users bound to me */
    int *bound_rank;           /* ghost: their pworld ranks */
    int *bound_pid;            /* ghost: their process ids (same host); 0 once finished */
    int dyn_locked;            /* user: lock_all held on dyn_win */
    int dyn_unusable;          /* the MPI's dynamic windows cannot carry redirection */
    long shm_counter;
    unsigned logged_osc;       /* user: components whose redirection was logged */
    int set_up;                /* armcii_ghost_setup ran (C or Fortran MPI_Init) */
    MPI_Fint fworld, fuser;    /* Fortran handles: MPI_COMM_WORLD, the user world */
    struct armcii_ghost_mapping *zombies; /* user: freed slices not yet unmapped */
    struct armcii_ghost_mapping *exposed; /* ghost: slices attached to dyn_win */
    int attr_view[3];          /* user: the user-world values of MPI_UNIVERSE_SIZE,
                                * MPI_IO, MPI_HOST handed out by pointer (ghost_pmpi.c) */
} armcii_ghost_state_t;
extern armcii_ghost_state_t armcii_ghost_state;

/* Command protocol between a user and its bound ghost (on cmd_comm): the
 * user sends a request with ARMCII_GHOST_TAG_CMD and, except for FIN, waits
 * for the reply (an MPI_Aint) with ARMCII_GHOST_TAG_REPLY. */
enum { ARMCII_GHOST_MAP = 1, ARMCII_GHOST_UNMAP, ARMCII_GHOST_FIN };
enum { ARMCII_GHOST_TAG_CMD = 7001, ARMCII_GHOST_TAG_REPLY = 7002 };
typedef struct {
    long op;
    long size;
    MPI_Aint addr;      /* UNMAP: the ghost's address of the mapping */
    char name[48];      /* MAP: POSIX shm object name */
} armcii_ghost_cmd_t;

/* After PMPI_Init*: place ghosts and build the user world (ghosts do not
 * return); before PMPI_Finalize on users. */
void armcii_ghost_setup(void);
void armcii_ghost_teardown(void);
/* User side: send a command to my ghost and wait for its reply. */
MPI_Aint armcii_ghost_command(long op, long size, MPI_Aint addr, const char *name);
/* MPI_Finalize on a user: unmap what is left of freed slices. */
void armcii_ghost_release_zombies(void);

#endif /* ARMCI_GHOST_H */
