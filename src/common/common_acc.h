/*
 * The CPU accumulate kernels, read-modify-writes and lock words
 * (common_acc.c), shared by the node-local path and the ghosts.
 */
#ifndef ARMCI_COMMON_ACC_H
#define ARMCI_COMMON_ACC_H

#include "common.h"

/* dst[i] += scale * src[i] over bytes of ARMCI_ACC_* type datatype (the
 * caller holds whatever lock makes it atomic). */
void armcii_acc_kernel(int datatype, const void *scale, const void *src, void *dst,
                       size_t bytes);
/* dst[i] = scale * src[i]: a scaled accumulate staged for MPI, which only sums. */
void armcii_acc_scale(int datatype, const void *scale, const void *src, void *dst,
                      size_t bytes);
/* One CPU read-modify-write at p: op ARMCI_FETCH_AND_ADD(_LONG) adds a,
 * ARMCI_SWAP(_LONG) stores a, ARMCII_CPU_CAS_INT stores b where the int
 * equals a; returns the value found. */
enum { ARMCII_CPU_CAS_INT = 100 };
long armcii_cpu_rmw(int op, void *p, long a, long b);
/* Bytes of the word read-modify-write op works on: a long for the _LONG
 * forms, an int otherwise. */
static inline size_t armcii_rmw_word(int op)
{
    return op == ARMCI_FETCH_AND_ADD_LONG || op == ARMCI_SWAP_LONG ? sizeof(long) : sizeof(int);
}
/* The lock word of an accumulate target in shared memory (a node-shared
 * slice's header, a ghost pool partition's first bytes): taken by every
 * process that applies accumulates there with the CPU, ghosts included. */
void armcii_spin_lock(int *l);
void armcii_spin_unlock(int *l);

#endif /* ARMCI_COMMON_ACC_H */
