/*
 * Ghost backend, user side: region memory the ghosts can reach, and the
 * redirection of software-handled operations.
 *
 * Memory.  A region that spans nodes and has redirection on gets each
 * user's slice as a POSIX shm object the user creates; the user's bound
 * ghost maps it by name (MAP command), attaches it to the one dynamic window
 * created over the whole job at MPI_Init, and the name is unlinked at once
 * (no file outlives a crash).  The users' own window is MPI_Win_create over
 * the same memory (created by gmr), so contiguous put/get go to the target
 * directly and only ACC/RMW/NONCONTIG (and Put_flag's NOTIFY) go to
 * (ghost, ghost's address).  A ghost that cannot attach a slice (Open MPI
 * 4.1's osc/ucx attaches at most 32 regions per dynamic window) answers
 * address 0; the region is then not redirected, decided collectively.
 * Attach/detach are local: no collective involves a ghost.
 *
 * Atomicity: on such a region EVERY accumulate,
 * RMW and noncontiguous operation to a target goes through its one ghost,
 * from any origin including same-node ones and the target itself, so MPI's
 * per-target atomicity and ordering hold; the region is never all_local, so
 * no CPU accumulate path runs on it.  Redirection is fixed for the region's
 * life (decided collectively at allocation).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gmr.h"
#include "../ghost/ghost.h"

#define PS armcii_ghost_state

typedef struct {
    char *base;          /* my slice (my mapping), or NULL */
    size_t size;
    MPI_Aint my_gaddr;   /* my ghost's address of my slice; 0: not attached */
    int exposed;         /* every slice attached: the region is redirected */
    MPI_Aint *gaddr;     /* by group rank: the ghost's address of the slice */
    int *ghost;          /* by group rank: the target's ghost in pworld */
} ghost_region_t;

void armcii_gmr_ghost_init(void)
{
    if (!PS.ghosts_on)
        return;
    armcii_log(1, "ghosts: %d per node, %d users per node, bound ghost %d; redirection "
               "%s (ARMCI_GHOST_ASYNC)", PS.ghosts_per_node, PS.users_per_chunk,
               PS.my_ghost, armcii_config_choice("ARMCI_GHOST_ASYNC",
                                                 armcii_state.cfg.ghost_async));
    if (PS.dyn_unusable && armcii_state.rank == 0)
        armcii_warn("ghosts: this MPI's osc/ucx dynamic windows are unreliable (Open MPI < 5); "
                    "no operation is redirected to ghosts in this run");
}

void armcii_gmr_ghost_finalize(void) {}

int armcii_gmr_ghost_usable(void) { return PS.ghosts_on && !PS.dyn_unusable; }


/* Redirection of g on or off; contiguous put/get to ghosts close the fast
 * path (gmr_xfer.c), which never translates. */
static void set_async(armcii_gmr_t *g, int on)
{
    g->ghost_async = on;
    g->ghost_rw = on && (g->ghost_classes & (1u << ARMCII_OP_PUT | 1u << ARMCII_OP_GET));
}

static int async_wanted(const armcii_gmr_t *g)
{
    if (!PS.ghosts_on || PS.dyn_unusable)
        return 0;
    int on = armcii_gmr_state.async_hint >= 0 ? armcii_gmr_state.async_hint
                                : armcii_state.cfg.ghost_async != ARMCII_ASYNC_OFF;
    int node0 = armcii_node_of(g->abs_of[0]), spans = 0;
    for (int r = 1; r < g->size && !spans; r++)
        spans = armcii_node_of(g->abs_of[r]) != node0;
    return on && spans; /* within one node the direct path needs no ghost */
}

/* Create my slice as shm, have my ghost map it; returns my mapping. */
static char *make_slice(ghost_region_t *pr, size_t size)
{
    char name[48];
    snprintf(name, sizeof name, "/armci.%d.%ld", (int)getpid(), PS.shm_counter++);
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)size)) {
        if (fd >= 0)
            shm_unlink(name);
        armcii_error("ARMCI_Malloc", "cannot create shared memory %s of %zu bytes", name, size);
    }
    /* ftruncate only sets the size: on a full /dev/shm the first touch of
     * a page would raise SIGBUS.  Reserve the pages now and fail cleanly. */
    int rc = posix_fallocate(fd, 0, (off_t)size);
    if (rc) {
        close(fd);
        shm_unlink(name);
        armcii_error("ARMCI_Malloc", "cannot reserve %zu bytes of shared memory (%s): /dev/shm "
                     "may be full", size, strerror(rc));
    }
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(name);
        armcii_error("ARMCI_Malloc", "cannot map shared memory of %zu bytes", size);
    }
    pr->my_gaddr = armcii_ghost_command(ARMCII_GHOST_MAP, (long)size, 0, name);
    shm_unlink(name); /* both mappings stay valid */
    return p;
}

