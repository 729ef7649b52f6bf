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
 * synchronize; a switch of redirection happens only where every process
 * has its writes remotely complete and issues nothing until it switched:
 * inside a collective over the world that every process entered so
 * (progress_adapt.c), or once every user acknowledged the ghosts'
 * proposal (progress_round.c); the progress thread only polls MPI (it never touches library
 * state), so it needs nothing but MPI_THREAD_MULTIPLE.
 * Ownership of the automatic mode: this module alone decides the
 * redirection setting; src/gmr fills a per-call record in translation
 * (driven through armcii_gmr_call_*), holds the one redirection flag and
 * switches it (armcii_gmr_redirect); the API layer calls two hooks, the
 * per-call enter/leave below and armcii_progress_sync at its barriers.
 * This header is what other modules may use (the state is here only for
 * the inline per-call branch); progress_impl.h is the module's inside.
 * The ghost loop (src/ghost) runs the ghosts' side of the rounds through
 * the armcii_round_* functions below.
 * May call: src/gmr (call records, counters, the switch), src/common.
 */
#ifndef ARMCI_PROGRESS_H
#define ARMCI_PROGRESS_H

#include <pthread.h>
#include "../common/common.h"
#include "../gmr/gmr.h"

enum { ARMCII_PROF_BUCKETS = 48 };
/* API names the profiler keeps apart for calls that move no data */
enum { ARMCII_PROF_OTHER = 24 };
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

/* What the decision remembers between intervals: per setting (0 off,
 * 1 on), library time (T_comm) per ghostable call in the last stretch of
 * communication-dense intervals run with it, and the number of that
 * stretch's last interval among the dense ones (-1: never); dense
 * intervals so far, and in a row; the current stretch's decayed sums; how
 * far probes have backed off, and the dense time still owed for the last
 * lost probe. */
typedef struct {
    double dense_cost[2];
    long dense_at[2], dense_n, dense_run;
    double run_comm, run_calls; /* current stretch: decayed T_comm and ghostable calls */
    double debt;  /* T (the sums' unit) of dense intervals before the next probe may run */
    int backoff;  /* probes of the other setting come 2^backoff times later */
    int probing;  /* the last decision switched to probe the other setting */
} armcii_adapt_hist_t;

/* The thresholds of the decision (percentages; ARMCI_ADAPT_* settings). */
typedef struct {
    int wait_on, cr_low, cr_high, congestion, reprobe;
} armcii_adapt_rule_t;

/* Decisions inside phases (progress_round.c): a user's view and a ghost's
 * round.  Users and the ghosts of a node share one line each of a block. */
typedef struct {
    int on;                 /* configured (ghost build, AUTO, ARMCI_ADAPT_INPHASE) */
    int live;               /* user: between ARMCI_Init and ARMCI_Finalize */
    void *lines;            /* the node block */
    size_t bytes;           /* its size */
    int me, ghost;          /* my line; user: my ghost's line (-1 on ghosts) */
    long epoch;             /* user: last epoch settled; ghost: last proposed */
    double interval, ack_wait; /* seconds: between rounds; a proposal's wait */
    int verbose;
    armcii_adapt_rule_t rule;
    /* ghost */
    int *bound, nbound;     /* my users' lines */
    double *prev;           /* per user: last sampled comm, wait, cong, gcalls */
    unsigned char *fin;     /* per user: finalized */
    MPI_Comm gcomm;         /* the ghosts */
    int grank, stage, want, was;
    int after;              /* the setting the last outcome carried (-1: none since the
                             * start or a manual phase: the users' lines tell) */
    int served;             /* the last commit turned redirection on (no idle naps) */
    int late_line, late_flag; /* a user not acknowledged yet, its state (logs) */
    int drops;              /* proposals dropped in a row (none since the last commit) */
    long hold;              /* proposals still to skip after a drop (resolve()) */
    MPI_Request req;
    long long v[16], s[16];
    double last, deadline;
    armcii_adapt_hist_t hist;
    long decisions, switches;
} armcii_round_t;

