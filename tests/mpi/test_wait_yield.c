/*
 * ARMCI_WAIT_YIELD: with ON the library's barriers and collectives
 * (ARMCI_Barrier, armci_msg_barrier, the gops, armci_msg_brdcst,
 * armci_msg_sel, those inside ARMCI_Malloc/Free and the mutex calls) wait
 * by testing a nonblocking call and yielding, with OFF by the blocking
 * MPI call, and give the same results either way, as does a waiter for a
 * held mutex, and so do the automatic mode's stand-ins for the barriers
 * (ghost build); where waits yield, strided and vector gets on the MPI
 * path wait for one request per block, or for one MPI_Rget_accumulate
 * where the MPI completes derived-datatype MPI_Rgets early, or for the one
 * request of a sieved get; where waits yield, the world's barrier goes
 * through node-shared counters wherever the MPI gives shared windows and
 * still holds every process until all arrived, and its small allreduces,
 * allgathers and broadcasts through the same memory give every process
 * the world's result;
 * AUTO yields only where the host has more processes than CPUs and MPI
 * does not yield by itself; ARMCI_WAIT_SPIN sets how many tests a wait
 * makes before its first yield.  Whether a wait yielded is read through the
 * library's internal counter, so the test links its objects.  Reading
 * whether MPI yields opens MPI_T, which must leave the thread level the
 * program got from MPI_Init_thread (Open MPI lowered it to MPI_T's level:
 * tests/mpi/mpit_thread_level_repro.c).
 */
#include <math.h>
#include <unistd.h>
#include <armci.h>
#include <armcix.h>
#include <armciconf.h>
#include <message.h>
#include "../testutil.h"
#include "../../src/common/common.h"
#include "../../src/gmr/gmr_impl.h"
#include "../../src/progress/progress.h"
#include "../../src/common/common_host.h"
#include "../../src/common/common_node.h"
#include "../../src/common/common_quirks.h"
#include "../../src/common/common_topo.h"
#include "../../src/common/common_wait.h"

/* ARMCI_Malloc, ARMCI_Create_mutexes and their frees exchange addresses
 * and counts through the waiting collectives (allgathers among them); the
 * exchanged values are checked by using them.  Put, accumulate and get on
 * the MPI path (modes off, vnK) then take requests (gmr_yield.c).
 * Returns how many waits yielded. */
static unsigned long alloc_calls(const char *mode, int me, int np)
{
    unsigned long before = armcii_wait_count();
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, 3 * sizeof(long)) == 0, "%s: ARMCI_Malloc failed", mode);
    long *mine = ptr[me];
    mine[0] = 0;
    mine[1] = -1;
    mine[2] = 0;
    ARMCI_Barrier();
    int right = (me + 1) % np, left = (me + np - 1) % np;
    long val = 1000L * me + right, one = me + 1;
    unsigned long rma_before = armcii_wait_count();
    ARMCI_Put(&val, (long *)ptr[right] + 1, sizeof val, right);
    long scale = 1;
    ARMCI_Acc(ARMCI_ACC_LNG, &scale, &one, ptr[right], sizeof one, right);
    scale = 2;
    ARMCI_Acc(ARMCI_ACC_LNG, &scale, &one, ptr[right], sizeof one, right);
    /* only this process adds to its right neighbour's counter */
    for (long k = 0; k < 2; k++) {
        long old = -1;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, (long *)ptr[right] + 2, 5, right);
        CHECK(old == 5 * k, "%s: fetch-and-add %ld on process %d fetched %ld, expected %ld",
              mode, k, right, old, 5 * k);
    }
    ARMCI_Barrier();
    CHECK(mine[2] == 10, "%s: counter %ld after 2 fetch-and-adds of 5", mode, mine[2]);
    long got = 0;
    ARMCI_Get((long *)ptr[right] + 1, &got, sizeof got, right);
    CHECK(got == val, "%s: read back %ld from process %d, wrote %ld", mode, got, right, val);
    /* put, 2 accumulates, 2 fetch-and-adds, get and the barrier between:
     * each completion on the MPI path waited for its request */
    int mpi_path = !armcii_gmr_state.direct || armcii_node_of(right) != armcii_node_of(me);
    unsigned long rma_yielded = armcii_wait_count() - rma_before;
    if (armcii_gmr_state.yield_rma && mpi_path)
        CHECK(rma_yielded >= 7, "%s: %lu waits yielded in 6 MPI-path operations and a "
              "barrier", mode, rma_yielded);
    CHECK(mine[0] == 3L * (left + 1), "%s: accumulates from process %d gave %ld, expected %ld",
          mode, left, mine[0], 3L * (left + 1));
    CHECK(ARMCI_Create_mutexes(me % 2 + 1) == 0, "%s: ARMCI_Create_mutexes failed", mode);
    ARMCI_Lock(right % 2, right); /* its last mutex: counts differ between processes */
    ARMCI_Unlock(right % 2, right);
    ARMCI_Destroy_mutexes();
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
    return armcii_wait_count() - before;
}

