/*
 * Process groups: checks, then src/common (common_group.c).
 */
#include <stdlib.h>
#include "armci_api.h"
#include "../common/common_group.h"

/* Fields no group of ARMCI's can have (a never-initialized or overwritten
 * ARMCI_Group) are refused before anything behind them is read. */
static void check_fields(const char *call, const ARMCI_Group *g)
{
    if (ARMCII_UNLIKELY(g->comm != MPI_COMM_NULL &&
                        (g->size < 1 || g->size > armcii_state.nproc || g->rank >= g->size)))
        armcii_error(call, "%p is not a valid ARMCI group (size %d, rank %d: not "
                     "initialized, or overwritten)", (const void *)g, g->size, g->rank);
}

/* The communicator of a group the caller belongs to, or abort naming call:
 * NULL and impossible fields here, the rest (freed, foreign, non-member) is
 * src/common's check.  Used by every entry point that takes a group
 * (armci_api.h). */
MPI_Comm armcii_api_group_comm(const char *call, const ARMCI_Group *g)
{
    if (!g)
        armcii_error(call, "group is NULL");
    check_fields(call, g);
    return armcii_group_comm(call, g);
}

static void check_pids(const char *call, int n, const int *pid, int parent_size)
{
    if (n < 0 || n > parent_size)
        armcii_error(call, "group size %d out of range [0, %d]", n, parent_size);
    if (n && !pid)
        armcii_error(call, "pid_list is NULL");
    for (int i = 0; i < n; i++)
        if (pid[i] < 0 || pid[i] >= parent_size)
            armcii_error(call, "pid_list[%d] = %d is not a rank of the parent group "
                         "(size %d)", i, pid[i], parent_size);
    char *seen = calloc((size_t)parent_size + 1, 1);
    if (!seen)
        armcii_error(call, "out of memory");
    for (int i = 0; i < n; i++) {
        if (seen[pid[i]]++) {
            free(seen);
            armcii_error(call, "pid_list names rank %d twice", pid[i]);
        }
    }
    free(seen);
}

/* Collective over the parent group: members listed in pid_list (parent ranks). */
void ARMCI_Group_create_child(int grp_size, int *pid_list, ARMCI_Group *group_out,
                              ARMCI_Group *group_parent)
{
    static const char call[] = "ARMCI_Group_create_child";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_api_group_comm(call, group_parent);
    if (!group_out)
        armcii_error(call, "output group is NULL");
    check_pids(call, grp_size, pid_list, group_parent->size);
    armcii_progress_park();
    armcii_group_create_child(call, grp_size, pid_list, group_out, group_parent);
}

/* Collective over the default group. */
void ARMCI_Group_create(int grp_size, int *pid_list, ARMCI_Group *group_out)
{
    static const char call[] = "ARMCI_Group_create";
    armcii_set_call(call);
    armcii_check_init(call);
    ARMCI_Group parent = armcii_state.default_group;
    armcii_api_group_comm(call, &parent);
    if (!group_out)
        armcii_error(call, "output group is NULL");
    check_pids(call, grp_size, pid_list, parent.size);
    armcii_progress_park();
    armcii_group_create_child(call, grp_size, pid_list, group_out, &parent);
}

/* Any copy may be freed; the others become no-ops. */
void ARMCI_Group_free(ARMCI_Group *group)
{
    static const char call[] = "ARMCI_Group_free";
    armcii_set_call(call);
    armcii_check_init(call);
    if (!group)
        armcii_error(call, "group is NULL");
    check_fields(call, group);
    armcii_progress_park();
    armcii_group_free(call, group);
}

/* A group the caller is not in answers -1 (and 1); one it is in is checked
 * (freed or never created groups are errors, not answers). */
int ARMCI_Group_rank(ARMCI_Group *group, int *rank)
{
    static const char call[] = "ARMCI_Group_rank";
    armcii_check_init(call);
    if (!group || !rank)
        armcii_error(call, "%s is NULL", !group ? "group" : "rank pointer");
    if (group->comm == MPI_COMM_NULL) {
        *rank = -1;
        return 1;
    }
    armcii_api_group_comm(call, group);
    *rank = group->rank;
    return 0;
}

void ARMCI_Group_size(ARMCI_Group *group, int *size)
{
    static const char call[] = "ARMCI_Group_size";
    armcii_check_init(call);
    if (!group || !size)
        armcii_error(call, "%s is NULL", !group ? "group" : "size pointer");
    if (group->comm == MPI_COMM_NULL) {
        *size = 0;
        return;
    }
    armcii_api_group_comm(call, group);
    *size = group->size;
}

void ARMCI_Group_set_default(ARMCI_Group *group)
{
    static const char call[] = "ARMCI_Group_set_default";
    armcii_check_init(call);
    armcii_api_group_comm(call, group);
    armcii_state.default_group = *group;
}

void ARMCI_Group_get_default(ARMCI_Group *group_out)
{
    static const char call[] = "ARMCI_Group_get_default";
    armcii_check_init(call);
    if (!group_out)
        armcii_error(call, "output group is NULL");
    *group_out = armcii_state.default_group;
}

void ARMCI_Group_get_world(ARMCI_Group *group_out)
{
    static const char call[] = "ARMCI_Group_get_world";
    armcii_check_init(call);
    if (!group_out)
        armcii_error(call, "output group is NULL");
    *group_out = armcii_state.world_group;
}

/* Absolute rank of group_rank in group; -1 for a non-member's group. */
int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank)
{
    static const char call[] = "ARMCI_Absolute_id";
    armcii_check_init(call);
    if (!group)
        armcii_error(call, "group is NULL");
    if (group->comm == MPI_COMM_NULL)
        return -1;
    armcii_api_group_comm(call, group);
    if (group_rank < 0 || group_rank >= group->size)
        armcii_error(call, "group rank %d out of range [0, %d)", group_rank, group->size);
    return group->grp_to_abs ? group->grp_to_abs[group_rank] : group_rank;
}

/* Collective over parent, like MPI_Comm_split. */
int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key, ARMCI_Group *new_group)
{
    static const char call[] = "ARMCIX_Group_split";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_api_group_comm(call, parent);
    if (!new_group)
        armcii_error(call, "output group is NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        armcii_error(call, "color %d is negative (use MPI_UNDEFINED to opt out)", color);
    armcii_group_split(call, parent, color, key, new_group);
    return 0;
}

/* Collective over parent, like MPI_Comm_dup. */
int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group)
{
    static const char call[] = "ARMCIX_Group_dup";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_api_group_comm(call, parent);
    if (!new_group)
        armcii_error(call, "output group is NULL");
    armcii_group_split(call, parent, 0, 0, new_group);
    return 0;
}

/* The group's MPI communicator (GA's armci_group_comm): MPI_COMM_NULL for a
 * process outside the group; the library owns it (never free it). */
MPI_Comm armci_group_comm(ARMCI_Group *group)
{
    static const char call[] = "armci_group_comm";
    armcii_set_call(call);
    armcii_check_init(call);
    if (!group)
        armcii_error(call, "group is NULL");
    if (group->comm == MPI_COMM_NULL || group->rank < 0)
        return MPI_COMM_NULL;
    return armcii_api_group_comm(call, group);
}
