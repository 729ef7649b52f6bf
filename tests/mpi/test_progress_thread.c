/* ARMCI_PROGRESS_THREAD=1: accumulate and fetch-and-add traffic aimed at
 * ranks that compute outside the library must give exact results; the
 * thread ("armci-progress" in /proc/self/task/N/comm) must run exactly when
 * MPI granted MPI_THREAD_MULTIPLE, and finalize must stop it.
 * In pt2pt mode (osc pt2pt refuses MPI_THREAD_MULTIPLE) it asks for less,
 * so the library's "thread not started" path is what gets checked there. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"

#pragma weak ARMCI_Rmw /* written concurrently: skip the RMW part if absent */

#define N 64
#define ITERS 6

static volatile double sink;

/* Threads of this process named "armci-progress". */
static int progress_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[300], name[32] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(name, sizeof name, f) && !strcmp(name, "armci-progress\n"))
            n++;
        fclose(f);
    }
    closedir(d);
    return n;
}

static void compute(double ms)
{
    double t0 = MPI_Wtime(), x = 1;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

int main(int argc, char **argv)
{
    const char *mode = getenv("ARMCI_TEST_MODE");
    int want = mode && !strcmp(mode, "pt2pt") ? MPI_THREAD_SERIALIZED : MPI_THREAD_MULTIPLE;
    int provided, me, np;
    MPI_Init_thread(&argc, &argv, want, &provided);
    setenv("ARMCI_PROGRESS_THREAD", "1", 1);
    setenv("ARMCI_PROGRESS_USLEEP", "50", 1);
    ARMCI_Init();
    tu_name = "test_progress_thread";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int expect = provided == MPI_THREAD_MULTIPLE, running = progress_threads();
    if (running >= 0)
        CHECK(running == expect, "%d progress threads running, expected %d (thread level %d)",
              running, expect, provided);
    else if (me == 0)
        printf("test_progress_thread: no /proc/self/task, thread count not checked\n");

    void **ptr = malloc(np * sizeof(void *)), **cnt = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, N * sizeof(long));
    ARMCI_Malloc(cnt, sizeof(long));
    memset(ptr[me], 0, N * sizeof(long));
    *(long *)cnt[me] = 0;
    ARMCI_Barrier();
    long src[N], one = 1;
    for (int i = 0; i < N; i++)
        src[i] = i + 1;
    int right = (me + 1) % np, have_rmw = ARMCI_Rmw != NULL;
    long fetched[ITERS];
    for (int it = 0; it < ITERS; it++) {
        /* odd ranks compute while even ranks hit them, then the roles swap */
        if ((me + it) % 2)
            compute(10);
        for (int k = 1; k < np; k++) {
            int t = (me + k) % np;
            ARMCI_Acc(ARMCI_ACC_LNG, &one, src, ptr[t], N * sizeof(long), t);
        }
        if (have_rmw)
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &fetched[it], cnt[right], 1, right);
        else
            ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, cnt[right], sizeof(long), right);
        if ((me + it) % 2 == 0)
            compute(10);
    }
    ARMCI_Barrier();
    long *mine = ptr[me];
    for (int i = 0; i < N; i++)
        CHECK(mine[i] == (long)ITERS * (np - 1) * (i + 1), "acc: mine[%d]=%ld expected %ld",
              i, mine[i], (long)ITERS * (np - 1) * (i + 1));
    CHECK(*(long *)cnt[me] == ITERS, "counter %ld expected %d", *(long *)cnt[me], ITERS);
    for (int it = 0; have_rmw && it < ITERS; it++)
        CHECK(fetched[it] == it, "fetch-and-add %d returned %ld", it, fetched[it]);
    ARMCI_Free(cnt[me]);
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(cnt);
    ARMCI_Finalize();
    running = progress_threads();
    CHECK(running <= 0, "%d progress threads left after ARMCI_Finalize", running);
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
