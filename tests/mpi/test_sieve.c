/* Sieved gets (src/iov/iov_sieve.c): strided and vector gets whose blocks
 * crowd their extent, read as one range on the MPI path, must deliver
 * exactly the blocks asked for, in order where local blocks overlap, and
 * never write the target: while one process sieves the even elements of a
 * slice, another puts into its odd ones, and every put must survive.
 * Runs in every mode (the sieve acts where targets are on other nodes;
 * tests/mpi/test_iov_methods.sh checks from the log that it did, and runs
 * this with ARMCI_IOV_SIEVE=0 for the other paths). */
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define N 4096 /* doubles per slice */

static int me, np;
static void **A, **B;

static double val(int rank, int i) { return rank * 100000.0 + i; }

/* Every third element of [0, 3*nseg) of t's slice, as a vector. */
static void vector_every_third(int t, int nb)
{
    enum { NSEG = 1000 };
    double out[NSEG];
    void *src[NSEG], *dst[NSEG];
    for (int k = 0; k < NSEG; k++) {
        src[k] = (double *)A[t] + 3 * k;
        dst[k] = &out[k];
        out[k] = -1;
    }
    armci_giov_t d = {.src_ptr_array = src, .dst_ptr_array = dst,
                      .ptr_array_len = NSEG, .bytes = sizeof(double)};
    armci_hdl_t h;
    if (nb) {
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbGetV(&d, 1, t, &h);
        ARMCI_Wait(&h);
    } else {
        ARMCI_GetV(&d, 1, t);
    }
    for (int k = 0; k < NSEG; k++)
        CHECK(out[k] == val(t, 3 * k), "%s every-third element %d from %d: %g, expected %g",
              nb ? "NbGetV" : "GetV", k, t, out[k], val(t, 3 * k));
}

/* Segments in descending order, overlapping remotely, and two that write
 * the same local element: the later one's value must stay. */
static void vector_overlaps(int t)
{
    double out[64];
    void *src[40], *dst[40];
    for (int k = 0; k < 39; k++) {
        src[k] = (double *)A[t] + 200 - 2 * k; /* 3 elements, 2 apart: overlap */
        dst[k] = &out[(k % 20) * 3 % 60];
    }
    src[39] = (double *)A[t] + 7;
    dst[39] = &out[0]; /* also written by segment 0 and 20 */
    for (int i = 0; i < 64; i++)
        out[i] = -1;
    armci_giov_t d = {.src_ptr_array = src, .dst_ptr_array = dst,
                      .ptr_array_len = 40, .bytes = 3 * sizeof(double)};
    ARMCI_GetV(&d, 1, t);
    double want[64];
    for (int i = 0; i < 64; i++)
        want[i] = -1;
    for (int k = 0; k < 40; k++) { /* in order: a later segment overwrites */
        int from = (int)((double *)src[k] - (double *)A[t]);
        int to = (int)((double *)dst[k] - out);
        for (int j = 0; j < 3; j++)
            want[to + j] = val(t, from + j);
    }
    for (int i = 0; i < 64; i++)
        CHECK(out[i] == want[i], "overlapping GetV from %d: element %d is %g, expected %g", t,
              i, out[i], want[i]);
}

/* Remote segments overlapping so much that their range is shorter than
 * their payload (30 segments of 3 elements, 1 apart): still one range. */
static void vector_dense_overlap(int t)
{
    double out[90];
    void *src[30], *dst[30];
    for (int k = 0; k < 30; k++) {
        src[k] = (double *)A[t] + 500 + k;
        dst[k] = &out[3 * k];
    }
    armci_giov_t d = {.src_ptr_array = src, .dst_ptr_array = dst,
                      .ptr_array_len = 30, .bytes = 3 * sizeof(double)};
    ARMCI_GetV(&d, 1, t);
    for (int k = 0; k < 30; k++)
        for (int j = 0; j < 3; j++)
            CHECK(out[3 * k + j] == val(t, 500 + k + j),
                  "dense overlapping GetV from %d: segment %d element %d is %g", t, k, j,
                  out[3 * k + j]);
}

/* A 2-d patch: 20 rows of 8 doubles, remote row stride 12 doubles, local
 * stride 9 (the local gaps must stay untouched); then the same rows read
 * bottom-up through a negative remote stride. */
