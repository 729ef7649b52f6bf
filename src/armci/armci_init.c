/*
 * Initialization and finalization (reference-counted: GA and its TCGMSG
 * layer both initialize and finalize ARMCI), errors, the world communicator.
 */
#include <stdio.h>
#include "armci_api.h"
#include "../gmr/gmr.h"
#include "../msg/msg.h"
#include "../mutex/mutex.h"

/* The forms that take a thread level check it before init. */
static int level(const char *call, int armci_requested)
{
    armcii_set_call(call);
    if (armci_requested < MPI_THREAD_SINGLE || armci_requested > MPI_THREAD_MULTIPLE)
        armcii_error(call, "thread level %d is not one of MPI_THREAD_SINGLE, _FUNNELED, "
                     "_SERIALIZED, _MULTIPLE (%d..%d)", armci_requested, MPI_THREAD_SINGLE,
                     MPI_THREAD_MULTIPLE);
    return armci_requested;
}

/* Every form checks its arguments, nested ones too (a nested call only
 * counts), and names itself in errors. */
static int init(const char *call, int armci_requested, MPI_Comm comm)
{
    armcii_set_call(call);
    if (comm == MPI_COMM_NULL)
        armcii_error(call, "communicator is MPI_COMM_NULL");
    if (armcii_state.init_count > 0) {
        armcii_state.init_count++;
        return 0;
    }
    armcii_common_init(call, armci_requested, comm);
    armcii_gmr_init();
    armcii_msg_init();
    armcii_mutex_init();
    armcii_progress_init();
    armcii_msg_barrier(armcii_state.world);
    return 0;
}

int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm)
{
    return init("ARMCI_Init_thread_comm", level("ARMCI_Init_thread_comm", armci_requested), comm);
}
ARMCII_WEAK(Init_thread_comm)

/* ARMCI_Init, _args and _mpi_comm name no thread level: they take MPI's. */
int PARMCI_Init(void) { return init("ARMCI_Init", ARMCII_THREAD_OF_MPI, MPI_COMM_WORLD); }
ARMCII_WEAK(Init)

/* Classic ARMCI programs (GA's armci/testing test.c, perf.c) call
 * ARMCI_Init_args without MPI_Init: start MPI with argc/argv then, and end it
 * in the matching ARMCI_Finalize.  With MPI already running it is
 * ARMCI_Init. */
int PARMCI_Init_args(int *argc, char ***argv)
{
    int start = armcii_mpi_start("ARMCI_Init_args", argc, argv) == 1;
    int rc = init("ARMCI_Init_args", ARMCII_THREAD_OF_MPI, MPI_COMM_WORLD);
    if (start)
        armcii_state.started_mpi = 1;
    return rc;
}
ARMCII_WEAK(Init_args)

int PARMCI_Init_thread(int armci_requested)
{
    return init("ARMCI_Init_thread", level("ARMCI_Init_thread", armci_requested),
                MPI_COMM_WORLD);
}
ARMCII_WEAK(Init_thread)

int PARMCI_Init_mpi_comm(MPI_Comm comm)
{
    return init("ARMCI_Init_mpi_comm", ARMCII_THREAD_OF_MPI, comm);
}
ARMCII_WEAK(Init_mpi_comm)

int PARMCI_Initialized(void) { return armcii_state.init_count > 0; }
ARMCII_WEAK(Initialized)

/* Collective; only the last of nested finalizations tears down. */
int PARMCI_Finalize(void)
{
    armcii_set_call("ARMCI_Finalize");
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
    armcii_msg_finalize();
    armcii_common_finalize();
    armcii_state.init_count = 0;
    if (armcii_state.started_mpi) {
        armcii_state.started_mpi = 0;
        armcii_mpi_end();
    }
    return 0;
}
ARMCII_WEAK(Finalize)

/* Print "[rank] ARMCI Error: msg" and abort the job with code. */
void ARMCI_Error(const char *msg, int code) { armcii_abort_msg(msg, code); }

/* armcip.h (classic ARMCI's private error routines): the codes are part of
 * the message, as there. */
void armci_die(char *msg, int code)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s %d", msg ? msg : "(null)", code);
    armcii_abort_msg(buf, code ? code : 1);
}

void armci_die2(char *msg, int code1, int code2)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s %d %d", msg ? msg : "(null)", code1, code2);
    armcii_abort_msg(buf, code1 ? code1 : 1);
}

/* Nothing to release; kept for classic ARMCI callers. */
void ARMCI_Cleanup(void) {}

/* The library's world communicator (profilers use it). */
void ARMCIX_Get_world_comm(MPI_Comm *comm)
{
    static const char call[] = "ARMCIX_Get_world_comm";
    armcii_check_init(call);
    if (!comm)
        armcii_error(call, "output pointer is NULL");
    *comm = armcii_state.world;
}
