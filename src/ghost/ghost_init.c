/*
 * Ghost backend: job layout at MPI_Init, the ghost loop, and finalize.
 *
 * Layout.  PMPI_COMM_WORLD is split by shared-memory node; a node is cut
 * into chunks of c consecutive ranks, c = ARMCI_VIRTUAL_NODE_SIZE + g when
 * virtual nodes are asked for (the variable counts USER ranks, so the
 * library's virtual nodes over the user world are exactly the chunks' users)
 * and c = the node's size otherwise; the last g = ARMCI_GHOSTS_PER_NODE
 * ranks of each chunk are ghosts.  User p of a chunk (0-based) is bound to
 * ghost p % g of its chunk for life: one ghost per target keeps MPI's
 * accumulate atomicity and ordering.
 *
 * Ghosts never return from MPI_Init: they poll a posted receive on a
 * private command communicator (which also turns MPI's progress engine for
 * the pool windows through which redirected operations reach them), map
 * their users' pool partitions (GROW, ghost_pool.c), and leave once every
 * bound user has sent FIN from its MPI_Finalize.  The only collectives
 * ghosts join are the creation and free of pool windows, over the real
 * world: users ask for a pool only at MPI_Init and inside allocations over
 * all users, which every user makes in the same order, and a ghost joins
 * once all its users have asked, so no group's collective can wait on a
 * ghost busy elsewhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "ghost_impl.h"
#include "../common/common_config.h"
#include "../common/common_host.h"
#include "../common/common_quirks.h"

#define GH armcii_ghost_state

/* Without a registration (src/progress): no rounds. */
static void no_setup(MPI_Comm node, int ghost_line, const int *bound, int nbound,
                     MPI_Comm ghosts, const armcii_config_t *cfg)
{
    (void)node, (void)ghost_line, (void)bound, (void)nbound, (void)ghosts, (void)cfg;
}
static void no_release(void) {}
static int no_step(int users_done, int grow_ready)
{
    (void)users_done; /* no rounds: nothing to wait for */
    return ARMCII_ROUNDS_OVER | (grow_ready ? ARMCII_ROUNDS_GROW : 0);
}
static int no_flag(void) { return 0; }
static void no_user(int k) { (void)k; }
static const armcii_ghost_rounds_t no_rounds = {no_setup, no_release, no_step, no_flag,
                                                no_flag, no_user};
static const armcii_ghost_rounds_t *rounds = &no_rounds;

void armcii_ghost_set_rounds(const armcii_ghost_rounds_t *r) { rounds = r ? r : &no_rounds; }

armcii_ghost_state_t armcii_ghost_state = {
    .pworld = MPI_COMM_NULL, .user_world = MPI_COMM_NULL, .cmd_comm = MPI_COMM_NULL,
    .chunk_comm = MPI_COMM_NULL, .am_comm = MPI_COMM_NULL,
};

/* Errors go through the library's one path (armcii_error, ARMCII_MPI):
 * the call they name is set here, at the ghost layer's own entry points
 * (setup in MPI_Init, the ghost's loop), and is ARMCI_Malloc's while a
 * pool grows for it. */
#define LAYOUT "MPI_Init (ghost layout)"

static const char *plain_getenv(const char *n) { return getenv(n); }

__attribute__((noreturn)) static void serve(long nap_us);

/* Collective over the node: a ghost (gi >= 0) records the pworld ranks and
 * process ids of the users bound to it (chunk[p], p % g == gi), to notice
 * one that dies without finalizing; and every process records its host
 * (users and ghosts, by launcher rank), so that a failed MPI call names a
 * process of the host that is gone (src/common/common_death.c). */
static void bind_users(const int *chunk, int users, int g, int gi)
{
    int me, n, pid = (int)getpid();
    ARMCII_MPI(PMPI_Comm_rank(GH.pworld, &me));
    ARMCII_MPI(PMPI_Comm_size(GH.pworld, &n));
    int *pids = malloc((size_t)n * sizeof(int));
    if (!pids)
        armcii_error(LAYOUT, "out of memory (%d processes)", n);
    ARMCII_MPI(PMPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, GH.pworld));
    if (gi >= 0) {
        GH.bound_rank = malloc((size_t)users * sizeof(int));
        GH.bound_pid = malloc((size_t)users * sizeof(int));
        GH.bound_busy = calloc((size_t)users, 1);
        if (!GH.bound_rank || !GH.bound_pid || !GH.bound_busy)
            armcii_error(LAYOUT, "out of memory (%d users)", users);
        int k = 0;
        for (int p = 0; p < users; p++)
            if (p % g == gi) {
                GH.bound_rank[k] = chunk[p];
                GH.bound_pid[k++] = pids[chunk[p]];
            }
    }
    free(pids);
    MPI_Comm host;
    ARMCII_MPI(PMPI_Comm_split_type(GH.pworld, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &host));
    armcii_host_watch(host, me, GH.is_ghost, GH.is_ghost ? -1 : GH.my_ghost);
    ARMCII_MPI(PMPI_Comm_free(&host));
}