/* Strided and vector gets on the MPI path where waits yield: where the MPI
 * completes a derived-datatype MPI_Rget's request before its data arrives
 * (MPICH), one MPI_Rget_accumulate(MPI_NO_OP) waited for; elsewhere one
 * contiguous request per block, each waited for (gmr_yield.c).  A ghost
 * carries a redirected get in one message instead; where waits do not
 * yield the derived datatype stays and no wait yields.  The data is
 * checked. */
#define GY_ROWS 24
#define GY_COLS 5
#define GY_LD 32
static void strided_gets(const char *mode, int me, int np, int yields)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, GY_ROWS * GY_LD * sizeof(double)) == 0,
          "%s: ARMCI_Malloc failed", mode);
    double *mine = ptr[me], got[GY_ROWS * GY_COLS];
    for (int i = 0; i < GY_ROWS * GY_LD; i++)
        mine[i] = 1000.0 * me + i;
    ARMCI_Barrier();
    int right = (me + 1) % np;
    int mpi_path = !armcii_gmr_state.direct || armcii_node_of(right) != armcii_node_of(me);
    int yielding_mpi = yields && mpi_path && armcii_adapt_redirecting() != 1;
    int getacc = (armcii_quirks() & ARMCII_QUIRK_RGET_DTYPE_EARLY) != 0;
    CHECK(armcii_gmr_state.rget_acc == (yields && getacc), "%s: rget_acc is %d (waits %s, "
          "quirk %s)", mode, armcii_gmr_state.rget_acc, yields ? "yield" : "do not yield",
          getacc ? "on" : "off");
    int sstride[1] = {GY_LD * sizeof(double)}, dstride[1] = {GY_COLS * sizeof(double)};
    int count[2] = {GY_COLS * sizeof(double), GY_ROWS};
    /* Both forms crowd their range (gaps of 216 bytes per row): by default
     * they are read as the range, one request (iov_sieve.c); with the
     * sieve off, block by block. */
    long sieve_setting = armcii_state.cfg.iov_sieve;
    for (int pass = 0; pass < 4; pass++) {
        int form = pass % 2;
        armcii_state.cfg.iov_sieve = pass < 2 ? sieve_setting : 0;
        memset(got, 0, sizeof got);
        void *src[GY_ROWS], *dst[GY_ROWS];
        for (int r = 0; r < GY_ROWS; r++) {
            src[r] = (double *)ptr[right] + r * GY_LD;
            dst[r] = got + r * GY_COLS;
        }
        armci_giov_t v = {src, dst, GY_COLS * sizeof(double), GY_ROWS};
        unsigned long b = armcii_wait_count();
        int rc = form == 0 ? ARMCI_GetS(ptr[right], sstride, got, dstride, count, 1, right)
                           : ARMCI_GetV(&v, 1, right);
        unsigned long waits = armcii_wait_count() - b;
        const char *what = form == 0 ? "ARMCI_GetS" : "ARMCI_GetV";
        CHECK(rc == 0, "%s: %s returned %d", mode, what, rc);
        for (int r = 0; r < GY_ROWS; r++)
            for (int c = 0; c < GY_COLS; c++)
                CHECK(got[r * GY_COLS + c] == 1000.0 * right + r * GY_LD + c,
                      "%s: %s of %d rows from %d: [%d][%d] is %g", mode, what, GY_ROWS, right,
                      r, c, got[r * GY_COLS + c]);
        /* ARMCI_GetV goes by segments anyway unless ARMCI_IOV_METHOD=DIRECT */
        int one_type = form == 0 || armcii_state.cfg.iov_method == ARMCII_IOV_DIRECT;
        int sieved = armcii_state.cfg.iov_sieve >= (long)((GY_LD - GY_COLS) * sizeof(double)) &&
                     (form == 0 || armcii_state.cfg.iov_method == ARMCII_IOV_AUTO);
        if (yielding_mpi && sieved)
            CHECK(waits == 1, "%s: sieved %s of %d rows from %d waited for %lu requests, "
                  "expected one", mode, what, GY_ROWS, right, waits);
        else if (yielding_mpi && getacc && one_type)
            CHECK(waits >= 1 && waits < GY_ROWS, "%s: %s of %d rows from %d waited for %lu "
                  "requests, expected one for the whole transfer", mode, what, GY_ROWS, right,
                  waits);
        else if (yielding_mpi)
            CHECK(waits >= GY_ROWS, "%s: %s of %d rows from %d waited for %lu requests, "
                  "expected one per row", mode, what, GY_ROWS, right, waits);
        else if (!yields)
            CHECK(waits == 0, "%s: %s: %lu waits yielded", mode, what, waits);
    }
    armcii_state.cfg.iov_sieve = sieve_setting;
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Waits that yielded in one call of a lock (lock != 0) or an unlock. */
static unsigned long lock_waits(int lock)
{
    unsigned long b = armcii_wait_count();
    if (lock)
        ARMCI_Lock(0, 0);
    else
        ARMCI_Unlock(0, 0);
    return armcii_wait_count() - b;
}

