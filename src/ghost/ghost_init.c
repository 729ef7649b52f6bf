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
 * the one dynamic window through which redirected operations reach them),
 * execute MAP/UNMAP commands of their users, and leave once every bound user
 * has sent FIN from its MPI_Finalize.  All ghost-side MPI calls are
 * point-to-point or local (attach/detach), so no user collective ever waits
 * for a ghost and overlapping groups cannot deadlock one; the only
 * collectives ghosts join are the window create/free inside MPI_Init and
 * MPI_Finalize, which every process makes exactly once.
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
    .pworld = MPI_COMM_NULL, .user_world = MPI_COMM_NULL,
    .cmd_comm = MPI_COMM_NULL, .dyn_win = MPI_WIN_NULL,
};

static void die(const char *fmt, const char *detail, int value)
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

static const char *plain_getenv(const char *n) { return getenv(n); }

__attribute__((noreturn)) static void serve(void);

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
        die("%s: out of memory (%d)", "layout", n);
    PMPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, PS.pworld);
    if (gi >= 0) {
        PS.bound_rank = malloc((size_t)users * sizeof(int));
        PS.bound_pid = malloc((size_t)users * sizeof(int));
        if (!PS.bound_rank || !PS.bound_pid)
            die("%s: out of memory (%d)", "layout", users);
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
    int chunk = vn > 0 ? vn + g : nsize;
    if (chunk <= g || nsize % chunk)
        die("%s: a node of %d ranks cannot be cut into (users + ghosts) chunks; use "
            "ARMCI_VIRTUAL_NODE_SIZE users + ARMCI_GHOSTS_PER_NODE ghosts per chunk "
            "dividing the ranks per node, with at least one user", "layout", nsize);
    int *prank = malloc((size_t)nsize * sizeof(int));
    if (!prank)
        die("%s: out of memory (%d)", "layout", nsize);
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

/* After PMPI_Init*: build the communicators and the dynamic window. */
void armcii_ghost_setup(void)
{
    armcii_config_t cfg;
    char err[256];
    if (PS.set_up++) /* a Fortran MPI_Init may reach the C wrapper too */
        return;
    if (armcii_config_parse(&cfg, plain_getenv, NULL, NULL, err, sizeof err))
        die("%s (%d)", err, 0);
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
    /* The run's first window: refused windows (Open MPI's osc pt2pt under
     * MPI_THREAD_MULTIPLE) end in a clear error, not the MPI's abort. */
    PMPI_Comm_set_errhandler(PS.pworld, MPI_ERRORS_RETURN);
    int rc = PMPI_Win_create_dynamic(MPI_INFO_NULL, PS.pworld, &PS.dyn_win);
    PMPI_Comm_set_errhandler(PS.pworld, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS)
        die("this MPI cannot create RMA windows%s (MPI error %d)", armcii_no_windows_hint(),
            rc);
    /* A refused attachment must come back as an error code (expose()). */
    PMPI_Win_set_errhandler(PS.dyn_win, MPI_ERRORS_RETURN);
    /* Open MPI 4.1's osc/ucx dynamic windows cannot carry the ghost
     * backend: at most 32 attached regions, MPI_Win_free crashes in
     * ucp_mem_unmap after attach/detach traffic, and origins keep stale
     * remote keys for memory re-attached at a reused address
     * (tests/mpi/ompi_ucx_dynwin_repro.c): redirect nothing there. */
    PS.dyn_unusable = (armcii_win_quirks(PS.dyn_win) & ARMCII_QUIRK_DYNWIN_BROKEN) != 0;
    PS.ghosts_on = 1;
    if (PS.is_ghost)
        serve();
    PMPI_Win_lock_all(MPI_MODE_NOCHECK, PS.dyn_win);
    PS.dyn_locked = 1;
}

/* Attach a mapped slice; its address, or 0 (and unmapped) when the MPI
 * refuses the attachment: the user then keeps the region off the ghosts. */
static MPI_Aint expose(char *p, size_t size)
{
    MPI_Aint addr = 0;
    struct armcii_ghost_mapping *m = malloc(sizeof *m);
    if (!m || PMPI_Win_attach(PS.dyn_win, p, (MPI_Aint)size) != MPI_SUCCESS) {
        free(m);
        munmap(p, size);
        return 0;
    }
    *m = (struct armcii_ghost_mapping){p, size, PS.exposed};
    PS.exposed = m;
    PMPI_Get_address(p, &addr);
    return addr;
}

/* Detach and unmap one exposed slice (all of them: p == NULL).  Open MPI
 * 4.1's osc/ucx crashes in MPI_Win_free when memory is still attached
 * (tests/mpi/ompi_ucx_dynwin_repro.c), so the ghost detaches everything
 * before it frees the window. */
static void unexpose(char *p)
{
    struct armcii_ghost_mapping **pp = &PS.exposed;
    while (*pp) {
        struct armcii_ghost_mapping *m = *pp;
        if (p && m->base != p) {
            pp = &m->next;
            continue;
        }
        *pp = m->next;
        PMPI_Win_detach(PS.dyn_win, m->base);
        munmap(m->base, m->size);
        free(m);
        if (p)
            return;
    }
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
    MPI_Aint reply = 0;
    if (c->op == ARMCII_GHOST_FIN) {
        for (int k = 0; k < PS.bound_users; k++)
            if (PS.bound_rank[k] == src)
                PS.bound_pid[k] = 0; /* finished: it may exit now */
        return 1;
    }
    if (c->op == ARMCII_GHOST_MAP) {
        int fd = shm_open(c->name, O_RDWR, 0);
        void *p = fd < 0 ? MAP_FAILED
                  : mmap(NULL, (size_t)c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
        if (p == MAP_FAILED) {
            fprintf(stderr, "ARMCI ghost: cannot map %s (%ld bytes)\n", c->name, c->size);
            PMPI_Abort(MPI_COMM_WORLD, 1);
        }
        reply = expose(p, (size_t)c->size);
    } else if (c->op == ARMCII_GHOST_UNMAP) {
        unexpose((char *)(uintptr_t)c->addr);
    }
    PMPI_Send(&reply, 1, MPI_AINT, src, ARMCII_GHOST_TAG_REPLY, PS.cmd_comm);
    return 0;
}

__attribute__((noreturn)) static void serve(void)
{
    const char *us = getenv("ARMCI_PROGRESS_USLEEP");
    long nap_us = us ? atol(us) : 10;
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
    unexpose(NULL);
    PMPI_Win_free(&PS.dyn_win);
    PMPI_Comm_free(&PS.cmd_comm);
    PMPI_Comm_free(&PS.user_world);
    PMPI_Comm_free(&PS.pworld);
    PMPI_Finalize();
    /* The process ran none of the application's code: its atexit handlers
     * and destructors (a Fortran runtime's, a library's) must not run. */
    fflush(NULL);
    _exit(0);
}

/* User's MPI_Finalize: tell my ghost, then free the shared objects. */
void armcii_ghost_teardown(void)
{
    if (!PS.ghosts_on)
        return;
    armcii_ghost_cmd_t c = {.op = ARMCII_GHOST_FIN};
    if (PS.dyn_locked)
        PMPI_Win_unlock_all(PS.dyn_win);
    PS.dyn_locked = 0;
    PMPI_Send(&c, sizeof c, MPI_BYTE, PS.my_ghost, ARMCII_GHOST_TAG_CMD, PS.cmd_comm);
    armcii_ghost_release_zombies();
    PMPI_Win_free(&PS.dyn_win);
    PMPI_Comm_free(&PS.cmd_comm);
    PMPI_Comm_free(&PS.user_world);
    PMPI_Comm_free(&PS.pworld);
    PS.ghosts_on = 0;
}

MPI_Aint armcii_ghost_command(long op, long size, MPI_Aint addr, const char *name)
{
    armcii_ghost_cmd_t c = {.op = op, .size = size, .addr = addr};
    MPI_Aint reply;
    if (name)
        snprintf(c.name, sizeof c.name, "%s", name);
    ARMCII_MPI(PMPI_Send(&c, sizeof c, MPI_BYTE, PS.my_ghost, ARMCII_GHOST_TAG_CMD,
                         PS.cmd_comm));
    ARMCII_MPI(PMPI_Recv(&reply, 1, MPI_AINT, PS.my_ghost, ARMCII_GHOST_TAG_REPLY,
                         PS.cmd_comm, MPI_STATUS_IGNORE));
    return reply;
}

/* Unmap slices whose regions are gone (their windows are freed by now). */
void armcii_ghost_release_zombies(void)
{
    while (PS.zombies) {
        struct armcii_ghost_mapping *z = PS.zombies;
        PS.zombies = z->next;
        munmap(z->base, z->size);
        free(z);
    }
}
