/*
 * Process groups.  An ARMCI_Group is copied by value everywhere (GA keeps
 * copies), so its state lives behind its fields: the communicator and a
 * record holding the group -> absolute rank table (grp_to_abs points into
 * it).  A record is never returned to malloc while the library runs: a
 * freed record stays marked dead, so freeing a second copy of a group is a
 * harmless no-op instead of a double free, and can never hit a newer group
 * that reused the memory.  Non-members hold comm = MPI_COMM_NULL, rank -1,
 * size 0 and NULL tables.  The world group has no record (identity map).
 */
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "common_group.h"

typedef struct grp_rec {
    int alive;
    struct grp_rec *next;   /* every record, for release at finalize */
    /* what every copy of the group holds: a copy with other values was
     * overwritten (a garbage group with plausible fields must not have its
     * tables dereferenced) */
    MPI_Comm comm;
    int *abs_to_grp;
    int rank, size;
    int table[];            /* grp_to_abs */
} grp_rec_t;

static struct {
    grp_rec_t *records;
    armcii_lock_t lock;
} grp_state;

/* The record whose table g points to, found without following g's
 * pointers (they may be wild). */
static grp_rec_t *rec_of(const ARMCI_Group *g)
{
    if (!g->grp_to_abs)
        return NULL;
    armcii_lock(&grp_state.lock);
    grp_rec_t *r = grp_state.records;
    while (r && r->table != g->grp_to_abs)
        r = r->next;
    armcii_unlock(&grp_state.lock);
    return r;
}

/* g's fields are those of the group ARMCI made (rec: its record; none for
 * the world group, whose tables are NULL: the identity map). */
static int fields_match(const ARMCI_Group *g, const grp_rec_t *rec)
{
    if (!rec)
        return g->comm == armcii_state.world && !g->abs_to_grp &&
               g->size == armcii_state.nproc && g->rank == armcii_state.rank;
    return g->comm == rec->comm && g->abs_to_grp == rec->abs_to_grp &&
           g->rank == rec->rank && g->size == rec->size;
}

static void null_group(ARMCI_Group *g)
{
    g->comm = MPI_COMM_NULL;
    g->noncoll_pgroup_comm = MPI_COMM_NULL;
    g->grp_to_abs = NULL;
    g->abs_to_grp = NULL;
    g->rank = -1;
    g->size = 0;
}

void armcii_group_from_comm(const char *call, MPI_Comm comm, ARMCI_Group *g)
{
    null_group(g);
    if (comm == MPI_COMM_NULL)
        return;
    int n = armcii_state.nproc;
    MPI_Group gg, wg;
    ARMCII_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    g->comm = comm;
    ARMCII_MPI(MPI_Comm_rank(comm, &g->rank));
    ARMCII_MPI(MPI_Comm_size(comm, &g->size));
    grp_rec_t *rec = malloc(sizeof *rec + (size_t)g->size * sizeof(int));
    g->abs_to_grp = malloc((size_t)n * sizeof(int));
    int *seq = malloc((size_t)g->size * sizeof(int));
    if (!rec || !g->abs_to_grp || !seq)
        armcii_error(call, "out of memory for a group of %d processes", g->size);
    rec->alive = 1;
    rec->comm = comm;
    rec->abs_to_grp = g->abs_to_grp;
    rec->rank = g->rank;
    rec->size = g->size;
    g->grp_to_abs = rec->table;
    for (int i = 0; i < g->size; i++)
        seq[i] = i;
    ARMCII_MPI(MPI_Comm_group(comm, &gg));
    ARMCII_MPI(MPI_Comm_group(armcii_state.world, &wg));
    ARMCII_MPI(MPI_Group_translate_ranks(gg, g->size, seq, wg, g->grp_to_abs));
    ARMCII_MPI(MPI_Group_free(&gg));
    ARMCII_MPI(MPI_Group_free(&wg));
    free(seq);
    for (int p = 0; p < n; p++)
        g->abs_to_grp[p] = -1;
    for (int i = 0; i < g->size; i++)
        g->abs_to_grp[g->grp_to_abs[i]] = i;
    armcii_lock(&grp_state.lock);
    rec->next = grp_state.records;
    grp_state.records = rec;
    armcii_unlock(&grp_state.lock);
}

