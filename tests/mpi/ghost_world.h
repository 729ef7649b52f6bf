/* Shared by the programs that check the ghost layer's hiding
 * (test_ghost_world.c, test_ghost_world_xfer.c): how many user processes
 * the application's MPI_COMM_WORLD must contain.  The expected count comes
 * from the real job size (PMPI_Comm_size) and the documented layout: per
 * chunk ARMCI_VIRTUAL_NODE_SIZE users + g ghosts, or per (single) node all
 * but g.  In a build without ghosts users == job. */
#ifndef ARMCI_TEST_GHOST_WORLD_H
#define ARMCI_TEST_GHOST_WORLD_H
#include <stdlib.h>
#include <armci.h>
#include <armcix.h>

/* Ghosts in this run: a ghost build with ARMCI_GHOSTS_PER_NODE > 0. */
static inline int ghosts_in_run(void)
{
    const char *gs = getenv("ARMCI_GHOSTS_PER_NODE");
    return ARMCI_GHOST_PROGRESS && (gs ? atoi(gs) : 1) > 0;
}

static inline int expected_users(void)
{
    int P;
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *gs = getenv("ARMCI_GHOSTS_PER_NODE"), *vs = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int g = gs ? atoi(gs) : 1, vn = vs ? atoi(vs) : 0;
    if (!ghosts_in_run())
        return P;
    return vn > 0 ? P / (vn + g) * vn : P - g; /* tests run on one real node */
}

#endif
