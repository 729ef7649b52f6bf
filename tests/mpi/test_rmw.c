/* ARMCI_Rmw: fetch-and-add on hot int/long counters (every value handed out
 * exactly once), private counters (values in order), long values beyond
 * 2^32, swap chains (the values seen form a permutation), and location
 * consistency (an Rmw sees an unfenced earlier Put; accesses right after a
 * fetch-and-add see it), and a process that
 * polls its own counter through ARMCI_Rmw alone while the others add to it
 * (it must keep serving their atomics: Open MPI's osc/ucx needs the
 * library's progress pokes for that). */
#include <string.h>
#include <armci.h>
#include "../testutil.h"

#define K 200

static int me, np;

/* Layout of every rank's slice. */
typedef struct {
    int hot_i;          /* on rank 0: shared int counter */
    int swap_i;         /* on rank 0: swap cell */
    long hot_l;         /* on rank 0: shared long counter */
    long swap_l;        /* on rank 0: swap cell (long) */
    long big;           /* on rank 0: long counter stepped by 2^30 */
    int consist;        /* location consistency cell */
    int poll;           /* on rank 0: polled through Rmw only */
    int own[64];        /* own[r]: rank r's private counter, on its neighbour */
} slot_t;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Rank 0 checks that the gathered values are exactly base..base+n-1. */
static void check_all_once(const char *what, long *mine, int n, long base)
{
    long *all = me == 0 ? malloc(sizeof(long) * n * np) : NULL;
    MPI_Gather(mine, n, MPI_LONG, all, n, MPI_LONG, 0, MPI_COMM_WORLD);
    if (me != 0)
        return;
    qsort(all, (size_t)n * np, sizeof(long), cmp_long);
    int bad = 0;
    for (long i = 0; i < (long)n * np; i++)
        if (all[i] != base + i && bad++ < 3)
            CHECK(0, "%s: sorted value %ld is %ld, expected %ld (duplicate or lost)", what,
                  i, all[i], base + i);
    CHECK(!bad, "%s: %d values wrong", what, bad);
    free(all);
}

static void test_fetch_add(slot_t **s)
{
    long vi[K], vl[K];
    const long lbase = (1L << 32) - (long)K * np / 2; /* crosses 2^32 */
    int right = (me + 1) % np, left = (me + np - 1) % np;
    if (me == 0) {
        s[0]->hot_i = 0;
        s[0]->hot_l = lbase;
        s[0]->big = 7;
    }
    s[me]->own[left] = 1000;
    ARMCI_Barrier();
    for (int k = 0; k < K; k++) {
        int oi, own;
        long ol, ob;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &oi, &s[0]->hot_i, 1, 0);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ol, &s[0]->hot_l, 1, 0);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &own, &s[right]->own[me], 2, right);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ob, &s[0]->big, 1 << 30, 0);
        vi[k] = oi;
        vl[k] = ol;
        CHECK(own == 1000 + 2 * k, "private counter: got %d expected %d", own, 1000 + 2 * k);
        CHECK(ob >= 7 && (ob - 7) % (1L << 30) == 0 && ob < 7 + (long)np * K * (1L << 30),
              "2^30-step long counter: fetched %ld is not 7 + j*2^30", ob);
    }
    ARMCI_Barrier();
    check_all_once("int fetch-and-add", vi, K, 0);
    check_all_once("long fetch-and-add", vl, K, lbase);
    if (me == 0) {
        CHECK(s[0]->hot_i == np * K, "int counter ends at %d, expected %d", s[0]->hot_i,
              np * K);
        CHECK(s[0]->hot_l == lbase + (long)np * K, "long counter ends at %ld", s[0]->hot_l);
        long want = 7 + (long)np * K * (1L << 30);
        CHECK(s[0]->big == want, "big counter %ld expected %ld (> 2^32)", s[0]->big, want);
    }
    CHECK(s[me]->own[left] == 1000 + 2 * K, "private counter of %d ends at %d", left,
          s[me]->own[left]);
    ARMCI_Barrier();
}

/* Each rank swaps K distinct values into one cell; the old values returned
 * plus the final content must be all values put plus the initial one. */
static void test_swap(slot_t **s, int is_long)
{
    const long off = is_long ? (3L << 40) : 0, init = -1;
    long got[K];
    if (me == 0) {
        s[0]->swap_i = (int)init;
        s[0]->swap_l = init;
    }
    ARMCI_Barrier();
    for (int k = 0; k < K; k++) {
        long v = off + (long)me * K + k;
        if (is_long) {
            long loc = v;
            ARMCI_Rmw(ARMCI_SWAP_LONG, &loc, &s[0]->swap_l, 12345 /* ignored */, 0);
            got[k] = loc;
        } else {
            int loc = (int)v;
            ARMCI_Rmw(ARMCI_SWAP, &loc, &s[0]->swap_i, 12345, 0);
            got[k] = loc;
        }
        CHECK(got[k] != v, "swap returned the value just written (%ld)", v);
    }
    ARMCI_Barrier();
    long *all = me == 0 ? malloc(sizeof(long) * (K * np + 1)) : NULL;
    MPI_Gather(got, K, MPI_LONG, all, K, MPI_LONG, 0, MPI_COMM_WORLD);
    if (me == 0) {
        /* old values + final = {init} + every value put, each once */
        all[K * np] = is_long ? s[0]->swap_l : s[0]->swap_i;
        qsort(all, (size_t)K * np + 1, sizeof(long), cmp_long);
        CHECK(all[0] == init, "%s: initial value %ld never returned (got %ld)",
              is_long ? "SWAP_LONG" : "SWAP", init, all[0]);
        int bad = 0;
        for (long i = 0; i < (long)K * np; i++)
            bad += all[i + 1] != off + i;
        CHECK(!bad, "%s: %d values lost or duplicated in the swap chain",
              is_long ? "SWAP_LONG" : "SWAP", bad);
        free(all);
    }
    ARMCI_Barrier();
}

