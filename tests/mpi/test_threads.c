/*
 * Thread safety under MPI_THREAD_MULTIPLE: NT threads per process mix
 * contiguous, strided and nonblocking puts and gets, accumulates,
 * fetch-and-add, fences and mutex-protected read-modify-write, on regions
 * shared by all threads (counters), on regions each thread owns (data), and
 * on ONE allocation that every thread of every process writes (shared).
 * Every value is checked exactly:
 *   - a thread's own slots: each get returns what the thread last put
 *     (location consistency within a thread: the library must order a read
 *     after the thread's unfenced write to the same target);
 *   - shared counters, after the final barrier: the sum of every thread's
 *     accumulates and fetch-and-adds (no lost update), and fetch-and-add
 *     results never repeat for one counter;
 *   - a mutex-protected get+increment+put: the final value is the number of
 *     increments (mutual exclusion between threads of one process as well
 *     as between processes);
 *   - the shared allocation (test_threads_shared.h): every writer (thread
 *     of a process) owns one column of an int matrix, interleaved word by
 *     word with every other writer's, and one contiguous block; strided and
 *     contiguous puts to them run concurrently on the same window, each read
 *     back (its own column alone, or whole rows holding every writer's
 *     words) and, at the end, every word of every target against its
 *     writer's model.  Accumulates (long and double, contiguous, strided,
 *     nonblocking) from all threads of all processes land on the same
 *     elements of every target: each element ends as the exact sum, and a
 *     fenced get never sees less than the reading thread added.  Long
 *     fetch-and-adds from everyone to every target: the values fetched on one
 *     counter are exactly 0..n-1.
 * THREADS_INIT=ga initializes with ARMCI_Init() instead of
 * ARMCI_Init_thread(MPI_THREAD_MULTIPLE), as Global Arrays does.
 * THREADS_ITERS sets the iterations per thread (default 300), THREADS_BURST
 * the burst's accumulates per thread (default 1000, 50 where the burst's
 * MPI-path part is slow: test_threads_shared.h); the seed
 * (THREADS_SEED) is printed with any failure so a run can be repeated.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define NT 4          /* threads per process */
#define SLOT 256      /* ints per (process, thread) slot on each target */
#define NCTR 8        /* shared counters per process */

static int me, np, iters;
static unsigned seed0;
static void **data[NT];  /* region per thread: np*NT slots on each process */
static void **ctr;       /* shared: NCTR longs + NCTR fetch-add ints + 1 mutex-guarded int */
static long acc_sum[NT][NCTR];  /* what each thread added with ARMCI_Acc, per counter index */
static long fadd_sum[NT][NCTR];
static long locked_incs[NT];
static int *fadd_seen[NT];      /* fetch-and-add results per counter (target-local order) */
static int nfadd[NT];

typedef struct { long acc[NCTR]; int fadd[NCTR]; int guarded; } ctr_t;

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

#define TCHECK(cond, ...)                                                        \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "[%d.%d] seed %u iter %d: ", me, tid, seed0, it);    \
            CHECK(0, __VA_ARGS__);                                               \
        }                                                                        \
    } while (0)

#include "test_threads_shared.h"

static int *slot(int tid, int target, int owner_thread)
{
    return (int *)data[tid][target] + ((size_t)me * NT + (size_t)owner_thread) * SLOT;
}

static void op_contig(int tid, int it, int tgt, uint64_t *s, int *model)
{
    int n = 1 + (int)(rnd(s) % SLOT), off = (int)(rnd(s) % (SLOT - n + 1));
    int buf[SLOT], back[SLOT];
    for (int i = 0; i < n; i++)
        buf[i] = model[off + i] = (int)(rnd(s) & 0x7fffffff);
    ARMCI_Put(buf, slot(tid, tgt, tid) + off, n * (int)sizeof(int), tgt);
    ARMCI_Get(slot(tid, tgt, tid) + off, back, n * (int)sizeof(int), tgt);
    for (int i = 0; i < n; i++)
        TCHECK(back[i] == model[off + i], "contig: target %d slot[%d] = %d, expected %d",
               tgt, off + i, back[i], model[off + i]);
}

