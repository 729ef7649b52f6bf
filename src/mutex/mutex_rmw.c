/*
 * Read-modify-write: ARMCI_Rmw and the int atomics the queueing mutexes use.
 *
 * CPU atomics only when every member of the region shares the node
 * (gmr->all_local), or, in the ghost build, where ghosts apply every other
 * process's RMW with CPU atomics (t->all_local set by the translation);
 * otherwise MPI atomics for everyone, so the two kinds never operate on
 * the same word.
 *
 * Completion: MPI_Win_flush (remote completion), not flush_local.  The
 * fetched value needs a round trip anyway, and only remote completion is
 * guaranteed by the standard to make the update visible to every other
 * origin, which a swap used as a spin-lock and the mutex tail word need.
 * Flush against flush_local made no difference beyond noise on osc/sm and
 * osc/rdma, and flush costs an acknowledgement round trip on osc/pt2pt
 * (benchmarks/results/design_measurements.txt, "rmw completion").
 * One exception: a fetch-and-add (a task counter, which nobody reads but
 * through atomics) on a window where a request completes it faster than a
 * flush (ARMCII_QUIRK_BY_REQUEST, NWChem's nxtval across nodes) is
 * only locally complete, its target marked as written (gmr_ops.c).
 */
#include <string.h>
#include "mutex.h"
#include "../common/common_acc.h"

static int use_cpu(const armcii_target_t *t)
{
    return t->direct && t->all_local;
}

int armcii_mutex_swap_int(const armcii_target_t *t, int value)
{
    int old;
    if (use_cpu(t))
        return (int)armcii_cpu_rmw(ARMCI_SWAP, t->direct, value, 0);
    armcii_gmr_fetch_op(t, &value, &old, MPI_INT, MPI_REPLACE, 1);
    return old;
}

int armcii_mutex_cas_int(const armcii_target_t *t, int compare, int value)
{
    if (use_cpu(t))
        return (int)armcii_cpu_rmw(ARMCII_CPU_CAS_INT, t->direct, compare, value);
    return armcii_gmr_cas_int(t, compare, value);
}

/* Node-local RMW with CPU atomics; the result goes to *ploc. */
static void rmw_cpu(int op, void *ploc, char *rem, int value)
{
    int is_long = armcii_rmw_word(op) == sizeof(long);
    int is_add = op == ARMCI_FETCH_AND_ADD || op == ARMCI_FETCH_AND_ADD_LONG;
    long in = is_add ? value : is_long ? *(long *)ploc : *(int *)ploc;
    long old = armcii_cpu_rmw(op, rem, in, 0);
    if (is_long)
        *(long *)ploc = old;
    else
        *(int *)ploc = (int)old;
}

/* MPI-path RMW: one fetch-and-op; a swap remotely complete on return. */
static void rmw_mpi(const armcii_target_t *t, int op, void *ploc, int value)
{
    size_t size = armcii_rmw_word(op);
    int is_long = size == sizeof(long);
    int is_add = op == ARMCI_FETCH_AND_ADD || op == ARMCI_FETCH_AND_ADD_LONG;
    /* MPI requires origin and result buffers to be disjoint, and ploc is
     * both for a swap. */
    union { int i; long l; } in, out;
    if (is_add) {
        if (is_long)
            in.l = value;
        else
            in.i = value;
    } else {
        memcpy(&in, ploc, size);
    }
    /* Location consistency: earlier unfenced puts to this target first
     * (MPI orders accumulates and atomics before it). */
    armcii_gmr_order_atomic(t);
    armcii_gmr_fetch_op(t, &in, &out, is_long ? MPI_LONG : MPI_INT,
                        is_add ? MPI_SUM : MPI_REPLACE, !is_add);
    memcpy(ploc, &out, size);
}

void armcii_mutex_rmw(const char *call, int op, void *ploc, void *prem, int value, int proc)
{
    armcii_target_t t;
    armcii_gmr_xlate(call, prem, armcii_rmw_word(op), proc, ARMCII_OP_RMW, &t);
    if (use_cpu(&t)) {
        /* ghost build: my accumulates to t may still be on their way to
         * its ghost (location consistency; nothing to do elsewhere) */
        armcii_gmr_order_read(&t);
        rmw_cpu(op, ploc, t.direct, value);
    } else {
        rmw_mpi(&t, op, ploc, value);
    }
}
