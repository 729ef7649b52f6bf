/*
 * src/armci: the public API surface.
 *
 * Role: validate user arguments, then dispatch to src/gmr (translation and
 * contiguous primitives), src/iov (noncontiguous), src/mutex (locks, RMW) and
 * src/progress.  It also owns what every module shares: the one state struct
 * (world communicator, rank, configuration), error reporting and logging.
 *
 * Invariants: the library never calls its own weak ARMCI_* names, only
 * PARMCI_* or armcii_* functions, so a profiler counts one event per user
 * call.  User mistakes end in armcii_error() (rank, call, reason, abort);
 * ARMCII_ASSERT is for internal invariants only.
 */
#ifndef ARMCI_INT_H
#define ARMCI_INT_H

#include <stddef.h>
#include <mpi.h>
#include "armci.h"
#include "armcix.h"

/* ---- configuration (armci_config.c) ---- */
#define ARMCII_CFG_BOOL(N, f, d, h) int f;
#define ARMCII_CFG_INT(N, f, d, h) int f;
#define ARMCII_CFG_LONG(N, f, d, h) long f;
#define ARMCII_CFG_ENUM(N, f, c, d, h) int f;
typedef struct {
#include "armci_config.def"
} armcii_config_t;
#undef ARMCII_CFG_BOOL
#undef ARMCII_CFG_INT
#undef ARMCII_CFG_LONG
#undef ARMCII_CFG_ENUM

enum { ARMCII_STRIDED_DIRECT = 0, ARMCII_STRIDED_IOV = 1 };
enum { ARMCII_IOV_AUTO = 0, ARMCII_IOV_CONSRV, ARMCII_IOV_BATCHED, ARMCII_IOV_DIRECT };
enum { ARMCII_ASYNC_ON = 0, ARMCII_ASYNC_OFF, ARMCII_ASYNC_AUTO };

/* Parse every ARMCI_* variable through getenv_fn into cfg.  Returns 0, or -1
 * with a message in err (bad value).  Unknown ARMCI_* names found in envp are
 * reported through warn (one call each).  Pure C: no MPI (unit-tested). */
int armcii_config_parse(armcii_config_t *cfg, const char *(*getenv_fn)(const char *),
                        char *const *envp, void (*warn)(const char *msg),
                        char *err, size_t errlen);
/* Write "NAME = value" lines for the whole table into fp. */
void armcii_config_dump(const armcii_config_t *cfg, void *fp);
/* Name of an ENUM field's current choice (for logs). */
const char *armcii_config_choice(const char *var, int index);

/* ---- module state: the one global of src/armci ---- */
typedef struct {
    int init_count;
    int rank, nproc;
    MPI_Comm world;          /* dup of the init communicator: user-visible world */
    MPI_Comm internal;       /* private dup for the library's own messages */
    int thread_level;
    ARMCI_Group world_group;
    ARMCI_Group default_group;
    unsigned long shm_limit;
    armcii_config_t cfg;
} armcii_state_t;
extern armcii_state_t armcii_state;

/* ---- errors and logging (armci_error.c) ---- */
/* Print "[rank] ARMCI Error in <call>: <reason>" and abort the job. */
void armcii_error(const char *call, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
/* Warning with the rank prefix, printed once per distinct format string. */
void armcii_warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void armcii_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Verbose log line, printed when cfg.verbose >= level. */
void armcii_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report a failed MPI call and abort. */
void armcii_mpi_fail(const char *what, int rc, const char *file, int line)
    __attribute__((noreturn));

#define ARMCII_MPI(call)                                                      \
    do {                                                                      \
        int armcii_rc_ = (call);                                              \
        if (armcii_rc_ != MPI_SUCCESS)                                        \
            armcii_mpi_fail(#call, armcii_rc_, __FILE__, __LINE__);           \
    } while (0)

#ifdef ARMCII_DEBUG
#define ARMCII_ASSERT(c)                                                      \
    do { if (!(c)) armcii_error("internal", "assertion '%s' failed at %s:%d", \
                                #c, __FILE__, __LINE__); } while (0)
#else
#define ARMCII_ASSERT(c) ((void)0)
#endif

#define ARMCII_LIKELY(x) __builtin_expect(!!(x), 1)
#define ARMCII_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Make ARMCI_<n> a weak alias of the strong PARMCI_<n> in this object. */
#define ARMCII_PRAGMA(x) _Pragma(#x)
#define ARMCII_WEAK(n) ARMCII_PRAGMA(weak ARMCI_##n = PARMCI_##n)

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

/* ---- operations shared by the API files (armci_contig.c, armci_nb.c) ---- */
struct armcii_target;
/* blocking != 0: complete locally before returning; else track in hdl
 * (NULL = implicit handle). */
int armcii_put(const char *call, const void *src, void *dst, int bytes, int proc,
               armci_hdl_t *hdl, int blocking);
int armcii_get(const char *call, const void *src, void *dst, int bytes, int proc,
               armci_hdl_t *hdl, int blocking);
int armcii_acc(const char *call, int datatype, const void *scale, const void *src,
               void *dst, int bytes, int proc, armci_hdl_t *hdl, int blocking);
/* Validate datatype/scale/bytes of an accumulate; returns the element size. */
int armcii_acc_check(const char *call, int datatype, const void *scale, int bytes);
/* Fence proc, then write the int flag so that it is remotely visible. */
void armcii_put_flag(const char *call, int *flag, int value, int proc);
/* Record an issued MPI operation on an explicit (or NULL: implicit) handle. */
void armcii_nb_track(armci_hdl_t *hdl, const struct armcii_target *t);
void armcii_nb_finalize(void);

/* ---- shared helpers of the API layer ---- */
/* Element size of an ARMCI_ACC_* code, or abort naming the call. */
int armcii_acc_elem_size(const char *call, int datatype);
/* Abort unless the group is usable (member or not) and return it. */
void armcii_groups_init(void);
void armcii_groups_finalize(void);
/* Message layer teardown hook (frees cached MPI ops). */
void armcii_msg_finalize(void);

#endif /* ARMCI_INT_H */
