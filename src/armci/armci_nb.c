/*
 * Nonblocking handles.
 *
 * armci_hdl_t is 8 bytes in the ABI GA was built with, so the handle holds
 * only (slot index + 1, generation) of an entry in an internal table.  An
 * entry lists the (window, rank) pairs its operations were issued to; Wait
 * completes them with one local flush each.  That keeps NbPut + Wait as
 * cheap as a blocking put (no MPI request objects), and a stale or never
 * used handle simply finds no matching entry and completes at once.
 * Operations with a NULL handle go to the implicit set (WaitProc/WaitAll).
 */
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"
#include "../gmr/gmr.h"
#include "../progress/progress.h"

typedef struct {
    MPI_Win win;
    int rank;
    int abs;
    int reads;
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
} nb = {NULL, 0, -1, {0, 1, 0, 0, NULL, -1}};

static void complete(const nb_dest_t *d)
{
    armcii_gmr_complete_win(d->win, d->rank, d->reads);
}

static void add_dest(nb_slot_t *s, const armcii_target_t *t)
{
    for (int i = s->n - 1; i >= 0 && i >= s->n - 8; i--)
        if (s->dest[i].win == t->win && s->dest[i].rank == t->rank) {
            s->dest[i].reads |= t->reads;
            return;
        }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 4;
        nb_dest_t *d = realloc(s->dest, (size_t)cap * sizeof *d);
        if (!d)
            armcii_error("ARMCI_Nb*", "out of memory for handle bookkeeping");
        s->dest = d;
        s->cap = cap;
    }
    s->dest[s->n++] = (nb_dest_t){t->win, t->rank, t->abs, t->reads};
}

static void drain(nb_slot_t *s)
{
    for (int i = 0; i < s->n; i++)
        complete(&s->dest[i]);
    s->n = 0;
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

static void slot_release(nb_slot_t *s)
{
    s->active = 0;
    s->next_free = nb.free_head;
    nb.free_head = (int)(s - nb.slot);
}

void armcii_nb_track(armci_hdl_t *hdl, const armcii_target_t *t)
{
    if (!hdl) {
        if (nb.implicit.n >= NB_IMPLICIT_MAX)
            drain(&nb.implicit);
        add_dest(&nb.implicit, t);
        return;
    }
    nb_slot_t *s = slot_of(hdl);
    if (!s) {
        int i = slot_alloc();
        s = &nb.slot[i];
        hdl->target = i + 1;
        hdl->aggregate = s->gen;
    }
    add_dest(s, t);
}

void armcii_nb_finalize(void)
{
    drain(&nb.implicit);
    for (int i = 0; i < nb.nslot; i++)
        free(nb.slot[i].dest);
    free(nb.slot);
    free(nb.implicit.dest);
    nb.slot = NULL;
    nb.implicit.dest = NULL;
    nb.implicit.cap = nb.implicit.n = 0;
    nb.nslot = 0;
    nb.free_head = -1;
}

int PARMCI_Wait(armci_hdl_t *hdl)
{
    armcii_check_init("ARMCI_Wait");
    if (!hdl)
        armcii_error("ARMCI_Wait", "handle is NULL");
    nb_slot_t *s = slot_of(hdl);
    if (s) {
        armcii_profile_enter();
        drain(s);
        slot_release(s);
        armcii_profile_leave();
    }
    return 0;
}
ARMCII_WEAK(Wait)

/* Completes the operations and reports 0 (done): flush has no test form. */
int PARMCI_Test(armci_hdl_t *hdl)
{
    armcii_check_init("ARMCI_Test");
    if (!hdl)
        armcii_error("ARMCI_Test", "handle is NULL");
    return PARMCI_Wait(hdl);
}
ARMCII_WEAK(Test)

int PARMCI_WaitProc(int proc)
{
    armcii_check_init("ARMCI_WaitProc");
    armcii_check_proc("ARMCI_WaitProc", proc);
    nb_slot_t *s = &nb.implicit;
    int k = 0;
    armcii_profile_enter();
    for (int i = 0; i < s->n; i++) {
        if (s->dest[i].abs == proc)
            complete(&s->dest[i]);
        else
            s->dest[k++] = s->dest[i];
    }
    s->n = k;
    armcii_profile_leave();
    return 0;
}
ARMCII_WEAK(WaitProc)

int PARMCI_WaitAll(void)
{
    armcii_check_init("ARMCI_WaitAll");
    armcii_profile_enter();
    drain(&nb.implicit);
    armcii_profile_leave();
    return 0;
}
ARMCII_WEAK(WaitAll)

/* Public: reset a handle to "no operation". */
void ARMCI_INIT_HANDLE(armci_hdl_t *hdl)
{
    if (hdl)
        hdl->target = hdl->aggregate = 0;
}

/* Every handle may carry several operations, so aggregation needs no mark;
 * the handle's fields are not touched (they identify its table entry). */
void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *handle) { (void)handle; }
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *handle) { (void)handle; }

int PARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl)
{
    return armcii_put("ARMCI_NbPut", src, dst, bytes, proc, hdl, 0);
}
ARMCII_WEAK(NbPut)

int PARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl)
{
    return armcii_get("ARMCI_NbGet", src, dst, bytes, proc, hdl, 0);
}
ARMCII_WEAK(NbGet)

int PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes, int proc,
                 armci_hdl_t *hdl)
{
    return armcii_acc("ARMCI_NbAcc", datatype, scale, src, dst, bytes, proc, hdl, 0);
}
ARMCII_WEAK(NbAcc)
