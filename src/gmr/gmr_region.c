/*
 * Region allocation and free.
 *
 * How the memory is obtained (measured on Open MPI 4.1.4):
 *  - Where MPI_Win_allocate_shared works (probed once at init), each region's
 *    memory is a node-shared segment over the members of my (virtual) node:
 *    that gives direct pointers for the node-local path, and osc/sm names its
 *    backing file with the creator's pid, so disjoint groups with the same
 *    context id cannot collide (osc/rdma's MPI_Win_allocate can: Open MPI
 *    issue 7393, fixed only in 5.0).  If the group lies within one node that
 *    shared window also carries the RMA; otherwise a second window is
 *    created over the group on the same memory (MPI_Win_create).
 *  - Where shared windows are refused (e.g. --mca osc pt2pt or ucx), regions
 *    use MPI_Win_allocate over the group and only the own slice is direct.
 * Each node-shared slice starts with ARMCII_SLICE_HDR bytes holding the
 * accumulate lock of the direct path; the user's base is after it.  Small
 * allocations over all processes take places in windows made for many
 * instead (gmr_slab.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"
#include "../common/common_quirks.h"
#include "../common/common_wait.h"

armcii_gmr_state_t armcii_gmr_state = {.create_lock = MPI_WIN_NULL, .async_hint = -1,
                                       .phase = -1};
#define GS armcii_gmr_state

/* Whether this MPI gives shared-memory windows on the node comm, on every
 * process; want == 0 on any process (ARMCI_SHARED_WINDOWS=off) says no
 * without probing, since the probe is collective on each node. */
static int probe_shm(MPI_Comm node, int want)
{
    MPI_Win w;
    void *p;
    int ok, all;
    armcii_allreduce(&want, &all, 1, MPI_INT, MPI_MIN, armcii_state.world);
    if (!all)
        return 0;
    ok = MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, node, &p, &w) == MPI_SUCCESS;
    if (ok)
        ARMCII_MPI(MPI_Win_free(&w));
    armcii_allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, armcii_state.world);
    return all;
}

armcii_gmr_facts_t armcii_gmr_facts(void)
{
    return (armcii_gmr_facts_t){GS.shm_ok, GS.direct, GS.poke, GS.no_flush_local,
                                GS.rget_acc};
}

/* The component that decides is each region window's own, not the
 * world-spanning one's: between virtual nodes of one host the regions get
 * MPI_Win_create windows over node-shared memory, which Open MPI hands to
 * another component (ucx, rdma) than the world's MPI_Win_allocate (sm). */
unsigned armcii_gmr_ghost_served(void)
{
    if (__atomic_load_n(&GS.region_made, __ATOMIC_RELAXED))
        return __atomic_load_n(&GS.region_classes, __ATOMIC_RELAXED);
    return armcii_gmr_software_classes(armcii_win_component(GS.create_lock));
}