/* 2-D patch: rows x cols ints, row stride 16 ints in the slot. */
static void op_strided(int tid, int it, int tgt, uint64_t *s, int *model)
{
    int rows = 1 + (int)(rnd(s) % 8), cols = 1 + (int)(rnd(s) % 16);
    int r0 = (int)(rnd(s) % (16 - rows + 1)), c0 = (int)(rnd(s) % (16 - cols + 1));
    int buf[8 * 16], back[8 * 16];
    int sstr[1] = {cols * (int)sizeof(int)}, dstr[1] = {16 * (int)sizeof(int)};
    int count[2] = {cols * (int)sizeof(int), rows};
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            buf[i * cols + j] = model[(r0 + i) * 16 + c0 + j] = (int)(rnd(s) & 0xffffff);
    int *dst = slot(tid, tgt, tid) + r0 * 16 + c0;
    if (rnd(s) & 1) {
        ARMCI_PutS(buf, sstr, dst, dstr, count, 1, tgt);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbPutS(buf, sstr, dst, dstr, count, 1, tgt, &h);
        ARMCI_Wait(&h);
    }
    if (rnd(s) & 1)
        ARMCI_Fence(tgt);
    memset(back, 0xff, sizeof back);
    if (rnd(s) & 1) {
        ARMCI_GetS(dst, dstr, back, sstr, count, 1, tgt);
    } else {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbGetS(dst, dstr, back, sstr, count, 1, tgt, &h);
        ARMCI_Wait(&h);
    }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            TCHECK(back[i * cols + j] == model[(r0 + i) * 16 + c0 + j],
                   "strided: target %d (%d,%d) = %d, expected %d", tgt, r0 + i, c0 + j,
                   back[i * cols + j], model[(r0 + i) * 16 + c0 + j]);
}

static void op_nb_contig(int tid, int it, int tgt, uint64_t *s, int *model)
{
    int n = 1 + (int)(rnd(s) % 64), off = (int)(rnd(s) % (SLOT - n + 1));
    int buf[64], back[64];
    armci_hdl_t h;
    for (int i = 0; i < n; i++)
        buf[i] = model[off + i] = (int)(rnd(s) & 0x7fffffff);
    ARMCI_INIT_HANDLE(&h);
    ARMCI_NbPut(buf, slot(tid, tgt, tid) + off, n * (int)sizeof(int), tgt, &h);
    ARMCI_Wait(&h);
    ARMCI_INIT_HANDLE(&h);
    ARMCI_NbGet(slot(tid, tgt, tid) + off, back, n * (int)sizeof(int), tgt, &h);
    ARMCI_Wait(&h);
    for (int i = 0; i < n; i++)
        TCHECK(back[i] == model[off + i], "nb: target %d slot[%d] = %d, expected %d", tgt,
               off + i, back[i], model[off + i]);
}

static void op_acc(int tid, uint64_t *s, int tgt)
{
    int k = (int)(rnd(s) % NCTR);
    long v = 1 + (long)(rnd(s) % 1000), scale = 1;
    ctr_t *c = (ctr_t *)ctr[tgt];
    ARMCI_Acc(ARMCI_ACC_LNG, &scale, &v, &c->acc[k], (int)sizeof(long), tgt);
    if (tgt == (me + 1) % np)
        acc_sum[tid][k] += v;
}

static void op_fadd(int tid, uint64_t *s, int tgt)
{
    int k = (int)(rnd(s) % NCTR), old;
    ctr_t *c = (ctr_t *)ctr[tgt];
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &c->fadd[k], 1, tgt);
    if (tgt == (me + 1) % np) {
        fadd_sum[tid][k]++;
        fadd_seen[tid][nfadd[tid]++] = k * 1000000 + old;
    }
}

static void op_locked(int tid, int host)
{
    int v;
    ctr_t *c = (ctr_t *)ctr[host];
    ARMCI_Lock(0, host);
    ARMCI_Get(&c->guarded, &v, sizeof v, host);
    v++;
    ARMCI_Put(&v, &c->guarded, sizeof v, host);
    ARMCI_Fence(host);
    ARMCI_Unlock(0, host);
    locked_incs[tid]++;
}

