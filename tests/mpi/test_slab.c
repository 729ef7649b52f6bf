/* Small allocations over all processes share slab windows
 * (src/gmr/gmr_slab.c; ARMCI_REGION_SLAB, 64 KiB per process here, so
 * allocations up to 8 KiB per process take a place): consecutive ones lie
 * one place apart, a freed place is taken again by the next one that fits,
 * a full slab makes another, and in every case each array carries puts,
 * strided puts, accumulates, fetch-and-adds and gets between every pair
 * without touching its neighbours (every element of every live array is
 * checked after each round).  Then a random churn of allocations and
 * frees, as Global Arrays' temporaries make, with the same checks.  A
 * group of every process in reversed order allocates beside the slabs
 * (its ranks are not the world's: it takes windows of its own) and each
 * member's slice holds what its group neighbour put there.  In the ghost
 * build across virtual nodes with redirection on, the slabs' memory is in
 * the ghosts' pools: each round's accumulates to another node must reach
 * ghosts, which apply them at the place's offset (the element checks
 * catch a wrong one). */
#include <stdint.h>
#include <armci.h>
#include <armciconf.h>
#include "../testutil.h"
#include "ghost_setting.h"

unsigned long armcii_gmr_redirected(void); /* src/gmr/gmr.h */
int armcii_gmr_ghost_pools(void);          /* src/gmr/gmr.h */

enum { SLAB = 65536, MAXLIVE = 48 };
static int me, np;
static int to_ghosts; /* accumulates to another node go to ghosts */

typedef struct {
    void **ptr;   /* every process's base */
    long *n;      /* every process's longs */
    long tag;     /* what this array's elements encode */
} arr_t;

static int slabs_expected(void)
{
    const char *s = getenv("ARMCI_REGION_SLAB");
    return !(s && atol(s) == 0);
}

static void alloc_arr(arr_t *a, const long *n, long tag)
{
    a->ptr = malloc(np * sizeof *a->ptr);
    a->n = malloc(np * sizeof *a->n);
    memcpy(a->n, n, np * sizeof *n);
    a->tag = tag;
    ARMCI_Malloc(a->ptr, n[me] * (long)sizeof(long));
    CHECK((n[me] == 0) == (a->ptr[me] == NULL), "array %ld: %ld longs here at %p", tag, n[me],
          a->ptr[me]);
}

static void free_arr(arr_t *a)
{
    ARMCI_Free(a->ptr[me]);
    free(a->ptr);
    free(a->n);
    a->ptr = NULL;
}

/* What element j of process p's slice holds after a round: put by
 * process (p + 1) % np, then one accumulate of 1 from every process on the
 * last element and np fetch-and-adds of 1 on the first. */
static long expect(const arr_t *a, int p, long j)
{
    long v = a->tag * 1000000 + p * 10000 + j;
    if (j == a->n[p] - 1)
        v += np;
    if (j == 0)
        v += np;
    return v;
}

/* One round over every live array: each slice written whole by one
 * process (half by a contiguous put, half by a strided one), updated by
 * all, then read back whole by another and checked element by element. */
