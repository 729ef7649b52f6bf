/*
 * Ghost-reachable memory: pools of per-user partitions (see ghost.h).
 *
 * Why pools.  A ghost must reach the memory of every region of its users.
 * Attaching each region to a dynamic window runs into attachment limits
 * (Open MPI 4.1: 64 per window in osc/rdma, 32 in osc/ucx, whose dynamic
 * windows also crash when detaching: tests/mpi/ompi_ucx_dynwin_repro.c), and
 * a window per region created together with the ghosts would make every
 * allocation a collective with ghosts (deadlock-prone for overlapping
 * groups) and double the windows and context ids per region.  Instead each
 * user owns a partition in each pool; regions are carved out of it locally,
 * and the pool's one window (MPI_Win_create, the kind every component
 * handles) serves them all.  Pools grow geometrically, so a job needs a few.
 *
 * Memory.  A partition is a memory file (memfd: no name in /dev/shm, so no
 * crash leaves one behind, and no /dev/shm size limit applies) the ghost
 * opens through /proc/<pid>/fd; where that is refused, a POSIX shm object
 * unlinked as soon as the ghost has mapped it.  Partitions are sparse: pages
 * are reserved (posix_fallocate) when a slice is carved, so a full memory
 * ends in ARMCI_Error instead of SIGBUS.  Freed slices stay reserved for
 * reuse and are never punched out: an RDMA network may have pinned the
 * pages for the ghost's window, and a punched page would be replaced under
 * it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ghost_impl.h"
#include "../common/common_quirks.h"

#define GH armcii_ghost_state

static size_t page_round(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    return (n + pg - 1) / pg * pg;
}

static MPI_Win pool_window(void *base, size_t size)
{
    MPI_Info info;
    MPI_Win win;
    ARMCII_MPI(PMPI_Info_create(&info));
    ARMCII_MPI(PMPI_Info_set(info, "same_disp_unit", "true"));
    ARMCII_MPI(PMPI_Info_set(info, "epochs_used", "lockall"));
    /* The run's first window comes here: a refused one (Open MPI's osc
     * pt2pt under MPI_THREAD_MULTIPLE) ends in a clear error. */
    int rc = PMPI_Win_create(base, (MPI_Aint)size, 1, info, GH.pworld, &win);
    ARMCII_MPI(PMPI_Info_free(&info));
    if (rc != MPI_SUCCESS)
        armcii_error(armcii_current_call, "this MPI cannot create RMA windows%s (MPI error %d)",
                     armcii_no_windows_hint(), rc);
    ARMCII_MPI(PMPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    return win;
}

static int open_partition(const armcii_ghost_cmd_t *c);
static void map_peers(armcii_ghost_pool_t *p, const armcii_ghost_cmd_t *c);

/* ---------------------------------------------------------------- user */

/* My partition's file: a memfd, announced as /proc/pid/fd, else shm. */
static int make_partition(size_t part, armcii_ghost_cmd_t *c)
{
    int fd = memfd_create("armci-pool", MFD_CLOEXEC);
    c->op = ARMCII_GHOST_GROW;
    c->size = (long)part;
    c->pid = (long)getpid();
    c->fd = fd;
    c->name[0] = '\0';
    if (fd >= 0 && ftruncate(fd, (off_t)part) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

static int make_named_partition(size_t part, armcii_ghost_cmd_t *c)
{
    snprintf(c->name, sizeof c->name, "/armci.%d.%ld", (int)getpid(), GH.shm_counter++);
    c->fd = -1;
    int fd = shm_open(c->name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)part)) {
        if (fd >= 0)
            close(fd);
        shm_unlink(c->name);
        armcii_error("ARMCI_Malloc", "cannot create a shared-memory partition of %zu bytes",
                     part);
    }
    return fd;
}

