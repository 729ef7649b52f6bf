/* test_threads.c, part 2: one allocation written by every thread of every
 * process at once.  Included by test_threads.c after its globals (me, np,
 * iters, seed0, NT), rnd() and TCHECK.
 *
 * Layout of the shared region on each process (W = np * NT writers; writer
 * w = process * NT + thread):
 *   sh_hdr_t       accumulate targets (long, integer-valued double) that
 *                  every writer adds to, and long fetch-and-add counters;
 *   int col[SROWS][W]   writer w owns column w: its words sit between the
 *                  words of writers w - 1 and w + 1 (strided puts);
 *   int blk[W][SBLK]    writer w owns row w (contiguous puts).
 * Each writer models its column and block on every target; accumulate
 * contributions and fetched values are recorded per thread. */
#define SROWS 24
#define SBLK 64
#define SACC 40
#define SFA 4
#define SBURST 1000   /* accumulates per thread in the burst */

typedef struct {
    long acc_l[SACC];
    double acc_d[SACC];
    long fa[SFA];
} sh_hdr_t;

static void **sh;                     /* the shared region */
static int *sh_colm[NT], *sh_blkm[NT]; /* [target][SROWS], [target][SBLK] */
static long *sh_accl[NT];             /* [target][SACC] this thread's sums */
static double *sh_accd[NT];
static long *sh_fa[NT];               /* fetched: target, counter, value */
static int sh_nfa[NT];

static int *col_of(void *base) { return (int *)((char *)base + sizeof(sh_hdr_t)); }
static int *blk_of(void *base) { return col_of(base) + (size_t)SROWS * np * NT; }

static void sh_alloc(void)
{
    size_t bytes = sizeof(sh_hdr_t) + ((size_t)SROWS + SBLK) * np * NT * sizeof(int);
    sh = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(sh, (armci_size_t)bytes);
    memset(sh[me], 0, bytes);
}

static void sh_thread_init(int tid)
{
    sh_colm[tid] = calloc((size_t)np * SROWS, sizeof(int));
    sh_blkm[tid] = calloc((size_t)np * SBLK, sizeof(int));
    sh_accl[tid] = calloc((size_t)np * SACC, sizeof(long));
    sh_accd[tid] = calloc((size_t)np * SACC, sizeof(double));
    sh_fa[tid] = malloc((size_t)(iters + 1) * 3 * sizeof(long));
}

/* Rows r0..r0+k-1 of this writer's column: a strided put (one int per
 * row, row stride W ints), then either the column back by a strided get,
 * or the whole rows by one contiguous get (every writer's words: only
 * this writer's are known). */
static void sh_col(int tid, int it, int tgt, uint64_t *s)
{
    int W = np * NT, w = me * NT + tid;
    int k = 1 + (int)(rnd(s) % SROWS), r0 = (int)(rnd(s) % (uint64_t)(SROWS - k + 1));
    int buf[SROWS], *m = sh_colm[tid] + (size_t)tgt * SROWS;
    int *dst = col_of(sh[tgt]) + (size_t)r0 * W + w;
    int one[1] = {(int)sizeof(int)}, wide[1] = {W * (int)sizeof(int)};
    int count[2] = {(int)sizeof(int), k};
    for (int i = 0; i < k; i++)
        buf[i] = m[r0 + i] = (int)(rnd(s) & 0x7fffffff);
    if (rnd(s) & 1) {
        ARMCI_PutS(buf, one, dst, wide, count, 1, tgt);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbPutS(buf, one, dst, wide, count, 1, tgt, &h);
        ARMCI_Wait(&h);
    }
    if (rnd(s) & 1) {
        int back[SROWS];
        memset(back, 0xff, sizeof back);
        ARMCI_GetS(dst, wide, back, one, count, 1, tgt);
        for (int i = 0; i < k; i++)
            TCHECK(back[i] == m[r0 + i], "shared column %d on %d, row %d: strided get %d, "
                   "expected %d", w, tgt, r0 + i, back[i], m[r0 + i]);
    } else {
        int *rows = malloc((size_t)k * W * sizeof(int));
        ARMCI_Get(dst - w, rows, k * W * (int)sizeof(int), tgt);
        for (int i = 0; i < k; i++)
            TCHECK(rows[i * W + w] == m[r0 + i], "shared column %d on %d, row %d: row get "
                   "%d, expected %d", w, tgt, r0 + i, rows[i * W + w], m[r0 + i]);
        free(rows);
    }
}

