/* Preloaded into the ranks of a Global Arrays program on one of GA's own
 * runtimes (tools/apps/ga.sh, mode native-vnK): MPI_Get_processor_name
 * answers "procname-shim-node-<rank / K>" (K: PROCNAME_SHIM_PER_NODE,
 * default 1), and so does gethostname once MPI is initialized.  GA's ARMCI
 * layer over ComEx bins processes into SMP domains by processor name, and
 * ComEx's MPI-PR finds its nodes (one progress rank each) by host name, so
 * on one host every K consecutive ranks become a node, and GA takes the
 * paths it takes for owners on other nodes of a cluster -- the layout this
 * library gives GA (each process its own domain), reproduced on GA's own
 * runtimes.  Only the ranks preload it (tools/apps/ga-runner.sh), never the
 * launcher; before MPI_Init and after MPI_Finalize gethostname is the C
 * library's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The contract of gethostname; between MPI_Init and MPI_Finalize the name
 * is the processor name above. */
int gethostname(char *name, size_t len)
{
    int init = 0, fin = 0;
    if (PMPI_Initialized(&init) == MPI_SUCCESS && init && PMPI_Finalized(&fin) == MPI_SUCCESS &&
        !fin) {
        char buf[MPI_MAX_PROCESSOR_NAME];
        int n = 0;
        MPI_Get_processor_name(buf, &n);
        if ((size_t)n + 1 > len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(name, buf, (size_t)n + 1);
        return 0;
    }
    int (*libc_gethostname)(char *, size_t) =
        (int (*)(char *, size_t))dlsym(RTLD_NEXT, "gethostname");
    if (!libc_gethostname) {
        errno = ENOSYS;
        return -1;
    }
    return libc_gethostname(name, len);
}
