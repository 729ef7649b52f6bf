/*
 * src/progress: asynchronous progress policy and measurement.
 *
 * Role: the progress thread, the profiler (time inside and outside the
 * library, operations per class, wait for progress), the dedicated-core
 * advisor, and the automatic redirection policy (progress_adapt.c): per
 * interval T_comm, T_comp, the wait for progress W and the ghost
 * congestion C, and a collective decision at synchronization points.  The
 * ghost processes themselves live in src/ghost, and what is sent to them
 * is decided per region in src/gmr; this module sets the policy.
 *
 * Invariants: per-call timing costs one predictable branch per API call
 * when neither ARMCI_PROFILE nor the automatic mode is on; the automatic
 * mode reads the clock only in calls that reach the MPI path or
 * synchronize; a switch of redirection happens only inside a collective
 * over the world that every process entered with its writes remotely
 * complete; the progress thread only polls MPI (it never touches library
 * state), so it needs nothing but MPI_THREAD_MULTIPLE.
 * May call: src/gmr (counters, policy), src/common.
 */
#ifndef ARMCI_PROGRESS_H
#define ARMCI_PROGRESS_H

#include <pthread.h>
#include "../common/common.h"
#include "../gmr/gmr.h"

enum { ARMCII_PROF_BUCKETS = 48 };
/* The path a timed call took: the target's own window or a ghost. */
enum { ARMCII_PATH_DIRECT, ARMCII_PATH_GHOST, ARMCII_NPATH };

/* One adaptation interval of this process (progress_adapt.c): seconds. */
typedef struct {
    double t0;    /* start */
    double comm;  /* in timed library calls (T_comm) */
    double wait;  /* W: calls ghosts would serve, on the direct path, beyond their unloaded cost */
    double cong;  /* C: calls redirected to ghosts beyond their unloaded cost */
    long gcalls;  /* calls ghosts would serve (either path) */
} armcii_adapt_ivl_t;

/* ---- module state: the one global of src/progress ---- */
typedef struct {
    /* progress thread (progress_thread.c) */
    int thread_running;
    pthread_t thread;
    volatile int thread_stop;
    MPI_Comm thread_comm;
    /* per-call timing (progress_profile.c) */
    int timing;                /* profile || adapt: the one branch of every call */
    int profile;               /* ARMCI_PROFILE at init */
    double t_init, t_comm;     /* t_comm: summed over threads */
    long calls;
    armcii_lock_t lock;        /* the sums in threaded runs */
    /* unloaded cost: the fastest call seen so far, per path, class and
     * log2 of the bytes */
    double base[ARMCII_NPATH][ARMCII_OP_NCLASS][ARMCII_PROF_BUCKETS];
    /* profiler, per operation class: calls, time in them, W (direct path)
     * and C (ghost path): time beyond the unloaded cost */
    double cls_calls[ARMCII_OP_NCLASS], cls_time[ARMCII_OP_NCLASS];
    double cls_wait[ARMCII_OP_NCLASS], cls_cong[ARMCII_OP_NCLASS];
    double *target_wait;       /* per absolute target */
    /* automatic redirection (progress_adapt.c) */
    int adapt;                 /* deciding at synchronization points now */
    int redirect;              /* the current setting: 1 on, 0 off */
    armcii_adapt_ivl_t ivl;
    long decisions, switches;
    /* per setting (0 off, 1 on): library time (T_comm) per ghostable
     * call in the last communication-dense interval run with it, and that
     * interval's number among the dense ones (-1: never); dense intervals
     * so far, and in a row */
    double dense_cost[2];
    long dense_at[2], dense_n, dense_run;
} armcii_progress_state_t;
extern armcii_progress_state_t armcii_progress_state;

/* Start/stop the progress thread and the profiler (init/finalize). */
void armcii_progress_init(void);
void armcii_progress_finalize(void);

/* Progress thread (progress_thread.c). */
void armcii_progress_thread_start(void);
void armcii_progress_thread_stop(void);

/* Per-call timing: the library is entered / left.  When neither the
 * profiler nor the automatic mode is on this is one predictable branch;
 * API entry points call enter first and leave last (nesting is counted,
 * so inner calls do not double count).  The profiler times every call
 * from its entry; the automatic mode only calls whose operations reach
 * the MPI path (src/gmr starts the clock) and synchronizing calls, which
 * start it at entry with armcii_profile_clock(). */
void armcii_profile_enter_slow(void);
void armcii_profile_leave_slow(void);
static inline void armcii_profile_enter(void)
{
    if (__builtin_expect(armcii_progress_state.timing, 0))
        armcii_profile_enter_slow();
}
static inline void armcii_profile_leave(void)
{
    if (__builtin_expect(armcii_progress_state.timing, 0))
        armcii_profile_leave_slow();
}
static inline void armcii_profile_clock(void)
{
    if (__builtin_expect(armcii_progress_state.timing, 0) && armcii_gmr_callop.t0 == 0)
        armcii_gmr_callop.t0 = MPI_Wtime();
}
void armcii_profile_start(void);
void armcii_profile_report(void);

/* ---- automatic redirection (progress_adapt.c) ---- */
/* At init: the mode ARMCI_GHOST_ASYNC sets (AUTO: adapt). */
void armcii_adapt_init(void);
static inline int armcii_adapt_active(void) { return armcii_progress_state.adapt; }
/* ARMCI_Barrier in automatic mode: fence all, then the decision's
 * allreduce, which is the barrier. */
void armcii_adapt_barrier(void);
/* armci_msg_barrier over the world in automatic mode (GA_Sync's path,
 * ARMCI_AllFence then this): the allreduce is the barrier; a switch only
 * when every process arrived with its writes complete. */
void armcii_adapt_msg_barrier(void);
/* ARMCIX_Async_phase: 1 on, 0 off (automatic mode ends), -1 automatic. */
void armcii_adapt_phase(int mode);
/* An interval's sums over the world (microseconds; calls and busy flags
 * counted), as one allreduce carries them. */
enum { ARMCII_ADAPT_T, ARMCII_ADAPT_COMM, ARMCII_ADAPT_WAIT, ARMCII_ADAPT_CONG,
       ARMCII_ADAPT_GCALLS, ARMCII_ADAPT_BUSY, ARMCII_ADAPT_NSUM };
/* The setting the sums call for (1 on, 0 off), given the current one in
 * armcii_progress_state.redirect; records dense-interval costs; why gets
 * the rule that fired.  No MPI: unit-tested (tests/unit/test_adapt_decide). */
int armcii_adapt_decide(const long long *sums, char *why, size_t len);
/* The current setting, 1 on or 0 off; -1 where nothing can be redirected
 * (no ghosts, or an MPI whose windows cannot carry them): tests and
 * bench_multiphase. */
int armcii_adapt_redirecting(void);
#endif /* ARMCI_PROGRESS_H */