/* A waiter for a held mutex waits for the hand-off as the collectives do,
 * and so does the holder for its successor's notice.  Process 0 holds
 * mutex 0 while the others queue behind it; a round in which nobody had to
 * wait (all delayed past the hold) is repeated.  Each process's own
 * uncontended lock and unlock (a swap and a compare-and-swap: requests on
 * the MPI path) are the baseline.  The increments under the lock check the
 * exclusion. */
static void contended_lock(const char *mode, int me, int np, int yields)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, sizeof(long)) == 0, "%s: ARMCI_Malloc failed", mode);
    *(long *)ptr[me] = 0;
    CHECK(ARMCI_Create_mutexes(1) == 0, "%s: ARMCI_Create_mutexes failed", mode);
    unsigned long base[2] = {0, 0}; /* unlock, lock */
    for (int p = 0; p < np; p++) {
        if (p == me) {
            base[1] = lock_waits(1);
            base[0] = lock_waits(0);
        }
        ARMCI_Barrier();
    }
    int any = 0, rounds = 0;
    while (rounds < 5 && !any) {
        rounds++;
        if (me == 0)
            ARMCI_Lock(0, 0);
        ARMCI_Barrier();
        int waited = 0;
        if (me == 0)
            usleep(50000);
        else
            waited = lock_waits(1) > base[1];
        long v = 0;
        ARMCI_Get(ptr[0], &v, sizeof v, 0);
        v++;
        ARMCI_Put(&v, ptr[0], sizeof v, 0);
        ARMCI_Fence(0);
        waited |= lock_waits(0) > base[0];
        MPI_Allreduce(&waited, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        ARMCI_Barrier();
    }
    if (me == 0)
        CHECK(*(long *)ptr[0] == (long)rounds * np, "%s: %ld increments under the lock "
              "in %d rounds of %d processes", mode, *(long *)ptr[0], rounds, np);
    if (yields && np > 1)
        CHECK(any, "%s: no waiter yielded for the hand-off in %d rounds", mode, rounds);
    else if (!yields)
        CHECK(!any, "%s: a waiter yielded for the hand-off", mode);
    ARMCI_Destroy_mutexes();
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* The world's barrier where waits yield goes through node-shared counters
 * (common_wait.c) wherever the MPI gives shared windows and some node has
 * two processes; it must still hold every process until all arrived.
 * Each round every process adds 1 to a counter on process 0 and passes a
 * barrier (ARMCI_Barrier and armci_msg_barrier in turn), then reads the
 * counter, which must hold every process's adds, and passes another
 * before the next add.  One process, a different one each round, arrives
 * 0.3 ms late, so a barrier that lets anyone through early is caught. */
static void node_barrier_holds(const char *mode, int me, int np, int yields)
{
    int multi = armcii_state.node_size > 1, any_multi;
    MPI_Allreduce(&multi, &any_multi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int expect = yields && armcii_gmr_facts().shm_ok && any_multi;
    CHECK(armcii_node_active() == expect,
          "%s: node barrier %d, expected %d (waits yield %d, shared windows %d, a node of "
          "several %d)", mode, armcii_node_active(), expect, yields,
          armcii_gmr_facts().shm_ok, any_multi);
    void **ptr = malloc((size_t)np * sizeof *ptr);
    CHECK(ptr && ARMCI_Malloc(ptr, sizeof(long)) == 0, "%s: ARMCI_Malloc failed", mode);
    *(long *)ptr[me] = 0;
    ARMCI_Barrier();
    enum { ROUNDS = 60 };
    for (int r = 0; r < ROUNDS; r++) {
        long old;
        if (r % np == me)
            usleep(300);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, ptr[0], 1, 0);
        if (r % 2)
            armci_msg_barrier();
        else
            ARMCI_Barrier();
        long now;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &now, ptr[0], 0, 0);
        CHECK(now == (long)np * (r + 1), "%s: round %d: the counter read %ld after the "
              "barrier, expected %ld (a process left the barrier early)", mode, r, now,
              (long)np * (r + 1));
        ARMCI_Barrier();
    }
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Where the node barrier is engaged, the world's small allreduces,
 * allgathers and broadcasts take the same node-shared memory (GA's gops,
 * the ghost build's decision sums, the exchanges of ARMCI_Malloc and
 * ARMCI_Free): each must give every process the world's result.  Each
 * round a different process arrives 0.3 ms late and the broadcast's root
 * moves; seven collectives follow one another with no barrier between (the
 * result area is reused at once), two of them too large for a slot, which
 * take MPI's. */
static void node_collectives_right(const char *mode, int me, int np)
{
    unsigned long before = armcii_node_calls();
    enum { ROUNDS = 40, NL = 5, NBIG = 160 };
    for (int r = 0; r < ROUNDS; r++) {
        if (r % np == me)
            usleep(300);
        long v[NL] = {me + r, 1, (long)me * me, -me, r};
        armci_msg_lgop(v, NL, "+");
        long sq = 0;
        for (int p = 0; p < np; p++)
            sq += (long)p * p;
        long want[NL] = {(long)np * (np - 1) / 2 + (long)np * r, np, sq,
                         -(long)np * (np - 1) / 2, (long)np * r};
        for (int i = 0; i < NL; i++)
            CHECK(v[i] == want[i], "%s: round %d: lgop + element %d gave %ld, expected %ld",
                  mode, r, i, v[i], want[i]);
        double d[3] = {me - 0.5 * r, -(double)me, (double)(me * 3 % np)};
        armci_msg_dgop(d, 3, "absmax");
        double a0 = 0, a2 = 0;
        for (int p = 0; p < np; p++) {
            a0 = fabs(p - 0.5 * r) > a0 ? fabs(p - 0.5 * r) : a0;
            a2 = p * 3 % np > a2 ? p * 3 % np : a2;
        }
        CHECK(d[0] == a0 && d[1] == np - 1 && d[2] == a2,
              "%s: round %d: dgop absmax gave %g %g %g, expected %g %d %g", mode, r, d[0],
              d[1], d[2], a0, np - 1, a2);
        long pair[2] = {me, (long)r * me}, *pairs = malloc(2 * (size_t)np * sizeof(long));
        CHECK(pairs != NULL, "%s: out of memory", mode);
        armcii_allgather(pair, 2, MPI_LONG, pairs, armcii_state.world);
        for (int p = 0; p < np; p++)
            CHECK(pairs[2 * p] == p && pairs[2 * p + 1] == (long)r * p, "%s: round %d: "
                  "allgather gave %ld %ld for process %d, expected %d %ld", mode, r,
                  pairs[2 * p], pairs[2 * p + 1], p, p, (long)r * p);
        for (int p = 0; p < np; p++)
            pairs[2 * p] = pairs[2 * p + 1] = p == me ? 7L * me + r : -1;
        armcii_allgather(MPI_IN_PLACE, 2, MPI_LONG, pairs, armcii_state.world);
        for (int p = 0; p < np; p++)
            CHECK(pairs[2 * p] == 7L * p + r && pairs[2 * p + 1] == 7L * p + r, "%s: round %d: "
                  "allgather in place gave %ld %ld for process %d, expected %ld", mode, r,
                  pairs[2 * p], pairs[2 * p + 1], p, 7L * p + r);
        free(pairs);
        int root = (r + 1) % np;
        char word[24], wide[2000];
        for (int i = 0; i < (int)sizeof word; i++)
            word[i] = (char)(me == root ? 'a' + (i + r) % 26 : '?');
        for (int i = 0; i < (int)sizeof wide; i++)
            wide[i] = (char)(me == root ? i % 61 + r : -1);
        armci_msg_brdcst(word, sizeof word, root);
        armci_msg_brdcst(wide, sizeof wide, root);
        for (int i = 0; i < (int)sizeof word; i++)
            CHECK(word[i] == 'a' + (i + r) % 26, "%s: round %d: brdcst from %d byte %d gave "
                  "%d", mode, r, root, i, word[i]);
        for (int i = 0; i < (int)sizeof wide; i++)
            CHECK(wide[i] == (char)(i % 61 + r), "%s: round %d: brdcst of %zu bytes from %d "
                  "byte %d gave %d", mode, r, sizeof wide, root, i, wide[i]);
        double big[NBIG];
        for (int i = 0; i < NBIG; i++)
            big[i] = me + i + r;
        armci_msg_dgop(big, NBIG, "min");
        for (int i = 0; i < NBIG; i++)
            CHECK(big[i] == i + r, "%s: round %d: dgop min of %d element %d gave %g, "
                  "expected %d", mode, r, NBIG, i, big[i], i + r);
    }
    unsigned long n = armcii_node_calls() - before;
    /* lgop, dgop absmax, the two allgathers and the small brdcst */
    unsigned long want = armcii_node_active() ? 5UL * ROUNDS : 0;
    CHECK(n == want, "%s: %lu collectives went through node memory, expected %lu (node "
          "path %d)", mode, n, want, armcii_node_active());
}

/* An allocation over all processes that takes a kept region, or a place
 * in a slab already made (gmr_slab.c: the plain build's default for a
 * request this small), meets the others twice (the gather of every
 * request, which also gives the slices, and the closing barrier), and a
 * free twice (one reduction that agrees on the region, the barrier after
 * the fence): where the node path is set up all four go through it.  The slices of the reused region, of a different
 * size on each process and none on the last, must carry a put from every
 * process's left neighbour. */
static void alloc_pair_collectives(const char *mode, int me, int np)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, 4096) == 0, "%s: ARMCI_Malloc failed", mode);
    ARMCI_Free(ptr[me]);
    long n = me == np - 1 ? 0 : 64 + 8 * me; /* longs */
    int kept = armcii_gmr_state.nrecycled, slabs = armcii_gmr_slab_count();
    unsigned long before = armcii_node_calls();
    CHECK(ARMCI_Malloc(ptr, n * (long)sizeof(long)) == 0, "%s: ARMCI_Malloc failed", mode);
    unsigned long made = armcii_node_calls() - before;
    /* the same on every process: the kept list changes only in collectives;
     * the plain build keeps freed world regions unless the cache is off
     * (the ghost build's come from its pools), so there the count must run */
    int reused = armcii_gmr_state.nrecycled == kept - 1 ||
                 (slabs > 0 && armcii_gmr_slab_count() == slabs);
    CHECK(reused || ARMCI_GHOST_PROGRESS ||
              (!armcii_gmr_state.recycle_limit && !armcii_gmr_state.slab_bytes),
          "%s: the freed region of 4096 bytes was not reused, nor its place in a slab", mode);
    CHECK(n || ptr[me] == NULL, "%s: an empty slice at %p", mode, ptr[me]);
    ARMCI_Barrier();
    int right = (me + 1) % np;
    long rn = right == np - 1 ? 0 : 64 + 8 * right;
    for (long i = 0; i < rn; i += 7) {
        long v = 1000L * me + i;
        ARMCI_Put(&v, (long *)ptr[right] + i, sizeof v, right);
    }
    ARMCI_Barrier();
    int left = (me + np - 1) % np;
    for (long i = 0; i < n; i += 7)
        CHECK(((long *)ptr[me])[i] == 1000L * left + i, "%s: reused slice element %ld holds "
              "%ld, expected %ld from process %d", mode, i, ((long *)ptr[me])[i],
              1000L * left + i, left);
    before = armcii_node_calls();
    ARMCI_Free(ptr[me]);
    unsigned long freed = armcii_node_calls() - before;
    if (armcii_node_active() && reused) {
        CHECK(made == 2, "%s: a reused allocation made %lu node collectives, expected 2",
              mode, made);
        CHECK(freed == 2, "%s: a free made %lu node collectives, expected 2", mode, freed);
    }
    free(ptr);
}

