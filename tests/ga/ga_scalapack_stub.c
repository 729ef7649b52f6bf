/*
 * Link-time stand-ins for the ScaLAPACK/BLACS routines that Debian's static
 * GA references from its scalapack.o (GA_Lu_solve, GA_Diag and friends).
 * The GA tests never call those wrappers, but one object of libga-openmpi.a
 * that they need pulls scalapack.o in.  Built only when configure found no
 * libscalapack-openmpi; any call aborts the job with the routine's name.
 */
#include <stdio.h>
#include <mpi.h>

static void stub_called(const char *name)
{
    fprintf(stderr, "ga tests: ScaLAPACK routine %s called, but only a stub is linked\n",
            name);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

#define STUB(name)                                                                        \
    void name(void);                                                                      \
    void name(void)                                                                       \
    {                                                                                     \
        stub_called(#name);                                                               \
    }

STUB(blacs_gridexit_)
STUB(blacs_gridinfo_)
STUB(blacs_gridinit_)
STUB(descinit_)
STUB(iceil_)
STUB(indxg2p_)
STUB(numroc_)
STUB(pdgetrf_)
STUB(pdgetrs_)
STUB(pdlamch_)
STUB(pdpotrf_)
STUB(pdpotri_)
STUB(pdpotrs_)
STUB(pdsyev_)
STUB(pdsyevd_)
STUB(pdsyevr_)
STUB(pdsyevx_)
STUB(pdsygvx_)
STUB(pzheevd_)
STUB(pzheevr_)
