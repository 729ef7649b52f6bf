/*
 * Notifications (armci_notify / armci_notify_wait): a message per
 * notification carrying the sender's running count, on a private
 * duplicate of the world.  Messages from one sender are non-overtaking,
 * so the n-th wait on a sender consumes its n-th notification; the API
 * layer fences the target before sending, so the data put before a
 * notification is remotely complete when it is received.
 *
 * Sends are nonblocking: MPI may hold even a 4-byte MPI_Send until the
 * receiver posts (MPICH does for a send to itself), and a notifier must
 * not wait for its target to call armci_notify_wait.  Notifications to
 * oneself never touch MPI: a count of pending ones.
 *
 * Threads: calls are serialized by a lock in MPI_THREAD_MULTIPLE runs;
 * the communicator is created and freed at init/finalize only.
 */
#include <stdlib.h>
#include "msg.h"

#define NOTIFY_TAG 1

typedef struct {
    MPI_Request req;
    int value;
} pending_t;

static struct {
    MPI_Comm comm;
    int *sent;          /* by absolute rank: notifications sent to it */
    int self_pending;   /* sent to myself, not yet waited for */
    int self_waited;
    pending_t **pend;   /* sends in flight; each entry holds its send buffer,
                           so growing the array never moves a buffer */
    int npend, cap;
    armcii_lock_t lock;
} notify_state = {MPI_COMM_NULL, NULL, 0, 0, NULL, 0, 0, {0}};
#define NS notify_state

void armcii_msg_notify_init(void)
{
    armcii_comm_dup(armcii_state.world, &NS.comm);
    NS.sent = calloc((size_t)armcii_state.nproc, sizeof(int));
    if (!NS.sent)
        armcii_error("ARMCI_Init", "out of memory for notification counts");
    NS.self_pending = NS.self_waited = 0;
}

/* Drop completed sends (the order of the array does not matter). */
static void reap(void)
{
    for (int i = 0; i < NS.npend;) {
        int done = 0;
        ARMCII_MPI(MPI_Test(&NS.pend[i]->req, &done, MPI_STATUS_IGNORE));
        if (done) {
            free(NS.pend[i]);
            NS.pend[i] = NS.pend[--NS.npend];
        } else {
            i++;
        }
    }
}

void armcii_msg_notify_finalize(void)
{
    /* A notification nobody waited for must not hold finalize. */
    for (int i = 0; i < NS.npend; i++) {
        int done = 0;
        ARMCII_MPI(MPI_Test(&NS.pend[i]->req, &done, MPI_STATUS_IGNORE));
        if (!done) {
            ARMCII_MPI(MPI_Cancel(&NS.pend[i]->req));
            ARMCII_MPI(MPI_Wait(&NS.pend[i]->req, MPI_STATUS_IGNORE));
        }
        free(NS.pend[i]);
    }
    free(NS.pend);
    NS.pend = NULL;
    NS.npend = NS.cap = 0;
    if (NS.comm != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&NS.comm));
    free(NS.sent);
    NS.sent = NULL;
}

int armcii_msg_notify_send(int to)
{
    armcii_lock(&NS.lock);
    int n = ++NS.sent[to];
    if (to == armcii_state.rank) {
        NS.self_pending++;
    } else {
        reap();
        pending_t *p = malloc(sizeof *p);
        if (NS.npend == NS.cap) {
            int cap = NS.cap ? 2 * NS.cap : 16;
            pending_t **a = realloc(NS.pend, (size_t)cap * sizeof *a);
            if (a) {
                NS.pend = a;
                NS.cap = cap;
            }
        }
        if (!p || NS.npend == NS.cap)
            armcii_error("armci_notify", "out of memory for pending notifications");
        NS.pend[NS.npend++] = p;
        p->value = n;
        ARMCII_MPI(MPI_Isend(&p->value, 1, MPI_INT, to, NOTIFY_TAG, NS.comm, &p->req));
    }
    armcii_unlock(&NS.lock);
    return n;
}

int armcii_msg_notify_wait(int from)
{
    int n;
    if (from == armcii_state.rank) {
        armcii_lock(&NS.lock);
        if (NS.self_pending == 0) {
            armcii_unlock(&NS.lock);
            armcii_error("armci_notify_wait", "waiting for a notification from itself that "
                         "was never sent (it would wait forever)");
        }
        NS.self_pending--;
        n = ++NS.self_waited;
        armcii_unlock(&NS.lock);
        return n;
    }
    ARMCII_MPI(MPI_Recv(&n, 1, MPI_INT, from, NOTIFY_TAG, NS.comm, MPI_STATUS_IGNORE));
    return n;
}