/* Put then Rmw to the same target without a fence: the Rmw sees the Put. */
static void test_consistency(slot_t **s)
{
    int right = (me + 1) % np;
    for (int k = 0; k < 20; k++) {
        int v = 100 * k + me, old;
        ARMCI_Put(&v, &s[right]->consist, sizeof v, right);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &s[right]->consist, 1, right);
        CHECK(old == v, "Rmw after an unfenced Put saw %d, expected %d", old, v);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &s[right]->consist, 0, right);
        CHECK(old == v + 1, "second Rmw saw %d, expected %d", old, v + 1);
    }
    /* swap on my own slice */
    int loc = 77;
    s[me]->swap_i = 5;
    ARMCI_Barrier();
    ARMCI_Rmw(ARMCI_SWAP, &loc, &s[me]->swap_i, 0, me);
    CHECK(loc == 5 && s[me]->swap_i == 77, "self swap: loc %d cell %d", loc, s[me]->swap_i);
    ARMCI_Barrier();
}

/* A fetch-and-add may return only locally complete (Open MPI's osc/rdma:
 * src/gmr/gmr_ops.c): a Get, an Rmw, an Acc or a Put to the same place
 * right after it, without a fence, must still see it or come after it. */
static void test_add_then_access(slot_t **s)
{
    int right = (me + 1) % np, one = 1, scale = 1;
    long lone = 1, lscale = 1, base = s[me]->big; /* read before anyone adds to it */
    ARMCI_Barrier();
    for (int k = 0; k < 20; k++) {
        int v = 1000 * k + me, old, got;
        long lold, lgot;
        ARMCI_Put(&v, &s[right]->consist, sizeof v, right);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &s[right]->consist, 5, right);
        ARMCI_Get(&s[right]->consist, &got, sizeof got, right);
        CHECK(old == v && got == v + 5, "Put, Rmw(+5), Get: Rmw saw %d (want %d), Get %d "
              "(want %d)", old, v, got, v + 5);
        ARMCI_Acc(ARMCI_ACC_INT, &scale, &one, &s[right]->consist, sizeof one, right);
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &s[right]->consist, 1, right);
        CHECK(old == v + 6, "Acc(+1) then Rmw(+1): Rmw saw %d, want %d", old, v + 6);
        ARMCI_Put(&v, &s[right]->consist, sizeof v, right);
        ARMCI_Get(&s[right]->consist, &got, sizeof got, right);
        CHECK(got == v, "Rmw, Put, Get: Get saw %d, want %d (the Put)", got, v);
        /* the long form, and a second Get with nothing written between */
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lold, &s[right]->big, 3, right);
        ARMCI_Get(&s[right]->big, &lgot, sizeof lgot, right);
        CHECK(lgot == lold + 3, "long Rmw(+3) then Get: %ld, want %ld", lgot, lold + 3);
        ARMCI_Acc(ARMCI_ACC_LNG, &lscale, &lone, &s[right]->big, sizeof lone, right);
        ARMCI_Get(&s[right]->big, &lgot, sizeof lgot, right);
        CHECK(lgot == lold + 4, "long Acc(+1) after the Rmw, then Get: %ld, want %ld", lgot,
              lold + 4);
    }
    ARMCI_Barrier();
    /* after the barrier the owner sees every add of its neighbour, 20 x 4 */
    CHECK(s[me]->big == base + 80, "after the barrier my long cell is %ld, want %ld",
          s[me]->big, base + 80);
    ARMCI_Barrier();
}

/* Rank 0 spins with Rmw(+0) on its own cell, making no other call, until
 * every other rank has added its share with Rmw: no barrier in between, so
 * a library that stops serving incoming atomics while a process only
 * polls hangs here (the test harness's time limit reports it). */
static void test_polling(slot_t **s)
{
    const int adds = 50;
    long expect = (long)(np - 1) * adds, seen = 0, polls = 0;
    if (me == 0)
        s[0]->poll = 0;
    ARMCI_Barrier();
    if (me == 0) {
        while (seen != expect && polls < 100000000L) {
            int v;
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &v, &s[0]->poll, 0, 0);
            seen = v;
            polls++;
        }
        CHECK(seen == expect, "polling: counter reached %ld after %ld polls, expected %ld",
              seen, polls, expect);
    } else {
        for (int k = 0; k < adds; k++) {
            int old;
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, &s[0]->poll, 1, 0);
            CHECK(old >= 0 && old < expect, "polling: fetched %d outside [0, %ld)", old,
                  expect);
        }
    }
    ARMCI_Barrier();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_rmw";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np > 64) {
        if (me == 0)
            printf("SKIP test_rmw: more than 64 ranks\n");
        ARMCI_Finalize();
        MPI_Finalize();
        return 0;
    }
    slot_t **s = malloc(np * sizeof(slot_t *));
    ARMCI_Malloc((void **)s, sizeof(slot_t));
    memset(s[me], 0, sizeof(slot_t));
    ARMCI_Barrier();
    test_fetch_add(s);
    test_swap(s, 0);
    test_swap(s, 1);
    test_consistency(s);
    test_add_then_access(s);
    test_polling(s);
    ARMCI_Free(s[me]);
    free(s);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
