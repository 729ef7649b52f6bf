/*
 * src/progress: asynchronous progress policy and measurement.
 *
 * Role: the progress thread, the profiler (time inside and outside the
 * library, operations per class) and the dedicated-core advisor.  The ghost
 * processes themselves live in src/ghost, and what is sent to them is
 * decided per region in src/gmr; this module sets the policy.
 *
 * Invariants: the profiler costs one predictable branch per API call when
 * ARMCI_PROFILE is off; the progress thread only polls MPI (it never
 * touches library state), so it needs nothing but MPI_THREAD_MULTIPLE.
 * May call: src/gmr (counters, policy), src/common.
 */
#ifndef ARMCI_PROGRESS_H
#define ARMCI_PROGRESS_H

#include <pthread.h>
#include "../common/common.h"
#include "../gmr/gmr.h"

enum { ARMCII_PROF_BUCKETS = 48 };

/* ---- module state: the one global of src/progress ---- */
typedef struct {
    /* progress thread (progress_thread.c) */
    int thread_running;
    pthread_t thread;
    volatile int thread_stop;
    MPI_Comm thread_comm;
    /* profiler (progress_profile.c) */
    int profile;               /* ARMCI_PROFILE at init: the one branch */
    double t_init, t_comm;     /* t_comm: summed over threads */
    long calls;
    armcii_lock_t lock;        /* the profiler's sums in threaded runs */
    /* per operation class: calls, time in them, wait for progress (time
     * beyond the fastest call of the same class and size seen so far) */
    double cls_calls[ARMCII_OP_NCLASS], cls_time[ARMCII_OP_NCLASS], cls_wait[ARMCII_OP_NCLASS];
    double base[ARMCII_OP_NCLASS][ARMCII_PROF_BUCKETS]; /* by log2 of the bytes */
    double *target_wait;       /* per absolute target */
} armcii_progress_state_t;
extern armcii_progress_state_t armcii_progress_state;

/* Start/stop the progress thread and the profiler (init/finalize). */
void armcii_progress_init(void);
void armcii_progress_finalize(void);

/* Progress thread (progress_thread.c). */
void armcii_progress_thread_start(void);
void armcii_progress_thread_stop(void);

/* Profiler: the library is entered / left.  When ARMCI_PROFILE is off this
 * is one predictable branch; API entry points call enter first and leave
 * last (nesting is counted, so inner calls do not double count). */
void armcii_profile_enter_slow(void);
void armcii_profile_leave_slow(void);
static inline void armcii_profile_enter(void)
{
    if (__builtin_expect(armcii_progress_state.profile, 0))
        armcii_profile_enter_slow();
}
static inline void armcii_profile_leave(void)
{
    if (__builtin_expect(armcii_progress_state.profile, 0))
        armcii_profile_leave_slow();
}
void armcii_profile_start(void);
void armcii_profile_report(void);

#endif /* ARMCI_PROGRESS_H */
