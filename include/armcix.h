/*
 * armcix.h - extensions beyond the classic ARMCI API.
 */
#ifndef _ARMCIX_H_
#define _ARMCIX_H_

#include <armci.h>
#include <armciconf.h>

#if HAVE_STDINT_H
#include <stdint.h>
#endif

int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key,
                       ARMCI_Group *new_group);
int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group);

/* A batch of mutexes hosted by every process of a group (opaque). */
typedef struct armcix_mutex_hdl_s *armcix_mutex_hdl_t;

armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group *pgroup);
int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl);
void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);

void ARMCIX_Progress(void);
void ARMCIX_Get_world_comm(MPI_Comm *comm);

/* Per-region ghost-progress hint (see docs/progress.md): 1 = redirect software-handled
 * operations on regions allocated from now on, 0 = never, -1 = default. */
int ARMCIX_Set_async_hint(int mode);

/* Collective over the world and a barrier: ghost redirection for every live
 * ghost-reachable region and those allocated later: 1 on, 0 off, -1
 * automatic (the library switches at later barriers from what it measures,
 * starting on; see docs/progress.md; in thread-safe runs there is no
 * automatic mode and -1 restores the run's one setting: ARMCI_GHOST_ASYNC's,
 * AUTO being off on a host with more processes than CPUs and on elsewhere).
 * Returns 0; in a build without ghosts only the barrier. */
int ARMCIX_Async_phase(int mode);

#endif /* _ARMCIX_H_ */
