/* Global Arrays over this ARMCI: processor groups.  GA_Pgroup_create (even
 * and odd ranks), GA_Pgroup_split and GA_Pgroup_split_irreg (nested), arrays
 * on a group through NGA_Create_config and through GA_Set_pgroup, one-sided
 * operations, NGA_Read_inc, GA_Pgroup_sync and GA_Pgroup_igop/dgop inside a
 * group, a group made the default (GA_Sync, GA_Fill, GA_Ddot, GA_Dgemm
 * there), and disjoint groups allocating and freeing arrays at the same time
 * (the trap of Open MPI issue 7393), all beside a world array. */
#include <stdlib.h>
#include "ga_util.h"

#define COLS 10
#define ROWS_PER 6
#define TICKETS 40

/* A group array, made one of two ways: NGA_Create_config, or a handle
 * with GA_Set_data + GA_Set_pgroup + GA_Allocate. */
static int group_array(int grp, int gsize, int via_handle, int type)
{
    int dims[2] = {ROWS_PER * gsize, COLS}, g;
    if (!via_handle)
        return NGA_Create_config(type, 2, dims, "group", NULL, grp);
    g = GA_Create_handle();
    GA_Set_data(g, 2, dims, type);
    GA_Set_pgroup(g, grp);
    CHECK(GA_Allocate(g), "GA_Allocate on group %d failed", grp);
    return g;
}

/* Members of grp draw TICKETS values from a counter on a group array; the
 * count, sum and sum of squares over the group prove each came out once. */
static void group_counter(int grp, int tag)
{
    int dims[1] = {2}, sub[1] = {1}, n = 0;
    int g = NGA_Create_config(C_LONG, 1, dims, "counter", NULL, grp);
    double s[3] = {0, 0, 0};
    long v, t = TICKETS;
    CHECK(g != 0, "tag %d: group counter not created", tag);
    GA_Zero(g);
    while ((v = NGA_Read_inc(g, sub, 1)) < TICKETS) {
        n++;
        s[1] += v;
        s[2] += (double)v * v;
    }
    s[0] = n;
    GA_Pgroup_dgop(grp, s, 3, "+");
    CHECK(s[0] == t && s[1] == t * (t - 1) / 2 && s[2] == (t - 1) * t * (2 * t - 1) / 6,
          "tag %d: counter handed out n=%g sum=%g sumsq=%g", tag, s[0], s[1], s[2]);
    GA_Pgroup_sync(grp);
    GA_Destroy(g);
}

/* Members put stripes, check the whole array and its distribution (process
 * numbers are group ranks); then share a NGA_Read_inc counter. */
static void group_ops(int grp, int tag, int via_handle)
{
    int gs = GA_Pgroup_nnodes(grp), gr = GA_Pgroup_nodeid(grp), bad = 0, ld[1] = {COLS};
    int g = group_array(grp, gs, via_handle, C_INT), n = ROWS_PER * gs * COLS;
    int lo[2] = {gr * ROWS_PER, 0}, hi[2] = {gr * ROWS_PER + ROWS_PER - 1, COLS - 1};
    int alo[2] = {0, 0}, ahi[2] = {ROWS_PER * gs - 1, COLS - 1}, *buf = malloc(n * sizeof(int));
    CHECK(g != 0, "tag %d: group array not created", tag);
    for (int e = 0; e < ROWS_PER * COLS; e++)
        buf[e] = tag * 100000 + gt_me * 1000 + e;
    NGA_Put(g, lo, hi, buf, ld);
    GA_Pgroup_sync(grp);
    NGA_Get(g, alo, ahi, buf, ld);
    for (int e = 0; e < n; e++) {
        int owner = GA_Pgroup_absolute_id(grp, e / (ROWS_PER * COLS));
        bad += buf[e] != tag * 100000 + owner * 1000 + e % (ROWS_PER * COLS);
    }
    CHECK(bad == 0, "tag %d: %d wrong elements in group array", tag, bad);
    for (int e = 0; e < ROWS_PER * gs; e++) {
        int sub[2] = {e, 0}, p = NGA_Locate(g, sub), plo[2], phi[2];
        NGA_Distribution(g, p, plo, phi);
        bad += p < 0 || p >= gs || e < plo[0] || e > phi[0];
    }
    CHECK(bad == 0, "tag %d: locate/distribution not in group ranks", tag);
    GA_Pgroup_sync(grp);
    group_counter(grp, tag);
    GA_Destroy(g);
    free(buf);
}

/* Is the group made of consecutive world ranks, me among them? */
static int contiguous_with_me(int grp)
{
    int gs = GA_Pgroup_nnodes(grp), first = GA_Pgroup_absolute_id(grp, 0), ok = 1;
    for (int p = 0; p < gs; p++)
        ok &= GA_Pgroup_absolute_id(grp, p) == first + p;
    return ok && gt_me >= first && gt_me < first + gs &&
           GA_Pgroup_absolute_id(grp, GA_Pgroup_nodeid(grp)) == gt_me;
}

/* Disjoint even and odd groups create, use and destroy arrays at the same
 * time, round after round, while one array of each stays alive. */
