/*
 * Minimal reproducer, no ARMCI: a job that only starts and ends MPI.
 * Open MPI 4.1 (Debian's 4.1.4) creates a top session directory
 * $TMPDIR/ompi.<host>.<uid> by checking whether it exists and then
 * calling mkdir, and removes it when its last job ends.  Jobs that start
 * together on one host while it is absent race: the loser aborts in
 * MPI_Init with "A call to mkdir was unable to create the desired
 * directory ... File exists" (open-mpi/ompi#8510).  `make -j check` starts
 * and ends many jobs at once, so tests/run-mode.sh gives each job its own
 * TMPDIR; tests/mpi/test_ompi_session_dir.sh counts the race here.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    printf("session_dir_repro: ok\n");
    return 0;
}
