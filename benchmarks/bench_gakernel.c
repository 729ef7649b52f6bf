/*
 * bench_gakernel - a Global Arrays style get-compute-update kernel.
 *
 * C = A * B for N x N doubles stored as ARMCI arrays distributed by blocks
 * of rows (rank p owns rows [p*R, (p+1)*R), R = ceil(N/nranks)).  The
 * work is split into tasks (bi, bj, bk) of nb x nb blocks, handed out by a
 * shared task counter (ARMCI_Rmw fetch-and-add on rank 0); a task gets
 * A(bi,bk) and B(bk,bj) with ARMCI_GetS, multiplies them locally and adds
 * the product to C(bi,bj) with ARMCI_AccS.  After the last repetition of a
 * block size, rank 0 reads C back and compares it with a reference product
 * (the values are small multiples of 1/32, so every order of summation
 * gives the same doubles and the check is exact).
 * Rows (op bytes=nb): ga_mm, time per multiply, and local_mm, the same
 * blocked multiply on private copies with a static task split (no
 * communication: the limit).  Extra columns: GFLOP/s, ga_mm / local_mm.
 * Environment: BENCH_GA_N (default 512), BENCH_GA_NB (comma list, default
 * 32,64,128), BENCH_REPS (default 5).
 */
#include <armci.h>
#include "bench_common.h"


static struct {
    int me, n, N, rows; /* rows: rows per rank */
    void **A, **B, **C; /* ARMCI arrays */
    void **ctr;         /* task counter, on rank 0 */
    double *a, *b;      /* private full copies (local baseline, reference) */
    double *ta, *tb, *tc; /* task buffers nb x nb */
} G;

static double aval(int i, int j) { return ((i * 7 + j * 3) % 17) / 8.0 - 1.0; }
static double bval(int i, int j) { return ((i * 5 + j * 11) % 13) / 4.0 - 1.5; }

/* Blocks [r0, r0+nr) x [c0, c0+nc) of a distributed matrix, split by owner.
 * get != 0: copy into buf (leading dim ld); else accumulate buf into it. */
static void ga_xfer(void **mat, int r0, int nr, int c0, int nc, double *buf, int ld, int get)
{
    double one = 1.0;
    while (nr > 0) {
        int p = r0 / G.rows, lr = r0 - p * G.rows;
        int take = G.rows - lr < nr ? G.rows - lr : nr;
        double *rem = (double *)mat[p] + (size_t)lr * G.N + c0;
        int rs[1] = {G.N * 8}, ls[1] = {ld * 8}, cnt[2] = {nc * 8, take};
        if (get)
            ARMCI_GetS(rem, rs, buf, ls, cnt, 1, p);
        else
            ARMCI_AccS(ARMCI_ACC_DBL, &one, buf, ls, rem, rs, cnt, 1, p);
        buf += (size_t)take * ld;
        r0 += take;
        nr -= take;
    }
}

/* c[m x n] += a[m x k] * b[k x n], row-major with leading dims. */
static void dgemm(int m, int n, int k, const double *a, int lda, const double *b, int ldb,
                  double *c, int ldc)
{
    for (int i = 0; i < m; i++)
        for (int l = 0; l < k; l++) {
            double x = a[(size_t)i * lda + l];
            const double *br = b + (size_t)l * ldb;
            double *cr = c + (size_t)i * ldc;
            for (int j = 0; j < n; j++)
                cr[j] += x * br[j];
        }
}

static int blocks(int nb) { return (G.N + nb - 1) / nb; }
static int extent(int b, int nb) { return G.N - b * nb < nb ? G.N - b * nb : nb; }

static void zero_local(void **mat)
{
    int lo = G.me * G.rows, nr = G.N - lo < G.rows ? G.N - lo : G.rows;
    ARMCI_Access_begin(mat[G.me]);
    if (nr > 0)
        memset(mat[G.me], 0, (size_t)nr * G.N * 8);
    ARMCI_Access_end(mat[G.me]);
}

/* One multiply through ARMCI; returns seconds (slowest rank). */
static double ga_mm(int nb)
{
    int nbk = blocks(nb), ntask = nbk * nbk * nbk, task, zero = 0;
    zero_local(G.C);
    if (G.me == 0)
        ARMCI_Put(&zero, G.ctr[0], sizeof zero, 0);
    ARMCI_Barrier();
    double t0 = bc_now();
    for (;;) {
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &task, G.ctr[0], 1, 0);
        if (task >= ntask)
            break;
        int bi = task / (nbk * nbk), bj = task / nbk % nbk, bk = task % nbk;
        int m = extent(bi, nb), n = extent(bj, nb), k = extent(bk, nb);
        ga_xfer(G.A, bi * nb, m, bk * nb, k, G.ta, nb, 1);
        ga_xfer(G.B, bk * nb, k, bj * nb, n, G.tb, nb, 1);
        memset(G.tc, 0, (size_t)nb * nb * 8);
        dgemm(m, n, k, G.ta, nb, G.tb, nb, G.tc, nb);
        ga_xfer(G.C, bi * nb, m, bj * nb, n, G.tc, nb, 0);
    }
    ARMCI_Barrier();
    double t = bc_now() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* The same tasks on private copies, split statically: compute only. */
