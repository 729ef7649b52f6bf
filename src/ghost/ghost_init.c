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
#include "ghost.h"

#define PS armcii_ghost_state

armcii_ghost_state_t armcii_ghost_state = {
    .pworld = MPI_COMM_NULL, .user_world = MPI_COMM_NULL, .cmd_comm = MPI_COMM_NULL,
};

void armcii_ghost_die(const char *fmt, const char *detail, long value)
{
    int r = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    fprintf(stderr, "[%d] ARMCI Error in MPI_Init (ghost layout): ", r);
    fprintf(stderr, fmt, detail, value);
    fputc('\n', stderr);
    fflush(stderr);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}
#define die armcii_ghost_die

static const char *plain_getenv(const char *n) { return getenv(n); }

__attribute__((noreturn)) static void serve(long nap_us);

/* Collective over the node: a ghost (gi >= 0) records the pworld ranks and
 * process ids of the users bound to it (chunk[p], p % g == gi), to notice
 * one that dies without finalizing. */
static void bind_users(const int *chunk, int users, int g, int gi)
{
    int me, n, pid = (int)getpid();
    PMPI_Comm_rank(PS.pworld, &me);
    PMPI_Comm_size(PS.pworld, &n);
    int *pids = malloc((size_t)n * sizeof(int));
    if (!pids)
        die("%s: out of memory (%ld)", "layout", n);
    PMPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, PS.pworld);
    if (gi >= 0) {
        PS.bound_rank = malloc((size_t)users * sizeof(int));
        PS.bound_pid = malloc((size_t)users * sizeof(int));
        if (!PS.bound_rank || !PS.bound_pid)
            die("%s: out of memory (%ld)", "layout", users);
        int k = 0;
        for (int p = 0; p < users; p++)
            if (p % g == gi) {
                PS.bound_rank[k] = chunk[p];
                PS.bound_pid[k++] = pids[chunk[p]];
            }
    }
    free(pids);
}