void armcii_gmr_init(void)
{
    int n = armcii_state.nproc, me = armcii_state.rank;
    /* Everything restarts but the user's hint, which may be given before
     * ARMCI_Init and lasts until changed (ARMCIX_Set_async_hint). */
    GS = (armcii_gmr_state_t){.async_hint = GS.async_hint, .phase = -1,
                              .async_setting = armcii_state.cfg.ghost_async,
                              .create_lock = MPI_WIN_NULL};
    if (armcii_gmr_table_init(&GS.table, n))
        armcii_error("ARMCI_Init", "out of memory for the translation table");
    /* ARMCI_SHARED_WINDOWS=off takes the path of an MPI without shared
     * windows on any MPI, so that the test suite covers it. */
    GS.shm_ok = probe_shm(armcii_state.node, armcii_state.cfg.shared_windows);
    /* A slab is made whole at the first small allocation (gmr_slab.c). */
    if (armcii_state.cfg.region_slab > 1L << 30)
        armcii_error("ARMCI_Init", "ARMCI_REGION_SLAB=%ld is over 1 GiB per process",
                     armcii_state.cfg.region_slab);
    /* Every process must keep the same regions (gmr_recycle.c). */
    unsigned long lim[3] = {(unsigned long)armcii_state.cfg.region_cache,
                            (unsigned long)armcii_state.cfg.region_cache_age,
                            (unsigned long)armcii_state.cfg.region_slab};
    armcii_allreduce(MPI_IN_PLACE, lim, 3, MPI_UNSIGNED_LONG, MPI_MIN, armcii_state.world);
    GS.recycle_limit = lim[0];
    GS.recycle_age = lim[1];
    /* whole KiB, as every window outside the ghost pools (gmr_recycle.c) */
    GS.slab_bytes = armcii_gmr_recycle_cap(lim[2]);
    /* The first window of the run: an MPI that cannot make windows at all
     * here gets a clear error, not the MPI's abort.  MPI_Win_allocate is the
     * kind every osc provides (a one-process Open MPI job has only osc/sm,
     * which refuses MPI_Win_create). */
    void *base;
    int rc = MPI_Win_allocate(0, 1, MPI_INFO_NULL, armcii_state.world, &base, &GS.create_lock);
    if (rc != MPI_SUCCESS)
        armcii_error("ARMCI_Init", "this MPI cannot create RMA windows (MPI error %d)%s", rc,
                     armcii_no_windows_hint());
    armcii_win_errors_return(GS.create_lock);
    int wq = armcii_win_quirks(GS.create_lock);
    GS.poke = (wq & ARMCII_QUIRK_WIN_POKE) != 0;
    /* as if ARMCI_NO_FLUSH_LOCAL=on: every completion uses MPI_Win_flush */
    GS.no_flush_local = (wq & ARMCII_QUIRK_NO_FLUSH_LOCAL) || armcii_state.cfg.no_flush_local;
    GS.direct = GS.shm_ok && armcii_state.cfg.node_local;
    if (armcii_state.cfg.node_local && armcii_state.cfg.shared_windows && !GS.shm_ok && me == 0)
        armcii_warn("this MPI refuses shared-memory windows; node-local path off");
    armcii_log(1, "shared windows: %s, node-local path: %s, RMA component: %s",
               GS.shm_ok ? "yes" : "no", GS.direct ? "on" : "off",
               armcii_osc_name(armcii_win_component(GS.create_lock)));
    armcii_gmr_yield_init();
    armcii_gmr_ghost_init();
}

/* The region list and the dirty list share GS.lock: allocations on
 * different groups may run in different threads (threaded runs). */
static void list_link(armcii_gmr_t *g)
{
    armcii_lock(&GS.lock);
    g->next = GS.regions;
    if (GS.regions)
        GS.regions->prev = g;
    GS.regions = g;
    armcii_unlock(&GS.lock);
}

static void list_unlink(armcii_gmr_t *g)
{
    armcii_lock(&GS.lock); /* another thread may be fencing (gmr_ops.c) */
    if (g->prev) g->prev->next = g->next;
    else GS.regions = g->next;
    if (g->next) g->next->prev = g->prev;
    if (g->in_dirty_list) {
        armcii_gmr_t **pp = &GS.dirty;
        while (*pp != g)
            pp = &(*pp)->next_dirty;
        *pp = g->next_dirty;
    }
    armcii_unlock(&GS.lock);
}

