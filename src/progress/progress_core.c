/*
 * Progress engine lifecycle: the profiler and the progress thread.
 */
#include "progress_impl.h"

armcii_progress_state_t armcii_progress_state = {.thread_comm = MPI_COMM_NULL};

void armcii_progress_init(void)
{
    armcii_adapt_init(); /* first: the profiler's timing branch covers it */
    armcii_profile_start();
    if (armcii_state.cfg.progress_thread)
        armcii_progress_thread_start();
}

/* Called before regions are freed: the thread must not poll while windows
 * go away, and the profile covers the application's run only. */
void armcii_progress_finalize(void)
{
    armcii_progress_thread_stop();
    armcii_round_finish();
    armcii_profile_report();
}
