/*
 * The world's collectives through node-shared memory, where waits yield.
 *
 * MPI's own collectives, even nonblocking, pass messages whose every hop
 * needs its receiver scheduled, which on a crowded host costs several
 * times what counters in shared memory do
 * (benchmarks/results/node_barrier.2core.txt, node_collectives.2core.txt).
 * Global Arrays calls the barrier at every GA_Sync (which the ghost
 * build's automatic mode turns into an allreduce of its decision sums,
 * progress_adapt.c), its gops are allreduces of a few numbers, and every
 * GA_Create and GA_Destroy makes a few allgathers, broadcasts and
 * barriers over all processes (gmr_region.c).  So inside each node the
 * processes meet through two counters in a small shared window and pass
 * their data through slots there; only the nodes' first processes use
 * MPI among themselves.
 *
 * Every call has the same shape: each member puts its part in its slot
 * and arrives; the one that combines (on one node the last to arrive,
 * with several nodes the node's first process, after its node arrived)
 * builds the result in the result area, meets the other nodes, and
 * releases its node by a new generation; members copy the result out.
 * The count is cleared before the release, so no arrival at the next call
 * is lost; a member copies the result out before it can arrive at the
 * next call, and the result area is written only once all arrived, so one
 * result area serves.
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "common_node.h"
#include "common_quirks.h"
#include "common_wait.h"

/* The counters a cache line apart, then the result area, then SLOT bytes
 * per node member for its part: GA's gops and the region calls' exchanges
 * fit; larger ones take MPI's collectives. */
enum { BAR_GEN = 8, BAR_BYTES = 2 * BAR_GEN * sizeof(long), SLOT = 1024, RESULT = 16384 };

enum { NC_BARRIER, NC_REDUCE, NC_GATHER, NC_BCAST };

typedef struct {
    int kind;
    const void *in;
    void *out;
    int count;
    MPI_Datatype dt;
    MPI_Op op;
    size_t bytes; /* one member's part */
    int root;     /* NC_BCAST: the world rank whose part all get */
} node_coll_t;

static struct {
    MPI_Win win;          /* MPI_WIN_NULL: not in use */
    long *bar;            /* arrivals at bar[0], generation at bar[BAR_GEN] */
    char *result;         /* RESULT bytes */
    char *slots;          /* SLOT bytes per node member */
    MPI_Comm leaders;     /* node rank 0 of each node, where there are several */
    int *pos;             /* world rank -> place in the gathered order (nodes, then node rank) */
    int *node_of;         /* world rank -> its node's rank in leaders */
    int *nsize, *noff;    /* per node (rank in leaders): members, first place */
    int nleaders;
    unsigned long calls;  /* calls that took this path (tests) */
} node_state = {.win = MPI_WIN_NULL, .leaders = MPI_COMM_NULL};

#define NS node_state

static char *slot(int i) { return NS.slots + (size_t)SLOT * (size_t)i; }

/* Where each world rank's part lands when the nodes' blocks are gathered
 * in the order of their first processes. */
static void layout_init(void)
{
    int np = armcii_state.nproc, lead = armcii_state.rank;
    armcii_bcast(&lead, 1, MPI_INT, 0, armcii_state.node);
    int mine[2] = {lead, armcii_state.node_rank}, *all = malloc(2 * (size_t)np * sizeof(int));
    NS.pos = malloc((size_t)np * sizeof(int));
    NS.node_of = malloc((size_t)np * sizeof(int));
    NS.nsize = calloc((size_t)np, sizeof(int));
    NS.noff = calloc((size_t)np, sizeof(int));
    if (!all || !NS.pos || !NS.node_of || !NS.nsize || !NS.noff)
        armcii_error("ARMCI_Init", "out of memory for the node layout of %d processes", np);
    armcii_allgather(mine, 2, MPI_INT, all, armcii_state.world); /* not published yet: MPI's */
    /* leaders split with their world rank as key: node k is the k-th
     * first process in world order */
    int *rank_of_lead = calloc((size_t)np, sizeof(int));
    if (!rank_of_lead)
        armcii_error("ARMCI_Init", "out of memory for the node layout of %d processes", np);
    NS.nleaders = 0;
    for (int r = 0; r < np; r++)
        if (all[2 * r] == r)
            rank_of_lead[r] = NS.nleaders++;
    for (int r = 0; r < np; r++) {
        NS.node_of[r] = rank_of_lead[all[2 * r]];
        NS.nsize[NS.node_of[r]]++;
    }
    for (int k = 1; k < NS.nleaders; k++)
        NS.noff[k] = NS.noff[k - 1] + NS.nsize[k - 1];
    for (int r = 0; r < np; r++)
        NS.pos[r] = NS.noff[NS.node_of[r]] + all[2 * r + 1];
    free(rank_of_lead);
    free(all);
}

