/*
 * Completion sets: what nonblocking operations still need to complete.
 *
 * armci_hdl_t is 8 bytes in the ABI GA was built with, so a handle holds
 * only (slot index + 1, generation) of a set in the table below; operations
 * with a NULL handle go to the implicit set (WaitProc/WaitAll).  A set
 * lists the (window, rank) pairs its operations were issued to, and waiting
 * completes them with one local flush each: NbPut + Wait costs what a
 * blocking put costs (no MPI request objects), and a stale or never-used
 * handle finds no set and completes at once.  Every entry names its region,
 * so freeing a region drops its entries (the free itself completes them)
 * and no set ever flushes a freed window.
 * Threads: the table is shared; it is locked only in MPI_THREAD_MULTIPLE runs.
 */
#include <stdlib.h>
#include <string.h>
#include "gmr_impl.h"

typedef struct {
    const armcii_gmr_t *gmr;
    MPI_Win win;
    int rank;
    int abs;
    int reads;
    int getpath;    /* a get whose path was chosen by cost (armcii_target_t) is
                     * among the entry's operations: the entry's completion is
                     * its sample (one per entry: the others' cost is in it) */
    double t_issue; /* when the first such get was issued */
} nb_dest_t;

typedef struct {
    int gen;
    int active;
    int n, cap;
    nb_dest_t *dest;
    int next_free;
} nb_slot_t;

/* Above this many implicit destinations, complete them eagerly. */
#define NB_IMPLICIT_MAX 4096

static struct {
    nb_slot_t *slot;
    int nslot;
    int free_head;          /* -1: none */
    nb_slot_t implicit;
    armcii_lock_t lock;
} nb = {NULL, 0, -1, {0, 1, 0, 0, NULL, -1}, {0}};

/* Every get whose path was chosen by cost must end in a sample, or its
 * try would go unpaid from the tries' budget (gmr_getpath.c); one waited
 * for late (the implicit set's WaitAll) overstates its path's cost, which
 * only makes tries of that path rarer. */
static void add_dest(nb_slot_t *s, const armcii_target_t *t)
{
    /* abs too: in the ghost build the users of a node share one (window,
     * rank) pair, their ghost, and ARMCI_WaitProc(abs) must still find
     * each (test_stress, check-ghost mode pt2pt: a merged entry left a
     * get to the second user incomplete) */
    for (int i = s->n - 1; i >= 0 && i >= s->n - 8; i--)
        if (s->dest[i].win == t->win && s->dest[i].rank == t->rank &&
            s->dest[i].abs == t->abs) {
            s->dest[i].reads |= t->reads;
            if (t->getpath && !s->dest[i].getpath) {
                s->dest[i].getpath = t->getpath;
                s->dest[i].t_issue = MPI_Wtime();
            }
            return;
        }
    if (s->n == s->cap)
        s->dest = armcii_grow(s->dest, &s->cap, 4, sizeof(nb_dest_t), "ARMCI_Nb*",
                              "handle bookkeeping");
    double t_issue = t->getpath ? MPI_Wtime() : 0;
    s->dest[s->n++] =
        (nb_dest_t){t->gmr, t->win, t->rank, t->abs, t->reads, t->getpath, t_issue};
}

/* Complete entries of s with abs == proc (all: proc < 0); keep the rest. */
static void drain(nb_slot_t *s, int proc)
{
    int k = 0;
    for (int i = 0; i < s->n; i++) {
        if (proc < 0 || s->dest[i].abs == proc) {
            armcii_gmr_complete_win(s->dest[i].win, s->dest[i].rank, s->dest[i].reads,
                                    armcii_gmr_win_by_req(s->dest[i].gmr, s->dest[i].win));
            if (s->dest[i].getpath)
                armcii_gmr_getpath_sample(s->dest[i].getpath, MPI_Wtime() - s->dest[i].t_issue);
        } else
            s->dest[k++] = s->dest[i];
    }
    s->n = k;
}

static nb_slot_t *slot_of(const armci_hdl_t *h)
{
    int i = h->target - 1;
    if (i < 0 || i >= nb.nslot || !nb.slot[i].active || nb.slot[i].gen != h->aggregate)
        return NULL;
    return &nb.slot[i];
}

static int slot_alloc(void)
{
    if (nb.free_head < 0) {
        int n = nb.nslot ? 2 * nb.nslot : 64;
        nb_slot_t *s = realloc(nb.slot, (size_t)n * sizeof *s);
        if (!s)
            armcii_error("ARMCI_Nb*", "out of memory for handles");
        memset(s + nb.nslot, 0, (size_t)(n - nb.nslot) * sizeof *s);
        for (int i = n - 1; i >= nb.nslot; i--) {
            s[i].next_free = nb.free_head;
            nb.free_head = i;
        }
        nb.slot = s;
        nb.nslot = n;
    }
    int i = nb.free_head;
    nb.free_head = nb.slot[i].next_free;
    nb.slot[i].active = 1;
    nb.slot[i].gen++;
    nb.slot[i].n = 0;
    return i;
}

void armcii_gmr_nb_track(armci_hdl_t *hdl, const armcii_target_t *t)
{
    armcii_lock(&nb.lock);
    if (!hdl) {
        if (nb.implicit.n >= NB_IMPLICIT_MAX)
            drain(&nb.implicit, -1);
        add_dest(&nb.implicit, t);
    } else {
        nb_slot_t *s = slot_of(hdl);
        if (!s) {
            int i = slot_alloc();
            s = &nb.slot[i];
            hdl->target = i + 1;
            hdl->aggregate = s->gen;
        }
        add_dest(s, t);
    }
    armcii_unlock(&nb.lock);
}

void armcii_gmr_nb_wait(armci_hdl_t *hdl)
{
    armcii_lock(&nb.lock);
    nb_slot_t *s = slot_of(hdl);
    if (s) {
        drain(s, -1);
        s->active = 0;
        s->next_free = nb.free_head;
        nb.free_head = (int)(s - nb.slot);
    }
    armcii_unlock(&nb.lock);
}

void armcii_gmr_nb_wait_proc(int proc)
{
    armcii_lock(&nb.lock);
    drain(&nb.implicit, proc);
    armcii_unlock(&nb.lock);
}

static void purge_slot(nb_slot_t *s, const armcii_gmr_t *g)
{
    int k = 0;
    for (int i = 0; i < s->n; i++)
        if (s->dest[i].gmr != g)
            s->dest[k++] = s->dest[i];
    s->n = k;
}

void armcii_gmr_nb_purge(const armcii_gmr_t *g)
{
    armcii_lock(&nb.lock);
    purge_slot(&nb.implicit, g);
    for (int i = 0; i < nb.nslot; i++)
        if (nb.slot[i].active)
            purge_slot(&nb.slot[i], g);
    armcii_unlock(&nb.lock);
}

void armcii_gmr_nb_finalize(void)
{
    drain(&nb.implicit, -1);
    for (int i = 0; i < nb.nslot; i++) {
        if (nb.slot[i].active)
            drain(&nb.slot[i], -1);
        free(nb.slot[i].dest);
    }
    free(nb.slot);
    free(nb.implicit.dest);
    nb.slot = NULL;
    nb.implicit.dest = NULL;
    nb.implicit.cap = nb.implicit.n = 0;
    nb.nslot = 0;
    nb.free_head = -1;
}
