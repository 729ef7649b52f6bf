/*
 * The progress thread (ARMCI_PROGRESS_THREAD=1): polls MPI's progress
 * engine every ARMCI_PROGRESS_USLEEP microseconds so that software-handled
 * RMA (accumulates, atomics; everything with osc pt2pt) aimed at this
 * process completes while the application computes outside MPI.
 *
 * It polls with MPI_Iprobe on a private duplicate of MPI_COMM_SELF: nothing
 * is ever sent there, so the probe never matches and only turns the engine
 * (Open MPI and MPICH run the whole progress engine on every probe).  A
 * self communicator keeps start/stop local: no collective has to agree on
 * whether the thread runs.  Concurrent MPI calls need MPI_THREAD_MULTIPLE;
 * without it the thread is not started, and rank 0 says so once.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "progress_impl.h"

#define PG armcii_progress_state

static void *poll_loop(void *arg)
{
    (void)arg;
    long us = armcii_state.cfg.progress_usleep;
    struct timespec nap = {us / 1000000, (us % 1000000) * 1000};
    while (!__atomic_load_n(&PG.thread_stop, __ATOMIC_ACQUIRE)) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, PG.thread_comm, &flag, MPI_STATUS_IGNORE);
        if (us > 0)
            nanosleep(&nap, NULL);
    }
    return NULL;
}

void armcii_progress_thread_start(void)
{
    if (armcii_state.thread_level < MPI_THREAD_MULTIPLE) {
        if (armcii_state.rank == 0)
            armcii_warn("ARMCI_PROGRESS_THREAD=1 but MPI provides thread level %d, not "
                        "MPI_THREAD_MULTIPLE (%d): the progress thread is NOT started. "
                        "Initialize MPI with MPI_Init_thread(MPI_THREAD_MULTIPLE) to use "
                        "it (note: Open MPI's osc pt2pt refuses THREAD_MULTIPLE; use "
                        "the ghost build there)", armcii_state.thread_level,
                        MPI_THREAD_MULTIPLE);
        return;
    }
    armcii_comm_dup(MPI_COMM_SELF, &PG.thread_comm);
    PG.thread_stop = 0;
    if (pthread_create(&PG.thread, NULL, poll_loop, NULL))
        armcii_error("ARMCI_Init", "cannot create the progress thread");
    PG.thread_running = 1;
    /* A name makes the thread visible in top -H and gdb, and lets tests
     * check that it really runs. */
    pthread_setname_np(PG.thread, "armci-progress");
    armcii_log(1, "progress thread started (poll every %d us)",
               armcii_state.cfg.progress_usleep);
}

void armcii_progress_thread_stop(void)
{
    if (!PG.thread_running)
        return;
    __atomic_store_n(&PG.thread_stop, 1, __ATOMIC_RELEASE);
    pthread_join(PG.thread, NULL);
    PG.thread_running = 0;
    ARMCII_MPI(MPI_Comm_free(&PG.thread_comm));
    armcii_log(1, "progress thread stopped");
}