void armcii_node_init(int yield)
{
    if (!yield) /* one choice for all processes */
        return;
    /* all allow shared windows (ARMCI_SHARED_WINDOWS), some node has two
     * processes or more: the window is collective on every node */
    int v[2] = {armcii_state.cfg.shared_windows, -(armcii_state.node_size > 1)}, all[2], ok = 0;
    armcii_allreduce(v, all, 2, MPI_INT, MPI_MIN, armcii_state.world);
    if (!all[0] || !all[1])
        return;
    int lead = armcii_state.node_rank == 0;
    MPI_Aint bytes = BAR_BYTES + RESULT + (MPI_Aint)SLOT * armcii_state.node_size;
    void *base;
    /* published in node_state only once every process validated it: the
     * allreduce below must not take the node path yet */
    MPI_Win win = MPI_WIN_NULL;
    if (MPI_Win_allocate_shared(lead ? bytes : 0, 1, MPI_INFO_NULL, armcii_state.node, &base,
                                &win) == MPI_SUCCESS) {
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
    if (win != MPI_WIN_NULL)
        ARMCII_MPI(MPI_Win_sync(win)); /* ... seen after it */
    if (!all[0]) {
        if (win != MPI_WIN_NULL) {
            ARMCII_MPI(MPI_Win_unlock_all(win));
            ARMCII_MPI(MPI_Win_free(&win));
        }
        return;
    }
    layout_init();
    if (armcii_state.nnodes > 1)
        ARMCII_MPI(MPI_Comm_split(armcii_state.world, lead ? 0 : MPI_UNDEFINED,
                                  armcii_state.rank, &NS.leaders));
    NS.bar = base;
    NS.result = (char *)base + BAR_BYTES;
    NS.slots = NS.result + RESULT;
    NS.win = win;
    armcii_log(1, "the world's barrier and small collectives: node-shared memory, MPI among "
               "%d nodes", armcii_state.nnodes);
}

void armcii_node_finalize(void)
{
    if (NS.leaders != MPI_COMM_NULL)
        ARMCII_MPI(MPI_Comm_free(&NS.leaders));
    if (NS.win != MPI_WIN_NULL) {
        ARMCII_MPI(MPI_Win_unlock_all(NS.win));
        ARMCII_MPI(MPI_Win_free(&NS.win));
    }
    free(NS.pos);
    free(NS.node_of);
    free(NS.nsize);
    free(NS.noff);
    NS.pos = NS.node_of = NS.nsize = NS.noff = NULL;
    NS.bar = NULL;
    NS.result = NS.slots = NULL;
}

int armcii_node_active(void) { return NS.win != MPI_WIN_NULL; }

unsigned long armcii_node_calls(void) { return __atomic_load_n(&NS.calls, __ATOMIC_RELAXED); }

/* Waits until bar[i] differs from v (or, with until_equal, equals it).
 * Each test also lets MPI progress: a process waiting here is still the
 * target of others' operations, which under MPICH need it inside MPI. */
static void bar_wait(int i, long v, int until_equal)
{
    for (long tests = 1;; tests++) {
        long now = __atomic_load_n(&NS.bar[i], __ATOMIC_ACQUIRE);
        if ((now == v) == until_equal)
            return;
        int flag;
        ARMCII_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, armcii_state.internal, &flag,
                              MPI_STATUS_IGNORE));
        armcii_wait_after_test(tests);
    }
}