/* Every waiting call once, results checked; returns how many yielded. */
static unsigned long run_calls(const char *mode, int me, int np)
{
    unsigned long before = armcii_wait_count();
    ARMCI_Barrier();
    armci_msg_barrier();
    int ix = me + 1;
    armci_msg_igop(&ix, 1, "+");
    CHECK(ix == np * (np + 1) / 2, "%s: igop + gave %d, expected %d", mode, ix,
          np * (np + 1) / 2);
    double dx = me;
    armci_msg_dgop(&dx, 1, "max");
    CHECK(dx == np - 1, "%s: dgop max gave %g", mode, dx);
    long word = me == np - 1 ? 4242L : -1L;
    armci_msg_brdcst(&word, sizeof word, np - 1);
    CHECK(word == 4242L, "%s: brdcst from %d gave %ld", mode, np - 1, word);
    struct { double key; int who; } rec = {me == 0 ? 7.5 : me * 0.5, me};
    armci_msg_sel(&rec, sizeof rec, "max", ARMCI_DOUBLE, 1);
    int best = 7.5 >= (np - 1) * 0.5 ? 0 : np - 1;
    CHECK(rec.who == best, "%s: sel max chose %d, expected %d", mode, rec.who, best);
    return armcii_wait_count() - before + alloc_calls(mode, me, np);
}