/* Where a process sits on its real node, for the rounds' node block
 * (progress_round.c): its ghost's node rank (user) or its users' (ghost). */
typedef struct {
    MPI_Comm node;
    int ghost_line, nbound, *bound;
    int chunk;        /* the pworld rank that opens my chunk (its users share memory) */
} node_view_t;

/* Place ghosts; sets GH.is_ghost, my_ghost/bound_users; returns chunk size. */
static int place(int g, int vn, int *chunk_users, node_view_t *nv)
{
    MPI_Comm node;
    int me, nrank, nsize;
    ARMCII_MPI(PMPI_Comm_rank(GH.pworld, &me));
    ARMCII_MPI(PMPI_Comm_split_type(GH.pworld, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node));
    ARMCII_MPI(PMPI_Comm_rank(node, &nrank));
    ARMCII_MPI(PMPI_Comm_size(node, &nsize));
    int chunk = vn > 0 ? vn + g : nsize;
    /* A ghost without users would miss the pool windows' creation. */
    if (chunk < 2 * g || nsize % chunk)
        armcii_error(LAYOUT, "a node of %d ranks cannot be cut into (users + ghosts) "
                     "chunks; use ARMCI_VIRTUAL_NODE_SIZE users + ARMCI_GHOSTS_PER_NODE ghosts "
                     "per chunk dividing the ranks per node, with at least as many users as "
                     "ghosts", nsize);
    int *prank = malloc((size_t)nsize * sizeof(int));
    if (!prank)
        armcii_error(LAYOUT, "out of memory (%d ranks per node)", nsize);
    ARMCII_MPI(PMPI_Allgather(&me, 1, MPI_INT, prank, 1, MPI_INT, node));
    int base = nrank - nrank % chunk, pos = nrank % chunk, users = chunk - g;
    GH.is_ghost = pos >= users;
    nv->node = node;
    nv->chunk = prank[base];
    nv->ghost_line = -1;
    nv->nbound = 0;
    nv->bound = malloc((size_t)users * sizeof(int));
    if (!nv->bound)
        armcii_error(LAYOUT, "out of memory (%d users)", users);
    if (GH.is_ghost) {
        int gi = pos - users;
        GH.bound_users = 0;
        for (int p = 0; p < users; p++)
            if (p % g == gi)
                nv->bound[nv->nbound++] = base + p;
        GH.bound_users = nv->nbound;
    } else {
        GH.my_ghost = prank[base + users + pos % g];
        nv->ghost_line = base + users + pos % g;
    }
    bind_users(prank + base, users, g, pos - users);
    for (int i = 0; i < nsize; i++) /* am_comm is pworld's dup: the same ranks */
        GH.am_local[prank[i]] = 1;
    free(prank);
    *chunk_users = users;
    return chunk;
}

/* A ghost ends with exit(), not _exit(): MPICH 4.3 runs PMI_Finalize from
 * an atexit handler its MPI_Init registers (src/util/mpir_pmi.c there), and
 * hydra kills the job when a process exits without it (every process got
 * SIGKILL right after a ghost's exit).  But the ghost ran none of the
 * application's code, so the application's and its libraries' handlers
 * (registered earlier: a Fortran runtime's, C++ destructors, _dl_fini)
 * must not run.  Handlers run in reverse order of registration, so this
 * one, registered just before PMPI_Init, runs after MPI's and stops there. */
static void ghost_exit_stop(void)
{
    if (GH.is_ghost)
        _exit(0);
}

void armcii_ghost_preinit(void)
{
    if (!GH.exit_hooked && atexit(ghost_exit_stop) == 0)
        GH.exit_hooked = 1;
}

