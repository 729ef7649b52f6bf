/*
 * A ghost that dies (killed, crashed) makes its users' next operations
 * through it fail inside MPI with an error that names nobody ("MPI_ERR_OTHER"
 * under Open MPI), and the launcher's own report may lose the race to the
 * abort that follows.  Users therefore record the ghosts of their host at
 * setup, and the error path of a failed MPI call (armcii_mpi_fail, through
 * armcii_error_set_note) names a ghost that is gone.  Only the error path
 * runs any of this after setup.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "ghost_impl.h"

#define GH armcii_ghost_state

/* Gone: no such process, or a zombie its parent has not reaped yet. */
static int gone(int pid)
{
    char path[64], state = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
    int n = fscanf(f, "%*d (%*[^)]) %c", &state);
    fclose(f);
    return n == 1 && (state == 'Z' || state == 'X');
}

/* The note: the first ghost of this host that is gone.  A killed process
 * may still be exiting when its peers' MPI calls fail: look for up to
 * 200 ms (a failed MPI call ends the job anyway). */
static const char *ghost_gone_note(void)
{
    static char note[160];
    if (!GH.ghosts_on)
        return NULL;
    for (int tries = 0; tries < 20; tries++) {
        for (int k = 0; k < GH.nhost_ghosts; k++) {
            if (!gone(GH.host_ghost_pid[k]))
                continue;
            snprintf(note, sizeof note, "%s ghost (launcher rank %d, pid %d) is gone: killed or "
                     "crashed", GH.host_ghost_rank[k] == GH.my_ghost ? "my" : "a",
                     GH.host_ghost_rank[k], GH.host_ghost_pid[k]);
            return note;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

void armcii_ghost_death_setup(void)
{
    MPI_Comm node;
    int me, n;
    ARMCII_MPI(PMPI_Comm_rank(GH.pworld, &me));
    ARMCII_MPI(PMPI_Comm_split_type(GH.pworld, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node));
    ARMCII_MPI(PMPI_Comm_size(node, &n));
    int mine[3] = {me, (int)getpid(), GH.is_ghost}, *all = malloc((size_t)n * sizeof mine);
    if (!all)
        armcii_error("MPI_Init (ghost layout)", "out of memory (%d processes)", n);
    ARMCII_MPI(PMPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT, node));
    ARMCII_MPI(PMPI_Comm_free(&node));
    if (!GH.is_ghost) {
        GH.host_ghost_rank = malloc((size_t)n * sizeof(int));
        GH.host_ghost_pid = malloc((size_t)n * sizeof(int));
        if (!GH.host_ghost_rank || !GH.host_ghost_pid)
            armcii_error("MPI_Init (ghost layout)", "out of memory (%d processes)", n);
        for (int i = 0; i < n; i++)
            if (all[3 * i + 2]) {
                GH.host_ghost_rank[GH.nhost_ghosts] = all[3 * i];
                GH.host_ghost_pid[GH.nhost_ghosts++] = all[3 * i + 1];
            }
        armcii_error_set_note(ghost_gone_note);
    }
    free(all);
}