/* Ghost build: where the automatic mode decides at barriers
 * (ARMCIX_Async_phase(-1)), an allreduce replaces ARMCI_Barrier and
 * armci_msg_barrier; it waits as the barriers do.  It once polled in
 * MPI_Allreduce, and under MPICH on 2 cores every step of
 * bench_multiphase stalled (docs/progress.md).  Returns how many of the
 * two calls' waits yielded (0 without ghosts: nothing runs). */
static unsigned long auto_barriers(const char *mode)
{
    if (armcii_adapt_redirecting() < 0)
        return 0;
    ARMCIX_Async_phase(-1);
    unsigned long b = armcii_wait_count();
    ARMCI_Barrier();
    ARMCI_AllFence();
    armci_msg_barrier();
    unsigned long n = armcii_wait_count() - b;
    ARMCIX_Async_phase(1);
    CHECK(armcii_adapt_redirecting() == 1, "%s: ARMCIX_Async_phase(1) left redirection %d",
          mode, armcii_adapt_redirecting());
    return n;
}

static void phase(const char *setting, int me, int np, int level)
{
    if (setting)
        setenv("ARMCI_WAIT_YIELD", setting, 1);
    else
        unsetenv("ARMCI_WAIT_YIELD");
    ARMCI_Init();
    const char *mode = setting ? setting : "AUTO";
    unsigned long yielded = run_calls(mode, me, np);
    int yields = armcii_wait_yields();
    CHECK(armcii_gmr_state.yield_rma == yields, "%s: MPI-path requests %d, waits yield %d",
          mode, armcii_gmr_state.yield_rma, yields);
    if (!setting) {
        /* AUTO: a host's process count (ghosts included) against its CPUs;
         * one choice for all processes */
        int crowded = armcii_host_procs() > sysconf(_SC_NPROCESSORS_ONLN), any;
        int mpi_yields = armcii_mpi_yields_when_idle(); /* opens MPI_T: always call */
        int want = crowded && !mpi_yields;
        MPI_Allreduce(&want, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(yields == any, "AUTO: yields %d with %d processes on %ld CPUs here", yields,
              armcii_host_procs(), sysconf(_SC_NPROCESSORS_ONLN));
        int now;
        MPI_Query_thread(&now);
        CHECK(now == level, "thread level %d after reading MPI's yield setting, was %d", now,
              level);
    } else {
        CHECK(yields == (setting[1] == 'N'), "%s: yields %d", mode, yields);
    }
    node_barrier_holds(mode, me, np, yields);
    node_collectives_right(mode, me, np);
    alloc_pair_collectives(mode, me, np);
    contended_lock(mode, me, np, yields);
    strided_gets(mode, me, np, yields);
    unsigned long at_auto = auto_barriers(mode);
    if (yields && armcii_adapt_redirecting() >= 0)
        CHECK(at_auto >= 2, "%s: automatic mode: %lu of 2 barriers' waits yielded", mode,
              at_auto);
    else
        CHECK(at_auto == 0, "%s: automatic mode: %lu waits yielded", mode, at_auto);
    /* 2 barriers, igop, dgop, brdcst, sel (a reduction and a broadcast) */
    if (yields)
        CHECK(yielded >= 7, "%s: only %lu of the calls' waits yielded", mode, yielded);
    else
        CHECK(yielded == 0, "%s: %lu waits yielded", mode, yielded);
    ARMCI_Finalize();
    CHECK(armcii_gmr_state.nyreq == 0, "%s: %d requests left after ARMCI_Finalize", mode,
          armcii_gmr_state.nyreq);
}

/* ARMCI_WAIT_SPIN: process 0 enters a barrier 20 ms late.  With spin 0
 * every other process yields in it (its first test cannot find process 0
 * there); with a spin longer than any wait nobody yields, as in the waits
 * of ARMCI_Init and ARMCI_Finalize around it. */
static void spin_phase(const char *spin, int me)
{
    setenv("ARMCI_WAIT_YIELD", "ON", 1);
    setenv("ARMCI_WAIT_SPIN", spin, 1);
    unsigned long y0 = armcii_wait_yield_calls();
    ARMCI_Init();
    CHECK(armcii_state.cfg.wait_spin == atoi(spin), "ARMCI_WAIT_SPIN=%s read as %d", spin,
          armcii_state.cfg.wait_spin);
    unsigned long w = armcii_wait_count(), y = armcii_wait_yield_calls();
    if (me == 0)
        usleep(20000);
    ARMCI_Barrier();
    CHECK(armcii_wait_count() > w, "ARMCI_WAIT_SPIN=%s: the barrier did not wait by tests", spin);
    unsigned long in_barrier = armcii_wait_yield_calls() - y;
    if (atoi(spin) == 0 && me != 0)
        CHECK(in_barrier > 0, "ARMCI_WAIT_SPIN=0: no yield while process 0 slept 20 ms");
    ARMCI_Finalize();
    if (atoi(spin) > 0)
        CHECK(armcii_wait_yield_calls() == y0, "ARMCI_WAIT_SPIN=%s: %lu yields (%lu in the "
              "barrier)", spin, armcii_wait_yield_calls() - y0, in_barrier);
    unsetenv("ARMCI_WAIT_SPIN");
}

int main(int argc, char **argv)
{
    int me, np, level;
    /* FUNNELED, not MULTIPLE: Open MPI 4.1's osc pt2pt (one of the tested
     * components) refuses windows under MULTIPLE */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &level);
    tu_name = "test_wait_yield";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    phase("ON", me, np, level);
    phase("OFF", me, np, level);
    phase(NULL, me, np, level);
    spin_phase("0", me);
    spin_phase("2000000000", me);
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