/* A contiguous piece of this writer's block, put and read back. */
static void sh_blk(int tid, int it, int tgt, uint64_t *s)
{
    int w = me * NT + tid, n = 1 + (int)(rnd(s) % SBLK);
    int off = (int)(rnd(s) % (uint64_t)(SBLK - n + 1)), buf[SBLK], back[SBLK];
    int *m = sh_blkm[tid] + (size_t)tgt * SBLK, *dst = blk_of(sh[tgt]) + (size_t)w * SBLK + off;
    for (int i = 0; i < n; i++)
        buf[i] = m[off + i] = (int)(rnd(s) & 0x7fffffff);
    armci_hdl_t h;
    ARMCI_INIT_HANDLE(&h);
    if (rnd(s) & 1)
        ARMCI_Put(buf, dst, n * (int)sizeof(int), tgt);
    else {
        ARMCI_NbPut(buf, dst, n * (int)sizeof(int), tgt, &h);
        ARMCI_Wait(&h);
    }
    memset(back, 0xff, sizeof back);
    ARMCI_Get(dst, back, n * (int)sizeof(int), tgt);
    for (int i = 0; i < n; i++)
        TCHECK(back[i] == m[off + i], "shared block %d on %d, word %d: got %d, expected %d", w,
               tgt, off + i, back[i], m[off + i]);
}

/* Accumulate into elements every writer adds to: contiguous, every other
 * element (strided), or nonblocking; sometimes a fence and a get, which
 * must see at least what this thread added (all values are positive). */
static void sh_acc(int tid, int it, int tgt, uint64_t *s)
{
    int dbl = (int)(rnd(s) & 1), how = it < 0 ? -it - 1 : (int)(rnd(s) % 3);
    int n = 1 + (int)(rnd(s) % (how == 1 ? SACC / 2 : SACC));
    if (it < 0)  /* burst: the whole area */
        n = how == 1 ? SACC / 2 : SACC;
    int step = how == 1 ? 2 : 1, off = (int)(rnd(s) % (uint64_t)(SACC - step * (n - 1)));
    long lv[SACC], lsc = 1 + (long)(rnd(s) % 2);
    double dv[SACC], dsc = (double)lsc;
    sh_hdr_t *hd = sh[tgt];
    for (int i = 0; i < n; i++) {
        long v = 1 + (long)(rnd(s) % 1000);
        lv[i] = v, dv[i] = (double)v;
        if (dbl)
            sh_accd[tid][(size_t)tgt * SACC + off + step * i] += dsc * (double)v;
        else
            sh_accl[tid][(size_t)tgt * SACC + off + step * i] += lsc * v;
    }
    int type = dbl ? ARMCI_ACC_DBL : ARMCI_ACC_LNG;
    void *src = dbl ? (void *)dv : (void *)lv, *scale = dbl ? (void *)&dsc : (void *)&lsc;
    void *dst = dbl ? (void *)&hd->acc_d[off] : (void *)&hd->acc_l[off];
    if (how == 0) {
        ARMCI_Acc(type, scale, src, dst, n * 8, tgt);
    } else if (how == 1) {
        int sstr[1] = {8}, dstr[1] = {16}, count[2] = {8, n};
        ARMCI_AccS(type, scale, src, sstr, dst, dstr, count, 1, tgt);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbAcc(type, scale, src, dst, n * 8, tgt, &h);
        ARMCI_Wait(&h);
    }
    if (it >= 0 && rnd(s) % 4 == 0) {
        int e = off + step * (int)(rnd(s) % (uint64_t)n);
        ARMCI_Fence(tgt);
        if (dbl) {
            double got, mine = sh_accd[tid][(size_t)tgt * SACC + e];
            ARMCI_Get(&hd->acc_d[e], &got, 8, tgt);
            TCHECK(got >= mine, "shared double accumulate %d on %d: get %.0f after fence, "
                   "below this thread's own %.0f", e, tgt, got, mine);
        } else {
            long got, mine = sh_accl[tid][(size_t)tgt * SACC + e];
            ARMCI_Get(&hd->acc_l[e], &got, 8, tgt);
            TCHECK(got >= mine, "shared long accumulate %d on %d: get %ld after fence, below "
                   "this thread's own %ld", e, tgt, got, mine);
        }
    }
}

