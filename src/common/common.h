/*
 * src/common: what every module shares; it sits below all of them.
 *
 * Role: the library-wide state (world communicator, rank, configuration),
 * the configuration table, errors and logging, identification of the MPI
 * library and its known bugs (one place, one version parser), the node
 * topology (real or virtual nodes) and process groups.
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
enum { ARMCII_ACC_SPLIT_AUTO = 0, ARMCII_ACC_SPLIT_ON, ARMCII_ACC_SPLIT_OFF };
enum { ARMCII_WAIT_YIELD_AUTO = 0, ARMCII_WAIT_YIELD_ON, ARMCII_WAIT_YIELD_OFF };

/* Parse every ARMCI_* variable through getenv_fn into cfg.  Returns 0, or -1
 * with a message in err (bad value).  Unknown ARMCI_* names found in envp are
 * reported through warn (one call each). */
int armcii_config_parse(armcii_config_t *cfg, const char *(*getenv_fn)(const char *),
                        char *const *envp, void (*warn)(const char *msg),
                        char *err, size_t errlen);
/* Write "NAME = value" lines for the whole table into fp; with sources,
 * each line also says "(environment)" or "(default)". */
void armcii_config_dump(const armcii_config_t *cfg, void *fp, int sources);
/* Name of an ENUM field's current choice (for logs). */
const char *armcii_config_choice(const char *var, int index);
/* Whether variable var was set by the environment when cfg was parsed. */
int armcii_config_from_env(const armcii_config_t *cfg, const char *var);

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
/* Collective over host (processes that share a machine): records their
 * launcher ranks (launcher_rank: the caller's), process ids and which are
 * ghosts (my_ghost: the caller's ghost's launcher rank, or -1), so that a
 * failed MPI call's message names a process of the host that is gone
 * (common_death.c).  The ghost layout records all of a host's processes in
 * MPI_Init; otherwise armcii_topo_init records the library's world. */
void armcii_host_watch(MPI_Comm host, int launcher_rank, int is_ghost, int my_ghost);
/* Nonzero once armcii_host_watch has run in this process. */
int armcii_host_watched(void);
/* How many processes armcii_host_watch recorded on this host (ghosts
 * included), 0 before it ran. */
int armcii_host_procs(void);
/* Nonzero where this host has more processes (ghosts included) than CPUs:
 * a waiting process there must leave its core to others (common_wait.c). */
int armcii_host_crowded(void);

/* Waiting in the library's own collectives (common_wait.c).  Decide once,
 * after armcii_topo_init, whether waits yield the CPU (ARMCI_WAIT_YIELD). */
void armcii_wait_init(void);
/* Nonzero when waits yield. */
int armcii_wait_yields(void);
/* How many waits have yielded since the library was loaded (tests). */
unsigned long armcii_wait_count(void);
/* Complete *req: MPI_Wait, or MPI_Test with sched_yield between tests. */
void armcii_wait(MPI_Request *req);
/* The same, filling *st (or MPI_STATUS_IGNORE). */
void armcii_wait_status(MPI_Request *req, MPI_Status *st);
/* MPI_Recv that waits as armcii_wait does (a mutex waiter's hand-off). */
void armcii_recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                 MPI_Status *st);
/* MPI_Barrier, MPI_Bcast, MPI_Allreduce and MPI_Allgather that wait as
 * armcii_wait does. */
void armcii_barrier(MPI_Comm comm);
void armcii_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);
void armcii_allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                      MPI_Comm comm);
void armcii_allgather(const void *in, int count, MPI_Datatype dt, void *out, MPI_Comm comm);

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

/* ---- MPI identification and quirks (common_quirks.c) ---- */
enum { ARMCII_MPI_OTHER = 0, ARMCII_MPI_OMPI, ARMCII_MPI_MPICH };
typedef struct {
    int impl;                /* ARMCII_MPI_* */
    int major, minor, release; /* of the implementation (Open MPI 4.1.4 -> 4, 1, 4) */
    char library[128];       /* first line of MPI_Get_library_version */
} armcii_mpi_id_t;
/* Who we run on; PMPI only, so it is safe inside the ghost layer's MPI_Init. */
const armcii_mpi_id_t *armcii_mpi_id(void);
/* Whether strided/vector accumulates go one contiguous MPI_Accumulate per
 * block: the ACC_DTYPE_SPLIT quirk, unless ARMCI_ACC_DTYPE_SPLIT forces it. */
int armcii_acc_split(void);

