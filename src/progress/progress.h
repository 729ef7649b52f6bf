/*
 * src/progress: asynchronous progress.
 *
 * Role: the progress thread, the ghost-progress backend (built with
 * --enable-ghost-progress), the redirection decision for software-handled
 * operation classes, and the wait-for-progress profiler.
 *
 * Invariants: redirection of a region changes only where every process of
 * the region has completed all operations on it (allocation, ARMCI_Barrier,
 * a collective hint); one ghost serves each target, so MPI's per-target
 * accumulate atomicity and ordering hold.
 * May call: src/armci (errors, state), src/gmr (region fields).
 */
#ifndef ARMCI_PROGRESS_H
#define ARMCI_PROGRESS_H

#include "config.h"
#include <stddef.h>
#include <pthread.h>
#include <mpi.h>
#include "../gmr/gmr.h"

/* ---- module state: the one global of src/progress ---- */
typedef struct {
    /* progress thread (progress_thread.c) */
    int thread_running;
    pthread_t thread;
    volatile int thread_stop;
    MPI_Comm thread_comm;
    /* profiler (progress_profile.c) */
    int profile;               /* ARMCI_PROFILE at init: the one branch */
    int depth;                 /* nesting of enter/leave */
    double t_init, t_enter, t_comm;
    long calls, ops[ARMCII_OP_NCLASS];
    double bytes[ARMCII_OP_NCLASS];
    /* ghost backend (ghost_*.c) */
    int async_hint;            /* ARMCIX_Set_async_hint: -1 default, 0, 1 */
    int ghosts_on;             /* ghosts exist in this job */
    int is_ghost;
    int ghosts_per_node, users_per_chunk;
    MPI_Comm pworld;           /* dup of the real (PMPI) world */
    MPI_Comm user_world;       /* what MPI_COMM_WORLD means to the application */
    MPI_Comm cmd_comm;         /* users <-> ghosts command channel */
    MPI_Win dyn_win;           /* ghosts expose mapped slices here */
    int *ghost_of;             /* user rank -> its ghost's rank in pworld */
    int my_ghost;              /* user: my bound ghost's rank in pworld */
    int bound_users;           /* ghost: users bound to me */
    int dyn_locked;            /* user: lock_all held on dyn_win */
    int dyn_unusable;          /* the MPI's dynamic windows cannot carry redirection */
    long shm_counter;
    struct armcii_ghost_mapping *zombies; /* user: freed slices not yet unmapped */
    struct armcii_ghost_mapping *exposed; /* ghost: slices attached to dyn_win */
} armcii_progress_state_t;

/* A mapping of a user's slice (user: zombie list; ghost: exposed list). */
struct armcii_ghost_mapping {
    char *base;
    size_t size;
    struct armcii_ghost_mapping *next;
};
extern armcii_progress_state_t armcii_progress_state;

/* Start/stop the progress thread and ghost machinery (init/finalize). */
void armcii_progress_init(void);
void armcii_progress_finalize(void);

/* Region lifecycle hooks (collective over the region's comm). */
void armcii_progress_region_created(armcii_gmr_t *g);
void armcii_progress_region_freed(armcii_gmr_t *g);

/* Progress thread (progress_thread.c). */
void armcii_progress_thread_start(void);
void armcii_progress_thread_stop(void);

/* Redirection hook, called by armcii_gmr_xlate for non-direct targets:
 * may rewrite t->win, t->rank and t->disp to a ghost's window. */
#ifdef ARMCII_GHOSTS
void armcii_progress_redirect(armcii_opclass_t cls, armcii_target_t *t);
/* Remote-complete what was redirected for g's rank grank (-1: all). */
void armcii_progress_fence(armcii_gmr_t *g, int grank);
/* gmr hook in alloc_windows(), collective over g->comm: returns 1 when the
 * progress module provides the memory of g (then *mem is my slice, NULL
 * for size 0, and gmr creates g->win with MPI_Win_create over it, no
 * node-shared window), 0 for gmr's default path.  The memory is released
 * by armcii_progress_region_freed(). */
int armcii_progress_alloc_slice(armcii_gmr_t *g, size_t size, char **mem);
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
/* PMPI layer (ghost_init.c): after PMPI_Init*, place ghosts and build the
 * user world (ghosts do not return); before PMPI_Finalize on users. */
void armcii_ghost_setup(void);
void armcii_ghost_teardown(void);
/* Ghost side (ghost_init.c): never returns. */
void armcii_ghost_serve(void) __attribute__((noreturn));
/* Execute one command on the ghost; returns 1 for FIN. */
int armcii_ghost_command(const armcii_ghost_cmd_t *c, int src);
/* User side (ghost_region.c). */
void armcii_ghost_users_init(void);
void armcii_ghost_users_finalize(void);
void armcii_ghost_region_created(armcii_gmr_t *g);
void armcii_ghost_region_freed(armcii_gmr_t *g);
/* MPI_Finalize on a user: unmap what is left of freed slices. */
void armcii_ghost_release_zombies(void);
#else
static inline void armcii_progress_redirect(armcii_opclass_t cls, armcii_target_t *t)
{
    (void)cls;
    (void)t;
}
static inline void armcii_progress_fence(armcii_gmr_t *g, int grank)
{
    (void)g;
    (void)grank;
}
static inline int armcii_progress_alloc_slice(armcii_gmr_t *g, size_t size, char **mem)
{
    (void)g;
    (void)size;
    (void)mem;
    return 0;
}
#endif

/* Profiler: the library is entered / left.  When ARMCI_PROFILE is off this
 * is one predictable branch; API entry points call enter first and leave
 * last (nesting is counted, so inner PARMCI calls do not double count). */
void armcii_profile_enter_slow(void);
void armcii_profile_leave_slow(void);
static inline void armcii_profile_enter(void)
{
    if (__builtin_expect(armcii_progress_state.profile, 0))
        armcii_profile_enter_slow();
}
static inline void armcii_profile_leave(void)
{
    if (__builtin_expect(armcii_progress_state.profile, 0))
        armcii_profile_leave_slow();
}
/* Count one operation of class cls moving bytes (optional, profiler only). */
static inline void armcii_profile_op(armcii_opclass_t cls, size_t bytes)
{
    if (__builtin_expect(armcii_progress_state.profile, 0)) {
        armcii_progress_state.ops[cls]++;
        armcii_progress_state.bytes[cls] += (double)bytes;
    }
}
void armcii_profile_start(void);
void armcii_profile_report(void);

#endif /* ARMCI_PROGRESS_H */
