/* Preloaded into the ranks of a Global Arrays program on GA's own MPI-TS
 * runtime (tools/apps/ga.sh, mode native-vnK): MPI_Get_processor_name
 * answers "procname-shim-node-<rank / K>" (K: PROCNAME_SHIM_PER_NODE,
 * default 1).  GA's ARMCI layer over ComEx bins processes into SMP domains
 * by processor name, so on one host every K consecutive ranks become a
 * node, and GA takes the paths it takes for owners on other nodes of a
 * cluster -- the layout this library gives GA (each process its own
 * domain), reproduced on GA's own runtime.  Only the ranks preload it
 * (tools/apps/ga-runner.sh), never the launcher. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* The contract of MPI_Get_processor_name, with a name per group of ranks. */
int MPI_Get_processor_name(char *name, int *resultlen)
{
    const char *e = getenv("PROCNAME_SHIM_PER_NODE");
    int rank = 0, k = e && atoi(e) > 0 ? atoi(e) : 1;
    int rc = PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "procname-shim-node-%d", rank / k);
    return MPI_SUCCESS;
}
