/*
 * src/msg: the message layer behind armci_msg_* (two-sided messages,
 * broadcasts, reductions, select) over a communicator chosen by the API.
 *
 * Invariants: ranks given to these functions are ranks of the communicator
 * passed (the API layer translates absolute ranks); the custom operators
 * (absmax, absmin) are created at init, never lazily, so threads cannot
 * race on their creation.
 * May call: src/common.
 */
#ifndef ARMCI_MSG_H
#define ARMCI_MSG_H

#include "../common/common.h"

/* Collective over the world (armcii_state.world must be set). */
void armcii_msg_init(void);
void armcii_msg_finalize(void);

/* Element size and MPI type of an ARMCI_INT..ARMCI_DOUBLE code, or abort. */
MPI_Datatype armcii_msg_type(const char *call, int type, int *size);
void armcii_msg_barrier(MPI_Comm comm);
/* Wall-clock seconds (MPI_Wtime). */
double armcii_msg_time(void);
void armcii_msg_send(int tag, const void *buf, int len, int to, MPI_Comm comm);
/* from < 0: any source.  Returns the source; *msglen (if not NULL) the bytes. */
int armcii_msg_recv(int tag, void *buf, int buflen, int *msglen, int from, MPI_Comm comm);
void armcii_msg_bcast(const char *call, void *buf, int len, int root, MPI_Comm comm);
/* x[0..n) = op over the processes of comm (op: "+", "*", "max", "min",
 * "absmax", "absmin", "or", "land", "lor", "band", "bor", ...). */
void armcii_msg_gop(const char *call, void *x, int n, const char *op, int type, MPI_Comm comm);
/* The n-byte record of the process whose leading key wins (op "min"/"max")
 * reaches every process of comm. */
void armcii_msg_sel(const char *call, void *x, int n, const char *op, int type,
                    int contribute, MPI_Comm comm);

/* armci_notify support (msg_notify.c): one notification to / from an
 * absolute rank over a private duplicate of the world, so it never matches
 * a user's armci_msg_* tag.  send returns how many notifications this
 * process has sent to `to` (this one included); wait blocks for the next
 * one from `from` and returns the sender's count carried in it. */
void armcii_msg_notify_init(void);
void armcii_msg_notify_finalize(void);
int armcii_msg_notify_send(int to);
int armcii_msg_notify_wait(int from);

#endif /* ARMCI_MSG_H */
