/*
 * Progress engine entry points.  Without --enable-ghost-progress the region
 * hooks have nothing to do; the progress thread is added by progress_thread.c.
 */
#include "progress.h"
#include "../armci/armci_int.h"

void armcii_progress_init(void) {}
void armcii_progress_finalize(void) {}
void armcii_progress_region_created(armcii_gmr_t *g) { (void)g; }
void armcii_progress_region_freed(armcii_gmr_t *g) { (void)g; }
void armcii_profile_enter(void) {}
void armcii_profile_leave(void) {}

/* Public: poke MPI's progress engine once. */
void ARMCIX_Progress(void)
{
    int flag;
    if (armcii_state.init_count > 0 && armcii_state.cfg.explicit_nb_progress)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.internal, &flag,
                   MPI_STATUS_IGNORE);
}

/* Public: no per-region hint without the ghost backend; accepted, no effect. */
int ARMCIX_Set_async_hint(int mode)
{
    (void)mode;
    return 0;
}
