/*
 * Errors, warnings and logging.  Every message starts with the rank so that
 * interleaved output of many processes stays readable; every abort goes
 * through MPI_Abort on the library's world (or the job's, before init).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "common.h"

__thread const char *armcii_current_call __attribute__((tls_model("initial-exec")));

/* Error-path state: format strings already warned about (warn once), the
 * tests' hook (tests/badinput) and the note of a lower layer's failure
 * (armcii_error_set_note), read on the error path only. */
#define WARN_ONCE_SLOTS 64
static struct {
    const char *seen[WARN_ONCE_SLOTS];
    int n;
    armcii_lock_t lock;
    void (*hook)(const char *line);
    const char *(*note)(void);
} err_state;

int armcii_error_rank(void)
{
    int init = 0, fin = 0, r = -1;
    if (armcii_state.init_count > 0)
        return armcii_state.rank;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/* Waits (at most ~1 s) until the reader of fd, when it is a pipe, has taken
 * everything written to it.  MPICH's launcher forwards a process's output
 * through a pipe and, on MPI_Abort, kills the job without draining it, and
 * error messages were lost (rates in docs/mpi-notes.md; checked by
 * tests/mpi/test_abort_output.sh).  Nothing to wait for on a terminal or a
 * file. */
static void wait_drained(int fd)
{
    struct stat st;
    int unread = 0;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
        return;
    for (int i = 0; i < 1000; i++) {
        if (ioctl(fd, FIONREAD, &unread) != 0 || unread <= 0)
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

__attribute__((noreturn)) static void abort_job(int code)
{
    int init = 0, fin = 0;
    fflush(stdout);
    fflush(stderr);
    wait_drained(STDERR_FILENO);
    wait_drained(STDOUT_FILENO);
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin)
        MPI_Abort(armcii_state.init_count > 0 ? armcii_state.world : MPI_COMM_WORLD,
                  code ? code : 1);
    exit(code ? code : 1);
}

void armcii_error_set_hook(void (*hook)(const char *line)) { err_state.hook = hook; }
void armcii_error_set_note(const char *(*note)(void)) { err_state.note = note; }

/* Print "[rank] ARMCI Error<where>: <msg>" (to the tests' hook first, which
 * does not return when it recovers) and abort the job with code. */
__attribute__((noreturn)) static void report(const char *where, const char *msg, int code)
{
    char line[1200];
    snprintf(line, sizeof line, "[%d] ARMCI Error%s: %s", armcii_error_rank(), where, msg);
    if (err_state.hook)
        err_state.hook(line);
    fprintf(stderr, "%s\n", line);
    abort_job(code);
}

void armcii_error(const char *call, const char *fmt, ...)
{
    char msg[1024], where[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(where, sizeof where, " in %s", call);
    report(where, msg, 100);
}

void armcii_abort_msg(const char *msg, int code) { report("", msg ? msg : "(null)", code); }

void *armcii_grow(void *arr, int *cap, int first, size_t elem, const char *call,
                  const char *what)
{
    int n = *cap ? 2 * *cap : first;
    void *p = realloc(arr, (size_t)n * elem);
    if (!p)
        armcii_error(call, "out of memory for %s", what);
    *cap = n;
    return p;
}

void armcii_mpi_fail(const char *what, int rc, const char *file, int line)
{
    char str[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, str, &len) != MPI_SUCCESS)
        snprintf(str, sizeof str, "error code %d", rc);
    /* "what" is the call as written in the source: keep the MPI function name. */
    char fn[64];
    size_t n = strcspn(what, "(");
    snprintf(fn, sizeof fn, "%.*s", (int)(n < sizeof fn ? n : sizeof fn - 1), what);
    const char *call = armcii_current_call ? armcii_current_call : "ARMCI (internal)";
    const char *note = err_state.note ? err_state.note() : NULL;
    armcii_error(call, "%s failed: %s (%s:%d)%s%s", fn, str, file, line, note ? "; " : "",
                 note ? note : "");
}

static void vwarn(const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "[%d] ARMCI Warning: %s\n", armcii_error_rank(), msg);
    fflush(stderr);
}

void armcii_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

/* Format strings are remembered by address: hot-path warnings print once. */
void armcii_warn_once(const char *fmt, ...)
{
    armcii_lock(&err_state.lock);
    for (int i = 0; i < err_state.n; i++) {
        if (err_state.seen[i] == fmt) {
            armcii_unlock(&err_state.lock);
            return;
        }
    }
    if (err_state.n < WARN_ONCE_SLOTS)
        err_state.seen[err_state.n++] = fmt;
    armcii_unlock(&err_state.lock);
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

void armcii_log_emit(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[%d] ARMCI: %s\n", armcii_error_rank(), msg);
    fflush(stderr);
}

void armcii_lock_slow(armcii_lock_t *l)
{
    for (int spins = 0;; spins++) {
        if (!__atomic_load_n(&l->word, __ATOMIC_RELAXED) &&
            !__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE))
            return;
        /* Ranks are often oversubscribed: let the holder run. */
        if (spins > 64)
            sched_yield();
    }
}
