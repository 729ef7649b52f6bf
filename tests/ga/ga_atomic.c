/* Global Arrays over this ARMCI: NGA_Read_inc counters (every value handed
 * out exactly once), GA mutexes guarding a read-modify-write critical
 * section (with and without GA_Fence before GA_Unlock), and a GA_Sync-heavy
 * put/sync/get/sync loop. */
#include <stdlib.h>
#include "ga_util.h"

#define NTICKETS 300 /* values handed out by each shared counter */
#define NMUTEX 3
#define LOCK_ROUNDS 30 /* critical sections per rank per variant */
#define SYNC_ITERS 200
#define SLOT 8 /* elements per rank in the sync loop */

/* Draw tickets from counter `sub` of g until they run out; every value below
 * NTICKETS must come out exactly once over all ranks. */
static void drain_counter(int g, int sub, long inc, const char *what)
{
    int subs[1] = {sub}, n = 0, total = 0;
    long v, *mine = malloc(NTICKETS * sizeof(long));
    int *counts = malloc(gt_np * sizeof(int)), *displs = malloc(gt_np * sizeof(int));
    long *all = malloc(NTICKETS * sizeof(long));
    char *seen = calloc(NTICKETS, 1);
    while ((v = NGA_Read_inc(g, subs, inc)) < NTICKETS * inc) {
        CHECK(v % inc == 0, "%s: value %ld not a multiple of %ld", what, v, inc);
        if (n < NTICKETS)
            mine[n++] = v / inc;
    }
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int p = 0; p < gt_np; p++) {
        displs[p] = total;
        total += counts[p];
    }
    CHECK(total == NTICKETS, "%s: %d tickets handed out, expected %d", what, total, NTICKETS);
    if (total == NTICKETS) {
        MPI_Allgatherv(mine, n, MPI_LONG, all, counts, displs, MPI_LONG, MPI_COMM_WORLD);
        for (int i = 0; i < total; i++) {
            CHECK(all[i] >= 0 && all[i] < NTICKETS && !seen[all[i]], "%s: ticket %ld twice",
                  what, all[i]);
            if (all[i] >= 0 && all[i] < NTICKETS)
                seen[all[i]] = 1;
        }
    }
    GA_Sync();
    /* every rank overshot exactly once */
    v = NGA_Read_inc(g, subs, 0);
    CHECK(v == (NTICKETS + gt_np) * inc, "%s: final counter %ld expected %ld", what, v,
          (NTICKETS + gt_np) * inc);
    free(mine);
    free(counts);
    free(displs);
    free(all);
    free(seen);
}

/* Two counters in one array, at opposite ends (different owners), drained
 * one after the other; for C_INT and C_LONG arrays. */
static void test_read_inc(int type)
{
    int dims[1] = {4 * gt_np}, g = NGA_Create(type, 1, dims, "counters", NULL);
    char what[64];
    CHECK(g != 0, "create counter array");
    GA_Zero(g);
    snprintf(what, sizeof what, "%s read_inc first", gt_name(type));
    drain_counter(g, 0, 1, what);
    snprintf(what, sizeof what, "%s read_inc last", gt_name(type));
    drain_counter(g, dims[0] - 1, 3, what);
    GA_Sync();
    GA_Destroy(g);
}

/* One critical section on mutex m: the holder slot must be free on entry and
 * still ours before leaving; the counter is a plain get/put increment. */
static void critical_section(int g_cnt, int g_hold, int m, int idx, int fence)
{
    int lo[1] = {idx}, hi[1] = {idx}, ld[1] = {1}, v, who;
    GA_Lock(m);
    NGA_Get(g_hold, lo, hi, &who, ld);
    CHECK(who == -1, "mutex %d (fence=%d): held by %d when I got it", m, fence, who);
    NGA_Put(g_hold, lo, hi, &gt_me, ld);
    NGA_Get(g_cnt, lo, hi, &v, ld);
    v++;
    NGA_Put(g_cnt, lo, hi, &v, ld);
    NGA_Get(g_hold, lo, hi, &who, ld);
    CHECK(who == gt_me, "mutex %d (fence=%d): holder changed to %d inside my section", m, fence, who);
    who = -1;
    NGA_Put(g_hold, lo, hi, &who, ld);
    if (fence)
        GA_Fence();
    GA_Unlock(m);
    if (fence)
        GA_Init_fence();
}