static void *worker(void *arg)
{
    int tid = (int)(intptr_t)arg;
    uint64_t s = ((uint64_t)seed0 << 20) ^ ((uint64_t)me << 8) ^ (uint64_t)tid ^ 0x9e3779b9u;
    int *model = malloc((size_t)np * SLOT * sizeof(int));
    for (int i = 0; i < np * SLOT; i++)
        model[i] = 0;
    fadd_seen[tid] = malloc((size_t)iters * sizeof(int));
    sh_thread_init(tid);
    for (int it = 0; it < iters; it++) {
        /* counters: only the right neighbour is summed by this process's
         * model, others are targets for traffic and summed there too */
        int tgt = (int)(rnd(&s) % (uint64_t)np);
        int *m = model + tgt * SLOT;
        switch (rnd(&s) % 12) {
        case 0: op_contig(tid, it, tgt, &s, m); break;
        case 1: op_strided(tid, it, tgt, &s, m); break;
        case 2: op_nb_contig(tid, it, tgt, &s, m); break;
        case 3: op_acc(tid, &s, (me + 1) % np); break;
        case 4: op_fadd(tid, &s, (me + 1) % np); break;
        case 5: op_locked(tid, (int)(rnd(&s) % (uint64_t)np)); break;
        case 6: ARMCI_Fence(tgt); break;
        case 7: ARMCI_AllFence(); break;
        case 8: sh_col(tid, it, tgt, &s); break;
        case 9: sh_blk(tid, it, tgt, &s); break;
        case 10: sh_acc(tid, it, tgt, &s); break;
        default: sh_fadd(tid, tgt, &s); break;
        }
    }
    sh_burst(tid, &s);
    free(model);
    return NULL;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Counters on this process were written by its left neighbour only. */
static void check_counters(void)
{
    int left = (me + np - 1) % np, tid = 0, it = -1;
    long want_acc[NCTR], mine_acc[NCTR] = {0}, mine_fadd[NCTR] = {0}, want_fadd[NCTR];
    long inc = 0, incs;
    for (int t = 0; t < NT; t++) {
        for (int k = 0; k < NCTR; k++)
            mine_acc[k] += acc_sum[t][k], mine_fadd[k] += fadd_sum[t][k];
        inc += locked_incs[t];
    }
    MPI_Sendrecv(mine_acc, NCTR, MPI_LONG, (me + 1) % np, 1, want_acc, NCTR, MPI_LONG, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(mine_fadd, NCTR, MPI_LONG, (me + 1) % np, 2, want_fadd, NCTR, MPI_LONG, left,
                 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&inc, &incs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    ctr_t *c = (ctr_t *)ctr[me];
    for (int k = 0; k < NCTR; k++) {
        TCHECK(c->acc[k] == want_acc[k], "acc counter %d = %ld, expected %ld (lost update)", k,
               c->acc[k], want_acc[k]);
        TCHECK(c->fadd[k] == want_fadd[k], "fetch-add counter %d = %d, expected %ld", k,
               c->fadd[k], want_fadd[k]);
    }
    long guarded = 0;
    for (int p = 0; p < np; p++) {
        int v;
        ARMCI_Get(&((ctr_t *)ctr[p])->guarded, &v, sizeof v, p);
        guarded += v;
    }
    TCHECK(guarded == incs, "mutex-guarded counters sum to %ld, expected %ld increments",
           guarded, incs);
    /* fetch-and-add results of all threads of this process, per counter on
     * the neighbour: no value may come back twice */
    int n = 0;
    for (int t = 0; t < NT; t++)
        n += nfadd[t];
    int *all = malloc((size_t)(n ? n : 1) * sizeof(int));
    n = 0;
    for (int t = 0; t < NT; t++)
        for (int i = 0; i < nfadd[t]; i++)
            all[n++] = fadd_seen[t][i];
    qsort(all, (size_t)n, sizeof(int), cmp_int);
    for (int i = 1; i < n; i++)
        TCHECK(all[i] != all[i - 1], "fetch-and-add on counter %d returned %d twice",
               all[i] / 1000000, all[i] % 1000000);
    free(all);
}

int main(int argc, char **argv)
{
    int rc = tu_init_multiple(&argc, &argv);
    if (rc)
        return rc;
    tu_name = "test_threads";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    /* THREADS_INIT=ga: ARMCI_Init(), as GA_Initialize calls it, under an
     * MPI the program initialized at MULTIPLE; GA's OpenMP programs then
     * call in from every thread (test_threads_init.sh). */
    const char *e = getenv("THREADS_INIT");
    if (e && !strcmp(e, "ga"))
        ARMCI_Init();
    else
        ARMCI_Init_thread(MPI_THREAD_MULTIPLE);
    e = getenv("THREADS_ITERS");
    iters = tu_iters(e ? atoi(e) : 300);
    e = getenv("THREADS_SEED");
    seed0 = e ? (unsigned)strtoul(e, NULL, 0) : 20261125u;
    for (int t = 0; t < NT; t++) {
        data[t] = malloc((size_t)np * sizeof(void *));
        ARMCI_Malloc(data[t], (armci_size_t)np * NT * SLOT * sizeof(int));
        memset(data[t][me], 0, (size_t)np * NT * SLOT * sizeof(int));
    }
    ctr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ctr, sizeof(ctr_t));
    memset(ctr[me], 0, sizeof(ctr_t));
    sh_alloc();
    ARMCI_Create_mutexes(1);
    ARMCI_Barrier();
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    ARMCI_Barrier();
    check_counters();
    sh_check();
    ARMCI_Barrier();
    ARMCI_Destroy_mutexes();
    for (int t = 0; t < NT; t++) {
        ARMCI_Free(data[t][me]);
        free(data[t]);
        free(fadd_seen[t]);
    }
    ARMCI_Free(ctr[me]);
    free(ctr);
    sh_free();
    if (me == 0)
        printf("%d threads x %d iterations per process, seed %u\n", NT, iters, seed0);
    rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
