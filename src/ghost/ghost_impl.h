/*
 * src/ghost, inside: the module state, the pools' bookkeeping and the
 * command protocol between a user and its ghost, shared by the module's
 * files.  Other modules use ghost.h only.
 */
#ifndef ARMCI_GHOST_IMPL_H
#define ARMCI_GHOST_IMPL_H

#include "ghost.h"

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
    char **peer;          /* user: by chunk rank, my mapping of that user's partition
                           * (mine: base; NULL where it could not be mapped) */
} armcii_ghost_pool_t;

/* Writes to ghosts whose sends may still be incomplete (ghost_am.c). */
enum { ARMCII_AM_PEND_MAX = 32 };

/* ---- module state: the one global of src/ghost ---- */
typedef struct {
    int ghosts_on;             /* ghosts exist in this job */
    int is_ghost;
    int ghosts_per_node, users_per_chunk;
    int async_default;         /* ARMCI_GHOST_ASYNC where unset (default_async) */
    MPI_Comm pworld;           /* dup of the real (PMPI) world */
    MPI_Comm user_world;       /* what MPI_COMM_WORLD means to the application */
    MPI_Comm cmd_comm;         /* users <-> ghosts command channel */
    int my_ghost;              /* user: my bound ghost's rank in pworld */
    int bound_users;           /* ghost: users bound to me */
    int *bound_rank;           /* ghost: their pworld ranks */
    int *bound_pid;            /* ghost: their process ids (same host); 0 once finished */
    unsigned char *bound_busy; /* ghost: the user has regions redirected to ghosts */
    int nbusy;                 /* ghost: how many bound users are busy (0: nap) */
    int told_busy;             /* user: what my ghost was last told */
    long shm_counter;
    int set_up;                /* armcii_ghost_setup ran (C or Fortran MPI_Init) */
    int exit_hooked;           /* ghost_exit_stop is registered with atexit */
    MPI_Fint fworld, fuser;    /* Fortran handles: MPI_COMM_WORLD, the user world */
    size_t pool_first;         /* ARMCI_GHOST_POOL_SIZE: first partition's bytes */
    armcii_ghost_pool_t pool[ARMCII_GHOST_MAX_POOLS];
    int npools;
    armcii_lock_t pool_lock;   /* user: the free lists (threaded runs) */
    int grow_count;            /* ghost: users mapped into the pool being made */
    char *grow_base;           /* ghost: that pool's mapping */
    size_t grow_part;
    MPI_Comm chunk_comm;       /* user: the users of my chunk (virtual node); else NULL */
    int chunk_size;            /* user: its size */
    int *chunk_urank;          /* user: its members' user-world ranks */
    MPI_Comm am_comm;          /* messages to ghosts (ghost_am.c): dup of pworld */
    int am_nranks;             /* pworld's size */
    unsigned char *am_local;   /* by pworld rank: on this (real) host */
    unsigned long *am_posted;  /* user: by ghost, writes sent to it */
    unsigned long *am_applied; /* user: by ghost, how many of them a fence saw applied */
    unsigned long am_sent;     /* user: requests sent to ghosts */
    unsigned long am_seq;      /* user: reply tags handed out */
    MPI_Request am_pend[ARMCII_AM_PEND_MAX]; /* user: writes sent, sends not complete yet */
    void *am_pend_msg[ARMCII_AM_PEND_MAX];   /* their messages, freed on completion */
    int am_npend;
    size_t am_pend_bytes;      /* user: their sizes together */
    void *am_buf;              /* ghost: the message being applied */
    size_t am_cap;
    char *am_rbuf;             /* ghost: a get's reply */
    size_t am_rcap;
    int attr_view[3];          /* user: the user-world values of MPI_UNIVERSE_SIZE,
                                * MPI_IO, MPI_HOST handed out by pointer (ghost_pmpi.c) */
} armcii_ghost_state_t;
extern armcii_ghost_state_t armcii_ghost_state;

/* Command protocol between a user and its bound ghost (on cmd_comm): the
 * user sends a request with ARMCII_GHOST_TAG_CMD and, except for FIN, waits
 * for the reply (an MPI_Aint) with ARMCII_GHOST_TAG_REPLY. */
enum { ARMCII_GHOST_GROW = 1, ARMCII_GHOST_FIN,
       ARMCII_GHOST_BUSY };  /* no reply; size: 1 when the user now has regions
                              * redirected to ghosts, 0 when it has none */
enum { ARMCII_GHOST_TAG_CMD = 7001, ARMCII_GHOST_TAG_REPLY = 7002 };
typedef struct {
    long op;
    long size;          /* GROW: the partition's bytes */
    long pid, fd;       /* GROW: the partition's memory file, as /proc/pid/fd/fd */
    char name[48];      /* GROW: or a POSIX shm object name ("" if none) */
} armcii_ghost_cmd_t;

/* After PMPI_Init*: place ghosts and build the user world (ghosts do not
 * return); before PMPI_Finalize on users. */
void armcii_ghost_setup(void);
/* Before PMPI_Init*: a ghost's exit will run MPI's exit handlers only. */
void armcii_ghost_preinit(void);
void armcii_ghost_teardown(void);
/* User side: send a command to my ghost and wait for its reply. */
MPI_Aint armcii_ghost_command(const armcii_ghost_cmd_t *c);

/* Both sides: the message channel to ghosts, after pworld (ghost_am.c). */
void armcii_ghost_am_setup(void);
void armcii_ghost_am_free(void);
/* Ghost: apply every request that has arrived; returns how many. */
int armcii_ghost_am_poll(void);
/* The requests' tag on am_comm (replies use per-request tags). */
enum { ARMCII_AM_TAG = 7101 };

/* Ghost: one GROW command from user src (pworld rank), answered at once. */
void armcii_ghost_pool_serve(const armcii_ghost_cmd_t *c, int src);
/* Ghost: 1 while every bound user's partition of a new pool is mapped and
 * the pool waits for its window. */
int armcii_ghost_pool_ready(void);
/* Ghost, while armcii_ghost_pool_ready(): the new pool's window, collective
 * with every user and ghost (when: the rounds agree, ghost.h). */
void armcii_ghost_pool_create(void);
/* Both sides at finalize: free every pool's window and memory. */
void armcii_ghost_pool_destroy(void);

#endif /* ARMCI_GHOST_IMPL_H */