/* Allocate the memory and windows of g; returns my slice's user base. */
static char *alloc_windows(armcii_gmr_t *g, size_t size)
{
    MPI_Info info;
    char *seg = NULL;
    ARMCII_MPI(MPI_Info_create(&info));
    ARMCII_MPI(MPI_Info_set(info, "same_disp_unit", "true"));
    ARMCII_MPI(MPI_Info_set(info, "epochs_used", "lockall"));
    if (armcii_gmr_ghost_alloc(g, size, &seg)) {
        /* ghost-progress build: slices the ghosts can map (gmr_ghost.c) */
        ARMCII_MPI(MPI_Win_create(seg, (MPI_Aint)size, 1, info, g->comm, &g->win));
        g->shm_win = MPI_WIN_NULL;
        g->disp_hdr = 0;
        ARMCII_MPI(MPI_Info_free(&info));
        return seg;
    }
    /*
     * Regions stay node-shared windows with the node-local path off too,
     * although MPICH 4.0.2 runs RMA on them slower than on MPI_Win_allocate
     * windows (tests/mpi/mpich_shm_rma_repro.c): sent there, GA 5.9.2's
     * nga-onesided.x read wrong data now and then (docs/mpi-notes.md).
     */
    if (!GS.shm_ok) {
        /* MPICH 4.0.2 misplaces puts into windows whose size is not a
         * multiple of 16 bytes: under 16 the target never sees them, at
         * 2056 they land 8 bytes early (tests/mpi/mpich_small_win_repro.c;
         * 4.3.2 passed the small sizes).  Whole KiB (gmr_recycle.c) are
         * such a multiple, on every MPI; the slice size the table knows
         * stays the user's. */
        size_t wbytes = armcii_gmr_recycle_cap(size);
        ARMCII_MPI(MPI_Win_allocate((MPI_Aint)wbytes, 1, info, g->comm, &seg, &g->win));
        g->shm_win = MPI_WIN_NULL;
        g->disp_hdr = 0;
        ARMCII_MPI(MPI_Info_free(&info));
        return size ? seg : NULL;
    }
    int nsize;
    g->node_comm = armcii_gmr_comm_node(g->gcomm);
    ARMCII_MPI(MPI_Comm_size(g->node_comm, &nsize));
    ARMCII_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    size_t wbytes = armcii_gmr_recycle_cap(size) + ARMCII_SLICE_HDR;
    ARMCII_MPI(MPI_Win_allocate_shared((MPI_Aint)wbytes, 1, info, g->node_comm, &seg,
                                       &g->shm_win));
    *(volatile int *)seg = 0; /* the slice's accumulate lock */
    g->disp_hdr = ARMCII_SLICE_HDR;
    if (nsize == g->size) {
        g->win = g->shm_win;
    } else {
        ARMCII_MPI(MPI_Win_create(seg, (MPI_Aint)wbytes, 1, info, g->comm, &g->win));
    }
    g->all_local = GS.direct && nsize == g->size;
    ARMCII_MPI(MPI_Info_free(&info));
    return seg + ARMCII_SLICE_HDR;
}

/*
 * Open MPI 4.1's osc/rdma names the shared-memory file of a window after the
 * job and the communicator's context id, and two disjoint communicators can
 * hold the same id: disjoint groups creating windows at the same moment then
 * collide on the file (open-mpi/ompi issue 7393; GA processor-group programs
 * failed at random on it).  Creation of windows over a group smaller than
 * the world is therefore serialized world-wide by an exclusive lock on a
 * world window, taken by the group's rank 0.  Every member first enters a
 * barrier, so the lock holder only ever waits for processes already inside
 * its own allocation: overlapping groups, called in a consistent order,
 * cannot deadlock on it.  tests/mpi/test_groups_disjoint.c keeps the case.
 */
static void group_creation(armcii_gmr_t *g, int begin)
{
    if (g->size == armcii_state.nproc)
        return;
    armcii_barrier(g->comm);
    if (g->rank == 0) {
        if (begin)
            ARMCII_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, GS.create_lock));
        else
            ARMCII_MPI(MPI_Win_unlock(0, GS.create_lock));
    }
    if (begin)
        armcii_barrier(g->comm);
}

armcii_gmr_t *armcii_gmr_region_shell(const char *call, armcii_gmr_comm_t *gc)
{
    armcii_gmr_t *g = calloc(1, sizeof *g);
    if (!g)
        armcii_error(call, "out of memory");
    g->gcomm = gc;
    g->comm = g->gcomm->comm;
    g->node_comm = MPI_COMM_NULL;
    ARMCII_MPI(MPI_Comm_size(g->comm, &g->size));
    ARMCII_MPI(MPI_Comm_rank(g->comm, &g->rank));
    g->abs_of = malloc((size_t)g->size * sizeof(int));
    g->slice = calloc((size_t)g->size, sizeof *g->slice);
    g->dirty = calloc((size_t)g->size, 1);
    if (armcii_state.threaded) {
        g->wcnt = calloc(2 * (size_t)g->size, sizeof(unsigned long));
        g->fcnt = calloc(2 * (size_t)g->size, sizeof(unsigned long));
        g->wsnap = calloc(2 * (size_t)g->size, sizeof(unsigned long));
        if (!g->wcnt || !g->fcnt || !g->wsnap)
            armcii_error(call, "out of memory");
    }
    if (!g->abs_of || !g->slice || !g->dirty)
        armcii_error(call, "out of memory");
    return g;
}

