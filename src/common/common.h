/*
 * src/common: what every module shares; it sits below all of them.
 *
 * Role: the library-wide state (world communicator, rank, configuration),
 * errors and logging.  The other concerns have a header each, included by
 * the files that use them: common_config.h (the configuration table),
 * common_host.h (this host's processes), common_wait.h (how the library
 * waits), common_quirks.h (the MPI and its known bugs: one place, one
 * version parser), common_acc.h (CPU accumulate kernels and lock words),
 * common_topo.h (real or virtual nodes), common_group.h (process groups).
 *
 * Invariants:
 *  - every communicator the library creates uses MPI_ERRORS_RETURN and every
 *    MPI call is checked through ARMCII_MPI, which reports "[rank] ARMCI
 *    Error in <ARMCI call>: <MPI call> failed: <MPI error string>" and aborts
 *    the job; windows get MPI_ERRORS_RETURN right after creation;
 *  - user mistakes end in armcii_error() (rank, call, reason, abort);
 *    ARMCII_ASSERT checks internal invariants in --enable-debug builds only;
 *  - MPI quirks are decided here (common_quirks.c) and nowhere else.
 * May call: MPI and the C library only.
 */
#ifndef ARMCI_COMMON_H
#define ARMCI_COMMON_H

#include "config.h"
#include <stddef.h>
#include <mpi.h>
/* The public API keeps default visibility; the library is compiled with
 * -fvisibility=hidden, so everything else stays internal. */
#pragma GCC visibility push(default)
#include "armci.h"
#include "armcix.h"
#include "message.h"
#include "iterator.h"
#include "armcip.h"
#pragma GCC visibility pop

#define ARMCII_LIKELY(x) __builtin_expect(!!(x), 1)
#define ARMCII_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- configuration (common_config.c; pure C, unit-tested) ---- */
#define ARMCII_CFG_BOOL(N, f, d, h) int f;
#define ARMCII_CFG_INT(N, f, d, h) int f;
#define ARMCII_CFG_LONG(N, f, d, h) long f;
#define ARMCII_CFG_ENUM(N, f, c, d, h) int f;
typedef struct {
#include "common_config.def"
    unsigned long from_env; /* bit i: row i of the table was set by the environment */
} armcii_config_t;
#undef ARMCII_CFG_BOOL
#undef ARMCII_CFG_INT
#undef ARMCII_CFG_LONG
#undef ARMCII_CFG_ENUM

enum { ARMCII_STRIDED_DIRECT = 0, ARMCII_STRIDED_IOV = 1 };
enum { ARMCII_IOV_AUTO = 0, ARMCII_IOV_CONSRV, ARMCII_IOV_BATCHED, ARMCII_IOV_DIRECT };
enum { ARMCII_ASYNC_ON = 0, ARMCII_ASYNC_OFF, ARMCII_ASYNC_AUTO };
enum { ARMCII_GHOST_AM_ON = 0, ARMCII_GHOST_AM_OFF, ARMCII_GHOST_AM_ALL };
enum { ARMCII_GHOST_PUTGET_ON = 0, ARMCII_GHOST_PUTGET_OFF, ARMCII_GHOST_PUTGET_AUTO };
enum { ARMCII_ACC_SPLIT_AUTO = 0, ARMCII_ACC_SPLIT_ON, ARMCII_ACC_SPLIT_OFF };
enum { ARMCII_WAIT_YIELD_AUTO = 0, ARMCII_WAIT_YIELD_ON, ARMCII_WAIT_YIELD_OFF };

/* ---- library-wide state (common_init.c); common_error.c, common_group.c
 * and common_quirks.c keep their own file-local static struct ---- */
typedef struct {
    int init_count;
    int rank, nproc;
    MPI_Comm world;          /* dup of the init communicator: user-visible world */
    MPI_Comm internal;       /* private dup for the library's own messages */
    int thread_level;
    int threaded;            /* ARMCI_Init_thread(MPI_THREAD_MULTIPLE): lock shared state */
    int started_mpi;         /* ARMCI_Init_args called MPI_Init: Finalize ends MPI too */
    unsigned long shm_limit;
    armcii_config_t cfg;
    ARMCI_Group world_group;
    ARMCI_Group default_group;
    /* topology (common_topo.c) */
    MPI_Comm node;           /* my (virtual) node within world */
    int node_size, node_rank;
    int *node_of;            /* absolute rank -> node index (dense, by lowest rank) */
    int nnodes;
} armcii_state_t;
extern armcii_state_t armcii_state;

/* Start MPI (MPI_Init with argc, argv) unless it runs: 1 when this call
 * started it, 0 when it was running, -1 when it has been finalized; abort
 * naming call when MPI_Init fails.  For the API's classic entry points. */
int armcii_mpi_start(const char *call, int *argc, char ***argv);
/* Finalize MPI if it runs and has not been finalized. */
void armcii_mpi_end(void);

