/*
 * Error reporting and logging.  Every message starts with the rank so that
 * interleaved output of many processes stays readable.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"

static int my_rank(void)
{
    int init = 0, fin = 0, r = -1;
    if (armcii_state.init_count > 0)
        return armcii_state.rank;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

__attribute__((noreturn)) static void abort_job(int code)
{
    int init = 0, fin = 0;
    fflush(stdout);
    fflush(stderr);
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(armcii_state.init_count > 0 ? armcii_state.world : MPI_COMM_WORLD,
                  code ? code : 1);
    exit(code ? code : 1);
}

void armcii_error(const char *call, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%d] ARMCI Error in %s: %s\n", my_rank(), call, msg);
    abort_job(100);
}

void armcii_mpi_fail(const char *what, int rc, const char *file, int line)
{
    char str[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, str, &len) != MPI_SUCCESS)
        snprintf(str, sizeof str, "error code %d", rc);
    armcii_error("MPI", "%s failed (%s) at %s:%d", what, str, file, line);
}

static void vwarn(const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "[%d] ARMCI Warning: %s\n", my_rank(), msg);
    fflush(stderr);
}

void armcii_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

/* Remember a few format strings by address: hot-path warnings print once. */
#define WARN_ONCE_SLOTS 64
static struct { const char *seen[WARN_ONCE_SLOTS]; int n; } warn_state;

void armcii_warn_once(const char *fmt, ...)
{
    for (int i = 0; i < warn_state.n; i++)
        if (warn_state.seen[i] == fmt)
            return;
    if (warn_state.n < WARN_ONCE_SLOTS)
        warn_state.seen[warn_state.n++] = fmt;
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

void armcii_log(int level, const char *fmt, ...)
{
    if (armcii_state.cfg.verbose < level)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%d] ARMCI: %s\n", my_rank(), msg);
    fflush(stderr);
}

/* Public: print the user's message with the rank, then abort the job. */
void ARMCI_Error(const char *msg, int code)
{
    fprintf(stderr, "[%d] ARMCI Error: %s\n", my_rank(), msg ? msg : "(null)");
    abort_job(code);
}

/* Public: nothing to release; kept for classic ARMCI callers. */
void ARMCI_Cleanup(void) {}