armcii_gmr_t *armcii_gmr_new_region(const char *call, MPI_Comm comm)
{
    armcii_gmr_t *g = armcii_gmr_region_shell(call, armcii_gmr_comm_get(comm));
    armcii_allgather(&armcii_state.rank, 1, MPI_INT, g->abs_of, g->comm);
    return g;
}

/* g's windows into their epoch (one for a region's life: MPI's lock_all),
 * and what they tell about this MPI. */
static void open_epoch(armcii_gmr_t *g)
{
    ARMCII_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, g->win));
    __atomic_or_fetch(&GS.region_classes, armcii_gmr_software_classes(armcii_win_component(g->win)),
                      __ATOMIC_RELAXED);
    __atomic_store_n(&GS.region_made, 1, __ATOMIC_RELAXED);
    int wq = armcii_win_quirks(g->win);
    GS.poke |= (wq & ARMCII_QUIRK_WIN_POKE) != 0;
    GS.no_flush_local |= (wq & ARMCII_QUIRK_NO_FLUSH_LOCAL) != 0;  /* see armcii_gmr_init */
    /* threaded runs keep the flushes: the request list (gmr_yield.c) is
     * the process's own, and an atomic ordered after a put needs the bits.
     * Operations sent to ghosts use the ghosts' windows, which keep them. */
    g->by_req = (wq & ARMCII_QUIRK_BY_REQUEST) && !armcii_state.threaded;
}

char *armcii_gmr_new_windows(armcii_gmr_t *g, size_t size)
{
    group_creation(g, 1);
    char *mybase = alloc_windows(g, size);
    group_creation(g, 0);
    armcii_win_errors_return(g->win);
    g->flush_each = (armcii_win_quirks(g->win) & ARMCII_QUIRK_FLUSH_ALL_EARLY) != 0;
    if (g->shm_win != MPI_WIN_NULL && g->shm_win != g->win)
        armcii_win_errors_return(g->shm_win);
    g->mybase = mybase;
    g->recyclable = g->size == armcii_state.nproc; /* gmr_recycle.c */
    open_epoch(g);
    return mybase;
}

/* A region with windows of its own, a kept one (*reused) or new, its
 * slices filled (collective over comm; req: the gather, NULL for groups). */
static armcii_gmr_t *windowed_region(const char *call, MPI_Comm comm, size_t size,
                                     const unsigned long *req, int *reused)
{
    armcii_gmr_t *g = req ? armcii_gmr_recycle_take(comm, req) : NULL;
    *reused = g != NULL;
    if (g) {
        if (g->shm_win != MPI_WIN_NULL)
            *(volatile int *)(g->mybase - ARMCII_SLICE_HDR) = 0; /* the slice's accumulate lock */
        open_epoch(g);
        armcii_gmr_refill_slices(g, g->mybase, req);
    } else {
        g = armcii_gmr_new_region(call, comm);
        char *mybase = armcii_gmr_new_windows(g, size);
        armcii_gmr_fill_slices(g, size ? mybase : NULL, size);
    }
    return g;
}

