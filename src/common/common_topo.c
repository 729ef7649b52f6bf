/*
 * Node topology: which processes share memory.  ARMCI_VIRTUAL_NODE_SIZE=k
 * cuts each real node into virtual nodes of k consecutive ranks (so one
 * machine exercises the multi-node paths); unset, nodes are the MPI
 * shared-memory domains.
 */
#include <stdlib.h>
#include "common.h"
#include "common_host.h"
#include "common_topo.h"
#include "common_wait.h"

void armcii_topo_init(void)
{
    MPI_Comm world = armcii_state.world, real;
    int n = armcii_state.nproc, me = armcii_state.rank;
    int vn = armcii_state.cfg.virtual_node_size;

    ARMCII_MPI(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &real));
    /* Without a ghost layout (which recorded the whole host in MPI_Init,
     * with launcher ranks) the library's world is the launcher's. */
    if (!armcii_host_watched()) {
        int launcher_rank;
        ARMCII_MPI(PMPI_Comm_rank(MPI_COMM_WORLD, &launcher_rank));
        armcii_host_watch(real, launcher_rank, 0, -1);
    }
    if (vn > 0) {
        ARMCII_MPI(MPI_Comm_split(real, me / vn, me, &armcii_state.node));
        ARMCII_MPI(MPI_Comm_free(&real));
    } else {
        armcii_state.node = real;
    }
    ARMCII_MPI(MPI_Comm_size(armcii_state.node, &armcii_state.node_size));
    ARMCII_MPI(MPI_Comm_rank(armcii_state.node, &armcii_state.node_rank));
    int first = me;
    ARMCII_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, armcii_state.node));
    int *leader = malloc((size_t)n * sizeof(int));
    armcii_state.node_of = malloc((size_t)n * sizeof(int));
    if (!leader || !armcii_state.node_of)
        armcii_error("ARMCI_Init", "out of memory for the node map of %d processes", n);
    ARMCII_MPI(MPI_Allgather(&first, 1, MPI_INT, leader, 1, MPI_INT, world));
    /* Dense node indices in order of each node's lowest rank. */
    armcii_state.nnodes = 0;
    for (int p = 0; p < n; p++)
        armcii_state.node_of[p] = leader[p] == p ? armcii_state.nnodes++
                                                 : armcii_state.node_of[leader[p]];
    free(leader);
    armcii_log(1, "nodes: %d (%s), ranks in my node: %d", armcii_state.nnodes,
               vn > 0 ? "virtual" : "real", armcii_state.node_size);
}

void armcii_topo_finalize(void)
{
    if (armcii_state.node != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&armcii_state.node));
    free(armcii_state.node_of);
    armcii_state.node_of = NULL;
}
