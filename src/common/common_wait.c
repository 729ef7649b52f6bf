/*
 * Waiting in the library's own barriers and collectives.
 *
 * MPICH's blocking calls poll until they are done and never give up the
 * CPU.  On a host with more processes than CPUs a rank polling in
 * MPI_Barrier then holds its core for whole time slices while the ranks it
 * waits for queue for one, and every barrier costs slices instead of
 * microseconds (4 MPICH ranks on 2 cores: benchmarks/results/wait_yield.txt).
 * There the library starts the nonblocking form and yields between tests.
 * Open MPI yields by itself in that case (mpi_yield_when_idle, which it sets
 * on an oversubscribed node), so AUTO leaves it the blocking call.
 *
 * A yield costs more than a short wait, and ARMCI_WAIT_SPIN makes a wait
 * test that many times before its first yield.  Which wins depends on
 * whether the target holds a core of its own (then a spin answers in
 * microseconds) or waits for the spinner's; on a crowded host the same
 * runs went either way from one series to the next
 * (benchmarks/results/wait_spin.mpich.2core.txt), so the default stays 0.
 */
#include <sched.h>
#include <unistd.h>
#include "common.h"
#include "common_host.h"
#include "common_node.h"
#include "common_quirks.h"
#include "common_wait.h"

static struct {
    int yield;             /* waits test and yield instead of blocking in MPI */
    int spin;              /* tests before the first yield */
    unsigned long yielded; /* waits that took the test-and-yield way (tests) */
    unsigned long yields;  /* sched_yield calls in those waits (tests) */
} wait_state;

int armcii_host_crowded(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && armcii_host_procs() > cpus;
}

int armcii_host_starved(void) { return armcii_host_crowded() && !armcii_mpi_yields_when_idle(); }

void armcii_wait_init(void)
{
    int mode = armcii_state.cfg.wait_yield;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int procs = armcii_host_procs();
    int want = mode == ARMCII_WAIT_YIELD_ON ||
               (mode == ARMCII_WAIT_YIELD_AUTO && armcii_host_starved());
    /* One choice for all: a blocking collective does not match a
     * nonblocking one, and hosts (or settings) may differ. */
    ARMCII_MPI(MPI_Allreduce(&want, &wait_state.yield, 1, MPI_INT, MPI_MAX,
                             armcii_state.world));
    wait_state.spin = armcii_state.cfg.wait_spin; /* the parser refuses negative values */
    armcii_log(1, "waits in barriers and collectives: %s (here %d processes on %ld CPUs%s)",
               wait_state.yield ? "test, yield after ARMCI_WAIT_SPIN tests" : "blocking MPI calls",
               procs, cpus,
               wait_state.yield && !want ? "; another process asked for it" : "");
    armcii_node_init(wait_state.yield);
}

void armcii_wait_finalize(void) { armcii_node_finalize(); }

int armcii_wait_yields(void) { return wait_state.yield; }

unsigned long armcii_wait_count(void)
{
    return __atomic_load_n(&wait_state.yielded, __ATOMIC_RELAXED);
}

unsigned long armcii_wait_yield_calls(void)
{
    return __atomic_load_n(&wait_state.yields, __ATOMIC_RELAXED);
}

void armcii_wait_note(void) { __atomic_fetch_add(&wait_state.yielded, 1, __ATOMIC_RELAXED); }

void armcii_wait_after_test(long tests)
{
    if (tests >= wait_state.spin) {
        __atomic_fetch_add(&wait_state.yields, 1, __ATOMIC_RELAXED);
        sched_yield();
    }
}

void armcii_wait_status(MPI_Request *req, MPI_Status *st)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Wait(req, st));
        return;
    }
    armcii_wait_note(); /* threads may wait at once */
    for (long tests = 1;; tests++) {
        int done;
        ARMCII_MPI(MPI_Test(req, &done, st));
        if (done)
            return;
        armcii_wait_after_test(tests);
    }
}

void armcii_wait(MPI_Request *req)
{
    armcii_wait_status(req, MPI_STATUS_IGNORE);
}

void armcii_recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                 MPI_Status *st)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Recv(buf, count, dt, src, tag, comm, st));
        return;
    }
    MPI_Request r;
    ARMCII_MPI(MPI_Irecv(buf, count, dt, src, tag, comm, &r));
    armcii_wait_status(&r, st);
}

void armcii_barrier(MPI_Comm comm)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Barrier(comm));
        return;
    }
    if (armcii_node_barrier(comm))
        return;
    MPI_Request r;
    ARMCII_MPI(MPI_Ibarrier(comm, &r));
    armcii_wait(&r);
}

void armcii_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Bcast(buf, count, dt, root, comm));
        return;
    }
    if (armcii_node_bcast(buf, count, dt, root, comm))
        return;
    MPI_Request r;
    ARMCII_MPI(MPI_Ibcast(buf, count, dt, root, comm, &r));
    armcii_wait(&r);
}

void armcii_allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                      MPI_Comm comm)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Allreduce(in, out, count, dt, op, comm));
        return;
    }
    if (armcii_node_allreduce(in, out, count, dt, op, comm))
        return;
    MPI_Request r;
    ARMCII_MPI(MPI_Iallreduce(in, out, count, dt, op, comm, &r));
    armcii_wait(&r);
}

void armcii_allgather(const void *in, int count, MPI_Datatype dt, void *out, MPI_Comm comm)
{
    if (!wait_state.yield) {
        ARMCII_MPI(MPI_Allgather(in, count, dt, out, count, dt, comm));
        return;
    }
    if (armcii_node_allgather(in, count, dt, out, comm))
        return;
    MPI_Request r;
    ARMCII_MPI(MPI_Iallgather(in, count, dt, out, count, dt, comm, &r));
    armcii_wait(&r);
}