static void strided_patch(int t, int nb)
{
    double out[20 * 9];
    for (int i = 0; i < 20 * 9; i++)
        out[i] = -1;
    int rs[1] = {12 * 8}, ls[1] = {9 * 8}, cnt[2] = {8 * 8, 20};
    double *rem = (double *)A[t] + 100;
    armci_hdl_t h;
    if (nb) {
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbGetS(rem, rs, out, ls, cnt, 1, t, &h);
        ARMCI_Wait(&h);
    } else {
        ARMCI_GetS(rem, rs, out, ls, cnt, 1, t);
    }
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 9; c++) {
            double want = c < 8 ? val(t, 100 + 12 * r + c) : -1;
            CHECK(out[r * 9 + c] == want, "%s patch from %d: row %d col %d is %g, expected %g",
                  nb ? "NbGetS" : "GetS", t, r, c, out[r * 9 + c], want);
        }
    int nrs[1] = {-12 * 8};
    ARMCI_GetS(rem + 19 * 12, nrs, out, ls, cnt, 1, t);
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 8; c++)
            CHECK(out[r * 9 + c] == val(t, 100 + 12 * (19 - r) + c),
                  "negative-stride GetS from %d: row %d col %d is %g", t, r, c, out[r * 9 + c]);
}

/* Each process sieves the even elements of (me+1)'s B while (me+2) puts
 * into that slice's odd ones and reads them back with a contiguous get: a
 * sieve that wrote its range back would restore odd elements between a put
 * and its read-back (puts move one element per block here, so one takes
 * long enough for sieves to land inside it).  Afterwards every odd element
 * holds its last put and every even one its first value. */
static void concurrent_gaps(void)
{
    enum { HALF = N / 2 };
    int iters = tu_iters(30);
    int t = (me + 1) % np, w = (me + np - 1) % np; /* I read t, write w */
    static double even[HALF], odd[HALF], back[N];
    void *src[HALF], *dst[HALF];
    for (int k = 0; k < HALF; k++) {
        src[k] = (double *)B[t] + 2 * k;
        dst[k] = &even[k];
    }
    armci_giov_t d = {.src_ptr_array = src, .dst_ptr_array = dst,
                      .ptr_array_len = HALF, .bytes = sizeof(double)};
    int ps[1] = {16}, pls[1] = {8}, pc[2] = {8, HALF};
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < HALF; k++)
            odd[k] = -(it * 10000.0 + k);
        ARMCI_PutS(odd, pls, (double *)B[w] + 1, ps, pc, 1, w);
        for (int rep = 0; rep < 4; rep++)
            ARMCI_GetV(&d, 1, t);
        ARMCI_Get(B[w], back, N * sizeof(double), w);
        for (int k = 0; k < HALF; k++) {
            CHECK(even[k] == val(t, 2 * k), "iteration %d: even element %d of %d is %g", it,
                  2 * k, t, even[k]);
            CHECK(back[2 * k + 1] == odd[k],
                  "iteration %d: odd element %d of %d reads %g after my put of %g "
                  "(a get wrote it back?)", it, 2 * k + 1, w, back[2 * k + 1], odd[k]);
        }
    }
    ARMCI_Barrier();
    double *mine = B[me];
    for (int k = 0; k < HALF; k++) {
        CHECK(mine[2 * k] == val(me, 2 * k), "my even element %d became %g", 2 * k, mine[2 * k]);
        CHECK(mine[2 * k + 1] == -((iters - 1) * 10000.0 + k),
              "my odd element %d is %g, not the last put's %g (a get wrote it back?)",
              2 * k + 1, mine[2 * k + 1], -((iters - 1) * 10000.0 + k));
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_sieve";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    A = malloc((size_t)np * sizeof(void *));
    B = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(A, N * sizeof(double));
    ARMCI_Malloc(B, N * sizeof(double));
    for (int i = 0; i < N; i++)
        ((double *)A[me])[i] = ((double *)B[me])[i] = val(me, i);
    ARMCI_Barrier();
    for (int t = 0; t < np; t++) {
        vector_every_third(t, 0);
        vector_every_third(t, 1);
        vector_overlaps(t);
        vector_dense_overlap(t);
        strided_patch(t, 0);
        strided_patch(t, 1);
    }
    if (np >= 3)
        concurrent_gaps();
    else if (me == 0)
        printf("note: the concurrent-writer case needs 3 processes (ran %d)\n", np);
    ARMCI_Barrier();
    ARMCI_Free(A[me]);
    ARMCI_Free(B[me]);
    free(A);
    free(B);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
