/*
 * Node topology, real or virtual (common_topo.c).
 */
#ifndef ARMCI_COMMON_TOPO_H
#define ARMCI_COMMON_TOPO_H

#include "common.h"

/* Collective over world: split into (virtual) nodes; node_of[] of everyone. */
void armcii_topo_init(void);
void armcii_topo_finalize(void);
static inline int armcii_node_of(int abs) { return armcii_state.node_of[abs]; }

#endif /* ARMCI_COMMON_TOPO_H */
