/*
 * Minimal pure-MPI reproducer (no ARMCI) for two limits of Open MPI 4.1's
 * osc/ucx dynamic windows, through which the ghost backend would expose
 * user memory (src/common/common_quirks.c, ARMCII_QUIRK_DYNWIN_BROKEN):
 *   limit:  MPI_Win_attach of a 33rd region fails (MPI_ERR_INTERN): at most
 *           32 regions may be attached to one dynamic window at a time;
 *           detaching the 32 afterwards aborts in UCX (rcache refcount).
 *   attached-free: MPI_Win_free with memory still attached crashes
 *           (SIGSEGV in ucp_mem_unmap).
 *   detached-free: the same, with everything detached first (works here,
 *           but crashed the same way in the ghosts after longer attach/
 *           detach traffic, and origins then failed to unpack remote keys of
 *           memory re-attached at a reused address; those two were seen
 *           only through the library, so osc/ucx on Open MPI < 5 turns
 *           ghost redirection off).
 * usage: ompi_ucx_dynwin_repro limit|attached-free|detached-free [n=40]
 * Exit 0: every call succeeded and the window was freed; 3: an attach was
 * refused with an error code (printed); a crash is the caller's to see.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int me, refused = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *how = argc > 1 ? argv[1] : "limit";
    int n = argc > 2 ? atoi(argv[2]) : (strcmp(how, "limit") ? 8 : 40);
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    char **buf = calloc((size_t)n, sizeof *buf);
    int attached = 0;
    for (int i = 0; i < n && refused < 0; i++) {
        buf[i] = malloc(4096);
        if (MPI_Win_attach(win, buf[i], 4096) == MPI_SUCCESS)
            attached++;
        else
            refused = i;
    }
    if (strcmp(how, "attached-free") != 0)
        for (int i = 0; i < attached; i++)
            MPI_Win_detach(win, buf[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    for (int i = 0; i < n; i++)
        free(buf[i]);
    free(buf);
    if (refused >= 0)
        printf("[%d] MPI_Win_attach refused region %d (after %d attached)\n", me, refused,
               attached);
    MPI_Finalize();
    return refused >= 0 ? 3 : 0;
}