static void round_all(arr_t *live, int nlive, const char *what)
{
    int p = (me + 1) % np; /* I write the slice of me + 1 */
    for (int i = 0; i < nlive; i++) {
        const arr_t *a = &live[i];
        long n = a->n[p];
        if (!n)
            continue;
        long *buf = malloc(n * sizeof *buf);
        for (long j = 0; j < n; j++)
            buf[j] = a->tag * 1000000 + p * 10000 + j;
        long half = n / 2;
        if (half)
            ARMCI_Put(buf, a->ptr[p], (int)(half * sizeof(long)), p);
        /* the rest as rows of one long, 2 longs apart in the source and
         * the target: two strided puts cover the even and odd ones */
        long rest = n - half;
        for (int k = 0; k < 2 && k < rest; k++) {
            int count[2] = {sizeof(long), (int)((rest - k + 1) / 2)};
            int stride = 2 * sizeof(long);
            ARMCI_PutS(buf + half + k, &stride, (long *)a->ptr[p] + half + k, &stride, count, 1,
                       p);
        }
        free(buf);
    }
    ARMCI_Barrier();
    long one = 1;
    unsigned long r0 = armcii_gmr_redirected();
    for (int i = 0; i < nlive; i++)
        for (int q = 0; q < np; q++) {
            const arr_t *a = &live[i];
            if (!a->n[q])
                continue;
            ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, (long *)a->ptr[q] + a->n[q] - 1, sizeof one, q);
            long old;
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, a->ptr[q], 1, q);
        }
    CHECK(!to_ghosts || !nlive || armcii_gmr_redirected() > r0,
          "%s: no accumulate to another virtual node reached a ghost", what);
    ARMCI_Barrier();
    int r = (me + 2) % np; /* read another process's slices whole */
    for (int i = 0; i < nlive; i++) {
        const arr_t *a = &live[i];
        long n = a->n[r];
        if (!n)
            continue;
        long *got = malloc(n * sizeof *got);
        ARMCI_Get(a->ptr[r], got, (int)(n * sizeof(long)), r);
        int bad = 0;
        for (long j = 0; j < n && bad < 3; j++)
            if (got[j] != expect(a, r, j)) {
                CHECK(0, "%s: array %ld, slice of %d (%ld longs), element %ld: %ld, expected %ld",
                      what, a->tag, r, n, j, got[j], expect(a, r, j));
                bad++;
            }
        free(got);
    }
    ARMCI_Barrier();
}

/* Irregular sizes up to about maxl longs, one process (rot, if not
 * negative) with none. */
static void sizes(long *n, long maxl, int rot, unsigned *seed)
{
    for (int q = 0; q < np; q++) {
        *seed = *seed * 1103515245u + 12345u;
        n[q] = q == rot % np && np > 1 ? 0 : 1 + (long)((*seed >> 8) % (unsigned)maxl);
    }
}

static long place_of(long maxn)
{
    return (maxn * (long)sizeof(long) + 63) / 64 * 64;
}

