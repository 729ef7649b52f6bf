/*
 * The world's collectives through node-shared memory (common_node.c).
 */
#ifndef ARMCI_COMMON_NODE_H
#define ARMCI_COMMON_NODE_H

#include "common.h"

/* Collective over the world: sets up the node path where waits yield
 * (yield nonzero on every process), the MPI gives shared windows and some
 * node holds two processes or more. */
void armcii_node_init(int yield);
/* Collective over the world: frees what armcii_node_init made. */
void armcii_node_finalize(void);
/* Nonzero when the node path is set up. */
int armcii_node_active(void);
/* How many collectives took the node path since the library was loaded
 * (tests). */
unsigned long armcii_node_calls(void);
/* Each completes the collective through the node path and returns 1, or
 * returns 0 at once where that path cannot take it (not set up, another
 * communicator than the world, a derived type, a non-commutative
 * operation, more than the node window's slots hold). */
int armcii_node_barrier(MPI_Comm comm);
int armcii_node_allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm);
int armcii_node_allgather(const void *in, int count, MPI_Datatype dt, void *out, MPI_Comm comm);
int armcii_node_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);

#endif /* ARMCI_COMMON_NODE_H */
