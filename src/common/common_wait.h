/*
 * How the library's own collectives and request completions wait
 * (common_wait.c): blocking, or test and yield on a crowded host under an
 * MPI that spins.
 */
#ifndef ARMCI_COMMON_WAIT_H
#define ARMCI_COMMON_WAIT_H

#include "common.h"

/* Waiting in the library's own collectives (common_wait.c).  Decide once,
 * after armcii_topo_init, whether waits yield the CPU (ARMCI_WAIT_YIELD). */
void armcii_wait_init(void);
/* Frees what armcii_wait_init made (the node barrier's window); barriers
 * after it are MPI's. */
void armcii_wait_finalize(void);
/* Nonzero when waits yield. */
int armcii_wait_yields(void);
/* How many waits have yielded since the library was loaded (tests). */
unsigned long armcii_wait_count(void);
/* How many times those waits gave up the CPU since the library was loaded
 * (tests). */
unsigned long armcii_wait_yield_calls(void);
/* Counts one more wait that took the test-and-yield way. */
void armcii_wait_note(void);
/* One more test of such a wait done (tests counts them): the CPU goes to
 * others once the wait has made ARMCI_WAIT_SPIN tests. */
void armcii_wait_after_test(long tests);
/* Complete *req: MPI_Wait, or MPI_Test, after ARMCI_WAIT_SPIN tests with
 * sched_yield between tests. */
void armcii_wait(MPI_Request *req);
/* The same, filling *st (or MPI_STATUS_IGNORE). */
void armcii_wait_status(MPI_Request *req, MPI_Status *st);
/* MPI_Recv that waits as armcii_wait does (a mutex waiter's hand-off). */
void armcii_recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                 MPI_Status *st);
/* MPI_Barrier, MPI_Bcast, MPI_Allreduce and MPI_Allgather that wait as
 * armcii_wait does. */
void armcii_barrier(MPI_Comm comm);
void armcii_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);
void armcii_allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                      MPI_Comm comm);
void armcii_allgather(const void *in, int count, MPI_Datatype dt, void *out, MPI_Comm comm);

#endif /* ARMCI_COMMON_WAIT_H */