armcii_gmr_t *armcii_gmr_create(const char *call, MPI_Comm comm, size_t size, void **base_ptrs)
{
    int gsize;
    ARMCII_MPI(MPI_Comm_size(comm, &gsize));
    /* Over all processes one gather serves the size check, the choice of a
     * recycled region and, for one, its slices; groups reduce the size. */
    unsigned long mx = size, *req = NULL;
    if (gsize == armcii_state.nproc)
        req = armcii_gmr_recycle_gather(comm, size, &mx);
    else
        armcii_allreduce(MPI_IN_PLACE, &mx, 1, MPI_UNSIGNED_LONG, MPI_MAX, comm);
    if (mx == 0) {
        free(req);
        for (int r = 0; r < gsize; r++)
            base_ptrs[r] = NULL;
        return NULL;
    }
    int reused = 0;
    armcii_gmr_t *g = req ? armcii_gmr_slab_take(call, comm, req, mx) : NULL;
    if (!g)
        g = windowed_region(call, comm, size, req, &reused);
    if (size && armcii_state.cfg.debug_alloc)
        memset(g->slice[g->rank].base, 0, size);
    free(req);
    armcii_gmr_ghost_created(g);
    list_link(g);
    __atomic_add_fetch(&GS.allocations, 1, __ATOMIC_RELAXED);
    armcii_barrier(g->comm);
    for (int r = 0; r < g->size; r++)
        base_ptrs[r] = g->slice[r].base;
    armcii_log(2, "%s: region of %d ranks, %zu bytes here, %s%s%s%s%s", call, g->size, size,
               g->shm_win == MPI_WIN_NULL ? "MPI_Win_allocate"
               : g->win == g->shm_win ? "node-shared window" : "node-shared + MPI_Win_create",
               g->all_local ? ", direct accumulates" : "",
               g->by_req ? ", completed by request" : "", reused ? ", reused" : "",
               g->slab ? ", in a shared slab" : "");
    return g;
}

void armcii_gmr_release(armcii_gmr_t *g)
{
    armcii_gmr_yield_wait(g->win, -1);
    if (g->shm_win != g->win && g->shm_win != MPI_WIN_NULL)
        armcii_gmr_yield_wait(g->shm_win, -1);
    if (g->win != g->shm_win)
        ARMCII_MPI(MPI_Win_free(&g->win));
    if (g->shm_win != MPI_WIN_NULL)
        ARMCII_MPI(MPI_Win_free(&g->shm_win));
    armcii_gmr_ghost_release(g);
    armcii_gmr_free_fields(g);
}

void armcii_gmr_free_fields(armcii_gmr_t *g)
{
    armcii_gmr_comm_put(g->gcomm);
    free(g->abs_of);
    free(g->slice);
    free(g->dirty);
    free(g->wcnt);
    free(g->fcnt);
    free(g->wsnap);
    free(g->cap);
    free(g->cap_base);
    free(g);
}

/* Tear down g (collective over g->comm); keep: its windows may be kept
 * for reuse (gmr_recycle.c). */
static void region_free(armcii_gmr_t *g, int keep)
{
    armcii_gmr_nb_purge(g);
    /* my writes complete on every path, then nobody touches the slices */
    armcii_gmr_fence_region(g);
    armcii_gmr_ghost_freed(g);
    armcii_barrier(g->comm);
    /* Out of the lists before its epoch ends: another thread's fence or
     * bound (gmr_ops.c) flushes the windows it finds there. */
    list_unlink(g);
    if (!g->slab) /* a slab's epoch is the slab's (gmr_slab.c) */
        ARMCII_MPI(MPI_Win_unlock_all(g->win));
    for (int r = 0; r < g->size; r++)
        if (g->slice[r].size)
            armcii_gmr_table_remove(&GS.table, g->abs_of[r], (uintptr_t)g->slice[r].base);
    size_t mine = g->slice[g->rank].size;
    if (g->slab) {
        armcii_log(2, "region of %d ranks, %zu bytes here, its place in a slab freed", g->size,
                   mine);
        armcii_gmr_slab_put(g);
        return;
    }
    keep = keep && armcii_gmr_recycle_keep(g);
    armcii_log(2, "region of %d ranks, %zu bytes here, %s", g->size, mine,
               keep ? "kept for reuse" : "freed");
    if (!keep)
        armcii_gmr_release(g);
}

armcii_gmr_t *armcii_gmr_find_local(const void *ptr)
{
    const armcii_gmr_entry_t *e =
        armcii_gmr_table_find(&GS.table, armcii_state.rank, (uintptr_t)ptr);
    return e ? e->region : NULL;
}

/* Names a live region for every member: the absolute rank and base of
 * its first non-empty slice (one exists: an allocation of nothing makes no
 * region).  Slices of live regions never overlap, so no two share it.
 * User-space addresses are below 2^63 on every system MPI runs on, so the
 * base fits a long. */
static void region_key(const armcii_gmr_t *g, long key[2])
{
    int r = 0;
    while (!g->slice[r].size)
        r++;
    key[0] = g->abs_of[r];
    key[1] = (long)(uintptr_t)g->slice[r].base;
}

