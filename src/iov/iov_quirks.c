/*
 * The one place where known MPI implementation bugs are routed around,
 * keyed by MPI_Get_library_version.  Every other file asks
 * armcii_iov_mpi_quirks() instead of testing versions itself.
 */
#include <stdio.h>
#include <string.h>
#include "iov.h"
#include "../armci/armci_int.h"

armcii_iov_state_t armcii_iov_state = {{NULL, 0, 0, -1}, -1};

static int ompi_major(const char *v)
{
    const char *p = strstr(v, "Open MPI v");
    int major = 0;
    if (p && sscanf(p + strlen("Open MPI v"), "%d", &major) == 1)
        return major;
    return -1;
}

int armcii_iov_mpi_quirks(void)
{
    if (ARMCII_LIKELY(armcii_iov_state.quirks >= 0))
        return armcii_iov_state.quirks;
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, q = 0;
    ARMCII_MPI(MPI_Get_library_version(v, &len));
    int major = ompi_major(v);
    /* Open MPI 4.x is reported to lose MPI_Accumulate updates when the
     * target datatype is indexed (the reason upstream ARMCI-MPI forces the
     * batched IOV method on it).  tests/mpi/ompi_indexed_acc_repro.c is a
     * pure-MPI reproducer; run through tests/mpi/test_ompi_indexed_acc.sh it
     * did NOT lose updates with 4.1.4 on one node (osc rdma, pt2pt and sm,
     * Win_allocate / Win_create / Win_allocate_shared), but the reports
     * concern network transports we cannot test here, so accumulates stay
     * split into one contiguous operation per block on Open MPI < 5.  Puts
     * and gets keep their derived datatypes. */
    if (major >= 0 && major < 5)
        q |= ARMCII_QUIRK_ACC_DTYPE_SPLIT;
    armcii_iov_state.quirks = q;
    armcii_log(1, "MPI quirks: acc_dtype_split=%s (%s major %d)",
               (q & ARMCII_QUIRK_ACC_DTYPE_SPLIT) ? "on" : "off",
               major >= 0 ? "Open MPI" : "not Open MPI", major);
    return q;
}
