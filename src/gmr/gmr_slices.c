/*
 * Every member's slice of a region: its base and size gathered or known,
 * mapped where node-shared (the node-local path), and in the translation
 * table.
 */
#include <stdint.h>
#include <stdlib.h>
#include "gmr_impl.h"
#include "../common/common_wait.h"

#define GS armcii_gmr_state

/* Record each node member's mapping of its slice (node-local path). */
static void map_node_slices(armcii_gmr_t *g)
{
    if (g->node_comm == MPI_COMM_NULL || !GS.direct)
        return;
    int nsize;
    MPI_Group ng, gg;
    ARMCII_MPI(MPI_Comm_size(g->node_comm, &nsize));
    int *nr = malloc((size_t)nsize * 2 * sizeof(int));
    if (!nr)
        armcii_error("ARMCI_Malloc", "out of memory");
    for (int i = 0; i < nsize; i++)
        nr[i] = i;
    ARMCII_MPI(MPI_Comm_group(g->node_comm, &ng));
    ARMCII_MPI(MPI_Comm_group(g->comm, &gg));
    ARMCII_MPI(MPI_Group_translate_ranks(ng, nsize, nr, gg, nr + nsize));
    ARMCII_MPI(MPI_Group_free(&ng));
    ARMCII_MPI(MPI_Group_free(&gg));
    for (int i = 0; i < nsize; i++) {
        MPI_Aint qsize;
        int qdisp;
        char *qbase;
        ARMCII_MPI(MPI_Win_shared_query(g->shm_win, i, &qsize, &qdisp, &qbase));
        armcii_gmr_slice_t *s = &g->slice[nr[nsize + i]];
        s->acc_lock = (int *)qbase;
        if (s->size)
            s->direct = qbase + ARMCII_SLICE_HDR;
    }
    free(nr);
}

void armcii_gmr_table_enter(armcii_gmr_t *g)
{
    for (int r = 0; r < g->size; r++) {
        if (!g->slice[r].size)
            continue;
        armcii_gmr_entry_t e = {(uintptr_t)g->slice[r].base, g->slice[r].size, g, r};
        if (armcii_gmr_table_insert(&GS.table, g->abs_of[r], &e))
            armcii_error("ARMCI_Malloc", "slice %p+%zu of process %d overlaps a live "
                         "region", (void *)g->slice[r].base, g->slice[r].size, g->abs_of[r]);
    }
}

/* My own slice at mybase, the node members' where node-shared. */
static void map_slices(armcii_gmr_t *g, char *mybase)
{
    g->slice[g->rank].direct = mybase;
    map_node_slices(g);
}

void armcii_gmr_gather_slices(armcii_gmr_t *g, char *mybase, size_t size)
{
    unsigned long mine[2] = {(unsigned long)(uintptr_t)mybase, (unsigned long)size};
    unsigned long *all = malloc((size_t)g->size * 2 * sizeof(unsigned long));
    if (!all)
        armcii_error("ARMCI_Malloc", "out of memory");
    armcii_allgather(mine, 2, MPI_UNSIGNED_LONG, all, g->comm);
    for (int r = 0; r < g->size; r++) {
        g->slice[r].size = all[2 * r + 1];
        g->slice[r].base = g->slice[r].size ? (char *)(uintptr_t)all[2 * r] : NULL;
    }
    free(all);
    map_slices(g, mybase);
}

void armcii_gmr_fill_slices(armcii_gmr_t *g, char *mybase, size_t size)
{
    armcii_gmr_gather_slices(g, mybase, size);
    armcii_gmr_table_enter(g);
}

/* Each slice starts where it did when the windows were made, so every
 * member knows every slice without another collective. */
void armcii_gmr_refill_slices(armcii_gmr_t *g, char *mybase, const unsigned long *req)
{
    for (int r = 0; r < g->size; r++) {
        g->slice[r].size = req[r] >> 1;
        g->slice[r].base = g->slice[r].size ? g->cap_base[r] : NULL;
    }
    map_slices(g, g->slice[g->rank].size ? mybase : NULL);
    armcii_gmr_table_enter(g);
}
