/* Global Arrays over this ARMCI: arrays with ghost cells (NGA_Create_ghosts)
 * in 2-D and 3-D, filled by NGA_Put, refreshed by GA_Update_ghosts, and the
 * whole halo (corners included, periodic at the edges) checked through
 * NGA_Access_ghosts; a second round changes the owned data in place
 * (NGA_Access/NGA_Release_update) before updating again. */
#include <stdlib.h>
#include "ga_util.h"

#define MAXD 3

/* Global value of element idx (periodic wrap already applied) in round r. */
static long value(int nd, const int idx[], const int dims[], int round)
{
    long v = 0;
    for (int k = 0; k < nd; k++)
        v = v * dims[k] + idx[k];
    return v + 100000L * round;
}

/* Every rank puts the values of a slab of the first dimension. */
static void fill(int g, int nd, const int dims[], int round)
{
    int lo[MAXD] = {0}, hi[MAXD], ld[MAXD], idx[MAXD], n = 1;
    lo[0] = gt_me * dims[0] / gt_np;
    hi[0] = (gt_me + 1) * dims[0] / gt_np - 1;
    for (int k = 1; k < nd; k++) {
        hi[k] = dims[k] - 1;
        ld[k - 1] = dims[k];
        n *= dims[k];
    }
    if (hi[0] < lo[0])
        return;
    int *buf = malloc((size_t)n * (hi[0] - lo[0] + 1) * sizeof(int));
    for (long e = 0; e < (long)n * (hi[0] - lo[0] + 1); e++) {
        long r = e;
        for (int k = nd - 1; k >= 0; k--) {
            int ext = k ? dims[k] : hi[0] - lo[0] + 1;
            idx[k] = r % ext + (k ? 0 : lo[0]);
            r /= ext;
        }
        buf[e] = (int)value(nd, idx, dims, round);
    }
    NGA_Put(g, lo, hi, buf, ld);
    free(buf);
}

/* Offset of local-with-ghosts index li[] given NGA_Access_ghosts' ld[]. */
static long ghost_offset(int nd, const int li[], const int ld[])
{
    long off = li[0];
    for (int k = 1; k < nd; k++)
        off = off * ld[k - 1] + li[k];
    return off;
}

/* Walk my block plus halo; every cell must hold the periodic global value. */
static void check_halo(int g, int nd, const int dims[], const int width[], int round)
{
    int lo[MAXD], hi[MAXD], gd[MAXD], ld[MAXD], li[MAXD], gi[MAXD], bad = 0;
    long total = 1, e, r;
    int *ptr;
    NGA_Distribution(g, gt_me, lo, hi);
    if (hi[0] < lo[0])
        return;
    NGA_Access_ghosts(g, gd, &ptr, ld);
    for (int k = 0; k < nd; k++) {
        CHECK(gd[k] == hi[k] - lo[k] + 1 + 2 * width[k], "dim %d: ghosted extent %d", k, gd[k]);
        total *= gd[k];
    }
    for (e = 0; e < total; e++) {
        r = e;
        for (int k = nd - 1; k >= 0; k--) {
            li[k] = r % gd[k];
            r /= gd[k];
            gi[k] = ((lo[k] + li[k] - width[k]) % dims[k] + dims[k]) % dims[k];
        }
        int got = ptr[ghost_offset(nd, li, ld)], want = (int)value(nd, gi, dims, round);
        if (got != want && bad++ < 3)
            CHECK(0, "%dD round %d: local (%d,%d,%d) = %d expected %d", nd, round, li[0],
                  li[1], nd > 2 ? li[2] : 0, got, want);
    }
    NGA_Release(g, lo, hi);
    CHECK(bad == 0, "%dD round %d: %d wrong cells in block+halo", nd, round, bad);
}

/* Overwrite my owned block in place with the next round's values. */
static void bump_local(int g, int nd, const int dims[], int round)
{
    int lo[MAXD], hi[MAXD], ld[MAXD], gi[MAXD], ext[MAXD];
    long total = 1;
    int *ptr;
    NGA_Distribution(g, gt_me, lo, hi);
    if (hi[0] < lo[0])
        return;
    NGA_Access(g, lo, hi, &ptr, ld);
    for (int k = 0; k < nd; k++)
        total *= ext[k] = hi[k] - lo[k] + 1;
    for (long e = 0; e < total; e++) {
        long r = e;
        int li[MAXD];
        for (int k = nd - 1; k >= 0; k--) {
            li[k] = r % ext[k];
            gi[k] = lo[k] + li[k];
            r /= ext[k];
        }
        ptr[ghost_offset(nd, li, ld)] = (int)value(nd, gi, dims, round);
    }
    NGA_Release_update(g, lo, hi);
}

static void test_ghosts(int nd, int dims[], int width[])
{
    int g = NGA_Create_ghosts(C_INT, nd, dims, width, "ghosted", NULL);
    CHECK(g != 0, "NGA_Create_ghosts %dD failed", nd);
    GA_Zero(g);
    fill(g, nd, dims, 0);
    GA_Sync();
    GA_Update_ghosts(g);
    check_halo(g, nd, dims, width, 0);
    GA_Sync();
    for (int round = 1; round <= 3; round++) {
        bump_local(g, nd, dims, round);
        GA_Update_ghosts(g);
        check_halo(g, nd, dims, width, round);
        GA_Sync();
    }
    GA_Destroy(g);
}

int main(int argc, char **argv)
{
    int d2[2] = {20, 18}, w2[2] = {2, 1};
    int d3[3] = {8, 10, 6}, w3[3] = {1, 2, 1};
    gt_init(&argc, &argv, "ga_ghosts");
    test_ghosts(2, d2, w2);
    test_ghosts(3, d3, w3);
    return gt_finish();
}