void armcii_ghost_pool_grow(size_t min_part)
{
    if (GH.npools == ARMCII_GHOST_MAX_POOLS)
        armcii_error("ARMCI_Malloc", "ghost memory pools exhausted (%d pools)", GH.npools);
    size_t part = GH.npools ? 2 * GH.pool[GH.npools - 1].part : GH.pool_first;
    if (part > ARMCII_GHOST_POOL_GROWTH_CAP * GH.pool_first)
        part = ARMCII_GHOST_POOL_GROWTH_CAP * GH.pool_first;
    if (part < min_part + ARMCII_GHOST_ALIGN)
        part = min_part + ARMCII_GHOST_ALIGN;
    part = page_round(part);
    armcii_ghost_cmd_t c;
    int fd = make_partition(part, &c);
    MPI_Aint disp = fd >= 0 ? armcii_ghost_command(&c) : -1;
    if (disp < 0) { /* the ghost could not open /proc/pid/fd: name it */
        if (fd >= 0)
            close(fd);
        fd = make_named_partition(part, &c);
        disp = armcii_ghost_command(&c);
        if (disp < 0)
            armcii_error("ARMCI_Malloc", "my ghost cannot map shared memory %s", c.name);
    }
    armcii_ghost_pool_t *p = &GH.pool[GH.npools];
    p->base = mmap(NULL, part, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p->base == MAP_FAILED)
        armcii_error("ARMCI_Malloc", "cannot map a pool partition of %zu bytes", part);
    p->fd = fd;
    p->part = part;
    p->disp = disp;
    p->free = malloc(sizeof *p->free);
    if (!p->free)
        armcii_error("ARMCI_Malloc", "out of memory");
    /* the partition's first bytes: the accumulate lock word of my slices
     * (ghost_am.c and the node-local path take it) */
    *p->free = (armcii_ghost_free_t){ARMCII_GHOST_ALIGN, part - ARMCII_GHOST_ALIGN, NULL};
    p->win = pool_window(NULL, 0); /* users expose nothing in pools */
    ARMCII_MPI(PMPI_Win_lock_all(MPI_MODE_NOCHECK, p->win));
    map_peers(p, &c);
    if (c.name[0])
        shm_unlink(c.name); /* every mapping stays valid */
    armcii_lock(&GH.pool_lock);
    GH.npools++;
    armcii_unlock(&GH.pool_lock);
    armcii_log(1, "ghosts: pool %d: %zu KiB per user", GH.npools - 1, part >> 10);
}

/* The users of my chunk map each other's partitions of pool p (collective
 * over the chunk; c describes mine): the node-local path into regions in
 * pools.  A partition that cannot be opened here (a host that refuses
 * /proc/pid/fd) stays unmapped, and operations on it take the MPI path. */
