/* Accumulates and read-modify-writes that ghosts apply from messages
 * (ghost build, ARMCI_GHOST_AM on: src/ghost/ghost_am.c), and the node-local
 * path into the ghosts' pools.  Every rank hits every rank, itself and its
 * node-mates included, with contiguous, 2-D and 3-D strided, vector,
 * scaled, complex and integer accumulates, then reads back without a fence
 * (location consistency), then puts and gets strided, small and large,
 * each read back without a fence; fetch-and-add, swap and a mutex-protected
 * read-modify-write (the mutexes' compare-and-swap) must hand out exact
 * values.  Values are small dyadic numbers: every sum is exact whatever the
 * order.  Every ARMCI_GHOST_AM choice runs (on, all, off, after the one the
 * test was launched with).  The path is checked, not assumed: with
 * redirection on the count of messages to ghosts must grow, with
 * ARMCI_GHOST_AM=off it must not, and
 * a node-mate's slice must have a direct mapping (the translation is read
 * through the library's objects, which the test links).  In other builds
 * the same arithmetic is checked. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <armci.h>
#include "../testutil.h"
#include "../../src/gmr/gmr.h"
#include "ghost_setting.h"

#pragma weak armcii_ghost_am_count
unsigned long armcii_ghost_am_count(void);

enum { R = 12, C = 10, LD = 16, NV = 5 }; /* a 2-D patch R x C of a LD-wide block */
static int me, np;

static int env_off(const char *name)
{
    const char *v = getenv(name);
    return v && (!strcasecmp(v, "off") || !strcmp(v, "0") || !strcasecmp(v, "no"));
}

/* Redirection to ghosts happens here: ghosts, virtual nodes, not switched off. */
static int ghosts_serve(void)
{
    const char *vn = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    return armcii_ghost_am_count && armcii_gmr_ghost_usable() && vn && atoi(vn) > 0 &&
           tg_async_on();
}

static unsigned long am_count(void) { return armcii_ghost_am_count ? armcii_ghost_am_count() : 0; }

/* Region layout per rank: [LD*LD doubles][2*LD complex doubles][LD longs][2 ints][2 longs]
 * [4 KiB] */
typedef struct {
    double d[LD * LD];
    double z[2 * 2 * LD];
    long l[LD];
    int i[2];
    long c[2];
    char raw[4096];   /* large contiguous puts and gets (RMA past 2 KiB) */
} slab_t;

static void accumulate_all(void **ptr)
{
    double src[R * C], zs[2 * 2 * LD], half = 0.5, zscale[2] = {0.5, 0.25};
    long ls[LD], lone = 1;
    for (int k = 0; k < R * C; k++)
        src[k] = (double)(k % 7) + 1;
    for (int k = 0; k < 2 * 2 * LD; k++)
        zs[k] = (double)(k % 5);
    for (int k = 0; k < LD; k++)
        ls[k] = k + 1;
    for (int s = 0; s < np; s++) {
        int t = (me + s) % np;
        slab_t *rs = ptr[t];
        /* 2-D strided, scaled: rows 1..R, columns 2..C+1 of t's block */
        int sstride[1] = {C * (int)sizeof(double)}, tstride[1] = {LD * (int)sizeof(double)};
        int count[2] = {C * (int)sizeof(double), R};
        ARMCI_AccS(ARMCI_ACC_DBL, &half, src, sstride, &rs->d[LD + 2], tstride, count, 1, t);
        /* 3-D strided: 2 planes of 3 rows of 4 doubles, planes 8 rows apart */
        int s3[2] = {4 * (int)sizeof(double), 12 * (int)sizeof(double)};
        int t3[2] = {LD * (int)sizeof(double), 8 * LD * (int)sizeof(double)};
        int c3[3] = {4 * (int)sizeof(double), 3, 2};
        ARMCI_AccS(ARMCI_ACC_DBL, &half, src, s3, &rs->d[4 * LD], t3, c3, 2, t);
        /* contiguous complex with a complex scale */
        ARMCI_Acc(ARMCI_ACC_DCP, zscale, zs, rs->z, (int)sizeof zs, t);
        /* vector: NV single longs, every other slot */
        void *lsrc[NV], *ldst[NV];
        for (int v = 0; v < NV; v++) {
            lsrc[v] = &ls[v];
            ldst[v] = &rs->l[2 * v];
        }
        armci_giov_t iov = {.src_ptr_array = lsrc, .dst_ptr_array = ldst, .ptr_array_len = NV,
                            .bytes = (int)sizeof(long)};
        ARMCI_AccV(ARMCI_ACC_LNG, &lone, &iov, 1, t);
    }
}

