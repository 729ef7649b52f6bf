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
#include <string.h>
#include <unistd.h>
#include "common.h"
#include "common_host.h"
#include "common_quirks.h"
#include "common_wait.h"

static struct {
    int yield;             /* waits test and yield instead of blocking in MPI */
    int spin;              /* tests before the first yield */
    unsigned long yielded; /* waits that took the test-and-yield way (tests) */
    unsigned long yields;  /* sched_yield calls in those waits (tests) */
    unsigned long node_calls; /* barriers and allreduces through node memory (tests) */
    MPI_Win bar_win;       /* the node barrier's counters; MPI_WIN_NULL: none */
    long *bar;             /* arrivals at bar[0], generation at bar[BAR_GEN] */
    char *red;             /* the reduction's result, then a slot per node member */
    MPI_Comm bar_leaders;  /* node rank 0 of each node, where there are several */
} wait_state = {.bar_win = MPI_WIN_NULL, .bar_leaders = MPI_COMM_NULL};

/* The counters a cache line apart, then RED_SLOT bytes for a reduction's
 * result and as much per node member for its contribution: GA's gops of a
 * few numbers and the ghost build's decision sums fit; larger ones take
 * MPI's allreduce. */
enum { BAR_GEN = 8, BAR_BYTES = 2 * BAR_GEN * sizeof(long), RED_SLOT = 1024 };

static void node_barrier_init(void);

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
    node_barrier_init();
}

/* The world's barrier and small allreduces where waits yield: through
 * node-shared memory inside each node, and MPI only among the nodes' first
 * processes.  MPI's own collectives, even nonblocking, pass messages whose
 * every hop needs its receiver scheduled, which on a crowded host costs
 * several times what counters in shared memory do
 * (benchmarks/results/node_barrier.2core.txt).  Global Arrays calls the
 * barrier at every GA_Sync, which the ghost build's automatic mode turns
 * into an allreduce of its decision sums (progress_adapt.c), and its gops
 * are allreduces of a few numbers. */
static void node_barrier_init(void)
{
    if (!wait_state.yield) /* one choice for all processes */
        return;
    /* all allow shared windows (ARMCI_SHARED_WINDOWS), some node has two
     * processes or more: the window is collective on every node */
    int v[2] = {armcii_state.cfg.shared_windows, -(armcii_state.node_size > 1)}, all[2], ok = 0;
    armcii_allreduce(v, all, 2, MPI_INT, MPI_MIN, armcii_state.world);
    if (!all[0] || !all[1])
        return;
    int lead = armcii_state.node_rank == 0;
    MPI_Aint bytes = BAR_BYTES + (MPI_Aint)RED_SLOT * (1 + armcii_state.node_size);
    void *base;
    /* published in wait_state only once every process validated it: the
     * allreduce below must not take the node path yet */
    MPI_Win win = MPI_WIN_NULL;
    if (MPI_Win_allocate_shared(lead ? bytes : 0, 1, MPI_INFO_NULL, armcii_state.node,
                                &base, &win) == MPI_SUCCESS) {
        MPI_Aint size;
        int unit;
        /* the counters are plain memory under C atomics: the unified
         * model, and one passive epoch for the window's life, as MPI asks
         * of load/store access to a shared window */
        ok = MPI_Win_shared_query(win, 0, &size, &unit, &base) == MPI_SUCCESS &&
             size >= bytes && armcii_win_unified(win);
        ARMCII_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
        if (ok && lead)
            memset(base, 0, BAR_BYTES);
        ARMCII_MPI(MPI_Win_sync(win)); /* the zeros, before the allreduce */
    } else {
        win = MPI_WIN_NULL; /* an MPI without shared windows here */
    }
    armcii_allreduce(&ok, all, 1, MPI_INT, MPI_MIN, armcii_state.world);
    if (win != MPI_WIN_NULL) {
        ARMCII_MPI(MPI_Win_sync(win)); /* ... seen after it */
        wait_state.bar_win = win;
        wait_state.bar = base;
        wait_state.red = (char *)base + BAR_BYTES;
    }
    if (!all[0]) {
        armcii_wait_finalize();
        return;
    }
    if (armcii_state.nnodes > 1)
        ARMCII_MPI(MPI_Comm_split(armcii_state.world, lead ? 0 : MPI_UNDEFINED,
                                  armcii_state.rank, &wait_state.bar_leaders));
    armcii_log(1, "the world's barrier and small allreduces: node-shared memory, MPI among "
               "%d nodes", armcii_state.nnodes);
}

void armcii_wait_finalize(void)
{
    if (wait_state.bar_leaders != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&wait_state.bar_leaders));
    if (wait_state.bar_win != MPI_WIN_NULL) {
        ARMCII_MPI(MPI_Win_unlock_all(wait_state.bar_win));
        ARMCII_MPI(MPI_Win_free(&wait_state.bar_win));
    }
    wait_state.bar = NULL;
    wait_state.red = NULL;
}

int armcii_wait_node_barrier(void) { return wait_state.bar_win != MPI_WIN_NULL; }

int armcii_wait_yields(void) { return wait_state.yield; }

unsigned long armcii_wait_count(void)
{
    return __atomic_load_n(&wait_state.yielded, __ATOMIC_RELAXED);
}

unsigned long armcii_wait_node_calls(void)
{
    return __atomic_load_n(&wait_state.node_calls, __ATOMIC_RELAXED);
}

unsigned long armcii_wait_yield_calls(void)
{
    return __atomic_load_n(&wait_state.yields, __ATOMIC_RELAXED);
}