/* Library bring-up and teardown of this module (common_init.c).  requested
 * is the caller's thread level, or ARMCII_THREAD_OF_MPI where the entry
 * point names none (ARMCI_Init): threads may then call in if MPI runs at
 * MPI_THREAD_MULTIPLE. */
enum { ARMCII_THREAD_OF_MPI = -1 };
void armcii_common_init(const char *call, int requested, MPI_Comm comm);
void armcii_common_finalize(void);

/* ---- errors and logging (common_error.c) ---- */
/* Name of the ARMCI call the calling thread is in (for MPI failures). */
extern __thread const char *armcii_current_call
    __attribute__((tls_model("initial-exec")));
static inline void armcii_set_call(const char *call) { armcii_current_call = call; }

/* Print "[rank] ARMCI Error in <call>: <reason>" and abort the job. */
void armcii_error(const char *call, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
/* Print "[rank] <prefix>: <msg>" and abort with code (ARMCI_Error). */
void armcii_abort_msg(const char *msg, int code) __attribute__((noreturn));
/* Warning with the rank prefix; the _once form prints once per format. */
void armcii_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void armcii_warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Verbose log line, printed when ARMCI_VERBOSE >= level.  The level test is
 * inline: hot paths log, and a call per operation cost measurable ns. */
void armcii_log_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define armcii_log(level, ...)                                               \
    do {                                                                     \
        if (ARMCII_UNLIKELY(armcii_state.cfg.verbose >= (level)))            \
            armcii_log_emit(__VA_ARGS__);                                    \
    } while (0)
/* Report a failed MPI call (with MPI's error string) and abort. */
void armcii_mpi_fail(const char *what, int rc, const char *file, int line)
    __attribute__((noreturn, cold));
/* The rank for messages: the ARMCI rank, else the MPI world rank, else -1. */
int armcii_error_rank(void);
/* arr (elem bytes each) regrown to twice *cap elements, first if none;
 * *cap updated.  Out of memory is armcii_error(call, "... for what"). */
void *armcii_grow(void *arr, int *cap, int first, size_t elem, const char *call,
                  const char *what);
/* Tests only (tests/badinput/matrix.c): armcii_error and armcii_abort_msg
 * hand their line ("[rank] ARMCI Error in <call>: <reason>") to hook instead
 * of printing it; a hook that returns lets the job abort as usual, one that
 * recovers (siglongjmp) keeps the process running.  NULL: off (default).
 * Only the error path reads it. */
void armcii_error_set_hook(void (*hook)(const char *line));
/* A note that failed MPI calls' messages (armcii_mpi_fail) append
 * ("...: <MPI's error>; <note>") when note() returns one: what the layer
 * that set it knows and MPI's error does not name (common_death.c: a
 * process of this host is gone).  Only the error path calls it. */
void armcii_error_set_note(const char *(*note)(void));
#define ARMCII_MPI(call)                                                      \
    do {                                                                      \
        int armcii_rc_ = (call);                                              \
        if (ARMCII_UNLIKELY(armcii_rc_ != MPI_SUCCESS))                       \
            armcii_mpi_fail(#call, armcii_rc_, __FILE__, __LINE__);           \
    } while (0)

#ifdef ARMCII_DEBUG
#define ARMCII_ASSERT(c)                                                      \
    do { if (ARMCII_UNLIKELY(!(c))) armcii_error("internal", "assertion '%s' failed at %s:%d", \
                                #c, __FILE__, __LINE__); } while (0)
#else
#define ARMCII_ASSERT(c) ((void)0)
#endif

/* Abort unless the library is initialized. */
static inline void armcii_check_init(const char *call)
{
    if (ARMCII_UNLIKELY(armcii_state.init_count <= 0))
        armcii_error(call, "ARMCI is not initialized");
}

/* Abort unless 0 <= proc < nproc. */
static inline void armcii_check_proc(const char *call, int proc)
{
    if (ARMCII_UNLIKELY(proc < 0 || proc >= armcii_state.nproc))
        armcii_error(call, "process %d out of range [0, %d)", proc, armcii_state.nproc);
}

/* Duplicate comm with MPI_ERRORS_RETURN (every internal communicator). */
void armcii_comm_dup(MPI_Comm comm, MPI_Comm *out);
/* Set MPI_ERRORS_RETURN on a window the library created. */
void armcii_win_errors_return(MPI_Win win);

/* A lock for the few shared structures mutated outside collectives; taken
 * only when the library runs under MPI_THREAD_MULTIPLE (armcii_state.threaded). */
typedef struct { int word; } armcii_lock_t;
void armcii_lock_slow(armcii_lock_t *l);
static inline void armcii_lock(armcii_lock_t *l)
{
    if (ARMCII_UNLIKELY(armcii_state.threaded) &&
        (__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE)))
        armcii_lock_slow(l);
}
static inline void armcii_unlock(armcii_lock_t *l)
{
    if (ARMCII_UNLIKELY(armcii_state.threaded))
        __atomic_store_n(&l->word, 0, __ATOMIC_RELEASE);
}

#endif /* ARMCI_COMMON_H */