/* ARMCI_GHOST_ASYNC's default (collective over pworld, every process
 * joins whatever its own setting): on, except where a host is starved --
 * more processes than CPUs and an MPI that spins in its waits.  There each
 * redirected get and fetch-and-add waits for a ghost to be scheduled, and
 * NWChem's five TCE tests over 2 nodes of 2 took 2.4x the automatic mode's
 * time with redirection always on (MPICH 4.0, 2 cores:
 * benchmarks/results/nwchem_tce_vnodes.mpich.2core.txt).  Where MPI yields
 * (Open MPI on the same host) the two ran within 4% of each other
 * (nwchem_tce_auto.ompi.raw), and with a core per process on was the
 * faster (nwchem_ghosts.ompi.16core.txt): on stays the default there. */
static int default_async(void)
{
    int starved = armcii_host_starved(), any;
    ARMCII_MPI(PMPI_Allreduce(&starved, &any, 1, MPI_INT, MPI_MAX, GH.pworld));
    return any ? ARMCII_ASYNC_AUTO : ARMCII_ASYNC_ON;
}

/* After PMPI_Init*: build the communicators and the first pool. */
void armcii_ghost_setup(void)
{
    armcii_config_t cfg;
    char err[256];
    if (GH.set_up++) /* a Fortran MPI_Init may reach the C wrapper too */
        return;
    armcii_set_call(LAYOUT);
    if (armcii_config_parse(&cfg, plain_getenv, NULL, NULL, err, sizeof err))
        armcii_error(LAYOUT, "%s", err);
    GH.ghosts_per_node = cfg.ghosts_per_node;
    if (cfg.ghosts_per_node <= 0) {
        GH.ghosts_on = 0;
        return;
    }
    /* The library's own communicators report failures to it (ARMCII_MPI);
     * user_world keeps the MPI default the application expects. */
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &GH.pworld) != MPI_SUCCESS ||
        PMPI_Comm_set_errhandler(GH.pworld, MPI_ERRORS_RETURN) != MPI_SUCCESS)
        armcii_error(LAYOUT, "cannot duplicate MPI_COMM_WORLD");
    ARMCII_MPI(PMPI_Comm_dup(GH.pworld, &GH.cmd_comm));
    armcii_ghost_am_setup();
    int me, users;
    node_view_t nv;
    ARMCII_MPI(PMPI_Comm_rank(GH.pworld, &me));
    place(cfg.ghosts_per_node, cfg.virtual_node_size, &users, &nv);
    GH.async_default = default_async(); /* needs the host's processes (place) */
    if (!armcii_config_from_env(&cfg, "ARMCI_GHOST_ASYNC"))
        cfg.ghost_async = GH.async_default; /* the rounds below read it */
    GH.users_per_chunk = users;
    ARMCII_MPI(PMPI_Comm_split(GH.pworld, GH.is_ghost, me, &GH.user_world));
    /* the users of my chunk map each other's pool partitions (ghost_pool.c) */
    ARMCII_MPI(PMPI_Comm_split(GH.pworld, GH.is_ghost ? MPI_UNDEFINED : nv.chunk, me,
                               &GH.chunk_comm));
    if (!GH.is_ghost) {
        int ur;
        ARMCII_MPI(PMPI_Comm_rank(GH.user_world, &ur));
        ARMCII_MPI(PMPI_Comm_size(GH.chunk_comm, &GH.chunk_size));
        GH.chunk_urank = malloc((size_t)GH.chunk_size * sizeof(int));
        if (!GH.chunk_urank)
            armcii_error(LAYOUT, "out of memory");
        ARMCII_MPI(PMPI_Allgather(&ur, 1, MPI_INT, GH.chunk_urank, 1, MPI_INT, GH.chunk_comm));
    }
    /* on ghosts the split's other half is the ghosts' communicator */
    rounds->setup(nv.node, nv.ghost_line, nv.bound, nv.nbound, GH.user_world, &cfg);
    free(nv.bound);
    ARMCII_MPI(PMPI_Comm_free(&nv.node));
    /* it inherited pworld's handler; the application's world keeps MPI's default */
    ARMCII_MPI(PMPI_Comm_set_errhandler(GH.user_world, MPI_ERRORS_ARE_FATAL));
    ARMCII_MPI(PMPI_Comm_set_name(GH.user_world, "MPI_COMM_WORLD")); /* what the application asks for */
    GH.fworld = PMPI_Comm_c2f(MPI_COMM_WORLD);
    GH.fuser = PMPI_Comm_c2f(GH.user_world);
    GH.pool_first = (size_t)cfg.ghost_pool_size;
    GH.ghosts_on = 1;
    if (GH.is_ghost)
        serve(armcii_config_from_env(&cfg, "ARMCI_PROGRESS_USLEEP") ? cfg.progress_usleep : -1);
    armcii_ghost_pool_grow(0); /* the first pool: every user and ghost */
}

