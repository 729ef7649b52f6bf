/*
 * A process of this host that dies (killed, crashed) makes its peers' next
 * MPI calls towards it fail with an error that names nobody ("MPI_ERR_OTHER"
 * under Open MPI), and the abort that follows can beat the launcher's own
 * report of the death: the job then ends saying only that an accumulate
 * failed.  So the processes of each host record one another at setup (the
 * ghost layout in MPI_Init, else ARMCI_Init), and a failed MPI call's
 * message (armcii_mpi_fail, through armcii_error_set_note) names the first
 * of them that is gone.  After setup only the error path runs any of this.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "common.h"
#include "common_host.h"

/* One record per process of this host: launcher rank, pid, ghost or not. */
static struct {
    int n, me, my_ghost, *rec;
    char note[160];
} death_state;

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

/* The first other process of this host that is gone.  A killed process may
 * still be exiting when its peers' MPI calls fail: look for up to 200 ms
 * (a failed MPI call ends the job anyway). */
static const char *host_gone_note(void)
{
    for (int tries = 0; tries < 20; tries++) {
        for (int i = 0; i < death_state.n; i++) {
            const int *r = &death_state.rec[3 * i];
            if (r[0] == death_state.me || !gone(r[1]))
                continue;
            snprintf(death_state.note, sizeof death_state.note,
                     "%s (launcher rank %d, pid %d) is gone: killed or crashed",
                     !r[2] ? "user process" : r[0] == death_state.my_ghost ? "my ghost" : "a ghost",
                     r[0], r[1]);
            return death_state.note;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

int armcii_host_watched(void) { return death_state.rec != NULL; }

int armcii_host_procs(void) { return death_state.rec ? death_state.n : 0; }

void armcii_host_watch(MPI_Comm host, int launcher_rank, int is_ghost, int my_ghost)
{
    int n, mine[3] = {launcher_rank, (int)getpid(), is_ghost};
    ARMCII_MPI(PMPI_Comm_size(host, &n));
    int *rec = malloc((size_t)n * sizeof mine);
    if (!rec)
        armcii_error(armcii_current_call ? armcii_current_call : "MPI_Init",
                     "out of memory (a table of %d processes)", n);
    ARMCII_MPI(PMPI_Allgather(mine, 3, MPI_INT, rec, 3, MPI_INT, host));
    free(death_state.rec);
    death_state.rec = rec;
    death_state.n = n;
    death_state.me = launcher_rank;
    death_state.my_ghost = my_ghost;
    armcii_error_set_note(host_gone_note);
}