static void map_peers(armcii_ghost_pool_t *p, const armcii_ghost_cmd_t *c)
{
    int n = GH.chunk_size, me;
    ARMCII_MPI(PMPI_Comm_rank(GH.chunk_comm, &me));
    armcii_ghost_cmd_t *all = malloc((size_t)n * sizeof *all);
    p->peer = calloc((size_t)n, sizeof *p->peer);
    if (!all || !p->peer)
        armcii_error("ARMCI_Malloc", "out of memory");
    ARMCII_MPI(PMPI_Allgather(c, sizeof *c, MPI_BYTE, all, sizeof *c, MPI_BYTE, GH.chunk_comm));
    for (int k = 0; k < n; k++) {
        if (k == me) {
            p->peer[k] = p->base;
            continue;
        }
        int fd = open_partition(&all[k]);
        if (fd < 0)
            continue;
        void *m = mmap(NULL, p->part, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        p->peer[k] = m == MAP_FAILED ? NULL : m;
    }
    free(all);
    ARMCII_MPI(PMPI_Barrier(GH.chunk_comm)); /* before a named partition is unlinked */
}

char *armcii_ghost_peer_partition(int pool, int user)
{
    if (pool < 0 || pool >= GH.npools || !GH.pool[pool].peer)
        return NULL;
    for (int k = 0; k < GH.chunk_size; k++)
        if (GH.chunk_urank[k] == user)
            return GH.pool[pool].peer[k];
    return NULL;
}

/* First fit in one partition; the offset, or -1. */
static long carve(armcii_ghost_pool_t *p, size_t len)
{
    for (armcii_ghost_free_t **pp = &p->free; *pp; pp = &(*pp)->next) {
        armcii_ghost_free_t *f = *pp;
        if (f->len < len)
            continue;
        long off = (long)f->off;
        f->off += len;
        f->len -= len;
        if (!f->len) {
            *pp = f->next;
            free(f);
        }
        return off;
    }
    return -1;
}

int armcii_ghost_pool_alloc(size_t size, armcii_ghost_slice_t *s)
{
    size_t len = (size + ARMCII_GHOST_ALIGN - 1) / ARMCII_GHOST_ALIGN * ARMCII_GHOST_ALIGN;
    long off = -1;
    int i;
    armcii_lock(&GH.pool_lock);
    for (i = 0; i < GH.npools && off < 0; i++)
        off = carve(&GH.pool[i], len);
    armcii_unlock(&GH.pool_lock);
    if (off < 0)
        return -1;
    armcii_ghost_pool_t *p = &GH.pool[i - 1];
    /* Sparse file: reserve the pages now, so a full memory fails here. */
    int rc = posix_fallocate(p->fd, (off_t)off, (off_t)len);
    if (rc) {
        armcii_ghost_slice_t back = {p->base + off, i - 1, p->disp + off, (size_t)off};
        armcii_ghost_pool_free(&back, size);
        armcii_error("ARMCI_Malloc", "cannot reserve %zu bytes of shared memory (%s)", len,
                     strerror(rc));
    }
    *s = (armcii_ghost_slice_t){p->base + off, i - 1, p->disp + off, (size_t)off};
    return 0;
}

void armcii_ghost_pool_free(const armcii_ghost_slice_t *s, size_t size)
{
    armcii_ghost_pool_t *p = &GH.pool[s->pool];
    size_t len = (size + ARMCII_GHOST_ALIGN - 1) / ARMCII_GHOST_ALIGN * ARMCII_GHOST_ALIGN;
    size_t off = (size_t)(s->ptr - p->base);
    armcii_lock(&GH.pool_lock);
    armcii_ghost_free_t **pp = &p->free, *prev = NULL;
    while (*pp && (*pp)->off < off) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    armcii_ghost_free_t *next = *pp;
    if (prev && prev->off + prev->len == off) { /* merge with the range before */
        prev->len += len;
        if (next && prev->off + prev->len == next->off) {
            prev->len += next->len;
            prev->next = next->next;
            free(next);
        }
    } else if (next && off + len == next->off) { /* with the range after */
        next->off = off;
        next->len += len;
    } else {
        armcii_ghost_free_t *f = malloc(sizeof *f);
        if (!f)
            armcii_error("ARMCI_Free", "out of memory");
        *f = (armcii_ghost_free_t){off, len, next};
        *pp = f;
    }
    armcii_unlock(&GH.pool_lock);
}

/* --------------------------------------------------------------- ghost */

static int slot_of(int src)
{
    for (int k = 0; k < GH.bound_users; k++)
        if (GH.bound_rank[k] == src)
            return k;
    armcii_error(armcii_current_call, "pool command from process %d, not bound to this ghost",
                 src);
}

static int open_partition(const armcii_ghost_cmd_t *c)
{
    if (c->name[0])
        return shm_open(c->name, O_RDWR, 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/%ld", c->pid, c->fd);
    return open(path, O_RDWR | O_CLOEXEC);
}

/* Map a user's partition at its slot and answer it; the users wait in the
 * pool window's creation, which the ghosts join when all are ready. */
void armcii_ghost_pool_serve(const armcii_ghost_cmd_t *c, int src)
{
    size_t part = (size_t)c->size;
    int k = slot_of(src);
    if (!GH.grow_base) {
        GH.grow_part = part;
        GH.grow_base = mmap(NULL, part * (size_t)GH.bound_users, PROT_NONE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (GH.grow_base == MAP_FAILED)
            armcii_error(armcii_current_call, "cannot reserve address space for a pool (%zu "
                         "bytes per user)", part);
    }
    if (part != GH.grow_part)
        armcii_error(armcii_current_call, "users disagree on a pool's partition size (%zu "
                     "against %zu)", part, GH.grow_part);
    MPI_Aint reply = -1;
    int fd = open_partition(c);
    if (fd >= 0) {
        char *at = GH.grow_base + (size_t)k * part;
        if (mmap(at, part, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == at)
            reply = (MPI_Aint)((size_t)k * part);
        close(fd);
    }
    ARMCII_MPI(PMPI_Send(&reply, 1, MPI_AINT, src, ARMCII_GHOST_TAG_REPLY, GH.cmd_comm));
    GH.grow_count += reply >= 0;
}

int armcii_ghost_pool_ready(void) { return GH.grow_count == GH.bound_users; }

void armcii_ghost_pool_create(void)
{
    if (GH.npools == ARMCII_GHOST_MAX_POOLS)
        armcii_error(armcii_current_call, "too many pools (%d)", GH.npools);
    armcii_ghost_pool_t *p = &GH.pool[GH.npools++];
    p->base = GH.grow_base;
    p->part = GH.grow_part;
    p->win = pool_window(p->base, GH.grow_part * (size_t)GH.bound_users);
    GH.grow_base = NULL;
    GH.grow_count = 0;
}

void armcii_ghost_pool_destroy(void)
{
    for (int i = 0; i < GH.npools; i++) {
        armcii_ghost_pool_t *p = &GH.pool[i];
        if (!GH.is_ghost)
            ARMCII_MPI(PMPI_Win_unlock_all(p->win));
        ARMCII_MPI(PMPI_Win_free(&p->win));
        munmap(p->base, p->part * (size_t)(GH.is_ghost ? GH.bound_users : 1));
        for (int k = 0; p->peer && k < GH.chunk_size; k++)
            if (p->peer[k] && p->peer[k] != p->base)
                munmap(p->peer[k], p->part);
        free(p->peer);
        p->peer = NULL;
        if (!GH.is_ghost)
            close(p->fd);
        while (p->free) {
            armcii_ghost_free_t *f = p->free;
            p->free = f->next;
            free(f);
        }
    }
    GH.npools = 0;
}

MPI_Win armcii_ghost_pool_win(int i) { return GH.pool[i].win; }

armcii_ghost_info_t armcii_ghost_info(void)
{
    armcii_ghost_info_t i = {GH.ghosts_on, GH.ghosts_per_node, GH.users_per_chunk, GH.npools,
                             GH.my_ghost, GH.npools ? GH.pool[0].part : 0, 0,
                             GH.async_default};
    for (int p = 0; p < GH.npools; p++)
        i.pool_bytes_per_user += GH.pool[p].part;
    return i;
}