/* Each mutex guards one counter and one holder slot, placed on the rank
 * m % np so the locks and the data live on different processes. */
static void test_mutexes(int fence)
{
    int dims[1] = {NMUTEX * gt_np}, minus1 = -1, cnt[NMUTEX], idx[NMUTEX], ld[1] = {1};
    int g_cnt = NGA_Create(C_INT, 1, dims, "count", NULL);
    int g_hold = NGA_Create(C_INT, 1, dims, "holder", NULL);
    CHECK(GA_Create_mutexes(NMUTEX), "GA_Create_mutexes(%d) failed", NMUTEX);
    GA_Zero(g_cnt);
    GA_Fill(g_hold, &minus1);
    for (int m = 0; m < NMUTEX; m++)
        idx[m] = (m % gt_np) * NMUTEX + m;
    if (fence)
        GA_Init_fence();
    for (int r = 0; r < LOCK_ROUNDS; r++)
        critical_section(g_cnt, g_hold, (r + gt_me) % NMUTEX, idx[(r + gt_me) % NMUTEX],
                         fence);
    GA_Sync();
    for (int m = 0; m < NMUTEX; m++) {
        int lo[1] = {idx[m]}, expect = 0;
        NGA_Get(g_cnt, lo, lo, &cnt[m], ld);
        for (int p = 0; p < gt_np; p++)
            for (int r = 0; r < LOCK_ROUNDS; r++)
                expect += (r + p) % NMUTEX == m;
        CHECK(cnt[m] == expect, "mutex %d (fence=%d): count %d expected %d", m, fence, cnt[m],
              expect);
    }
    CHECK(GA_Destroy_mutexes(), "GA_Destroy_mutexes failed");
    GA_Sync();
    GA_Destroy(g_hold);
    GA_Destroy(g_cnt);
}

/* Rank r writes iteration-tagged values into the slot of rank r+1; after a
 * sync everybody reads the whole array back. */
static void test_sync_loop(void)
{
    int n = SLOT * gt_np, dims[1] = {n}, g = NGA_Create(C_INT, 1, dims, "sync", NULL);
    int *buf = malloc(n * sizeof(int)), ld[1] = {1}, bad = 0;
    int next = (gt_me + 1) % gt_np, lo[1] = {next * SLOT}, hi[1] = {next * SLOT + SLOT - 1};
    int all_lo[1] = {0}, all_hi[1] = {n - 1};
    for (int it = 0; it < SYNC_ITERS; it++) {
        for (int k = 0; k < SLOT; k++)
            buf[k] = it * 1000 + gt_me * 10 + k % 10;
        NGA_Put(g, lo, hi, buf, ld);
        GA_Sync();
        NGA_Get(g, all_lo, all_hi, buf, ld);
        for (int i = 0; i < n; i++) {
            int writer = (i / SLOT + gt_np - 1) % gt_np;
            bad += buf[i] != it * 1000 + writer * 10 + (i % SLOT) % 10;
        }
        GA_Sync();
    }
    CHECK(bad == 0, "sync loop: %d stale elements in %d iterations", bad, SYNC_ITERS);
    free(buf);
    GA_Destroy(g);
}

int main(int argc, char **argv)
{
    gt_init(&argc, &argv, "ga_atomic");
    test_read_inc(C_INT);
    test_read_inc(C_LONG);
    test_mutexes(1);
    test_mutexes(0);
    test_sync_loop();
    return gt_finish();
}
