/*
 * src/mutex: queueing mutexes (ARMCI_Create_mutexes, Lock, Unlock and the
 * ARMCIX handle extensions) and read-modify-write (ARMCI_Rmw).
 *
 * Invariants: a waiter blocks in a receive on a private communicator, never
 * spins over the network; RMW uses MPI atomics (MPI_Fetch_and_op /
 * MPI_Compare_and_swap) except on regions whose members all share the node,
 * where CPU atomics are used (gmr->all_local), so the two never mix.
 * May call: src/armci (errors, state), src/gmr (translation, completion).
 */
#ifndef ARMCI_MUTEX_H
#define ARMCI_MUTEX_H

void armcii_mutex_init(void);
/* Destroys a mutex set the application left behind. */
void armcii_mutex_finalize(void);

#endif /* ARMCI_MUTEX_H */
