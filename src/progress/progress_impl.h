/*
 * src/progress, inside: what the module's files share and its unit test
 * reads (progress.h is what other modules may use).
 */
#ifndef ARMCI_PROGRESS_IMPL_H
#define ARMCI_PROGRESS_IMPL_H

#include "progress.h"

/* Progress thread (progress_thread.c). */
void armcii_progress_thread_start(void);
void armcii_progress_thread_stop(void);

/* Profiler (progress_profile.c): counters reset at init, report at finalize. */
void armcii_profile_start(void);
void armcii_profile_report(void);

/* At init: the mode ARMCI_GHOST_ASYNC sets (AUTO: adapt). */
void armcii_adapt_init(void);

/* An interval's sums over the world (microseconds; calls and busy flags
 * counted), as one allreduce carries them. */
enum { ARMCII_ADAPT_T, ARMCII_ADAPT_COMM, ARMCII_ADAPT_WAIT, ARMCII_ADAPT_CONG,
       ARMCII_ADAPT_GCALLS, ARMCII_ADAPT_BUSY, ARMCII_ADAPT_NSUM };

/* The rule the configuration sets. */
armcii_adapt_rule_t armcii_adapt_rule(const armcii_config_t *c);

/* The setting (1 on, 0 off) that the world's sums s call for, given the
 * current setting cur and the history in; *out gets the history to keep,
 * why the rule that fired.  A pure function of its arguments (no MPI, no
 * globals): unit-tested (tests/unit/test_adapt_decide). */
int armcii_adapt_decide(const armcii_adapt_rule_t *rule, int cur, const armcii_adapt_hist_t *in,
                        const long long *s, armcii_adapt_hist_t *out, char *why, size_t len);

/* Decisions inside phases, the user side (progress_round.c): the hooks run
 * only while armcii_round_live(). */
int armcii_round_live(void);
void armcii_round_start(int manual);  /* ARMCI_Init */
void armcii_round_set_manual(int manual);
void armcii_round_enter(void);        /* outermost library entry */
void armcii_round_leave(void);        /* outermost library exit */
void armcii_round_barrier(int fenced);/* a world barrier, parked */
void armcii_round_finish(void);       /* ARMCI_Finalize */

#endif /* ARMCI_PROGRESS_IMPL_H */