static long largest(const long *n)
{
    long m = 0;
    for (int q = 0; q < np; q++)
        if (n[q] > m)
            m = n[q];
    return m;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setenv("ARMCI_REGION_SLAB", getenv("ARMCI_REGION_SLAB") ? getenv("ARMCI_REGION_SLAB")
                                                           : "65536", 1);
    ARMCI_Init();
    tu_name = "test_slab";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int slab = slabs_expected();
    int real_np;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the ghost build's world hides ghosts */
    const char *vn = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    to_ghosts = real_np > np && armcii_gmr_ghost_pools() > 0 && vn && atoi(vn) > 0 &&
                atoi(vn) < np && tg_async_on();
    long *n = malloc(np * sizeof *n);
    unsigned seed = 7;
    arr_t live[MAXLIVE];
    int nlive = 0;

    /* Ten arrays: each one place after the one before on every process
     * that has a slice in both (the first five have one everywhere). */
    for (int i = 0; i < 10; i++) {
        sizes(n, 200 + 40 * i, i < 5 ? -1 : i, &seed);
        alloc_arr(&live[nlive++], n, i);
    }
    for (int i = 1; i < 10 && slab; i++) {
        const arr_t *a = &live[i - 1], *b = &live[i];
        if (a->n[me] && b->n[me])
            CHECK((char *)b->ptr[me] - (char *)a->ptr[me] == place_of(largest(a->n)),
                  "array %d at %p, %td bytes after array %d, expected one place (%ld bytes)", i,
                  b->ptr[me], (char *)b->ptr[me] - (char *)a->ptr[me], i - 1,
                  place_of(largest(a->n)));
    }
    round_all(live, nlive, "ten arrays");

    /* Free arrays 3 and 4: the next array that fits takes array 3's place. */
    void *hole = live[3].ptr[me];
    long hole_bytes = place_of(largest(live[3].n)) + place_of(largest(live[4].n));
    free_arr(&live[3]);
    free_arr(&live[4]);
    live[3] = live[--nlive];
    live[4] = live[--nlive];
    for (int q = 0; q < np; q++)
        n[q] = hole_bytes / (long)sizeof(long) - 8 * q;
    alloc_arr(&live[nlive++], n, 100);
    CHECK(!slab || live[nlive - 1].ptr[me] == hole,
          "an array that fits the freed places at %p was put at %p", hole,
          live[nlive - 1].ptr[me]);
    round_all(live, nlive, "a freed place taken again");

    /* Past one slab: 8 KiB arrays until the first slab is full, and more. */
    for (int i = 0; i < 12; i++) {
        for (int q = 0; q < np; q++)
            n[q] = SLAB / 8 / (long)sizeof(long) - q;
        alloc_arr(&live[nlive++], n, 200 + i);
    }
    round_all(live, nlive, "two slabs");
    /* a larger array takes windows of its own and works beside them */
    for (int q = 0; q < np; q++)
        n[q] = SLAB / (long)sizeof(long) + q;
    alloc_arr(&live[nlive++], n, 300);
    round_all(live, nlive, "a large array beside the slabs");
    while (nlive > 0)
        free_arr(&live[--nlive]);

    /* A group of every process in reversed order, with a small region
     * (slab places are in world order), alive beside a slab array. */
    {
        int *rev = malloc(np * sizeof *rev);
        for (int q = 0; q < np; q++)
            rev[q] = np - 1 - q;
        ARMCI_Group g;
        ARMCI_Group_create(np, rev, &g);
        int gr, gn = 8 + me; /* longs in my slice */
        ARMCI_Group_rank(&g, &gr);
        for (int q = 0; q < np; q++)
            n[q] = 16;
        alloc_arr(&live[nlive++], n, 400);
        void **gp = malloc(np * sizeof *gp);
        ARMCI_Malloc_group(gp, gn * (long)sizeof(long), &g);
        /* every member's base where the member itself sees its slice */
        void **own = malloc(np * sizeof *own);
        MPI_Allgather(&gp[gr], sizeof(void *), MPI_BYTE, own, sizeof(void *), MPI_BYTE,
                      MPI_COMM_WORLD);
        for (int q = 0; q < np; q++)
            CHECK(gp[q] == own[ARMCI_Absolute_id(&g, q)], "reversed group: group rank %d's "
                  "base %p, but world rank %d has its slice at %p", q, gp[q],
                  ARMCI_Absolute_id(&g, q), own[ARMCI_Absolute_id(&g, q)]);
        free(own);
        /* group rank r's slice belongs to world rank np-1-r, of 8+(np-1-r) longs */
        int to = (gr + 1) % np, to_abs = ARMCI_Absolute_id(&g, to), to_n = 8 + to_abs;
        long *buf = malloc(to_n * sizeof *buf);
        for (int j = 0; j < to_n; j++)
            buf[j] = 7000000L + 1000L * gr + j;
        ARMCI_Put(buf, gp[to], to_n * (int)sizeof(long), to_abs);
        free(buf);
        round_all(live, nlive, "beside a reversed group's region");
        ARMCI_Barrier();
        int from = (gr + np - 1) % np;
        for (int j = 0; j < gn; j++)
            CHECK(((long *)gp[gr])[j] == 7000000L + 1000L * from + j,
                  "reversed group: my slice (group rank %d) element %d holds %ld, expected %ld "
                  "from group rank %d", gr, j, ((long *)gp[gr])[j], 7000000L + 1000L * from + j,
                  from);
        ARMCI_Free_group(gp[gr], &g);
        ARMCI_Group_free(&g);
        free(gp);
        free(rev);
        free_arr(&live[--nlive]);
    }

    /* A churn of allocations and frees in random order. */
    for (int it = 0; it < tu_iters(120); it++) {
        seed = seed * 1103515245u + 12345u;
        if (nlive && ((seed >> 16) % 3 == 0 || nlive == MAXLIVE)) {
            int k = (int)((seed >> 4) % (unsigned)nlive);
            free_arr(&live[k]);
            live[k] = live[--nlive];
        } else {
            sizes(n, 1 + (seed >> 12) % 1000, it, &seed);
            alloc_arr(&live[nlive++], n, 1000 + it);
        }
        if (it % 20 == 19)
            round_all(live, nlive, "churn");
    }
    round_all(live, nlive, "after the churn");
    while (nlive > 0)
        free_arr(&live[--nlive]);
    free(n);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
