/*
 * Ghost build: user rank 1 ends without MPI_Finalize (argv[1] = "exit") or
 * is killed (argv[1] = "kill") right after ARMCI_Init while the others wait
 * in a long sleep.  Its ghost must notice and take the job down
 * (tests/mpi/test_ghost_userdeath.sh checks the time and the message).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1) {
        fprintf(stderr, "ghost_userdeath: rank 1 ends without MPI_Finalize\n");
        if (argc > 1 && !strcmp(argv[1], "kill"))
            raise(SIGKILL);
        _exit(0);
    }
    sleep(60);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