void armcii_gmr_destroy(const char *call, MPI_Comm comm, void *ptr)
{
    armcii_gmr_t *mine = NULL;
    if (ptr) {
        mine = armcii_gmr_find_local(ptr);
        if (!mine)
            armcii_error(call, "pointer %p is not inside any ARMCI allocation of this "
                         "process", ptr);
    }
    /* One reduction agrees on the region: the largest key among the
     * processes that passed a pointer and, through the negations, the
     * smallest; they differ when pointers of different regions were
     * passed.  Processes that passed NULL add values below any key.
     * Signed longs, not unsigned complements: MPI_MAX and MPI_MIN order
     * MPI_UNSIGNED_LONG as signed in Open MPI 4.1.4 and MPICH 4.0.2
     * (tests/mpi/unsigned_minmax_repro.c). */
    long v[4] = {-1, -1, LONG_MIN, LONG_MIN};
    if (mine) {
        region_key(mine, v);
        v[2] = -v[0];
        v[3] = -v[1];
    }
    armcii_allreduce(MPI_IN_PLACE, v, 4, MPI_LONG, MPI_MAX, comm);
    if (v[0] < 0)
        return; /* every process passed NULL */
    if (v[0] != -v[2] || v[1] != -v[3])
        armcii_error(call, "processes passed pointers of different allocations");
    const armcii_gmr_entry_t *e = armcii_gmr_table_find(&GS.table, (int)v[0], (uintptr_t)v[1]);
    armcii_gmr_t *g = e ? e->region : NULL;
    if (!g) /* a passer's own key always finds its region */
        armcii_error(call, "the other processes freed an allocation this process is not "
                     "part of");
    int gsize;
    ARMCII_MPI(MPI_Comm_size(comm, &gsize));
    if (gsize != g->size)
        armcii_error(call, "the allocation was made over a group of %d processes, freed "
                     "over %d", g->size, gsize);
    region_free(g, 1);
}

int armcii_gmr_finalize(void)
{
    int leaked = 0;
    armcii_gmr_nb_finalize();
    /* Oldest first: the order every member created them in. */
    armcii_gmr_t *g = GS.regions;
    while (g && g->next)
        g = g->next;
    while (g) {
        armcii_gmr_t *prev = g->prev;
        region_free(g, 0);
        leaked++;
        g = prev;
    }
    armcii_gmr_recycle_drain();
    armcii_gmr_slab_drain();
    armcii_gmr_yield_wait(MPI_WIN_NULL, -1); /* ghosts' pool windows */
    armcii_gmr_ghost_finalize();
    armcii_gmr_local_finalize();
    armcii_gmr_table_destroy(&GS.table);
    ARMCII_MPI(MPI_Win_free(&GS.create_lock));
    return leaked;
}

#ifndef ARMCII_GHOSTS
int armcii_gmr_ghost_pools(void) { return 0; } /* gmr_ghost.c in the ghost build */
/* t->am is never set outside the ghost build */
void armcii_gmr_acc_am(const armcii_target_t *t, int datatype, const void *scale,
                       const armcii_gmr_src_t *src, int levels, const int count[],
                       const int rstride[])
{
    (void)t, (void)datatype, (void)scale, (void)src, (void)levels, (void)count, (void)rstride;
    armcii_error(armcii_current_call, "internal: an accumulate for a ghost without ghosts");
}
void armcii_gmr_xfer_am(const armcii_target_t *t, int put, const armcii_gmr_src_t *src,
                        int levels, const int count[], const int rstride[])
{
    (void)t, (void)put, (void)src, (void)levels, (void)count, (void)rstride;
    armcii_error(armcii_current_call, "internal: a transfer for a ghost without ghosts");
}
void armcii_gmr_vec_am(const armcii_target_t *t, int datatype, const void *scale, long n,
                       int block, char *const loc[], const MPI_Aint tdisp[])
{
    (void)t, (void)datatype, (void)scale, (void)n, (void)block, (void)loc, (void)tdisp;
    armcii_error(armcii_current_call, "internal: a vector for a ghost without ghosts");
}
#endif
