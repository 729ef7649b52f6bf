/*
 * Bring-up of the shared state: the library's own communicators, the
 * configuration, MPI identification, topology and groups.
 */
#include <stdio.h>
#include <stdlib.h>
#include "common.h"
#include "common_config.h"
#include "common_group.h"
#include "common_host.h"
#include "common_quirks.h"
#include "common_topo.h"
#include "common_wait.h"

armcii_state_t armcii_state = {
    .world = MPI_COMM_NULL, .internal = MPI_COMM_NULL, .node = MPI_COMM_NULL,
};

extern char **environ;

static const char *plain_getenv(const char *name) { return getenv(name); }

static void warn_rank0(const char *msg)
{
    if (armcii_state.rank == 0)
        armcii_warn("%s", msg);
}

void armcii_comm_dup(MPI_Comm comm, MPI_Comm *out)
{
    ARMCII_MPI(MPI_Comm_dup(comm, out));
    ARMCII_MPI(MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN));
}

void armcii_win_errors_return(MPI_Win win)
{
    ARMCII_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
}

static void read_config(const char *call)
{
    char err[512];
    if (armcii_config_parse(&armcii_state.cfg, plain_getenv, environ, warn_rank0,
                            err, sizeof err))
        armcii_error(call, "%s", err);
    if (armcii_state.cfg.shm_limit)
        armcii_state.shm_limit = (unsigned long)armcii_state.cfg.shm_limit;
    if (armcii_state.cfg.verbose && armcii_state.rank == 0) {
        fprintf(stderr, "[0] ARMCI: libarmci %s, %d processes, thread level %d\n",
                ARMCI_PACKAGE_VERSION, armcii_state.nproc, armcii_state.thread_level);
        armcii_config_dump(&armcii_state.cfg, stderr, 1);
        fflush(stderr);
    }
}

void armcii_common_init(const char *call, int requested, MPI_Comm comm)
{
    int inited = 0, finalized = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        armcii_error(call, "MPI must be initialized (and not finalized) before %s", call);
    MPI_Query_thread(&armcii_state.thread_level);
    /* An entry point that names no level (ARMCI_Init, as Global Arrays
     * calls it) takes MPI's: GA's OpenMP programs initialize MPI at
     * MULTIPLE and call GA, so the library, from every thread (the
     * lock-free paths raced: tests/mpi/test_threads_init.sh).  A level the
     * caller names is its promise, kept even below MPI's. */
    if (requested == ARMCII_THREAD_OF_MPI)
        requested = armcii_state.thread_level;
    if (armcii_state.thread_level < requested)
        armcii_error(call, "thread level %d requested but MPI provides only %d", requested,
                     armcii_state.thread_level);
    if (comm == MPI_COMM_NULL)
        armcii_error(call, "communicator is MPI_COMM_NULL");
    armcii_comm_dup(comm, &armcii_state.world);
    armcii_comm_dup(comm, &armcii_state.internal);
    ARMCII_MPI(MPI_Comm_rank(armcii_state.world, &armcii_state.rank));
    ARMCII_MPI(MPI_Comm_size(armcii_state.world, &armcii_state.nproc));
    /* Only at MULTIPLE may threads call in at once; everyone else keeps
     * the lock-free paths. */
    armcii_state.threaded = requested >= MPI_THREAD_MULTIPLE;
    read_config(call);
    armcii_state.init_count = 1; /* from here errors abort on world */
    armcii_quirks();
    armcii_quirks_log();
    armcii_topo_init();
    armcii_wait_init();
    armcii_group_init();
}

void armcii_common_finalize(void)
{
    armcii_group_finalize();
    armcii_wait_finalize();
    armcii_topo_finalize();
    ARMCII_MPI(MPI_Comm_free(&armcii_state.internal));
    ARMCII_MPI(MPI_Comm_free(&armcii_state.world));
    armcii_state.threaded = 0;
}

int armcii_mpi_start(const char *call, int *argc, char ***argv)
{
    int inited, finalized;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (finalized)
        return -1;
    if (inited)
        return 0;
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        armcii_error(call, "MPI_Init failed");
    return 1;
}

void armcii_mpi_end(void)
{
    int inited, finalized;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (inited && !finalized)
        MPI_Finalize();
}
