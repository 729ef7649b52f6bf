/*
 * Minimal pure-MPI reproducer (no ARMCI): Open MPI (4.1.4 and 5.0.10 here)
 * takes the thread level given to MPI_T_init_thread as the MPI's own.  A
 * program initialized with MPI_THREAD_MULTIPLE (or FUNNELED) that then
 * opens the tools interface with MPI_THREAD_SINGLE gets MPI_THREAD_SINGLE
 * from MPI_Query_thread, and Open MPI clears its own thread-multiple flag
 * (ompi_mpi_thread_level), so the thread safety the program asked for is
 * gone too.  MPICH keeps the level.  The library reads control variables
 * through MPI_T (src/common/common_quirks.c, cvar_set), so it opens MPI_T
 * at the level MPI_Query_thread reports.
 *
 * usage: mpit_thread_level_repro LEVEL (1 rank): initializes MPI with
 * MPI_THREAD_FUNNELED, opens and closes MPI_T at LEVEL ("single", or
 * "current": the level MPI_Query_thread reports), and exits 0 when
 * MPI_Query_thread still reports the level MPI_Init_thread provided,
 * 2 when it has changed.
 */
#include <stdio.h>
#include <string.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int provided, before, after, tprov;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Query_thread(&before);
    int level = argc > 1 && !strcmp(argv[1], "current") ? before : MPI_THREAD_SINGLE;
    if (MPI_T_init_thread(level, &tprov) != MPI_SUCCESS) {
        printf("MPI_T_init_thread failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_T_finalize();
    MPI_Query_thread(&after);
    printf("thread level: provided %d, before MPI_T %d, MPI_T opened at %d, after %d\n",
           provided, before, level, after);
    MPI_Finalize();
    return after == before ? 0 : 2;
}