/* After the mixed iterations: every thread of every process accumulates
 * into the same elements back to back (contiguous, strided, nonblocking in
 * turn), so that updates of the same word really run at the same time. */
static void sh_burst(int tid, uint64_t *s)
{
    /* The burst is aimed at the node-local path.  Open MPI 4.1's osc ucx
     * (which never has that path) runs each accumulate as lock, get, put,
     * unlock on the target, waiting for its progress: 1000 contended
     * accumulates per thread there take minutes (50 take seconds).  Under
     * MPICH 4.0's ch4:ucx the MPI-path half of the burst (modes vn2 and
     * off) waits in MPI_Win_flush_local for targets whose threads all
     * contend for MPICH's global lock (benchmarks/results/ci_times.txt). */
    const char *e = getenv("THREADS_BURST"), *mode = getenv("ARMCI_TEST_MODE");
#ifdef MPICH_VERSION
    int mpi_path_slow = mode && strcmp(mode, "on") != 0;
#else
    int mpi_path_slow = mode && !strcmp(mode, "ucx");
#endif
    int n = tu_iters(e ? atoi(e) : mpi_path_slow ? SBURST / 20 : SBURST);
    for (int i = 0; i < n; i++)
        sh_acc(tid, -1 - i % 3, i % np, s);
}

static void sh_fadd(int tid, int tgt, uint64_t *s)
{
    int k = (int)(rnd(s) % SFA);
    long old = -1;
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, &((sh_hdr_t *)sh[tgt])->fa[k], 1, tgt);
    long *r = sh_fa[tid] + (size_t)sh_nfa[tid]++ * 3;
    r[0] = tgt, r[1] = k, r[2] = old;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* After the threads joined and a barrier: this process's memory against
 * every writer's model, accumulate sums, fetched values. */