static double local_mm(int nb, double *c)
{
    int nbk = blocks(nb), ntask = nbk * nbk * nbk, N = G.N;
    memset(c, 0, (size_t)N * N * 8);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = bc_now();
    for (int task = G.me; task < ntask; task += G.n) {
        int bi = task / (nbk * nbk), bj = task / nbk % nbk, bk = task % nbk;
        int m = extent(bi, nb), n = extent(bj, nb), k = extent(bk, nb);
        for (int i = 0; i < m; i++)
            memcpy(G.ta + (size_t)i * nb, G.a + (size_t)(bi * nb + i) * N + bk * nb, (size_t)k * 8);
        for (int l = 0; l < k; l++)
            memcpy(G.tb + (size_t)l * nb, G.b + (size_t)(bk * nb + l) * N + bj * nb, (size_t)n * 8);
        memset(G.tc, 0, (size_t)nb * nb * 8);
        dgemm(m, n, k, G.ta, nb, G.tb, nb, G.tc, nb);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                c[(size_t)(bi * nb + i) * N + bj * nb + j] += G.tc[(size_t)i * nb + j];
    }
    double t = bc_now() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

static void verify(int nb, const double *ref, double *tmp)
{
    if (G.me == 0) {
        ga_xfer(G.C, 0, G.N, 0, G.N, tmp, G.N, 1);
        for (size_t i = 0; i < (size_t)G.N * G.N; i++)
            if (tmp[i] != ref[i])
                bc_die("bench_gakernel: nb=%d: C[%zu][%zu] = %g, expected %g", nb,
                       i / (size_t)G.N, i % (size_t)G.N, tmp[i], ref[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void setup(int maxnb)
{
    G.me = bc_rank();
    G.n = bc_nranks();
    G.N = (int)bc_env_long("BENCH_GA_N", 512);
    G.rows = (G.N + G.n - 1) / G.n;
    size_t mine = (size_t)G.rows * G.N * 8, full = (size_t)G.N * G.N * 8;
    void ***mats[3] = {&G.A, &G.B, &G.C};
    for (int i = 0; i < 3; i++) {
        *mats[i] = malloc((size_t)G.n * sizeof(void *));
        if (!*mats[i] || ARMCI_Malloc(*mats[i], (armci_size_t)mine))
            bc_die("ARMCI_Malloc of %zu bytes failed", mine);
    }
    G.ctr = malloc((size_t)G.n * sizeof(void *));
    if (!G.ctr || ARMCI_Malloc(G.ctr, 8))
        bc_die("ARMCI_Malloc of the counter failed");
    G.a = bc_alloc(full);
    G.b = bc_alloc(full);
    for (int i = 0; i < G.N; i++)
        for (int j = 0; j < G.N; j++) {
            G.a[(size_t)i * G.N + j] = aval(i, j);
            G.b[(size_t)i * G.N + j] = bval(i, j);
        }
    size_t blk = (size_t)maxnb * maxnb * 8;
    G.ta = bc_alloc(blk);
    G.tb = bc_alloc(blk);
    G.tc = bc_alloc(blk);
    int lo = G.me * G.rows, nr = G.N - lo < G.rows ? G.N - lo : G.rows;
    ARMCI_Access_begin(G.A[G.me]);
    ARMCI_Access_begin(G.B[G.me]);
    if (nr > 0) {
        memcpy(G.A[G.me], G.a + (size_t)lo * G.N, (size_t)nr * G.N * 8);
        memcpy(G.B[G.me], G.b + (size_t)lo * G.N, (size_t)nr * G.N * 8);
    }
    ARMCI_Access_end(G.B[G.me]);
    ARMCI_Access_end(G.A[G.me]);
    ARMCI_Barrier();
}

static void run_nb(int nb, int reps, const double *ref, double *tmp)
{
    double tg[BC_MAX_REPS], tl[BC_MAX_REPS], flops = 2.0 * G.N * G.N * (double)G.N;
    ga_mm(nb); /* warm-up */
    for (int r = 0; r < reps; r++) {
        tg[r] = ga_mm(nb) * 1e9;
        tl[r] = local_mm(nb, tmp) * 1e9;
    }
    verify(nb, ref, tmp);
    if (G.me == 0) {
        bc_stats_t sg = bc_stats(tg, reps), sl = bc_stats(tl, reps);
        bc_row("ga_mm", nb, 1, &sg);
        printf(" %8.3f", flops / sg.med);
        bc_ratio(sg.med, sl.med);
        printf("\n");
        bc_row("local_mm", nb, 1, &sl);
        printf(" %8.3f %8s\n", flops / sl.med, "-");
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    int nbs[16], nnb = 0;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    const char *list = getenv("BENCH_GA_NB");
    for (const char *p = list && *list ? list : "32,64,128"; *p && nnb < 16;) {
        nbs[nnb] = atoi(p);
        if (nbs[nnb] <= 0)
            bc_die("BENCH_GA_NB=%s: block sizes must be positive", list);
        nnb++;
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    int maxnb = 0, reps = bc_reps(5);
    for (int i = 0; i < nnb; i++)
        maxnb = nbs[i] > maxnb ? nbs[i] : maxnb;
    setup(maxnb);
    if (G.me == 0)
        bc_header("bench_gakernel", " GFLOP/s vs_local");
    {
        /* Reference (rank 0 checks): one unblocked product. */
        double *ref = bc_alloc((size_t)G.N * G.N * 8), *tmp = bc_alloc((size_t)G.N * G.N * 8);
        if (G.me == 0)
            dgemm(G.N, G.N, G.N, G.a, G.N, G.b, G.N, ref, G.N);
        for (int i = 0; i < nnb; i++)
            run_nb(nbs[i], reps, ref, tmp);
        if (G.me == 0)
            printf("# C = A*B verified for every block size (N=%d)\n", G.N);
        free(ref);
        free(tmp);
    }
    ARMCI_Barrier();
    ARMCI_Free(G.A[G.me]);
    ARMCI_Free(G.B[G.me]);
    ARMCI_Free(G.C[G.me]);
    ARMCI_Free(G.ctr[G.me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
