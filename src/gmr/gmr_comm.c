/*
 * Communicators of regions, shared by every region over the same group.
 *
 * Each region needs a communicator of its own members (collectives at
 * allocation and free) and, for node-shared memory, one of its members on
 * my node.  Duplicating them per region costs two context ids a region, and
 * MPICH has 2048 per process: a job keeping ~500 arrays alive failed in
 * MPI_Comm_split ("Too many communicators"; tests/mpi/test_ghost_regions).
 * Regions over congruent communicators (same members, same order) share one
 * entry instead, counted by reference.  Members agree on the entries: an
 * entry is made and freed inside collectives over exactly its members, so
 * all of them hold the same entries for that membership.
 */
#include <stdlib.h>
#include "gmr_impl.h"
#include "../common/common_topo.h"

#define GS armcii_gmr_state

armcii_gmr_comm_t *armcii_gmr_comm_get(MPI_Comm comm)
{
    armcii_lock(&GS.lock);
    for (armcii_gmr_comm_t *c = GS.comms; c; c = c->next) {
        int res;
        ARMCII_MPI(MPI_Comm_compare(comm, c->comm, &res));
        if (res == MPI_IDENT || res == MPI_CONGRUENT) {
            c->refs++;
            armcii_unlock(&GS.lock);
            return c;
        }
    }
    armcii_unlock(&GS.lock);
    armcii_gmr_comm_t *c = calloc(1, sizeof *c);
    if (!c)
        armcii_error("ARMCI_Malloc", "out of memory");
    /* Regions over all processes take the library's own world, a private
     * communicator already: their allocation and free then meet through
     * the world's node-shared collectives where waits yield
     * (common_node.c), not MPI's, on a crowded host several times dearer
     * (GA creates and destroys arrays as it goes). */
    int res;
    ARMCII_MPI(MPI_Comm_compare(comm, armcii_state.world, &res));
    c->owned = res != MPI_IDENT && res != MPI_CONGRUENT;
    if (c->owned)
        armcii_comm_dup(comm, &c->comm);
    else
        c->comm = armcii_state.world;
    c->node_comm = MPI_COMM_NULL;
    c->refs = 1;
    armcii_lock(&GS.lock);
    c->next = GS.comms;
    GS.comms = c;
    armcii_unlock(&GS.lock);
    return c;
}

MPI_Comm armcii_gmr_comm_node(armcii_gmr_comm_t *c)
{
    if (c->node_comm == MPI_COMM_NULL) {
        int rank;
        ARMCII_MPI(MPI_Comm_rank(c->comm, &rank));
        ARMCII_MPI(MPI_Comm_split(c->comm, armcii_node_of(armcii_state.rank), rank,
                                  &c->node_comm));
    }
    return c->node_comm;
}

void armcii_gmr_comm_put(armcii_gmr_comm_t *c)
{
    armcii_lock(&GS.lock);
    int last = --c->refs == 0;
    if (last) {
        armcii_gmr_comm_t **pp = &GS.comms;
        while (*pp != c)
            pp = &(*pp)->next;
        *pp = c->next;
    }
    armcii_unlock(&GS.lock);
    if (!last)
        return;
    if (c->node_comm != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&c->node_comm));
    if (c->owned)
        ARMCII_MPI(MPI_Comm_free(&c->comm));
    free(c);
}

int armcii_gmr_comm_count(void)
{
    int n = 0;
    armcii_lock(&GS.lock);
    for (armcii_gmr_comm_t *c = GS.comms; c; c = c->next)
        n++;
    armcii_unlock(&GS.lock);
    return n;
}