/* Place ghosts; sets PS.is_ghost, my_ghost/bound_users; returns chunk size. */
static int place(int g, int vn, int *chunk_users)
{
    MPI_Comm node;
    int me, nrank, nsize;
    PMPI_Comm_rank(PS.pworld, &me);
    PMPI_Comm_split_type(PS.pworld, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
    PMPI_Comm_rank(node, &nrank);
    PMPI_Comm_size(node, &nsize);
    PS.node_procs = nsize;
    int chunk = vn > 0 ? vn + g : nsize;
    /* A ghost without users would miss the pool windows' creation. */
    if (chunk < 2 * g || nsize % chunk)
        die("%s: a node of %ld ranks cannot be cut into (users + ghosts) chunks; use "
            "ARMCI_VIRTUAL_NODE_SIZE users + ARMCI_GHOSTS_PER_NODE ghosts per chunk "
            "dividing the ranks per node, with at least as many users as ghosts",
            "layout", nsize);
    int *prank = malloc((size_t)nsize * sizeof(int));
    if (!prank)
        die("%s: out of memory (%ld)", "layout", nsize);
    PMPI_Allgather(&me, 1, MPI_INT, prank, 1, MPI_INT, node);
    int base = nrank - nrank % chunk, pos = nrank % chunk, users = chunk - g;
    PS.is_ghost = pos >= users;
    if (PS.is_ghost) {
        int gi = pos - users;
        PS.bound_users = 0;
        for (int p = 0; p < users; p++)
            PS.bound_users += p % g == gi;
    } else {
        PS.my_ghost = prank[base + users + pos % g];
    }
    bind_users(prank + base, users, g, pos - users);
    free(prank);
    PMPI_Comm_free(&node);
    *chunk_users = users;
    return chunk;
}

/* After PMPI_Init*: build the communicators and the first pool. */
void armcii_ghost_setup(void)
{
    armcii_config_t cfg;
    char err[256];
    if (PS.set_up++) /* a Fortran MPI_Init may reach the C wrapper too */
        return;
    if (armcii_config_parse(&cfg, plain_getenv, NULL, NULL, err, sizeof err))
        die("%s (%ld)", err, 0);
    PS.ghosts_per_node = cfg.ghosts_per_node;
    if (cfg.ghosts_per_node <= 0) {
        PS.ghosts_on = 0;
        return;
    }
    PMPI_Comm_dup(MPI_COMM_WORLD, &PS.pworld);
    PMPI_Comm_dup(MPI_COMM_WORLD, &PS.cmd_comm);
    int me, users;
    PMPI_Comm_rank(PS.pworld, &me);
    place(cfg.ghosts_per_node, cfg.virtual_node_size, &users);
    PS.users_per_chunk = users;
    PMPI_Comm_split(PS.pworld, PS.is_ghost, me, &PS.user_world);
    PMPI_Comm_set_name(PS.user_world, "MPI_COMM_WORLD"); /* what the application asks for */
    PS.fworld = PMPI_Comm_c2f(MPI_COMM_WORLD);
    PS.fuser = PMPI_Comm_c2f(PS.user_world);
    PS.pool_first = (size_t)cfg.ghost_pool_size;
    PS.ghosts_on = 1;
    if (PS.is_ghost)
        serve(armcii_config_from_env(&cfg, "ARMCI_PROGRESS_USLEEP") ? cfg.progress_usleep : -1);
    armcii_ghost_pool_grow(0); /* the first pool: every user and ghost */
}

/* A bound user that is gone without sending FIN (killed, crashed, exited
 * without MPI_Finalize) would leave this ghost serving forever and the
 * job hanging: take the job down instead.  Users and their ghost share a
 * host, so kill(pid, 0) answers. */
static void check_users(void)
{
    for (int k = 0; k < PS.bound_users; k++) {
        if (!PS.bound_pid[k] || kill((pid_t)PS.bound_pid[k], 0) == 0 || errno != ESRCH)
            continue;
        int me = -1;
        PMPI_Comm_rank(PS.pworld, &me);
        fprintf(stderr, "[%d] ARMCI ghost: user process %d (pid %d) ended without "
                "MPI_Finalize; aborting the job\n", me, PS.bound_rank[k], PS.bound_pid[k]);
        fflush(stderr);
        PMPI_Abort(PS.pworld, 1);
        _exit(1);
    }
}

static int execute(const armcii_ghost_cmd_t *c, int src)
{
    if (c->op == ARMCII_GHOST_FIN) {
        for (int k = 0; k < PS.bound_users; k++)
            if (PS.bound_rank[k] == src)
                PS.bound_pid[k] = 0; /* finished: it may exit now */
        return 1;
    }
    if (c->op != ARMCII_GHOST_GROW)
        die("%s: unknown command %ld", "ghost", c->op);
    armcii_ghost_pool_serve(c, (int)src);
    return 0;
}

/* The ghost's loop; nap_us >= 0: the nap ARMCI_PROGRESS_USLEEP asked for. */
__attribute__((noreturn)) static void serve(long nap_us)
{
    /* A ghost with a core of its own polls without pause: every nap delays
     * the software RMA it serves (osc ucx's accumulate takes several round
     * trips through it; bench_multiphase: ghost-served comm phase 0.34 s
     * with 10 us naps, 0.035 s without).  Where the node's processes
     * outnumber its cores the ghost must leave the core to users.  If MPI
     * yields when idle (Open MPI does on such nodes), each poll already
     * does, and polling on is fastest: everyone waiting in MPI hands the
     * core around at once (benchmarks/results/bench_async.ghosts.txt,
     * pinned: osc ucx strided accumulate 0.44 ms, 5.3 ms with naps).  If
     * MPI spins, a ghost that merely yielded would wait for a spinning
     * origin's time slice to end: it naps ARMCI_PROGRESS_USLEEP (10 us)
     * instead, and the wakeup preempts.  An explicit ARMCI_PROGRESS_USLEEP
     * always wins. */
    if (nap_us < 0)
        nap_us = PS.node_procs > sysconf(_SC_NPROCESSORS_ONLN) && !armcii_mpi_yields_when_idle()
                     ? 10 : 0;
    struct timespec nap = {nap_us / 1000000, (nap_us % 1000000) * 1000};
    armcii_ghost_cmd_t c;
    MPI_Request req;
    MPI_Status st;
    int fin = 0;
    double next_check = 0;
    PMPI_Irecv(&c, sizeof c, MPI_BYTE, MPI_ANY_SOURCE, ARMCII_GHOST_TAG_CMD, PS.cmd_comm, &req);
    while (fin < PS.bound_users) {
        int flag = 0;
        PMPI_Test(&req, &flag, &st);
        if (!flag) {
            if (PMPI_Wtime() >= next_check) { /* ~10 checks a second */
                check_users();
                next_check = PMPI_Wtime() + 0.1;
            }
            if (nap_us > 0)
                nanosleep(&nap, NULL); /* leave the core to users on busy nodes */
            continue;
        }
        fin += execute(&c, st.MPI_SOURCE);
        if (fin < PS.bound_users)
            PMPI_Irecv(&c, sizeof c, MPI_BYTE, MPI_ANY_SOURCE, ARMCII_GHOST_TAG_CMD,
                       PS.cmd_comm, &req);
    }
    armcii_ghost_pool_destroy();
    PMPI_Comm_free(&PS.cmd_comm);
    PMPI_Comm_free(&PS.user_world);
    PMPI_Comm_free(&PS.pworld);
    PMPI_Finalize();
    /* The process ran none of the application's code: its atexit handlers
     * and destructors (a Fortran runtime's, a library's) must not run. */
    fflush(NULL);
    _exit(0);
}

/* User's MPI_Finalize: tell my ghost, then free the pools with it. */
void armcii_ghost_teardown(void)
{
    if (!PS.ghosts_on)
        return;
    armcii_ghost_cmd_t c = {.op = ARMCII_GHOST_FIN};
    PMPI_Send(&c, sizeof c, MPI_BYTE, PS.my_ghost, ARMCII_GHOST_TAG_CMD, PS.cmd_comm);
    armcii_ghost_pool_destroy();
    PMPI_Comm_free(&PS.cmd_comm);
    PMPI_Comm_free(&PS.user_world);
    PMPI_Comm_free(&PS.pworld);
    PS.ghosts_on = 0;
}

MPI_Aint armcii_ghost_command(const armcii_ghost_cmd_t *c)
{
    MPI_Aint reply;
    ARMCII_MPI(PMPI_Send(c, sizeof *c, MPI_BYTE, PS.my_ghost, ARMCII_GHOST_TAG_CMD,
                         PS.cmd_comm));
    ARMCII_MPI(PMPI_Recv(&reply, 1, MPI_AINT, PS.my_ghost, ARMCII_GHOST_TAG_REPLY,
                         PS.cmd_comm, MPI_STATUS_IGNORE));
    return reply;
}