/* The node's result from its members' slots (all arrived): a reduction in
 * node-rank order whoever combines, so every run combines alike; a gather
 * in node-rank order; a broadcast's root part where the root is here. */
static void combine(const node_coll_t *c)
{
    int n = armcii_state.node_size;
    if (c->kind == NC_REDUCE) {
        memcpy(NS.result, slot(0), c->bytes);
        for (int i = 1; i < n; i++)
            ARMCII_MPI(MPI_Reduce_local(slot(i), NS.result, c->count, c->dt, c->op));
    } else if (c->kind == NC_GATHER) {
        char *mine = NS.result + (size_t)NS.noff[NS.node_of[armcii_state.rank]] * c->bytes;
        for (int i = 0; i < n; i++)
            memcpy(mine + (size_t)i * c->bytes, slot(i), c->bytes);
    } else if (c->kind == NC_BCAST && NS.node_of[c->root] == NS.node_of[armcii_state.rank]) {
        memcpy(NS.result, slot(NS.pos[c->root] - NS.noff[NS.node_of[c->root]]), c->bytes);
    }
}

/* The nodes' first processes meet by a dissemination barrier of empty
 * messages: in round k each sends to the one 2^k places after it and hears
 * from the one 2^k before, so after ceil(log2 n) rounds each has heard,
 * through some chain, from every other.  Where waits test and yield,
 * MPICH's MPI_Ibarrier between two such processes costs several times a
 * pair of messages (benchmarks/results/node_barrier.2core.txt, part 3).
 * The tag is the round, so no round takes another's message, and a later
 * barrier's message stays behind an earlier one's (MPI's order between a
 * pair), so barriers cannot mix either. */
static void leaders_barrier(void)
{
    int n = NS.nleaders, me = NS.node_of[armcii_state.rank];
    char none = 0;
    for (int d = 1, round = 0; d < n; d *= 2, round++) {
        MPI_Request r[2];
        ARMCII_MPI(MPI_Irecv(&none, 0, MPI_BYTE, (me - d + n) % n, round, NS.leaders, &r[0]));
        ARMCII_MPI(MPI_Isend(&none, 0, MPI_BYTE, (me + d) % n, round, NS.leaders, &r[1]));
        armcii_wait(&r[0]);
        armcii_wait(&r[1]);
    }
}

/* The nodes' first processes complete the call among themselves. */
static void among_nodes(const node_coll_t *c)
{
    MPI_Request r;
    int *counts = NULL, *displs = NULL;
    switch (c->kind) {
    case NC_BARRIER: leaders_barrier(); return;
    case NC_REDUCE:
        ARMCII_MPI(MPI_Iallreduce(MPI_IN_PLACE, NS.result, c->count, c->dt, c->op, NS.leaders,
                                  &r));
        break;
    case NC_BCAST:
        ARMCII_MPI(MPI_Ibcast(NS.result, (int)c->bytes, MPI_BYTE, NS.node_of[c->root],
                              NS.leaders, &r));
        break;
    default:
        counts = malloc(2 * (size_t)NS.nleaders * sizeof(int));
        if (!counts)
            armcii_error("armci collective", "out of memory for %d nodes", NS.nleaders);
        displs = counts + NS.nleaders;
        for (int k = 0; k < NS.nleaders; k++) {
            counts[k] = NS.nsize[k] * (int)c->bytes;
            displs[k] = NS.noff[k] * (int)c->bytes;
        }
        ARMCII_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_BYTE, NS.result, counts, displs,
                                   MPI_BYTE, NS.leaders, &r));
        break;
    }
    armcii_wait(&r); /* a wait of its own */
    free(counts);
}

static void copy_out(const node_coll_t *c)
{
    if (c->kind == NC_REDUCE || c->kind == NC_BCAST) {
        memcpy(c->out, NS.result, c->bytes);
    } else if (c->kind == NC_GATHER) {
        for (int r = 0; r < armcii_state.nproc; r++)
            memcpy((char *)c->out + (size_t)r * c->bytes,
                   NS.result + (size_t)NS.pos[r] * c->bytes, c->bytes);
    }
}

