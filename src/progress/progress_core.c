/*
 * Progress engine entry points: dispatch to the progress thread, the
 * profiler and (ghost build) the ghost backend.
 */
#include "progress.h"
#include "../armci/armci_int.h"

armcii_progress_state_t armcii_progress_state = {
    .thread_comm = MPI_COMM_NULL, .async_hint = -1,
    .pworld = MPI_COMM_NULL, .user_world = MPI_COMM_NULL,
    .cmd_comm = MPI_COMM_NULL, .dyn_win = MPI_WIN_NULL,
};

void armcii_progress_init(void)
{
    armcii_profile_start();
    if (armcii_state.cfg.progress_thread)
        armcii_progress_thread_start();
#ifdef ARMCII_GHOSTS
    armcii_ghost_users_init();
#endif
}

/* Called before regions are freed: the thread must not poll while windows
 * go away, and the profile covers the application's run only. */
void armcii_progress_finalize(void)
{
    armcii_progress_thread_stop();
    armcii_profile_report();
#ifdef ARMCII_GHOSTS
    armcii_ghost_users_finalize();
#endif
}

void armcii_progress_region_created(armcii_gmr_t *g)
{
#ifdef ARMCII_GHOSTS
    armcii_ghost_region_created(g);
#else
    (void)g;
#endif
}

void armcii_progress_region_freed(armcii_gmr_t *g)
{
#ifdef ARMCII_GHOSTS
    armcii_ghost_region_freed(g);
#else
    (void)g;
#endif
}

/* Public: poke MPI's progress engine once. */
void ARMCIX_Progress(void)
{
    int flag;
    if (armcii_state.init_count > 0 && armcii_state.cfg.explicit_nb_progress)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.internal, &flag,
                   MPI_STATUS_IGNORE);
}

/* Public: per-region ghost redirection for regions allocated from now on
 * (1 on, 0 off, -1 back to ARMCI_GHOST_ASYNC).  Call it collectively: a
 * region uses ghosts only if every member asked for it (allocation takes
 * the minimum).  Without ghosts it is accepted and has no effect. */
int ARMCIX_Set_async_hint(int mode)
{
    if (mode < -1 || mode > 1)
        armcii_error("ARMCIX_Set_async_hint", "mode %d is not -1, 0 or 1", mode);
    armcii_progress_state.async_hint = mode;
    return 0;
}
