/*
 * Process groups (common_group.c): ARMCI_Group over MPI communicators.
 */
#ifndef ARMCI_COMMON_GROUP_H
#define ARMCI_COMMON_GROUP_H

#include "common.h"

void armcii_group_init(void);
void armcii_group_finalize(void);
/* Fill g from a communicator of which the caller is a member (NULL: non-member). */
void armcii_group_from_comm(const char *call, MPI_Comm comm, ARMCI_Group *g);
void armcii_group_create_child(const char *call, int n, const int *pid, ARMCI_Group *out,
                               const ARMCI_Group *parent);
/* MPI_Comm_split of parent (color MPI_UNDEFINED: a non-member's group). */
void armcii_group_split(const char *call, const ARMCI_Group *parent, int color, int key,
                        ARMCI_Group *out);
void armcii_group_free(const char *call, ARMCI_Group *g);
/* Communicator of a group the caller belongs to, or abort. */
MPI_Comm armcii_group_comm(const char *call, const ARMCI_Group *g);
/* Group rank of absolute rank abs in g, -1 when not a member. */
int armcii_group_rank_of(const ARMCI_Group *g, int abs);

#endif /* ARMCI_COMMON_GROUP_H */
