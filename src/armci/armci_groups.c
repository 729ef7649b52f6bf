/*
 * Process groups.  An ARMCI_Group is copied by value everywhere (GA keeps
 * copies), so its state lives behind its fields: the communicator and two
 * heap tables shared by all copies.  Non-members hold comm = MPI_COMM_NULL,
 * rank -1, size 0 and NULL tables, which makes Group_free on them a no-op.
 */
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"

static void null_group(ARMCI_Group *g)
{
    g->comm = MPI_COMM_NULL;
    g->noncoll_pgroup_comm = MPI_COMM_NULL;
    g->grp_to_abs = NULL;
    g->abs_to_grp = NULL;
    g->rank = -1;
    g->size = 0;
}

/* Fill g from a communicator of which the caller is a member (or NULL). */
static void group_from_comm(const char *call, MPI_Comm comm, ARMCI_Group *g)
{
    null_group(g);
    if (comm == MPI_COMM_NULL)
        return;
    int n = armcii_state.nproc;
    MPI_Group gg, wg;
    g->comm = comm;
    MPI_Comm_rank(comm, &g->rank);
    MPI_Comm_size(comm, &g->size);
    g->grp_to_abs = malloc((size_t)g->size * sizeof(int));
    g->abs_to_grp = malloc((size_t)n * sizeof(int));
    int *seq = malloc((size_t)g->size * sizeof(int));
    if (!g->grp_to_abs || !g->abs_to_grp || !seq)
        armcii_error(call, "out of memory");
    for (int i = 0; i < g->size; i++)
        seq[i] = i;
    MPI_Comm_group(comm, &gg);
    MPI_Comm_group(armcii_state.world, &wg);
    ARMCII_MPI(MPI_Group_translate_ranks(gg, g->size, seq, wg, g->grp_to_abs));
    MPI_Group_free(&gg);
    MPI_Group_free(&wg);
    free(seq);
    for (int p = 0; p < n; p++)
        g->abs_to_grp[p] = -1;
    for (int i = 0; i < g->size; i++)
        g->abs_to_grp[g->grp_to_abs[i]] = i;
}

void armcii_groups_init(void)
{
    ARMCI_Group *w = &armcii_state.world_group;
    null_group(w);
    w->comm = armcii_state.world;
    w->rank = armcii_state.rank;
    w->size = armcii_state.nproc;
    armcii_state.default_group = *w;
}

void armcii_groups_finalize(void)
{
    null_group(&armcii_state.world_group);
    null_group(&armcii_state.default_group);
}

static void check_parent(const char *call, const ARMCI_Group *parent)
{
    armcii_check_init(call);
    if (!parent)
        armcii_error(call, "parent group is NULL");
    if (parent->comm == MPI_COMM_NULL)
        armcii_error(call, "the calling process is not a member of the parent group");
}

static void check_pids(const char *call, int n, const int *pid, int parent_size)
{
    if (n < 0 || n > parent_size)
        armcii_error(call, "group size %d out of range [0, %d]", n, parent_size);
    if (n && !pid)
        armcii_error(call, "pid_list is NULL");
    char *seen = calloc((size_t)parent_size, 1);
    if (!seen)
        armcii_error(call, "out of memory");
    for (int i = 0; i < n; i++) {
        if (pid[i] < 0 || pid[i] >= parent_size)
            armcii_error(call, "pid_list[%d] = %d is not a rank of the parent group "
                         "(size %d)", i, pid[i], parent_size);
        if (seen[pid[i]]++)
            armcii_error(call, "pid_list names rank %d twice", pid[i]);
    }
    free(seen);
}

void ARMCI_Group_create_child(int grp_size, int *pid_list, ARMCI_Group *group_out,
                              ARMCI_Group *group_parent)
{
    static const char call[] = "ARMCI_Group_create_child";
    check_parent(call, group_parent);
    if (!group_out)
        armcii_error(call, "output group is NULL");
    check_pids(call, grp_size, pid_list, group_parent->size);
    MPI_Group pg, ng;
    MPI_Comm nc = MPI_COMM_NULL;
    MPI_Comm_group(group_parent->comm, &pg);
    ARMCII_MPI(MPI_Group_incl(pg, grp_size, pid_list, &ng));
    if (armcii_state.cfg.noncollective_groups) {
        int me_in;
        MPI_Group_rank(ng, &me_in);
        if (me_in != MPI_UNDEFINED)
            ARMCII_MPI(MPI_Comm_create_group(group_parent->comm, ng, 42, &nc));
    } else {
        ARMCII_MPI(MPI_Comm_create(group_parent->comm, ng, &nc));
    }
    MPI_Group_free(&pg);
    MPI_Group_free(&ng);
    group_from_comm(call, nc, group_out);
}

void ARMCI_Group_create(int grp_size, int *pid_list, ARMCI_Group *group_out)
{
    ARMCI_Group parent = armcii_state.default_group;
    ARMCI_Group_create_child(grp_size, pid_list, group_out, &parent);
}

void ARMCI_Group_free(ARMCI_Group *group)
{
    if (!group || group->comm == MPI_COMM_NULL)
        return;
    if (armcii_state.init_count > 0 && group->comm == armcii_state.world)
        armcii_error("ARMCI_Group_free", "the world group cannot be freed");
    MPI_Comm_free(&group->comm);
    free(group->grp_to_abs);
    free(group->abs_to_grp);
    null_group(group);
}

int ARMCI_Group_rank(ARMCI_Group *group, int *rank)
{
    if (!group || !rank)
        armcii_error("ARMCI_Group_rank", "NULL argument");
    *rank = group->comm == MPI_COMM_NULL ? -1 : group->rank;
    return *rank < 0;
}

void ARMCI_Group_size(ARMCI_Group *group, int *size)
{
    if (!group || !size)
        armcii_error("ARMCI_Group_size", "NULL argument");
    *size = group->comm == MPI_COMM_NULL ? 0 : group->size;
}

void ARMCI_Group_set_default(ARMCI_Group *group)
{
    if (!group)
        armcii_error("ARMCI_Group_set_default", "group is NULL");
    armcii_state.default_group = *group;
}

void ARMCI_Group_get_default(ARMCI_Group *group_out)
{
    armcii_check_init("ARMCI_Group_get_default");
    *group_out = armcii_state.default_group;
}

void ARMCI_Group_get_world(ARMCI_Group *group_out)
{
    armcii_check_init("ARMCI_Group_get_world");
    *group_out = armcii_state.world_group;
}

int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank)
{
    static const char call[] = "ARMCI_Absolute_id";
    armcii_check_init(call);
    if (!group)
        armcii_error(call, "group is NULL");
    if (group->comm == MPI_COMM_NULL)
        return -1;
    if (group_rank < 0 || group_rank >= group->size)
        armcii_error(call, "group rank %d out of range [0, %d)", group_rank, group->size);
    return group->grp_to_abs ? group->grp_to_abs[group_rank] : group_rank;
}

int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key, ARMCI_Group *new_group)
{
    static const char call[] = "ARMCIX_Group_split";
    MPI_Comm nc;
    check_parent(call, parent);
    int rc = MPI_Comm_split(parent->comm, color, key, &nc);
    if (rc != MPI_SUCCESS)
        return rc;
    group_from_comm(call, nc, new_group);
    return 0;
}

int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group)
{
    static const char call[] = "ARMCIX_Group_dup";
    MPI_Comm nc;
    check_parent(call, parent);
    int rc = MPI_Comm_dup(parent->comm, &nc);
    if (rc != MPI_SUCCESS)
        return rc;
    group_from_comm(call, nc, new_group);
    return 0;
}
