/* Irregular and zero-size allocations, many live regions, Free with NULL,
 * Malloc_local, memdev variants, leak cleanup at Finalize and the reference
 * counting of Init/Finalize. */
#include <stdint.h>
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define NREG 40

/* Freed local blocks are reused (src/gmr/gmr_local.c: GA's GA_Dgemm takes
 * and frees a 40 MB buffer per call): the same size comes back at once, a
 * much smaller request does not take a large block, and every block stays
 * usable and distinct while live. */
static void test_local_reuse(void)
{
    size_t big = (size_t)40 << 20;
    char *a = ARMCI_Malloc_local(big);
    memset(a, 1, big);
    ARMCI_Free_local(a);
    char *b = ARMCI_Malloc_local(big);
    CHECK(b == a, "a freed %zu-byte local block was not reused (%p, then %p)", big,
          (void *)a, (void *)b);
    char *c = ARMCI_Malloc_local(64);
    CHECK(c != b, "a live block was handed out twice");
    ARMCI_Free_local(b);
    char *d = ARMCI_Malloc_local(100);
    CHECK(d != b, "a 100-byte request took the cached %zu-byte block", big);
    memset(d, 2, 100);
    memset(c, 3, 64);
    CHECK(c[63] == 3 && d[99] == 2, "two live small blocks overlap");
    ARMCI_Free_local(c);
    ARMCI_Free_local(d);
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    ARMCI_Init_args(&argc, &argv); /* reference counted */
    CHECK(ARMCI_Initialized(), "ARMCI_Initialized after init");
    tu_name = "test_malloc";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);

    /* Every odd rank allocates nothing: its entry must be NULL. */
    void **ptr[NREG];
    for (int r = 0; r < NREG; r++) {
        ptr[r] = malloc(np * sizeof(void *));
        long bytes = (me % 2) ? 0 : (long)(r + 1) * 24 + np * 4 + me * 8;
        ARMCI_Malloc(ptr[r], bytes);
        for (int p = 0; p < np; p++)
            CHECK((ptr[r][p] == NULL) == (p % 2 == 1), "region %d: entry %d is %p", r, p,
                  ptr[r][p]);
        if (bytes)
            memset(ptr[r][me], 0, bytes);
    }
    ARMCI_Barrier();
    /* Every rank writes a tag at offset 4*w of every even slice of every
     * region, then checks all tags through gets. */
    for (int r = 0; r < NREG; r++)
        for (int p = 0; p < np; p += 2) {
            int tag = r * 1000 + me;
            ARMCI_Put(&tag, (int *)ptr[r][p] + me, sizeof(int), p);
        }
    ARMCI_Barrier();
    for (int r = 0; r < NREG; r++)
        for (int p = 0; p < np; p += 2)
            for (int w = 0; w < np; w++) {
                int v = ARMCI_GetValueInt((int *)ptr[r][p] + w, p);
                CHECK(v == r * 1000 + w, "region %d slice %d tag %d: %d", r, p, w, v);
            }
    ARMCI_Barrier();
    /* Free in a different order than allocation; odd ranks pass NULL,
     * even ranks an address inside their slice (not only the base). */
    for (int r = NREG - 1; r >= 0; r -= 2)
        ARMCI_Free(ptr[r][me] ? (char *)ptr[r][me] + 8 : NULL);
    for (int r = 0; r < NREG; r += 2)
        ARMCI_Free(ptr[r][me]);

    /* All sizes zero: every entry NULL, Free(NULL) a no-op. */
    void **z = malloc(np * sizeof(void *));
    ARMCI_Malloc(z, 0);
    for (int p = 0; p < np; p++)
        CHECK(z[p] == NULL, "all-zero allocation entry %d = %p", p, z[p]);
    ARMCI_Free(NULL);

    /* memdev variants behave like Malloc/Free. */
    ARMCI_Malloc_memdev(z, 64, "DDR");
    CHECK(z[me] != NULL, "Malloc_memdev returned NULL");
    ARMCI_PutValueInt(me, z[(me + 1) % np], (me + 1) % np);
    ARMCI_Barrier();
    CHECK(*(int *)z[me] == (me + np - 1) % np, "memdev put: %d", *(int *)z[me]);
    ARMCI_Free_memdev(z[me]);

    /* Local memory. */
    double *loc = ARMCI_Malloc_local(1000 * sizeof(double));
    CHECK(loc != NULL && ((uintptr_t)loc % 8) == 0, "Malloc_local alignment %p", (void *)loc);
    for (int i = 0; i < 1000; i++)
        loc[i] = i;
    CHECK(ARMCI_Free_local(loc) == 0, "Free_local");
    test_local_reuse();

    /* A region left allocated on purpose: Finalize frees it collectively. */
    ARMCI_Malloc(z, 128);
    free(z);
    for (int r = 0; r < NREG; r++)
        free(ptr[r]);
    int rc = tu_finish();
    ARMCI_Finalize(); /* count 2 -> 1: still usable */
    CHECK(ARMCI_Initialized(), "still initialized after the inner Finalize");
    ARMCI_Finalize();
    CHECK(!ARMCI_Initialized(), "not initialized after the outer Finalize");
    CHECK(ARMCI_Finalize() == 0, "extra Finalize is a no-op");
    MPI_Finalize();
    return rc || tu_failures;
}
