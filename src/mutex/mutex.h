/*
 * src/mutex: queueing mutexes (ARMCI_Create_mutexes, Lock, Unlock and the
 * ARMCIX handle extensions) and read-modify-write (ARMCI_Rmw).
 *
 * Lock algorithm (mutex_hdl.c): an MCS-style queue built on MPI-3 atomics.
 * Every mutex is one int "tail" word on its host, in a GMR region over the
 * handle's group (0 = free, r+1 = group rank r is the last in line).
 *   Lock:   prev = atomic swap(tail, me+1).  prev == 0: acquired.  Otherwise
 *           send prev a NOTIFY message tagged with the mutex (prev learns its
 *           successor) and block in MPI_Recv for prev's HANDOFF message.
 *   Unlock: compare-and-swap(tail, me+1 -> 0).  Success: nobody waits.
 *           Otherwise the process that swapped in after me has sent (or is
 *           about to send) a NOTIFY: receive it and send that process a
 *           0-byte HANDOFF.
 * Waiters block in a receive on the handle's private communicator; nobody
 * spins over the network; lock and unlock cost one atomic each when
 * uncontended; the hand-off order is FIFO (the order of the swaps), which is
 * at least as fair as the classic round-robin scan of a waiter vector.
 *
 * Invariants: a waiter blocks in a receive on a private communicator, never
 * spins over the network; RMW uses MPI atomics (MPI_Fetch_and_op /
 * MPI_Compare_and_swap) except on regions whose members all share the node,
 * where CPU atomics are used (gmr->all_local), so the two never mix.
 * May call: src/common (errors, state), src/gmr (translation, completion).
 */
#ifndef ARMCI_MUTEX_H
#define ARMCI_MUTEX_H

#include "../common/common.h"
#include "../gmr/gmr.h"

struct armcix_mutex_hdl_s;

/* ---- module state: the one global of src/mutex (mutex_core.c) ---- */
typedef struct {
    struct armcix_mutex_hdl_s *world;   /* the ARMCI_Create_mutexes set */
    struct armcix_mutex_hdl_s *handles; /* every live set, newest first */
} armcii_mutex_state_t;
extern armcii_mutex_state_t armcii_mutex_state;

void armcii_mutex_init(void);
/* Destroys a mutex set the application left behind. */
void armcii_mutex_finalize(void);

/* ---- the world set of ARMCI_Create_mutexes (mutex_core.c) ---- */
void armcii_mutex_world_create(const char *call, int count);
void armcii_mutex_world_destroy(const char *call);
/* The world set, or abort naming the call when none exists. */
struct armcix_mutex_hdl_s *armcii_mutex_world(const char *call);
/* A live ARMCIX handle (not the world set), or abort. */
struct armcix_mutex_hdl_s *armcii_mutex_check_hdl(const char *call, struct armcix_mutex_hdl_s *h);

/* ---- handle implementation (mutex_hdl.c); call names errors ---- */
/* Collective over comm (a user communicator, duplicated inside); identity:
 * group ranks are absolute ranks (the world set). */
struct armcix_mutex_hdl_s *armcii_mutex_create(const char *call, int count, MPI_Comm comm,
                                               int identity);
/* Collective; force != 0 skips the "still held" check (finalize). */
void armcii_mutex_destroy(const char *call, struct armcix_mutex_hdl_s *h, int force);
void armcii_mutex_lock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs);
/* 0: acquired, 1: held by someone else (never blocks on the holder). */
int armcii_mutex_trylock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs);
void armcii_mutex_unlock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs);
/* Collective: destroy every live set, oldest first (the order every member
 * created them in); returns how many there were. */
int armcii_mutex_destroy_all(const char *call);

/* ---- read-modify-write (mutex_rmw.c) ---- */
/* ARMCI_Rmw after argument checks: op on *prem at proc, old value to *ploc. */
void armcii_mutex_rmw(const char *call, int op, void *ploc, void *prem, int value, int proc);
/* Atomic exchange; returns the old value (remotely complete on return). */
int armcii_mutex_swap_int(const armcii_target_t *t, int value);
/* Atomic compare-and-swap; returns the old value. */
int armcii_mutex_cas_int(const armcii_target_t *t, int compare, int value);

#endif /* ARMCI_MUTEX_H */