static void test_even_odd(void)
{
    int *list[2], cnt[2] = {0, 0}, grp[2], dims[1] = {64}, keep;
    for (int k = 0; k < 2; k++)
        list[k] = malloc(gt_np * sizeof(int));
    for (int p = 0; p < gt_np; p++)
        list[p % 2][cnt[p % 2]++] = p;
    grp[0] = GA_Pgroup_create(list[0], cnt[0]);
    grp[1] = GA_Pgroup_create(list[1], cnt[1]);
    int mine = grp[gt_me % 2];
    CHECK(GA_Pgroup_nnodes(mine) == cnt[gt_me % 2], "even/odd group size %d",
          GA_Pgroup_nnodes(mine));
    CHECK(GA_Pgroup_nodeid(mine) == gt_me / 2, "even/odd group rank %d",
          GA_Pgroup_nodeid(mine));
    keep = NGA_Create_config(C_DBL, 1, dims, "kept", NULL, mine);
    GA_Zero(keep);
    for (int round = 0; round < 6; round++)
        group_ops(mine, 10 + round, round % 2);
    group_ops(GA_Pgroup_get_world(), 20, 0);
    GA_Pgroup_sync(mine);
    GA_Destroy(keep);
    GA_Sync();
    GA_Pgroup_destroy(grp[1]);
    GA_Pgroup_destroy(grp[0]);
    free(list[0]);
    free(list[1]);
}

/* With grp the default group, GA_Nodeid/GA_Nnodes, NGA_Create, GA_Sync,
 * GA_Fill, GA_Ddot and GA_Dgemm all act on grp: C = A * 2I must be 2A. */
static void default_group_ops(int grp)
{
    enum { M = 12 };
    int dims[2] = {M, M}, lo[2] = {0, 0}, hi[2] = {M - 1, M - 1}, ld[1] = {M}, bad = 0;
    double a[M][M], c[M][M], one = 1.0, sum = 0, two = 2.0;
    GA_Pgroup_set_default(grp);
    CHECK(GA_Nnodes() == GA_Pgroup_nnodes(grp) && GA_Nodeid() == GA_Pgroup_nodeid(grp),
          "default group: GA_Nodeid %d / GA_Nnodes %d", GA_Nodeid(), GA_Nnodes());
    int ga = NGA_Create(C_DBL, 2, dims, "A", NULL), gb = GA_Duplicate(ga, "B");
    int gc = GA_Duplicate(ga, "C");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            sum += a[i][j] = (i * 7 + j * 3) % 11 - 5 + GA_Pgroup_absolute_id(grp, 0);
    if (GA_Nodeid() == 0)
        NGA_Put(ga, lo, hi, a, ld);
    GA_Zero(gb);
    GA_Sync();
    for (int i = GA_Nodeid(); i < M; i += GA_Nnodes()) {
        int d[2] = {i, i};
        NGA_Put(gb, d, d, &two, ld);
    }
    GA_Sync();
    GA_Dgemm('N', 'N', M, M, M, 1.0, ga, gb, 0.0, gc);
    NGA_Get(gc, lo, hi, c, ld);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            bad += c[i][j] != 2 * a[i][j];
    CHECK(bad == 0, "default group: %d wrong elements of A * 2I", bad);
    GA_Fill(gb, &one);
    CHECK(GA_Ddot(ga, gb) == sum, "default group: GA_Ddot %g expected %g", GA_Ddot(ga, gb),
          sum);
    GA_Sync();
    GA_Destroy(gc), GA_Destroy(gb), GA_Destroy(ga);
    GA_Pgroup_set_default(GA_Pgroup_get_world());
    CHECK(GA_Nnodes() == gt_np && GA_Nodeid() == gt_me, "world default not restored");
}

/* Halves by GA_Pgroup_split, quarters by splitting a half again, and the
 * parity classes by GA_Pgroup_split_irreg. */
static void test_split(void)
{
    int world = GA_Pgroup_get_world(), half, quarter, parity, n;
    double x[1] = {gt_me}, want = 0;
    half = GA_Pgroup_split(world, 2);
    CHECK(contiguous_with_me(half) && GA_Pgroup_nnodes(half) == gt_np / 2,
          "GA_Pgroup_split(world, 2): size %d", GA_Pgroup_nnodes(half));
    group_ops(half, 30, 0);
    quarter = GA_Pgroup_split(half, 2);
    n = GA_Pgroup_nnodes(quarter);
    CHECK(contiguous_with_me(quarter) && n == gt_np / 4, "nested split: size %d", n);
    group_ops(quarter, 31, 1);
    default_group_ops(quarter);
    parity = GA_Pgroup_split_irreg(world, gt_me % 2);
    GA_Pgroup_dgop(parity, x, 1, "+");
    for (int p = gt_me % 2; p < gt_np; p += 2)
        want += p;
    CHECK(GA_Pgroup_nnodes(parity) == (gt_np + 1 - gt_me % 2) / 2 && x[0] == want,
          "split_irreg: size %d, rank sum %g expected %g", GA_Pgroup_nnodes(parity), x[0],
          want);
    group_ops(parity, 32, 0);
    default_group_ops(half);
    GA_Sync();
}

int main(int argc, char **argv)
{
    gt_init(&argc, &argv, "ga_groups");
    if (gt_np >= 4 && gt_np % 4 == 0) {
        test_even_odd();
        test_split();
    } else if (gt_me == 0) {
        printf("ga_groups: needs a multiple of 4 ranks, skipping the group checks\n");
    }
    group_ops(GA_Pgroup_get_world(), 40, 1);
    default_group_ops(GA_Pgroup_get_world());
    return gt_finish();
}