void armcii_group_init(void)
{
    ARMCI_Group *w = &armcii_state.world_group;
    null_group(w);
    w->comm = armcii_state.world;
    w->rank = armcii_state.rank;
    w->size = armcii_state.nproc;
    armcii_state.default_group = *w;
}

void armcii_group_finalize(void)
{
    null_group(&armcii_state.world_group);
    null_group(&armcii_state.default_group);
    while (grp_state.records) {
        grp_rec_t *r = grp_state.records;
        grp_state.records = r->next;
        free(r);
    }
}

void armcii_group_create_child(const char *call, int n, const int *pid, ARMCI_Group *out,
                               const ARMCI_Group *parent)
{
    MPI_Group pg, ng;
    MPI_Comm nc = MPI_COMM_NULL;
    MPI_Comm pc = armcii_group_comm(call, parent);
    ARMCII_MPI(MPI_Comm_group(pc, &pg));
    ARMCII_MPI(MPI_Group_incl(pg, n, pid, &ng));
    if (armcii_state.cfg.noncollective_groups) {
        int me_in;
        ARMCII_MPI(MPI_Group_rank(ng, &me_in));
        if (me_in != MPI_UNDEFINED)
            ARMCII_MPI(MPI_Comm_create_group(pc, ng, 42, &nc));
    } else {
        ARMCII_MPI(MPI_Comm_create(pc, ng, &nc));
    }
    ARMCII_MPI(MPI_Group_free(&pg));
    ARMCII_MPI(MPI_Group_free(&ng));
    armcii_group_from_comm(call, nc, out);
}

/* Frees the communicator and tables once, whichever copy comes first; a
 * default group that is freed falls back to the world group. */
void armcii_group_free(const char *call, ARMCI_Group *g)
{
    if (g->comm == MPI_COMM_NULL)
        return;
    if (armcii_state.init_count > 0 && g->comm == armcii_state.world)
        armcii_error(call, "the world group cannot be freed");
    grp_rec_t *rec = rec_of(g);
    if (!rec || (rec->alive && !fields_match(g, rec)))
        armcii_error(call, "%p is not a group created by ARMCI (or it is corrupt)",
                     (void *)g);
    if (rec->alive) {
        if (rec_of(&armcii_state.default_group) == rec)
            armcii_state.default_group = armcii_state.world_group;
        rec->alive = 0;
        ARMCII_MPI(MPI_Comm_free(&g->comm));
        free(g->abs_to_grp);
    }
    null_group(g);
}

MPI_Comm armcii_group_comm(const char *call, const ARMCI_Group *g)
{
    if (!g)
        armcii_error(call, "group is NULL");
    if (g->comm == MPI_COMM_NULL || g->rank < 0)
        armcii_error(call, "the calling process is not a member of the group");
    grp_rec_t *rec = rec_of(g);
    if (g->comm != armcii_state.world && (!rec || !rec->alive))
        armcii_error(call, "the group was freed (or was not created by ARMCI)");
    if (!fields_match(g, rec))
        armcii_error(call, "%p is not a valid ARMCI group (its fields differ from the "
                     "group ARMCI created: overwritten?)", (const void *)g);
    return g->comm;
}

int armcii_group_rank_of(const ARMCI_Group *g, int abs)
{
    if (abs < 0 || abs >= armcii_state.nproc)
        return -1;
    return g->abs_to_grp ? g->abs_to_grp[abs] : abs;
}

void armcii_group_split(const char *call, const ARMCI_Group *parent, int color, int key,
                        ARMCI_Group *out)
{
    MPI_Comm nc;
    ARMCII_MPI(MPI_Comm_split(armcii_group_comm(call, parent), color, key, &nc));
    armcii_group_from_comm(call, nc, out);
}