static void node_coll(const node_coll_t *c)
{
    armcii_wait_note();
    __atomic_fetch_add(&NS.calls, 1, __ATOMIC_RELAXED);
    long gen = __atomic_load_n(&NS.bar[BAR_GEN], __ATOMIC_ACQUIRE);
    int others = armcii_state.node_size - 1;
    if (c->kind != NC_BARRIER && (c->kind != NC_BCAST || c->root == armcii_state.rank))
        memcpy(slot(armcii_state.node_rank), c->in == MPI_IN_PLACE ? c->out : c->in, c->bytes);
    int combiner;
    if (NS.leaders == MPI_COMM_NULL && armcii_state.nnodes == 1) {
        combiner = __atomic_fetch_add(&NS.bar[0], 1, __ATOMIC_ACQ_REL) == others;
    } else if (armcii_state.node_rank != 0) {
        __atomic_fetch_add(&NS.bar[0], 1, __ATOMIC_ACQ_REL);
        combiner = 0;
    } else {
        bar_wait(0, others, 1);
        combiner = 1;
    }
    if (!combiner) {
        bar_wait(BAR_GEN, gen, 0);
    } else {
        combine(c);
        __atomic_store_n(&NS.bar[0], 0, __ATOMIC_RELAXED);
        if (NS.leaders != MPI_COMM_NULL)
            among_nodes(c);
        __atomic_store_n(&NS.bar[BAR_GEN], gen + 1, __ATOMIC_RELEASE);
    }
    copy_out(c);
}

/* The bytes of one element of dt where the node path can copy it, or 0:
 * a predefined type (no gaps to copy around). */
static size_t plain_extent(MPI_Datatype dt)
{
    int ni, na, nd, comb;
    MPI_Aint lb, extent;
    ARMCII_MPI(MPI_Type_get_envelope(dt, &ni, &na, &nd, &comb));
    ARMCII_MPI(MPI_Type_get_extent(dt, &lb, &extent));
    return comb == MPI_COMBINER_NAMED && lb == 0 && extent > 0 ? (size_t)extent : 0;
}

static int usable(MPI_Comm comm) { return NS.win != MPI_WIN_NULL && comm == armcii_state.world; }

int armcii_node_barrier(MPI_Comm comm)
{
    if (!usable(comm))
        return 0;
    node_coll_t c = {.kind = NC_BARRIER};
    node_coll(&c);
    return 1;
}

int armcii_node_allreduce(const void *in, void *out, int count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm)
{
    int commute;
    if (!usable(comm) || count <= 0)
        return 0;
    /* members are combined in node order, nodes in MPI's */
    ARMCII_MPI(MPI_Op_commutative(op, &commute));
    size_t ext = plain_extent(dt);
    if (!commute || !ext || (size_t)count > SLOT / ext)
        return 0;
    node_coll_t c = {NC_REDUCE, in, out, count, dt, op, (size_t)count * ext, 0};
    node_coll(&c);
    return 1;
}

int armcii_node_allgather(const void *in, int count, MPI_Datatype dt, void *out, MPI_Comm comm)
{
    if (!usable(comm) || count <= 0)
        return 0;
    size_t ext = plain_extent(dt);
    if (!ext || (size_t)count > SLOT / ext ||
        (size_t)count * ext > RESULT / (size_t)armcii_state.nproc)
        return 0;
    size_t bytes = (size_t)count * ext;
    if (in == MPI_IN_PLACE) /* my part already sits at my place in out */
        in = (const char *)out + bytes * (size_t)armcii_state.rank;
    node_coll_t c = {NC_GATHER, in, out, count, dt, MPI_OP_NULL, bytes, 0};
    node_coll(&c);
    return 1;
}

int armcii_node_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    if (!usable(comm) || count <= 0 || root < 0 || root >= armcii_state.nproc)
        return 0;
    size_t ext = plain_extent(dt);
    if (!ext || (size_t)count > SLOT / ext)
        return 0;
    node_coll_t c = {NC_BCAST, buf, buf, count, dt, MPI_OP_NULL, (size_t)count * ext, root};
    node_coll(&c);
    return 1;
}