/* One-sided components, as far as they can be told apart. */
enum { ARMCII_OSC_UNKNOWN = 0, ARMCII_OSC_SM, ARMCII_OSC_RDMA, ARMCII_OSC_PT2PT,
       ARMCII_OSC_UCX, ARMCII_OSC_MPICH };
int armcii_win_component(MPI_Win win);
const char *armcii_osc_name(int osc);

enum {
    /* Accumulate with a derived datatype must be split into contiguous
     * operations (one per block). */
    ARMCII_QUIRK_ACC_DTYPE_SPLIT = 1,
    /* This window's MPI serves others' atomics only from its progress
     * engine, which its RMA calls never run: poke it now and then. */
    ARMCII_QUIRK_WIN_POKE = 2,
    /* Dynamic windows of this MPI cannot carry many attached regions. */
    ARMCII_QUIRK_DYNWIN_BROKEN = 4,
    /* MPI_Win_flush_local on this window never returns while a get to
     * another target is outstanding: complete everything with flush. */
    ARMCII_QUIRK_NO_FLUSH_LOCAL = 8,
    /* MPI_Win_flush_all on this window may return before an MPI_Get issued
     * just before it has completed, and a later MPI_Win_flush to the same
     * target then returns at once too: flush each rank instead. */
    ARMCII_QUIRK_FLUSH_ALL_EARLY = 16,
};
/* Quirks of the running MPI (not window specific), decided once. */
int armcii_quirks(void);
/* Quirks of one window (its component). */
int armcii_win_quirks(MPI_Win win);
/* Why this MPI may refuse windows, for the error message ("" if unknown). */
const char *armcii_no_windows_hint(void);
/* Log the decisions once (ARMCI_VERBOSE). */
void armcii_quirks_log(void);
/* Whether this MPI's waiting calls give the core away (sched_yield) when
 * they find nothing to do; PMPI and MPI_T only, for the ghost layer. */
int armcii_mpi_yields_when_idle(void);

/* ---- CPU accumulate kernels (common_acc.c) ---- */
/* dst[i] += scale * src[i] over bytes of ARMCI_ACC_* type datatype (the
 * caller holds whatever lock makes it atomic). */
void armcii_acc_kernel(int datatype, const void *scale, const void *src, void *dst,
                       size_t bytes);
/* dst[i] = scale * src[i]: a scaled accumulate staged for MPI, which only sums. */
void armcii_acc_scale(int datatype, const void *scale, const void *src, void *dst,
                      size_t bytes);
/* One CPU read-modify-write at p: op ARMCI_FETCH_AND_ADD(_LONG) adds a,
 * ARMCI_SWAP(_LONG) stores a, ARMCII_CPU_CAS_INT stores b where the int
 * equals a; returns the value found. */
enum { ARMCII_CPU_CAS_INT = 100 };
long armcii_cpu_rmw(int op, void *p, long a, long b);
/* The lock word of an accumulate target in shared memory (a node-shared
 * slice's header, a ghost pool partition's first bytes): taken by every
 * process that applies accumulates there with the CPU, ghosts included. */
void armcii_spin_lock(int *l);
void armcii_spin_unlock(int *l);

/* ---- topology (common_topo.c) ---- */
/* Collective over world: split into (virtual) nodes; node_of[] of everyone. */
void armcii_topo_init(void);
void armcii_topo_finalize(void);
static inline int armcii_node_of(int abs) { return armcii_state.node_of[abs]; }

/* ---- process groups (common_group.c) ---- */
void armcii_group_init(void);
void armcii_group_finalize(void);
/* Fill g from a communicator of which the caller is a member (NULL: non-member). */
void armcii_group_from_comm(const char *call, MPI_Comm comm, ARMCI_Group *g);
void armcii_group_create_child(const char *call, int n, const int *pid, ARMCI_Group *out,
                               const ARMCI_Group *parent);
/* MPI_Comm_split of parent (color MPI_UNDEFINED: a non-member's group). */
void armcii_group_split(const char *call, const ARMCI_Group *parent, int color, int key,
                        ARMCI_Group *out);
void armcii_group_free(const char *call, ARMCI_Group *g);
/* Communicator of a group the caller belongs to, or abort. */
MPI_Comm armcii_group_comm(const char *call, const ARMCI_Group *g);
/* Group rank of absolute rank abs in g, -1 when not a member. */
int armcii_group_rank_of(const ARMCI_Group *g, int abs);

#endif /* ARMCI_COMMON_H */