int armcii_gmr_ghost_alloc(armcii_gmr_t *g, size_t size, char **mem)
{
    int want = async_wanted(g), all;
    armcii_ghost_release_zombies();
    ARMCII_MPI(MPI_Allreduce(&want, &all, 1, MPI_INT, MPI_MIN, g->comm));
    if (!all)
        return 0;
    ghost_region_t *pr = calloc(1, sizeof *pr);
    if (!pr)
        armcii_error("ARMCI_Malloc", "out of memory");
    pr->size = size;
    pr->base = size ? make_slice(pr, size) : NULL;
    int ok = !size || pr->my_gaddr != 0;
    ARMCII_MPI(MPI_Allreduce(&ok, &pr->exposed, 1, MPI_INT, MPI_MIN, g->comm));
    if (!pr->exposed) {
        if (pr->my_gaddr)
            armcii_ghost_command(ARMCII_GHOST_UNMAP, (long)pr->size, pr->my_gaddr, NULL);
        pr->my_gaddr = 0;
        armcii_warn_once("a ghost could not attach a region to its window (MPI_Win_attach "
                         "failed); such regions are not redirected to ghosts");
    }
    g->ghost = pr;
    *mem = pr->base;
    return 1;
}

void armcii_gmr_ghost_created(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    g->ghost_async = 0;
    if (!pr || !pr->exposed)
        return;
    pr->gaddr = malloc((size_t)g->size * sizeof(MPI_Aint));
    pr->ghost = malloc((size_t)g->size * sizeof(int));
    if (!pr->gaddr || !pr->ghost)
        armcii_error("ARMCI_Malloc", "out of memory");
    ARMCII_MPI(MPI_Allgather(&pr->my_gaddr, 1, MPI_AINT, pr->gaddr, 1, MPI_AINT, g->comm));
    ARMCII_MPI(MPI_Allgather(&PS.my_ghost, 1, MPI_INT, pr->ghost, 1, MPI_INT, g->comm));
    int osc = armcii_win_component(g->win);
    g->ghost_classes = armcii_software_classes(osc);
    set_async(g, !armcii_gmr_state.phase_off);
    char names[64];
    armcii_class_names(g->ghost_classes, names, sizeof names);
    if (!(PS.logged_osc & 1u << osc)) { /* once per component and process */
        PS.logged_osc |= 1u << osc;
        armcii_log(1, "ghosts: %s windows: classes served by ghosts: %s (per class: "
                   "common_quirks.c, armcii_software_classes)", armcii_osc_name(osc), names);
    }
    armcii_log(2, "region of %d ranks (%s): %s go to ghosts", g->size, armcii_osc_name(osc),
               names);
}

void armcii_gmr_ghost_freed(armcii_gmr_t *g)
{
    ghost_region_t *pr = g->ghost;
    armcii_ghost_release_zombies();
    if (!pr)
        return;
    if (pr->exposed) {
        /* Nobody may touch the slices through ghosts after this barrier. */
        ARMCII_MPI(MPI_Win_flush_all(g->win));
        ARMCII_MPI(MPI_Win_flush_all(PS.dyn_win));
        ARMCII_MPI(MPI_Barrier(g->comm));
    }
    if (pr->base) {
        if (pr->my_gaddr)
            armcii_ghost_command(ARMCII_GHOST_UNMAP, (long)pr->size, pr->my_gaddr, NULL);
        /* gmr still frees a window over this memory: unmap it later. */
        struct armcii_ghost_mapping *z = malloc(sizeof *z);
        if (!z)
            armcii_error("ARMCI_Free", "out of memory");
        *z = (struct armcii_ghost_mapping){pr->base, pr->size, PS.zombies};
        PS.zombies = z;
    }
    free(pr->gaddr);
    free(pr->ghost);
    free(pr);
    g->ghost = NULL;
    set_async(g, 0);
}

void armcii_gmr_ghost_redirect(armcii_opclass_t cls, armcii_target_t *t)
{
    armcii_gmr_t *g = t->gmr;
    if (!g->ghost_async || !(g->ghost_classes & 1u << cls))
        return;
    ghost_region_t *pr = g->ghost;
    t->win = PS.dyn_win;
    t->rank = pr->ghost[t->grank];
    t->disp = pr->gaddr[t->grank] + (t->disp - g->disp_hdr);
    t->direct = NULL;
    __atomic_add_fetch(&armcii_gmr_state.redirected, 1, __ATOMIC_RELAXED);
}

/* Both paths stay valid for an exposed region's life: switching only flips
 * the flag translation reads; ordering is the caller's barrier. */
void armcii_gmr_ghost_switch(int on)
{
    for (armcii_gmr_t *g = armcii_gmr_state.regions; g; g = g->next) {
        ghost_region_t *pr = g->ghost;
        if (pr && pr->exposed && pr->ghost)
            set_async(g, on);
    }
}

void armcii_gmr_ghost_fence(armcii_gmr_t *g, int grank)
{
    ghost_region_t *pr = g->ghost;
    if (!pr || !pr->ghost) /* never exposed: nothing can be pending there */
        return;
    if (grank < 0)
        ARMCII_MPI(MPI_Win_flush_all(PS.dyn_win));
    else
        ARMCII_MPI(MPI_Win_flush(pr->ghost[grank], PS.dyn_win));
}