static void sh_check(void)
{
    int W = np * NT, per = NT * (SROWS + SBLK), tid = 0, it = -1;
    int *snd = malloc((size_t)np * per * sizeof(int)), *exp = malloc((size_t)np * per * sizeof(int));
    for (int d = 0; d < np; d++)
        for (int t = 0; t < NT; t++) {
            int *o = snd + (size_t)d * per + (size_t)t * (SROWS + SBLK);
            memcpy(o, sh_colm[t] + (size_t)d * SROWS, SROWS * sizeof(int));
            memcpy(o + SROWS, sh_blkm[t] + (size_t)d * SBLK, SBLK * sizeof(int));
        }
    MPI_Alltoall(snd, per, MPI_INT, exp, per, MPI_INT, MPI_COMM_WORLD);
    int *col = col_of(sh[me]), *blk = blk_of(sh[me]), bad = 0;
    for (int p = 0; p < np; p++)
        for (int t = 0; t < NT; t++) {
            int w = p * NT + t, *e = exp + (size_t)p * per + (size_t)t * (SROWS + SBLK);
            for (int r = 0; r < SROWS && bad < 5; r++)
                if (col[(size_t)r * W + w] != e[r]) {
                    bad++;
                    TCHECK(0, "shared column of writer %d.%d, row %d holds %d, its last put "
                           "was %d", p, t, r, col[(size_t)r * W + w], e[r]);
                }
            for (int i = 0; i < SBLK && bad < 5; i++)
                if (blk[(size_t)w * SBLK + i] != e[SROWS + i]) {
                    bad++;
                    TCHECK(0, "shared block of writer %d.%d, word %d holds %d, its last put "
                           "was %d", p, t, i, blk[(size_t)w * SBLK + i], e[SROWS + i]);
                }
        }
    free(snd), free(exp);

    long *ml = calloc((size_t)np * SACC, sizeof(long)), *sl = malloc((size_t)np * SACC * 8);
    double *md = calloc((size_t)np * SACC, sizeof(double)), *sd = malloc((size_t)np * SACC * 8);
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < np * SACC; i++)
            ml[i] += sh_accl[t][i], md[i] += sh_accd[t][i];
    MPI_Allreduce(ml, sl, np * SACC, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(md, sd, np * SACC, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sh_hdr_t *hd = sh[me];
    for (int i = 0; i < SACC; i++) {
        TCHECK(hd->acc_l[i] == sl[(size_t)me * SACC + i], "shared long accumulate %d holds "
               "%ld, every thread's sum is %ld (lost update)", i, hd->acc_l[i],
               sl[(size_t)me * SACC + i]);
        TCHECK(hd->acc_d[i] == sd[(size_t)me * SACC + i], "shared double accumulate %d holds "
               "%.0f, every thread's sum is %.0f (lost update)", i, hd->acc_d[i],
               sd[(size_t)me * SACC + i]);
    }
    free(ml), free(sl), free(md), free(sd);

    /* fetched values: everyone's records, each process checks its counters */
    int mine = 0, *cnt = malloc((size_t)np * sizeof(int)), *dsp = malloc((size_t)np * sizeof(int));
    for (int t = 0; t < NT; t++)
        mine += 3 * sh_nfa[t];
    long *rec = malloc((size_t)(mine + 1) * sizeof(long));
    for (int t = 0, o = 0; t < NT; o += 3 * sh_nfa[t], t++)
        memcpy(rec + o, sh_fa[t], (size_t)sh_nfa[t] * 3 * sizeof(long));
    MPI_Allgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
    int tot = 0;
    for (int p = 0; p < np; p++)
        dsp[p] = tot, tot += cnt[p];
    long *all = malloc((size_t)(tot + 1) * sizeof(long)), *v = malloc((size_t)(tot / 3 + 1) * 8);
    MPI_Allgatherv(rec, mine, MPI_LONG, all, cnt, dsp, MPI_LONG, MPI_COMM_WORLD);
    for (int k = 0; k < SFA; k++) {
        long n = 0;
        for (int i = 0; i < tot; i += 3)
            if (all[i] == me && all[i + 1] == k)
                v[n++] = all[i + 2];
        qsort(v, (size_t)n, sizeof(long), cmp_long);
        for (long i = 0; i < n; i++)
            if (v[i] != i) {
                TCHECK(0, "shared fetch-and-add counter %d: sorted fetched values reach %ld "
                       "at position %ld (%s)", k, v[i], i,
                       i && v[i] == v[i - 1] ? "a value fetched twice" : "a value skipped");
                break;
            }
        TCHECK(hd->fa[k] == n, "shared fetch-and-add counter %d holds %ld after %ld increments",
               k, hd->fa[k], n);
    }
    free(cnt), free(dsp), free(rec), free(all), free(v);
}

static void sh_free(void)
{
    ARMCI_Free(sh[me]);
    free(sh);
    for (int t = 0; t < NT; t++)
        free(sh_colm[t]), free(sh_blkm[t]), free(sh_accl[t]), free(sh_accd[t]), free(sh_fa[t]);
}