/* One more test of a wait done: the CPU goes to others once the wait has
 * made ARMCI_WAIT_SPIN tests. */
static void after_test(long tests)
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
    __atomic_fetch_add(&wait_state.yielded, 1, __ATOMIC_RELAXED); /* threads may wait at once */
    for (long tests = 1;; tests++) {
        int done;
        ARMCII_MPI(MPI_Test(req, &done, st));
        if (done)
            return;
        after_test(tests);
    }
}

/* Waits until bar[i] differs from v (or, with until_equal, equals it).
 * Each test also lets MPI progress: a process waiting here is still the
 * target of others' operations, which under MPICH need it inside MPI. */
static void bar_wait(int i, long v, int until_equal)
{
    for (long tests = 1;; tests++) {
        long now = __atomic_load_n(&wait_state.bar[i], __ATOMIC_ACQUIRE);
        if ((now == v) == until_equal)
            return;
        int flag;
        ARMCII_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.internal, &flag,
                              MPI_STATUS_IGNORE));
        after_test(tests);
    }
}

/* Combines the node members' contributions into the result, in node-rank
 * order whoever combines, so every run adds them alike. */
static void node_combine(int count, MPI_Datatype dt, MPI_Op op, size_t bytes)
{
    memcpy(wait_state.red, wait_state.red + RED_SLOT, bytes);
    for (int i = 1; i < armcii_state.node_size; i++)
        ARMCII_MPI(MPI_Reduce_local(wait_state.red + (size_t)RED_SLOT * (1 + i),
                                    wait_state.red, count, dt, op));
}

/* The world's barrier (bytes 0) or allreduce through the node's memory.
 * On one node the last process to arrive combines and releases the
 * others.  With several, the node's first process waits for the others'
 * arrivals, combines, meets the other nodes' first processes, and
 * releases its node.  The count is cleared before the release (a new
 * generation), so no arrival at the next call is lost; a member copies
 * the result out before it can arrive at the next call, and only the
 * last arrival there rewrites it, so one result area serves. */
static void node_reduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                        size_t bytes)
{
    __atomic_fetch_add(&wait_state.yielded, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&wait_state.node_calls, 1, __ATOMIC_RELAXED);
    long gen = __atomic_load_n(&wait_state.bar[BAR_GEN], __ATOMIC_ACQUIRE);
    int others = armcii_state.node_size - 1;
    if (bytes)
        memcpy(wait_state.red + (size_t)RED_SLOT * (1 + armcii_state.node_rank),
               in == MPI_IN_PLACE ? out : in, bytes);
    if (wait_state.bar_leaders == MPI_COMM_NULL && armcii_state.nnodes == 1) {
        if (__atomic_fetch_add(&wait_state.bar[0], 1, __ATOMIC_ACQ_REL) < others) {
            bar_wait(BAR_GEN, gen, 0);
            goto copy_out;
        }
    } else if (armcii_state.node_rank != 0) {
        __atomic_fetch_add(&wait_state.bar[0], 1, __ATOMIC_ACQ_REL);
        bar_wait(BAR_GEN, gen, 0);
        goto copy_out;
    } else {
        bar_wait(0, others, 1);
    }
    if (bytes)
        node_combine(count, dt, op, bytes);
    __atomic_store_n(&wait_state.bar[0], 0, __ATOMIC_RELAXED);
    if (wait_state.bar_leaders != MPI_COMM_NULL) { /* a wait of its own */
        MPI_Request r;
        if (bytes)
            ARMCII_MPI(MPI_Iallreduce(MPI_IN_PLACE, wait_state.red, count, dt, op,
                                      wait_state.bar_leaders, &r));
        else
            ARMCII_MPI(MPI_Ibarrier(wait_state.bar_leaders, &r));
        armcii_wait(&r);
    }
    __atomic_store_n(&wait_state.bar[BAR_GEN], gen + 1, __ATOMIC_RELEASE);
copy_out:
    if (bytes)
        memcpy(out, wait_state.red, bytes);
}

/* The bytes of an allreduce that node_reduce can take, or 0: the world's,
 * a predefined type (no gaps to copy around), a commutative operation
 * (members are combined in node order, nodes in MPI's), a slot's worth. */
static size_t node_reducible(int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    if (comm != armcii_state.world || wait_state.bar_win == MPI_WIN_NULL || count <= 0)
        return 0;
    int ni, na, nd, comb, commute;
    MPI_Aint lb, extent;
    ARMCII_MPI(MPI_Type_get_envelope(dt, &ni, &na, &nd, &comb));
    ARMCII_MPI(MPI_Op_commutative(op, &commute));
    ARMCII_MPI(MPI_Type_get_extent(dt, &lb, &extent));
    if (comb != MPI_COMBINER_NAMED || !commute || lb != 0 || extent <= 0 ||
        count > RED_SLOT / extent)
        return 0;
    return (size_t)count * (size_t)extent;
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
    if (comm == armcii_state.world && wait_state.bar_win != MPI_WIN_NULL) {
        node_reduce(NULL, NULL, 0, MPI_BYTE, MPI_OP_NULL, 0);
        return;
    }
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
    size_t bytes = node_reducible(count, dt, op, comm);
    if (bytes) {
        node_reduce(in, out, count, dt, op, bytes);
        return;
    }
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
    MPI_Request r;
    ARMCII_MPI(MPI_Iallgather(in, count, dt, out, count, dt, comm, &r));
    armcii_wait(&r);
}
