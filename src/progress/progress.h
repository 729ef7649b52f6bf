/*
 * src/progress: asynchronous progress.
 *
 * Role: the progress thread, the ghost-progress backend (built with
 * --enable-ghost-progress), the redirection decision for software-handled
 * operation classes, and the wait-for-progress profiler.
 *
 * Invariants: redirection of a region changes only where every process of
 * the region has completed all operations on it (allocation, ARMCI_Barrier,
 * a collective hint); one ghost serves each target, so MPI's per-target
 * accumulate atomicity and ordering hold.
 * May call: src/armci (errors, state), src/gmr (region fields).
 */
#ifndef ARMCI_PROGRESS_H
#define ARMCI_PROGRESS_H

#include "../gmr/gmr.h"

/* Start/stop the progress thread and ghost machinery (init/finalize). */
void armcii_progress_init(void);
void armcii_progress_finalize(void);

/* Region lifecycle hooks (collective over the region's comm). */
void armcii_progress_region_created(armcii_gmr_t *g);
void armcii_progress_region_freed(armcii_gmr_t *g);

/* Redirection hook, called by armcii_gmr_xlate for non-direct targets:
 * may rewrite t->win, t->rank and t->disp to a ghost's window. */
#ifdef ARMCII_GHOSTS
void armcii_progress_redirect(armcii_opclass_t cls, armcii_target_t *t);
/* Remote-complete what was redirected for g's rank grank (-1: all). */
void armcii_progress_fence(armcii_gmr_t *g, int grank);
#else
static inline void armcii_progress_redirect(armcii_opclass_t cls, armcii_target_t *t)
{
    (void)cls;
    (void)t;
}
static inline void armcii_progress_fence(armcii_gmr_t *g, int grank)
{
    (void)g;
    (void)grank;
}
#endif

/* Profiler: the library is entered / left (cheap when profiling is off). */
void armcii_profile_enter(void);
void armcii_profile_leave(void);

#endif /* ARMCI_PROGRESS_H */
