/* Mutexes: mutual exclusion of a non-atomic read-increment-write under the
 * lock, with a fence before the unlock and without one (release semantics;
 * counts differ per process, some 0), FIFO-style hand-off fairness,
 * the ARMCIX handle API on a group (absolute ranks, trylock), and repeated
 * Create/Destroy cycles. */
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

#define K 30
#define MAXM 3

static int me, np;
/* TEST_MUTEX_VERBOSE=1 names each stage (finding a hang) and each fairness
 * violation. */
#define STAGE(s) do { if (getenv("TEST_MUTEX_VERBOSE")) fprintf(stderr, "[%d] %s\n", me, s); } while (0)

static int count_of(int rank, int shift) { return (rank + shift) % MAXM; }

/* Every rank increments every mutex's counter K times with Get/Put under the
 * lock; a lost update shows up as a short count.  fence=1: ARMCI_Fence
 * before the unlock, counters on the mutex's host (classic ARMCI's
 * contract).  fence=0: no fence, and each mutex guards a counter on the
 * next process, so the data and the lock travel to different targets: the
 * unlock itself must publish the section's put (this library's release
 * semantics, src/armci/armci_mutex.c). */
static void test_exclusion(int shift, int fence)
{
    int mine = count_of(me, shift);
    ARMCI_Create_mutexes(mine);
    int **ctr = malloc(np * sizeof(int *));
    ARMCI_Malloc((void **)ctr, MAXM * sizeof(int));
    memset(ctr[me], 0, MAXM * sizeof(int));
    ARMCI_Barrier();
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < np; i++) {
            int h = (me + i) % np; /* start at different hosts */
            int d = fence ? h : (h + 1) % np;
            for (int m = 0; m < count_of(h, shift); m++) {
                int v;
                ARMCI_Lock(m, h);
                ARMCI_Get(&ctr[d][m], &v, sizeof v, d);
                v++;
                ARMCI_Put(&v, &ctr[d][m], sizeof v, d);
                if (fence)
                    ARMCI_Fence(d);
                ARMCI_Unlock(m, h);
            }
        }
    }
    ARMCI_Barrier();
    int guard = fence ? me : (me + np - 1) % np; /* the host whose mutexes guard mine */
    for (int m = 0; m < count_of(guard, shift); m++)
        CHECK(ctr[me][m] == np * K, "exclusion (shift %d, fence %d): counter %d on %d is %d, "
              "expected %d", shift, fence, m, me, ctr[me][m], np * K);
    ARMCI_Free(ctr[me]);
    free(ctr);
    ARMCI_Destroy_mutexes();
}

/* Holding two mutexes at once, in a consistent order (no deadlock), and
 * releasing them in either order: the NOTIFY of one must not be taken for
 * the other. */
static void test_nested(void)
{
    ARMCI_Create_mutexes(2);
    int **ctr = malloc(np * sizeof(int *));
    ARMCI_Malloc((void **)ctr, 2 * sizeof(int));
    ctr[me][0] = ctr[me][1] = 0;
    ARMCI_Barrier();
    for (int k = 0; k < K; k++) {
        int a = k % np, b = (k + 1) % np, v[2];
        int lo = a < b ? a : b, hi = a < b ? b : a;
        ARMCI_Lock(0, lo);
        ARMCI_Lock(1, hi);
        ARMCI_Get(&ctr[lo][0], &v[0], sizeof(int), lo);
        ARMCI_Get(&ctr[hi][1], &v[1], sizeof(int), hi);
        v[0]++, v[1]++;
        ARMCI_Put(&v[0], &ctr[lo][0], sizeof(int), lo);
        ARMCI_Put(&v[1], &ctr[hi][1], sizeof(int), hi);
        ARMCI_Fence(lo);
        ARMCI_Fence(hi);
        if (k & 1) {
            ARMCI_Unlock(0, lo);
            ARMCI_Unlock(1, hi);
        } else {
            ARMCI_Unlock(1, hi);
            ARMCI_Unlock(0, lo);
        }
    }
    ARMCI_Barrier();
    int want0 = 0, want1 = 0;
    for (int k = 0; k < K; k++) {
        int a = k % np, b = (k + 1) % np;
        int lo = a < b ? a : b, hi = a < b ? b : a;
        want0 += lo == me;
        want1 += hi == me;
    }
    CHECK(ctr[me][0] == np * want0 && ctr[me][1] == np * want1,
          "nested: counters %d %d expected %d %d", ctr[me][0], ctr[me][1], np * want0,
          np * want1);
    ARMCI_Free(ctr[me]);
    free(ctr);
    ARMCI_Destroy_mutexes();
}

/* ---- hand-off fairness ----
 * Shared on rank 0: att[r] = lock attempts rank r has started, acq[r] =
 * acquisitions it has completed, and the acquisition log.  While holding
 * the mutex, a rank waits until every rank that is not finished has started
 * its next attempt (att == acq + 1), remembers who those waiters are, and
 * releases.  When it next acquires, each of them must have acquired in
 * between: nobody acquires twice while a waiter that queued earlier keeps
 * waiting.  A waiter counts as queued from its att increment, a few
 * instructions before its Lock enqueues; a preemption exactly there could
 * show up as a violation without unfairness (seen under heavy load with
 * osc/pt2pt, which may also apply a swap late), so a round is retried, up to
 * 8 times (a lock that lets the releaser barge in fails every round). */