/* ---- module state: the one global of src/progress (per-thread call
 * nesting is file-local, progress_profile.c) ---- */
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
    /* profiler: calls that moved no data (barriers, fences, waits, msg
     * collectives), per API name, first come first kept */
    struct { const char *name; double calls, time, tmax; } other[ARMCII_PROF_OTHER];
    int nother;
    /* automatic redirection (progress_adapt.c); the setting itself is
     * src/gmr's (armcii_gmr_redirecting) */
    int adapt;                 /* deciding at synchronization points now */
    int fixed;                 /* threaded runs: the setting ARMCIX_Async_phase(-1) and
                                * ARMCI_GHOST_ASYNC stand for (no automatic mode) */
    armcii_adapt_ivl_t ivl;
    armcii_adapt_ivl_t tot;    /* the intervals before ivl, summed (decisions inside phases) */
    armcii_round_t round;
    long decisions, switches;
    armcii_adapt_hist_t hist;
} armcii_progress_state_t;
extern armcii_progress_state_t armcii_progress_state;

/* Start/stop the progress thread, the profiler and the automatic mode
 * (init/finalize). */
void armcii_progress_init(void);
void armcii_progress_finalize(void);

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
    if (__builtin_expect(armcii_progress_state.timing, 0))
        armcii_gmr_call_clock();
}

/* ---- automatic redirection (progress_adapt.c) ---- */
/* The synchronization points the API layer reports. */
typedef enum {
    ARMCII_SYNC_BARRIER,   /* ARMCI_Barrier: fences all, then a world barrier */
    ARMCII_SYNC_MSG        /* armci_msg_barrier over the world (GA_Sync's path,
                            * after ARMCI_AllFence): no fence of its own */
} armcii_sync_kind_t;
/* The API layer's barrier hook: in automatic mode, do the barrier of kind
 * (the decision's allreduce is the barrier) and return 1; otherwise return
 * 0 and the caller does its own barrier. */
int armcii_progress_sync(armcii_sync_kind_t kind);
/* ARMCIX_Async_phase: 1 on, 0 off (automatic mode ends), -1 automatic. */
void armcii_adapt_phase(int mode);
/* The current setting, 1 on or 0 off; -1 where nothing can be redirected
 * (no ghosts, or an MPI whose windows cannot carry them): tests and
 * bench_multiphase. */
int armcii_adapt_redirecting(void);

/* ---- decisions inside phases (progress_round.c) ---- */
/* Before a call that may wait for other processes (collective allocation,
 * groups, mutex sets, armci_msg_*), after its arguments are checked: in
 * automatic mode inside phases, complete this process's writes and let its
 * ghost acknowledge switches for it while it waits (else a switch waits
 * ARMCI_ADAPT_ACK_MS for it and is dropped).  The call must issue no
 * operation on a region after this; the next library call settles. */
void armcii_progress_park(void);
/* Ghost build, in armcii_ghost_setup, collective over the real node (users
 * and ghosts): the node block.  ghost_line: a user's ghost's rank in node,
 * -1 on a ghost; a ghost gives its bound users' node ranks and the ghosts'
 * communicator.  Does nothing unless AUTO and ARMCI_ADAPT_INPHASE. */
void armcii_round_setup(MPI_Comm node, int ghost_line, const int *bound, int nbound,
                        MPI_Comm ghosts, const armcii_config_t *cfg);
/* Collective over the node again, at MPI_Finalize (ghosts: after the last round). */
void armcii_round_free(void);
/* Ghost loop: one step of the rounds; ARMCII_ROUNDS_OVER once every
 * ghost's users finished (or no rounds run), so the ghost may leave;
 * ARMCII_ROUNDS_GROW once every ghost said grow_ready (at once without
 * rounds): all create the pending pool's window now (ghost.h). */
int armcii_round_ghost_step(int users_done, int grow_ready);
/* Ghost: a proposal is open. */
int armcii_round_ghost_busy(void);
/* Ghost: the last commit turned redirection on, so origins may aim at me
 * although my own users have not applied it yet (they may be parked). */
int armcii_round_ghost_serving(void);
/* Ghost: bound user k sent FIN. */
void armcii_round_user_finished(int k);
/* User: its ghost's rounds decided and switches proposed so far (-1, -1
 * without rounds inside phases); for tests. */
void armcii_round_counts(long *decisions, long *proposals);
#endif /* ARMCI_PROGRESS_H */
