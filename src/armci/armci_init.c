/*
 * Initialization and finalization (reference-counted: GA and its TCGMSG
 * layer both initialize and finalize ARMCI).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"
#include "../gmr/gmr.h"
#include "../mutex/mutex.h"
#include "../progress/progress.h"

armcii_state_t armcii_state;

extern char **environ;

static const char *plain_getenv(const char *name) { return getenv(name); }

static void warn_rank0(const char *msg)
{
    if (armcii_state.rank == 0)
        armcii_warn("%s", msg);
}

static void read_config(void)
{
    char err[512];
    if (armcii_config_parse(&armcii_state.cfg, plain_getenv, environ, warn_rank0,
                            err, sizeof err))
        armcii_error("ARMCI_Init", "%s", err);
    if (armcii_state.cfg.shm_limit)
        armcii_state.shm_limit = (unsigned long)armcii_state.cfg.shm_limit;
    if (armcii_state.cfg.verbose && armcii_state.rank == 0) {
        fprintf(stderr, "[0] ARMCI: libarmci %s, %d processes, thread level %d\n",
                ARMCI_PACKAGE_VERSION, armcii_state.nproc, armcii_state.thread_level);
        armcii_config_dump(&armcii_state.cfg, stderr);
        fflush(stderr);
    }
}

int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm)
{
    static const char call[] = "ARMCI_Init";
    int inited = 0, finalized = 0;
    if (armcii_state.init_count > 0) {
        armcii_state.init_count++;
        return 0;
    }
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        armcii_error(call, "MPI must be initialized (and not finalized) before ARMCI_Init");
    MPI_Query_thread(&armcii_state.thread_level);
    if (armcii_state.thread_level < armci_requested)
        armcii_error(call, "thread level %d requested but MPI provides only %d",
                     armci_requested, armcii_state.thread_level);
    if (comm == MPI_COMM_NULL)
        armcii_error(call, "communicator is MPI_COMM_NULL");
    ARMCII_MPI(MPI_Comm_dup(comm, &armcii_state.world));
    ARMCII_MPI(MPI_Comm_dup(comm, &armcii_state.internal));
    MPI_Comm_set_errhandler(armcii_state.internal, MPI_ERRORS_RETURN);
    MPI_Comm_rank(armcii_state.world, &armcii_state.rank);
    MPI_Comm_size(armcii_state.world, &armcii_state.nproc);
    read_config();
    armcii_state.init_count = 1; /* from here errors abort on world */
    armcii_gmr_init();
    armcii_groups_init();
    armcii_mutex_init();
    armcii_progress_init();
    ARMCII_MPI(MPI_Barrier(armcii_state.world));
    return 0;
}
ARMCII_WEAK(Init_thread_comm)

int PARMCI_Init(void) { return PARMCI_Init_thread_comm(MPI_THREAD_SINGLE, MPI_COMM_WORLD); }
ARMCII_WEAK(Init)

/* argc/argv are not used: MPI is initialized by the caller. */
int PARMCI_Init_args(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return PARMCI_Init_thread_comm(MPI_THREAD_SINGLE, MPI_COMM_WORLD);
}
ARMCII_WEAK(Init_args)

int PARMCI_Init_thread(int armci_requested)
{
    return PARMCI_Init_thread_comm(armci_requested, MPI_COMM_WORLD);
}
ARMCII_WEAK(Init_thread)

int PARMCI_Init_mpi_comm(MPI_Comm comm)
{
    return PARMCI_Init_thread_comm(MPI_THREAD_SINGLE, comm);
}
ARMCII_WEAK(Init_mpi_comm)

int PARMCI_Initialized(void) { return armcii_state.init_count > 0; }
ARMCII_WEAK(Initialized)

int PARMCI_Finalize(void)
{
    if (armcii_state.init_count <= 0)
        return 0;
    if (--armcii_state.init_count > 0)
        return 0;
    armcii_state.init_count = 1; /* keep errors routed to world during teardown */
    armcii_gmr_fence_all();
    armcii_progress_finalize();
    armcii_mutex_finalize();
    int leaked = armcii_gmr_finalize();
    if (leaked && armcii_state.rank == 0)
        armcii_warn("Freed %d leaked allocations", leaked);
    armcii_groups_finalize();
    armcii_msg_finalize();
    MPI_Comm_free(&armcii_state.internal);
    MPI_Comm_free(&armcii_state.world);
    armcii_state.init_count = 0;
    return 0;
}
ARMCII_WEAK(Finalize)

/* Public: hand out the library's world communicator (profilers use it). */
void ARMCIX_Get_world_comm(MPI_Comm *comm)
{
    armcii_check_init("ARMCIX_Get_world_comm");
    *comm = armcii_state.world;
}