/* A bound user that is gone without sending FIN (killed, crashed, exited
 * without MPI_Finalize) would leave this ghost serving forever and the
 * job hanging: take the job down instead.  Users and their ghost share a
 * host, so kill(pid, 0) answers. */
static void check_users(void)
{
    for (int k = 0; k < GH.bound_users; k++) {
        if (!GH.bound_pid[k] || kill((pid_t)GH.bound_pid[k], 0) == 0 || errno != ESRCH)
            continue;
        armcii_error("ARMCI ghost", "user process %d (pid %d) ended without MPI_Finalize; "
                     "aborting the job", GH.bound_rank[k], GH.bound_pid[k]);
    }
}

static int execute(const armcii_ghost_cmd_t *c, int src)
{
    if (c->op == ARMCII_GHOST_FIN) {
        for (int k = 0; k < GH.bound_users; k++)
            if (GH.bound_rank[k] == src) {
                GH.bound_pid[k] = 0; /* finished: it may exit now */
                rounds->user_finished(k);
            }
        return 1;
    }
    if (c->op == ARMCII_GHOST_BUSY) {
        for (int k = 0; k < GH.bound_users; k++)
            if (GH.bound_rank[k] == src && GH.bound_busy[k] != (c->size != 0)) {
                GH.bound_busy[k] = c->size != 0;
                GH.nbusy += c->size != 0 ? 1 : -1;
            }
        return 0;
    }
    if (c->op != ARMCII_GHOST_GROW)
        armcii_error("ARMCI ghost", "unknown command %ld from process %d", c->op, src);
    armcii_ghost_pool_serve(c, (int)src);
    return 0;
}

static void free_comms(void)
{
    armcii_ghost_am_free();
    if (GH.chunk_comm != MPI_COMM_NULL)
        ARMCII_MPI(PMPI_Comm_free(&GH.chunk_comm));
    free(GH.chunk_urank);
    GH.chunk_urank = NULL;
    ARMCII_MPI(PMPI_Comm_free(&GH.cmd_comm));
    ARMCII_MPI(PMPI_Comm_free(&GH.user_world));
    ARMCII_MPI(PMPI_Comm_free(&GH.pworld));
}

/* How a ghost waits when nothing is there to serve. */
typedef struct {
    struct timespec nap;  /* ARMCI_PROGRESS_USLEEP's nap between polls, or 0 */
    long idle_us;         /* nap while no user of mine has a region redirected */
} rest_t;

/* While no bound user has a region redirected here, and the automatic
 * mode's last commit did not turn redirection on, nothing can arrive but
 * commands: nap, doubling from IDLE_NAP_MIN_US up to IDLE_NAP_MAX_US (the
 * first command after a long idle waits at most that long). */
enum { IDLE_NAP_MIN_US = 10, IDLE_NAP_MAX_US = 1000 };

static void rest_reset(rest_t *r) { r->idle_us = IDLE_NAP_MIN_US; }