static void check_sums(const slab_t *m)
{
    for (int r = 0; r < LD; r++)
        for (int c = 0; c < LD; c++) {
            double want = 0;
            if (r >= 1 && r <= R && c >= 2 && c < 2 + C) /* the 2-D patch */
                want += 0.5 * np * ((double)(((r - 1) * C + (c - 2)) % 7) + 1);
            int pl = r >= 12 ? 1 : r >= 4 ? 0 : -1, pr = pl < 0 ? -1 : r - 4 - 8 * pl;
            if (pl >= 0 && pr >= 0 && pr < 3 && c < 4) /* the 3-D patch */
                want += 0.5 * np * ((double)((pl * 12 + pr * 4 + c) % 7) + 1);
            CHECK(m->d[r * LD + c] == want, "d[%d][%d] = %g, expected %g", r, c,
                  m->d[r * LD + c], want);
        }
    for (int k = 0; k < 2 * LD; k++) { /* (0.5 + 0.25i)(a + bi), a = zs[2k], b = zs[2k+1] */
        double a = (double)((2 * k) % 5), b = (double)((2 * k + 1) % 5);
        double re = np * (0.5 * a - 0.25 * b), im = np * (0.5 * b + 0.25 * a);
        CHECK(m->z[2 * k] == re && m->z[2 * k + 1] == im, "z[%d] = (%g, %g), expected (%g, %g)",
              k, m->z[2 * k], m->z[2 * k + 1], re, im);
    }
    for (int k = 0; k < LD; k++) {
        long want = k % 2 == 0 && k / 2 < NV ? (long)np * (k / 2 + 1) : 0;
        CHECK(m->l[k] == want, "l[%d] = %ld, expected %ld", k, m->l[k], want);
    }
}

/* Puts and gets to a rank on another node: strided (one message each with
 * ARMCI_GHOST_AM=ALL), a small contiguous put (a message) and a large one
 * (RMA), each read back without a fence: the paths must stay ordered. */
static void put_get(void **ptr)
{
    int t = (me + np / 2) % np;
    slab_t *rs = ptr[t];
    enum { W = 6, H = 5, BIG = 3000 };
    double blk[W * H], back[W * H];
    for (int k = 0; k < W * H; k++)
        blk[k] = 100 * me + k;
    int ls[1] = {W * (int)sizeof(double)}, ts[1] = {LD * (int)sizeof(double)};
    int count[2] = {W * (int)sizeof(double), H};
    double *corner = &rs->d[LD * (LD - H) + (LD - W)]; /* bottom right, clear of the accs */
    ARMCI_PutS(blk, ls, corner, ts, count, 1, t);
    ARMCI_GetS(corner, ts, back, ls, count, 1, t);
    for (int k = 0; k < W * H; k++)
        CHECK(back[k] == blk[k], "strided get after put from %d: [%d] = %g, expected %g", t, k,
              back[k], blk[k]);
    /* vector put and get: four scattered doubles of the bottom-right patch */
    double v[4] = {me + 0.25, me + 0.5, me + 0.75, me + 1.0}, vb[4] = {0, 0, 0, 0};
    void *vs[4], *vd[4], *gs[4], *gd[4];
    for (int k = 0; k < 4; k++) {
        vs[k] = &v[k];
        vd[k] = gs[k] = corner + k * (LD + 1);
        gd[k] = &vb[k];
    }
    armci_giov_t pv = {.src_ptr_array = vs, .dst_ptr_array = vd, .ptr_array_len = 4,
                       .bytes = (int)sizeof(double)};
    armci_giov_t gv = {.src_ptr_array = gs, .dst_ptr_array = gd, .ptr_array_len = 4,
                       .bytes = (int)sizeof(double)};
    ARMCI_PutV(&pv, 1, t);
    ARMCI_GetV(&gv, 1, t);
    for (int k = 0; k < 4; k++)
        CHECK(vb[k] == v[k], "vector get after put from %d: [%d] = %g, expected %g", t, k, vb[k],
              v[k]);
    static char big[BIG], bigback[BIG];
    for (int round = 0; round < 2; round++) {
        long small = 7L * me + round, sback = -1;
        ARMCI_Put(&small, &rs->l[LD - 2], sizeof small, t); /* small: a message */
        for (int k = 0; k < BIG; k++)
            big[k] = (char)(me + k + round);
        ARMCI_Put(big, rs->raw, BIG, t);
        ARMCI_Get(&rs->l[LD - 2], &sback, sizeof sback, t);
        CHECK(sback == small, "get after a small put to %d read %ld, expected %ld", t, sback,
              small);
        ARMCI_Get(rs->raw, bigback, BIG, t);
        CHECK(memcmp(big, bigback, BIG) == 0, "get after a large put to %d differs", t);
    }
}

/* An accumulate, then a get of the same bytes without a fence. */
static void read_own_write(void **ptr)
{
    int t = (me + np / 2) % np;
    slab_t *rs = ptr[t];
    long one = 1, back = 0, add = 1000;
    ARMCI_Acc(ARMCI_ACC_LNG, &one, &add, &rs->l[LD - 1], sizeof(long), t);
    ARMCI_Get(&rs->l[LD - 1], &back, sizeof back, t);
    CHECK(back >= 1000, "a get after my accumulate read %ld", back);
}

