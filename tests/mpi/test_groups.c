/* Groups: creation (collective, or noncollective when built with
 * NONCOLLECTIVE), membership queries, group allocations on disjoint groups
 * at the same time, Fence with regions on overlapping groups, split/dup. */
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

static int me, np;

/* Put my rank into every member's slice (indexed by my group rank), fence,
 * sync, and check what arrived. */
static void exercise(ARMCI_Group *g, const char *what, int rounds)
{
    int gs, gr;
    ARMCI_Group_size(g, &gs);
    CHECK(ARMCI_Group_rank(g, &gr) == 0, "%s: rank query on a member", what);
    for (int round = 0; round < rounds; round++) {
        void **p = malloc(gs * sizeof(void *));
        ARMCI_Malloc_group(p, gs * sizeof(int), g);
        for (int i = 0; i < gs; i++)
            ((int *)p[gr])[i] = -1;
        armci_msg_group_barrier(g);
        for (int i = 0; i < gs; i++) {
            int abs = ARMCI_Absolute_id(g, i), v = me * 10 + round;
            ARMCI_Put(&v, (int *)p[i] + gr, sizeof v, abs);
        }
        for (int i = 0; i < gs; i++)
            ARMCI_Fence(ARMCI_Absolute_id(g, i));
        armci_msg_group_barrier(g);
        for (int i = 0; i < gs; i++) {
            int expect = ARMCI_Absolute_id(g, i) * 10 + round;
            CHECK(((int *)p[gr])[i] == expect, "%s round %d: slot %d = %d expected %d",
                  what, round, i, ((int *)p[gr])[i], expect);
        }
        armci_msg_group_barrier(g);
        ARMCI_Free_group(p[gr], g);
        free(p);
    }
}

static void create(int n, int *list, ARMCI_Group *out, int member)
{
#ifdef NONCOLLECTIVE
    if (!member) { /* only members call in noncollective mode */
        memset(out, 0, sizeof *out);
        out->comm = MPI_COMM_NULL;
        out->rank = -1;
        return;
    }
#endif
    (void)member;
    ARMCI_Group_create(n, list, out);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
#ifdef NONCOLLECTIVE
    setenv("ARMCI_NONCOLLECTIVE_GROUPS", "1", 1);
    tu_name = "test_groups_noncoll";
#else
    tu_name = "test_groups";
#endif
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 3) {
        printf("test_groups needs at least 3 processes\n");
        ARMCI_Finalize();
        MPI_Finalize();
        return 77;
    }
    /* Disjoint halves allocating at the same time (the Open MPI osc/rdma
     * backing-file collision of issue 7393 would strike here). */
    int half = np / 2, lo[64], hi[64];
    for (int i = 0; i < np; i++)
        (i < half ? lo : hi)[i < half ? i : i - half] = i;
    ARMCI_Group glo, ghi;
    create(half, lo, &glo, me < half);
    create(np - half, hi, &ghi, me >= half);
    ARMCI_Group *mine = me < half ? &glo : &ghi, *other = me < half ? &ghi : &glo;
    int r, s;
    CHECK(ARMCI_Group_rank(other, &r) == 1 && r == -1, "non-member rank %d", r);
    ARMCI_Group_size(other, &s);
    CHECK(s == 0, "non-member size %d", s);
    exercise(mine, "disjoint halves", 8);

    /* Overlapping groups {0,1} and {0,2}: rank 0 fences 1 and 2 while it
     * has regions on both (the reference implementation aborts here). */
    int a[2] = {0, 1}, b[2] = {0, 2};
    ARMCI_Group ga, gb;
    create(2, a, &ga, me == 0 || me == 1);
    create(2, b, &gb, me == 0 || me == 2);
    void *pa[2], *pb[2];
    if (me <= 1)
        ARMCI_Malloc_group(pa, 64, &ga);
    if (me == 0 || me == 2)
        ARMCI_Malloc_group(pb, 64, &gb);
    if (me == 0) {
        int v = 5;
        ARMCI_Put(&v, pa[1], sizeof v, 1);
        ARMCI_Put(&v, pb[1], sizeof v, 2);
        ARMCI_Fence(1);
        ARMCI_Fence(2);
        ARMCI_Fence(np - 1);
        CHECK(ARMCI_GetValueInt(pa[1], 1) == 5 && ARMCI_GetValueInt(pb[1], 2) == 5,
              "puts on overlapping groups");
    }
    if (me <= 1)
        ARMCI_Free_group(pa[me == 0 ? 0 : 1], &ga);
    if (me == 0 || me == 2)
        ARMCI_Free_group(pb[me == 0 ? 0 : 1], &gb);

    /* A child of a non-world default group: ranks are parent ranks. */
    ARMCI_Group world, dflt;
    ARMCI_Group_get_world(&world);
    ARMCI_Group_set_default(mine);
    ARMCI_Group_get_default(&dflt);
    CHECK(dflt.comm == mine->comm, "set/get default");
    int ms;
    ARMCI_Group_size(mine, &ms);
    int rev[64];
    for (int i = 0; i < ms; i++)
        rev[i] = ms - 1 - i; /* reversed: group rank i is parent rank ms-1-i */
    ARMCI_Group child;
    ARMCI_Group_create(ms, rev, &child);
    CHECK(ARMCI_Absolute_id(&child, 0) == ARMCI_Absolute_id(mine, ms - 1),
          "child rank 0 is %d", ARMCI_Absolute_id(&child, 0));
    exercise(&child, "reversed child", 2);
    ARMCI_Group_set_default(&world);

#ifndef NONCOLLECTIVE
    /* ARMCIX split and dup. */
    ARMCI_Group sp, dup;
    CHECK(ARMCIX_Group_split(&world, me % 2, -me, &sp) == 0, "split");
    int sr;
    ARMCI_Group_rank(&sp, &sr);
    CHECK(ARMCI_Absolute_id(&sp, 0) % 2 == me % 2, "split color");
    exercise(&sp, "split", 2);
    CHECK(ARMCIX_Group_dup(&world, &dup) == 0, "dup");
    exercise(&dup, "dup", 1);
    ARMCI_Group_free(&sp);
    ARMCI_Group_free(&dup);
#endif
    ARMCI_Group_free(&child);
    ARMCI_Group_free(&ga); /* harmless for non-members */
    ARMCI_Group_free(&gb);
    ARMCI_Group_free(&glo);
    ARMCI_Group_free(&ghi);
    ARMCI_Barrier();
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
