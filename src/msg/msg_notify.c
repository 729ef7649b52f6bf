/*
 * Notifications (armci_notify / armci_notify_wait): a message per
 * notification carrying the sender's running count, on a private
 * duplicate of the world.  Messages from one sender are non-overtaking,
 * so the n-th wait on a sender consumes its n-th notification; the API
 * layer fences the target before sending, so the data put before a
 * notification is remotely complete when it is received.
 *
 * Threads: the per-target counts are updated atomically; the
 * communicator is created and freed at init/finalize only.
 */
#include <stdlib.h>
#include "msg.h"

#define NOTIFY_TAG 1

static struct {
    MPI_Comm comm;
    int *sent;   /* by absolute rank: notifications sent to it */
} notify_state = {MPI_COMM_NULL, NULL};

void armcii_msg_notify_init(void)
{
    armcii_comm_dup(armcii_state.world, &notify_state.comm);
    notify_state.sent = calloc((size_t)armcii_state.nproc, sizeof(int));
    if (!notify_state.sent)
        armcii_error("ARMCI_Init", "out of memory for notification counts");
}

void armcii_msg_notify_finalize(void)
{
    if (notify_state.comm != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&notify_state.comm));
    free(notify_state.sent);
    notify_state.sent = NULL;
}

int armcii_msg_notify_send(int to)
{
    int n = __atomic_add_fetch(&notify_state.sent[to], 1, __ATOMIC_RELAXED);
    ARMCII_MPI(MPI_Send(&n, 1, MPI_INT, to, NOTIFY_TAG, notify_state.comm));
    return n;
}

int armcii_msg_notify_wait(int from)
{
    int n;
    ARMCII_MPI(MPI_Recv(&n, 1, MPI_INT, from, NOTIFY_TAG, notify_state.comm,
                        MPI_STATUS_IGNORE));
    return n;
}
