/*
 * Progress extensions (armcix.h): poke MPI, and ghost redirection hints.
 */
#include "armci_api.h"
#include "../gmr/gmr.h"

/* Poke MPI's progress engine once (ARMCI_EXPLICIT_NB_PROGRESS). */
void ARMCIX_Progress(void)
{
    armcii_set_call("ARMCIX_Progress");
    if (armcii_state.init_count > 0 && armcii_state.cfg.explicit_nb_progress)
        armcii_gmr_progress();
}

/* Per-region ghost redirection for regions allocated from now on (1 on,
 * 0 off, -1 back to ARMCI_GHOST_ASYNC).  Call it collectively: a region
 * uses ghosts only if every member asked for it (allocation takes the
 * minimum).  Without ghosts it is accepted and has no effect. */
int ARMCIX_Set_async_hint(int mode)
{
    if (mode < -1 || mode > 1)
        armcii_error("ARMCIX_Set_async_hint", "mode %d is not -1, 0 or 1", mode);
    armcii_gmr_set_async_hint(mode);
    return 0;
}

/* Collective over the world, a barrier: redirection for every live
 * ghost-reachable region and those allocated later, 1 on, 0 off (both
 * end the automatic mode), -1 automatic: the setting adapts at this and
 * later synchronization points (progress_adapt.c).  Without ghosts: a
 * barrier, returns 0. */
int ARMCIX_Async_phase(int mode)
{
    static const char call[] = "ARMCIX_Async_phase";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    if (mode < -1 || mode > 1)
        armcii_error(call, "mode %d is not -1 (automatic), 0 (off) or 1 (on)", mode);
    armcii_adapt_phase(mode);
    armcii_api_leave();
    return 0;
}
