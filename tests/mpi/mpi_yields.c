/*
 * Whether MPI yields when idle, as the library reads it (once, from the
 * launcher's environment where that decides, else through MPI_T;
 * src/common/common_quirks.c), against MPI's own answer through MPI_T.
 * usage: mpi_yields [EXPECT]  EXPECT 0 or 1: the value both must give.
 * Prints "oversubscribe=V" (the launcher's OMPI_MCA_mpi_oversubscribe, or
 * "unset") from process 0, for tests/mpi/test_mpi_yields.sh.
 */
#include <armci.h>
#include "../testutil.h"
#include "../../src/common/common_quirks.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    tu_name = "mpi_yields";
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    ARMCI_Init();
    int lib = armcii_mpi_yields_when_idle();
    int mpit = armcii_mpi_yields_when_idle_mpit();
    CHECK(lib == mpit, "the library reads mpi_yield_when_idle as %d, MPI_T as %d "
          "(OMPI_MCA_mpi_yield_when_idle=%s, OMPI_MCA_mpi_oversubscribe=%s)", lib, mpit,
          getenv("OMPI_MCA_mpi_yield_when_idle") ? getenv("OMPI_MCA_mpi_yield_when_idle") : "unset",
          getenv("OMPI_MCA_mpi_oversubscribe") ? getenv("OMPI_MCA_mpi_oversubscribe") : "unset");
    CHECK(armcii_mpi_yields_when_idle() == lib, "a second read changed the answer");
    if (argc > 1)
        CHECK(lib == atoi(argv[1]), "mpi_yield_when_idle read as %d, expected %s", lib, argv[1]);
    if (me == 0) {
        const char *o = getenv("OMPI_MCA_mpi_oversubscribe");
        printf("oversubscribe=%s yields=%d\n", o ? o : "unset", lib);
    }
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