static void nap_us(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

/* Nothing was served in this poll (and no proposal is open). */
static void rest(rest_t *r)
{
    /* My users say busy when they apply an "on" themselves; a user parked
     * in a barrier applies a commit only when the barrier ends, while
     * origins elsewhere already aim at me (GA's testmult.x crawled on 1 ms
     * naps per emulated get; tests/mpi/test_adapt_parked.c). */
    if (GH.nbusy == 0 && !rounds->serving()) {
        nap_us(r->idle_us);
        r->idle_us = r->idle_us * 2 > IDLE_NAP_MAX_US ? IDLE_NAP_MAX_US : r->idle_us * 2;
    } else if (r->nap.tv_sec || r->nap.tv_nsec) {
        nanosleep(&r->nap, NULL); /* leave the core to users on busy nodes */
    }
}

/* The ghost's loop; nap_us >= 0: the nap ARMCI_PROGRESS_USLEEP asked for. */
__attribute__((noreturn)) static void serve(long nap_us_asked)
{
    /* A ghost with a core of its own polls without pause: every nap delays
     * the software RMA it serves (osc ucx's accumulate takes several round
     * trips through it; benchmarks/results/design_measurements.txt,
     * "ghost naps").  Where the node's processes outnumber its cores the
     * ghost must leave the core to users.  If MPI yields when idle (Open MPI
     * does on such nodes), each poll already does, and polling on is
     * fastest: everyone waiting in MPI hands the core around at once
     * (benchmarks/results/bench_async.ghosts.txt, pinned).  If MPI spins, a
     * ghost that merely yielded would wait for a spinning origin's time
     * slice to end: it naps ARMCI_PROGRESS_USLEEP's default instead, and
     * the wakeup preempts.  An explicit ARMCI_PROGRESS_USLEEP always wins. */
    long nap = nap_us_asked;
    if (nap < 0)
        nap = armcii_host_starved() ? 10 : 0;
    rest_t r = {.nap = {nap / 1000000, (nap % 1000000) * 1000}};
    rest_reset(&r);
    armcii_set_call("ARMCI ghost");
    armcii_ghost_cmd_t c;
    MPI_Request req;
    MPI_Status st;
    int fin = 0, rounds_over = 0;
    double next_check = 0;
    ARMCII_MPI(PMPI_Irecv(&c, sizeof c, MPI_BYTE, MPI_ANY_SOURCE, ARMCII_GHOST_TAG_CMD,
                          GH.cmd_comm, &req));
    while (fin < GH.bound_users || !rounds_over) {
        int flag = 0;
        int served = armcii_ghost_am_poll();
        if (served)
            rest_reset(&r);
        int step = rounds->step(fin == GH.bound_users, armcii_ghost_pool_ready());
        rounds_over = step & ARMCII_ROUNDS_OVER;
        if (step & ARMCII_ROUNDS_GROW) { /* every ghost is ready: with the users */
            armcii_ghost_pool_create();
            continue;
        }
        if (fin < GH.bound_users)
            ARMCII_MPI(PMPI_Test(&req, &flag, &st));
        if (!flag) {
            if (served || rounds->busy())
                continue; /* messages flowing, or a proposal open: no nap */
            if (fin == GH.bound_users) { /* the other ghosts' rounds to finish */
                nap_us(100);
                continue;
            }
            if (PMPI_Wtime() >= next_check) { /* ~10 checks a second */
                check_users();
                next_check = PMPI_Wtime() + 0.1;
            }
            rest(&r);
            continue;
        }
        rest_reset(&r);
        fin += execute(&c, st.MPI_SOURCE);
        if (fin < GH.bound_users)
            ARMCII_MPI(PMPI_Irecv(&c, sizeof c, MPI_BYTE, MPI_ANY_SOURCE, ARMCII_GHOST_TAG_CMD,
                                  GH.cmd_comm, &req));
    }
    rounds->release();
    armcii_ghost_pool_destroy();
    free_comms();
    PMPI_Finalize();
    /* MPI's exit handlers run, then ghost_exit_stop ends the process
     * before the application's (see there). */
    fflush(NULL);
    exit(0);
}

/* User's MPI_Finalize: tell my ghost, then free the pools with it. */
void armcii_ghost_teardown(void)
{
    if (!GH.ghosts_on)
        return;
    /* what went to ghosts as messages is applied before they may leave
     * (a program may end MPI without ARMCI_Finalize) */
    armcii_ghost_am_fence(-1);
    armcii_ghost_cmd_t c = {.op = ARMCII_GHOST_FIN};
    ARMCII_MPI(PMPI_Send(&c, sizeof c, MPI_BYTE, GH.my_ghost, ARMCII_GHOST_TAG_CMD, GH.cmd_comm));
    rounds->release();
    armcii_ghost_pool_destroy();
    free_comms();
    GH.ghosts_on = 0;
}

void armcii_ghost_set_busy(int busy)
{
    if (!GH.ghosts_on || GH.told_busy == busy)
        return;
    GH.told_busy = busy;
    armcii_ghost_cmd_t c = {.op = ARMCII_GHOST_BUSY, .size = busy};
    ARMCII_MPI(PMPI_Send(&c, sizeof c, MPI_BYTE, GH.my_ghost, ARMCII_GHOST_TAG_CMD, GH.cmd_comm));
}

MPI_Aint armcii_ghost_command(const armcii_ghost_cmd_t *c)
{
    MPI_Aint reply;
    ARMCII_MPI(PMPI_Send(c, sizeof *c, MPI_BYTE, GH.my_ghost, ARMCII_GHOST_TAG_CMD,
                         GH.cmd_comm));
    ARMCII_MPI(PMPI_Recv(&reply, 1, MPI_AINT, GH.my_ghost, ARMCII_GHOST_TAG_REPLY,
                         GH.cmd_comm, MPI_STATUS_IGNORE));
    return reply;
}