#define FK 8
typedef struct { int att[64], acq[64], len, log[64 * FK]; } fair_t;

static void fair_gate(fair_t **f, const int *cur)
{
    for (;;) {
        int ready = 1;
        for (int y = 0; y < np && ready; y++) {
            if (y == me || cur[y] >= FK)
                continue;
            /* att is updated by Rmw: read it with an Rmw too (a Get racing
             * with MPI atomics is undefined), which also makes progress */
            int att;
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &att, &f[0]->att[y], 0, 0);
            ready = att == cur[y] + 1;
        }
        if (ready)
            return;
    }
}

/* One round; returns the number of violations seen by all ranks. */
static int fair_round(fair_t **f, int host)
{
    memset(f[me], 0, sizeof(fair_t));
    ARMCI_Barrier();
    int snap[64], waiting[64] = {0}, have = 0, viol = 0, total;
    for (int k = 0; k < FK; k++) {
        int old, cur[64], len;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &f[0]->att[me], 1, 0);
        ARMCI_Lock(0, host);
        ARMCI_Get(f[0]->acq, cur, np * sizeof(int), 0);
        for (int y = 0; have && y < np; y++)
            if (waiting[y] && cur[y] == snap[y]) {
                viol++;
                if (getenv("TEST_MUTEX_VERBOSE"))
                    fprintf(stderr, "[%d] acquired again (k=%d) while %d still waits\n",
                            me, k, y);
            }
        fair_gate(f, cur);
        for (int y = 0; y < np; y++)
            waiting[y] = y != me && cur[y] < FK;
        memcpy(snap, cur, sizeof snap);
        have = 1;
        ARMCI_Get(&f[0]->len, &len, sizeof len, 0);
        ARMCI_Put(&me, &f[0]->log[len], sizeof me, 0);
        len++;
        cur[me]++;
        ARMCI_Put(&len, &f[0]->len, sizeof len, 0);
        ARMCI_Put(&cur[me], &f[0]->acq[me], sizeof(int), 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(0, host);
    }
    ARMCI_Barrier();
    if (me == 0) {
        CHECK(f[0]->len == np * FK, "fairness: %d acquisitions logged, expected %d",
              f[0]->len, np * FK);
        for (int y = 0; y < np; y++)
            CHECK(f[0]->acq[y] == FK, "fairness: rank %d acquired %d times", y, f[0]->acq[y]);
    }
    MPI_Allreduce(&viol, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

/* The queue is FIFO in the order the host's MPI applies the tail swaps.
 * Where those swaps are MPI atomics, MPICH 4.0 (ch4:ucx, 4 ranks on 2
 * cores) applies the swaps of two ranks late: measured on this machine,
 * ranks 1 and 2 bypassed for 16 consecutive acquisitions in 8 of 8 rounds,
 * with or without its shared-memory path (MPIR_CVAR_NOLOCAL=1); MPICH
 * describes the same starvation of an atomic queue in its own linked_list
 * test (pmodels/mpich pull request 7377, later releases).  Open MPI 4.1's
 * osc/ucx applies others' atomics only when the host runs its progress
 * engine (common_quirks.c, WIN_POKE): seen once in the ghost build, 2
 * bypasses in each of 8 rounds.  MPI orders no atomics of different
 * origins, and under load neither does Open MPI's osc rdma: a clean-clone
 * CI run (two 4-rank jobs on 2 cores) saw 2 bypasses in each of 8 rounds
 * in mode vn2.  Only the CPU-atomic path of mode "on" (a swap right at the
 * issue, no MPI between) keeps the issue order, so the check is strict
 * there; elsewhere the bypasses are reported and exclusion and liveness
 * (every rank acquires FK times) still checked. */
static int fifo_by_mpi_order(void)
{
    const char *mode = getenv("ARMCI_TEST_MODE");
    return mode && !strcmp(mode, "on");
}

static void test_fairness(void)
{
    int host = np - 1;
    ARMCI_Create_mutexes(me == host ? 1 : 0);
    fair_t **f = malloc(np * sizeof(fair_t *));
    ARMCI_Malloc((void **)f, sizeof(fair_t));
    int viol = 1, round = 0, strict = fifo_by_mpi_order();
    while (viol && round < (strict ? 8 : 1)) {
        viol = fair_round(f, host);
        round++;
    }
    if (me == 0 && getenv("TEST_MUTEX_VERBOSE"))
        fprintf(stderr, "fairness: %d round(s)\n", round);
    if (strict)
        CHECK(viol == 0, "fairness: a rank re-acquired while an earlier waiter waited (%d "
              "times in the last of %d rounds)", viol, round);
    else if (viol && me == 0)
        printf("note: hand-off order not FIFO on this MPI (%d bypasses in the last of %d "
               "rounds); exclusion and liveness checked\n", viol, round);
    if (viol && me == 0) {
        fprintf(stderr, "acquisition order:");
        for (int i = 0; i < f[0]->len; i++)
            fprintf(stderr, " %d", f[0]->log[i]);
        fputc('\n', stderr);
    }
    ARMCI_Free(f[me]);
    free(f);
    ARMCI_Destroy_mutexes();
}

/* ARMCIX handles on the group of odd ranks (or all when np < 2): absolute
 * proc numbers, trylock against a holder, Destroy. */
static void test_handles(void)
{
    int n = 0, pid[64];
    for (int r = 1; r < np; r += 2)
        pid[n++] = r;
    if (n == 0)
        pid[n++] = 0;
    ARMCI_Group grp;
    ARMCI_Group_create(n, pid, &grp);
    int member = 0;
    for (int i = 0; i < n; i++)
        member |= pid[i] == me;
    int **ctr = malloc(np * sizeof(int *));
    if (member) {
        armcix_mutex_hdl_t h = ARMCIX_Create_mutexes_hdl(2, &grp);
        ARMCI_Malloc_group((void **)ctr, 2 * sizeof(int), &grp);
        int gme, gsize;
        ARMCI_Group_rank(&grp, &gme);
        ARMCI_Group_size(&grp, &gsize);
        ctr[gme][0] = ctr[gme][1] = 0;
        MPI_Barrier(grp.comm);
        for (int k = 0; k < K; k++) {
            for (int i = 0; i < n; i++) {
                int abs = pid[i], m = k & 1, v;
                ARMCIX_Lock_hdl(h, m, abs);
                ARMCI_Get(&ctr[i][m], &v, sizeof v, abs);
                v++;
                ARMCI_Put(&v, &ctr[i][m], sizeof v, abs);
                ARMCI_Fence(abs);
                ARMCIX_Unlock_hdl(h, m, abs);
            }
        }
        MPI_Barrier(grp.comm);
        CHECK(ctr[gme][0] == n * (K / 2) && ctr[gme][1] == n * (K - K / 2),
              "handle counters %d %d expected %d %d", ctr[gme][0], ctr[gme][1], n * (K / 2),
              n * (K - K / 2));
        /* trylock: the first member holds mutex 0 of the last member */
        int host = pid[n - 1];
        if (me == pid[0])
            CHECK(ARMCIX_Trylock_hdl(h, 0, host) == 0, "trylock on a free mutex failed");
        MPI_Barrier(grp.comm);
        if (me != pid[0])
            CHECK(ARMCIX_Trylock_hdl(h, 0, host) != 0, "trylock succeeded on a held mutex");
        MPI_Barrier(grp.comm);
        if (me == pid[0])
            ARMCIX_Unlock_hdl(h, 0, host);
        MPI_Barrier(grp.comm);
        if (me != pid[0]) {
            int tries = 0;
            while (ARMCIX_Trylock_hdl(h, 0, host))
                tries++; /* a spin on the public API; the lock is free or short */
            ARMCIX_Unlock_hdl(h, 0, host);
        }
        MPI_Barrier(grp.comm);
        ARMCI_Free_group(ctr[gme], &grp);
        ARMCIX_Destroy_mutexes_hdl(h);
    }
    free(ctr);
    ARMCI_Group_free(&grp);
    ARMCI_Barrier();
}

/* Repeated Create/Destroy with changing counts, and a world set and a
 * handle set alive at once. */
static void test_cycles(void)
{
    ARMCI_Group world;
    ARMCI_Group_get_world(&world);
    for (int c = 0; c < 5; c++) {
        int mine = (me + c) % 2 ? c + 1 : 0;
        if (np == 1)
            mine = 1;
        ARMCI_Create_mutexes(mine);
        armcix_mutex_hdl_t h = ARMCIX_Create_mutexes_hdl(1, &world);
        for (int p = 0; p < np; p++) {
            int cnt = (p + c) % 2 ? c + 1 : 0;
            if (np == 1)
                cnt = 1;
            for (int m = 0; m < cnt; m++) {
                ARMCI_Lock(m, p);
                ARMCIX_Lock_hdl(h, 0, p);
                ARMCIX_Unlock_hdl(h, 0, p);
                ARMCI_Unlock(m, p);
            }
        }
        ARMCIX_Destroy_mutexes_hdl(h);
        ARMCI_Destroy_mutexes();
    }
    ARMCI_Create_mutexes(1); /* left behind: ARMCI_Finalize destroys it */
    ARMCI_Lock(0, np - 1);
    ARMCI_Unlock(0, np - 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_mutex";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np > 64) {
        if (me == 0)
            printf("SKIP test_mutex: more than 64 ranks\n");
        ARMCI_Finalize();
        MPI_Finalize();
        return 0;
    }
    for (int shift = 0; shift < MAXM; shift++)
        for (int fence = 1; fence >= 0; fence--)
            test_exclusion(shift, fence);
    STAGE("test_nested();");
    test_nested();
    STAGE("test_fairness();");
    test_fairness();
    STAGE("test_handles();");
    test_handles();
    STAGE("test_cycles();");
    test_cycles();
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
