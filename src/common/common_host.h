/*
 * The processes of this host (common_death.c): who shares the machine, whether
 * it is crowded (more processes than CPUs), and the note failed MPI calls
 * get when one of them is gone.
 */
#ifndef ARMCI_COMMON_HOST_H
#define ARMCI_COMMON_HOST_H

#include "common.h"

/* Collective over host (processes that share a machine): records their
 * launcher ranks (launcher_rank: the caller's), process ids and which are
 * ghosts (my_ghost: the caller's ghost's launcher rank, or -1), so that a
 * failed MPI call's message names a process of the host that is gone
 * (common_death.c).  The ghost layout records all of a host's processes in
 * MPI_Init; otherwise armcii_topo_init records the library's world. */
void armcii_host_watch(MPI_Comm host, int launcher_rank, int is_ghost, int my_ghost);
/* Nonzero once armcii_host_watch has run in this process. */
int armcii_host_watched(void);
/* How many processes armcii_host_watch recorded on this host (ghosts
 * included), 0 before it ran. */
int armcii_host_procs(void);
/* Nonzero where this host has more processes (ghosts included) than CPUs:
 * a waiting process there must leave its core to others (common_wait.c). */
int armcii_host_crowded(void);
/* Crowded, and the MPI polls in its waits instead of yielding (MPICH; Open
 * MPI yields on such a host): waits, ghosts' idle loops and the ghost
 * build's default redirection adapt to it (common_wait.c). */
int armcii_host_starved(void);

#endif /* ARMCI_COMMON_HOST_H */
