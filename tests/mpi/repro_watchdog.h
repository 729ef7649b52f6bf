/*
 * Hang watchdog of the pure-MPI reproducers whose bug is a hang
 * (ompi_pt2pt_getflush_repro.c, ompi_ucx_rma_progress_repro.c).  A
 * timeout of the whole launch proves nothing (a launch that never got
 * going, a loaded machine), so the program itself names the hang: every
 * rank arms the watchdog once all have reached the suspected stage
 * (after a barrier: start-up and window creation are done), and a rank
 * still inside that stage REPRO_HANG_S seconds later (default 10; the
 * calls take microseconds) prints
 *   HANG: rank R: no return from STAGE within S s
 * and exits with REPRO_HANG_EXIT (3).  A rank past the stage re-arms with
 * twice the time, so the rank that hangs in the stage is the one that
 * reports.  The scripts (tests/mpi/test_ompi_*.sh) count exit 3 as "bug
 * present" and any other failure, an outer timeout included, as no answer.
 */
#ifndef REPRO_WATCHDOG_H
#define REPRO_WATCHDOG_H
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPRO_HANG_EXIT 3

static const char *volatile repro_stage = "start-up";
static int repro_rank = -1;
static int repro_secs = 10;

/* One write of the whole line, so that lines of several ranks do not mix. */
static void repro_alarm(int sig)
{
    char line[256];
    int n = snprintf(line, sizeof line, "HANG: rank %d: no return from %s within %d s\n",
                     repro_rank, repro_stage, repro_secs);
    ssize_t r = write(2, line, n > 0 && n < (int)sizeof line ? (size_t)n : sizeof line - 1);
    (void)r;
    (void)sig;
    _exit(REPRO_HANG_EXIT);
}

/* Arms the watchdog: the calling rank is now in stage (a string literal). */
static void repro_watch(int rank, const char *stage)
{
    const char *e = getenv("REPRO_HANG_S");
    if (e && atoi(e) > 0)
        repro_secs = atoi(e);
    repro_rank = rank;
    repro_stage = stage;
    signal(SIGALRM, repro_alarm);
    alarm((unsigned)repro_secs);
}

/* The rank left the suspected stage: the rest (unlock, free, finalize)
 * gets twice the time, so a peer still hanging in it reports first. */
static void repro_passed(const char *next)
{
    repro_stage = next;
    alarm(2u * (unsigned)repro_secs);
}

static void repro_done(void)
{
    alarm(0);
}
#endif