static void rmw_and_mutex(void **ptr)
{
    int got, tgt = 0;
    long lgot;
    slab_t *r0 = ptr[tgt];
    for (int k = 0; k < 50; k++) {
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &got, &r0->i[0], 1, tgt);
        CHECK(got >= 0 && got < 50 * np, "fetch-and-add handed out %d", got);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lgot, &r0->c[0], 2, tgt);
        CHECK(lgot >= 0 && lgot < 100L * np && lgot % 2 == 0, "long fetch-and-add gave %ld", lgot);
    }
    /* swaps: every rank swaps its id in; the values seen plus the last one
     * left are each id once (with the initial -1) */
    int mine = me;
    ARMCI_Rmw(ARMCI_SWAP, &mine, &r0->i[1], 0, tgt);
    int seen[2] = {mine, 0};
    ARMCI_Barrier();
    ARMCI_Create_mutexes(1);
    for (int k = 0; k < 20; k++) { /* a non-atomic increment under the mutex */
        long v;
        ARMCI_Lock(0, tgt);
        ARMCI_Get(&r0->c[1], &v, sizeof v, tgt);
        v++;
        ARMCI_Put(&v, &r0->c[1], sizeof v, tgt);
        ARMCI_Unlock(0, tgt);
    }
    ARMCI_Barrier();
    ARMCI_Destroy_mutexes();
    int sum = 0;
    MPI_Allreduce(&seen[0], &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == tgt) {
        CHECK(r0->i[0] == 50 * np, "fetch-and-add counter %d, expected %d", r0->i[0], 50 * np);
        CHECK(r0->c[0] == 100L * np, "long counter %ld, expected %ld", r0->c[0], 100L * np);
        CHECK(r0->c[1] == 20L * np, "mutex-protected counter %ld, expected %ld", r0->c[1],
              20L * np);
        /* ids 0..np-1 and the initial -1: what the swaps returned and what is left */
        CHECK(sum + r0->i[1] == np * (np - 1) / 2 - 1, "swaps returned %d and left %d", sum,
              r0->i[1]);
    }
}

/* A node-mate's slice in the ghosts' pools has a direct mapping, and its
 * RMW take it. */
static void check_node_local(void **ptr)
{
    const char *vn = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int k = vn ? atoi(vn) : 0;
    if (!armcii_gmr_ghost_usable() || k < 2 || !armcii_gmr_facts().direct)
        return; /* no node-local path here (ARMCI_NODE_LOCAL=off, or osc pt2pt/ucx) */
    int mate = me % k == k - 1 ? me - 1 : me + 1; /* same virtual node */
    armcii_target_t t;
    CHECK(armcii_gmr_xlate_try(ptr[mate], sizeof(double), mate, ARMCII_OP_GET, &t) == 0,
          "cannot translate node-mate %d's slice", mate);
    CHECK(t.direct != NULL, "node-mate %d's slice in a ghost pool has no direct mapping", mate);
    /* a node-mate's RMW is a CPU atomic here, as its ghost's are: no message */
    slab_t *ms = ptr[mate];
    long got, before = (long)am_count();
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &got, &ms->l[LD - 1], 1, mate);
    CHECK((long)am_count() == before, "an RMW to node-mate %d went to a ghost", mate);
}

/* One pass over everything; am: ghosts are expected to apply from messages. */
static void pass(int am)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ptr, sizeof(slab_t));
    slab_t *m = ptr[me];
    memset(m, 0, sizeof *m);
    m->i[1] = -1;
    ARMCI_Barrier();
    unsigned long am0 = am_count();
    accumulate_all(ptr);
    ARMCI_Barrier();
    check_sums(m);
    ARMCI_Barrier();
    read_own_write(ptr);
    ARMCI_Barrier(); /* put_get overwrites what check_sums read */
    put_get(ptr);
    rmw_and_mutex(ptr);
    check_node_local(ptr);
    unsigned long sent = am_count() - am0;
    if (am && ghosts_serve())
        CHECK(sent > 0, "no operation was applied by a ghost from a message");
    if (!am)
        CHECK(sent == 0, "%lu messages to ghosts with ARMCI_GHOST_AM off", sent);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    tu_name = "test_ghost_am";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* as launched (the default: messages), then every ARMCI_GHOST_AM choice */
    ARMCI_Init();
    pass(!env_off("ARMCI_GHOST_AM"));
    ARMCI_Finalize();
    static const char *const choice[] = {"on", "all", "off"};
    for (int c = 0; c < 3; c++) {
        setenv("ARMCI_GHOST_AM", choice[c], 1);
        ARMCI_Init();
        pass(c < 2);
        ARMCI_Finalize();
    }
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
