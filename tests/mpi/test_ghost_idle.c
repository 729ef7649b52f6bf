/*
 * Ghost build: a ghost with nothing redirected to it leaves the CPU alone
 * (issue 24 item 5: on a node with more processes than cores an idle ghost
 * that polls takes a core from the users).
 *
 * The users find the ghosts of this job: processes running this executable
 * under the same parent (the launcher's daemon) that are not users.  While
 * every user sleeps (no MPI call, so nothing competes with the ghosts for
 * the cores), each ghost's CPU time (/proc/PID/stat, utime + stime) must
 * stay below IDLE_MAX of the wall time, in three states:
 *  - before any region exists (no user has anything redirected);
 *  - after a region that spans (virtual) nodes was redirected to the ghosts
 *    (the automatic mode starts on; accumulates through the ghosts checked)
 *    and redirection was switched off (ARMCIX_Async_phase(0));
 *  - after the automatic mode (ARMCIX_Async_phase(-1)) committed "on" inside
 *    a phase and ARMCIX_Async_phase(0) took the setting back: a ghost stops
 *    napping while the last commit says on, and must nap again once users
 *    decide themselves (it did not before 21f04d4).  The thresholds switch
 *    off where users spend 90% of the time in calls (a loop of gets) and on
 *    where they spend at most half (sleeping); the ghosts' rounds do both
 *    (ARMCIX_Async_phase(-1) itself starts on).
 * A ghost that polls without pause uses a whole core whenever one is free,
 * which is the case here while the users sleep; so this is an upper bound
 * that load on the machine cannot make fail, only pass more easily.
 * Without ghosts (other builds, or none configured) there is nothing to
 * measure: exit 77.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"
#include "../../src/progress/progress.h"

#define MAX_GHOSTS 16
#define IDLE_MAX 0.25 /* CPU seconds per wall second */
#define WINDOW_S 1.0

static int me, np;

/* Parent pid and executable of a process, from /proc; 0 on failure. */
static int proc_info(int pid, int *ppid, char *exe, size_t len)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/exe", pid);
    ssize_t n = readlink(path, exe, len - 1);
    if (n <= 0)
        return 0;
    exe[n] = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    const char *p = ok ? strrchr(buf, ')') : NULL; /* the name may hold spaces */
    return p && sscanf(p + 2, "%*c %d", ppid) == 1;
}

/* utime + stime of pid in seconds, or -1. */
static double cpu_seconds(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    const char *p = ok ? strrchr(buf, ')') : NULL;
    unsigned long ut, st;
    /* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Rank 0: the pids of this job's ghosts (same executable and parent as a
 * user, not a user). */
static int find_ghosts(const int *upid, int *gpid)
{
    char myexe[512], exe[512];
    int ppid, n = 0, *uppid = malloc((size_t)np * sizeof(int));
    if (!uppid || !proc_info((int)getpid(), &ppid, myexe, sizeof myexe)) {
        fprintf(stderr, "test_ghost_idle: out of memory or no /proc/self\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int u = 0; u < np; u++)
        uppid[u] = proc_info(upid[u], &uppid[u], exe, sizeof exe) ? uppid[u] : -1;
    DIR *d = opendir("/proc");
    if (!d) {
        fprintf(stderr, "test_ghost_idle: cannot list /proc\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_GHOSTS) {
        int pid = atoi(e->d_name), user = 0, sibling = 0;
        if (pid <= 0 || !proc_info(pid, &ppid, exe, sizeof exe) || strcmp(exe, myexe))
            continue;
        for (int u = 0; u < np; u++) {
            user |= upid[u] == pid;
            sibling |= uppid[u] == ppid;
        }
        if (!user && sibling)
            gpid[n++] = pid;
    }
    closedir(d);
    free(uppid);
    return n;
}

/* Every user sleeps WINDOW_S; rank 0 checks each ghost's CPU time. */
static void check_idle(const char *when, const int *gpid, int ng)
{
    double c0[MAX_GHOSTS], t0;
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(200000); /* let the ghosts reach their nap after the barrier's traffic */
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int g = 0; me == 0 && g < ng; g++)
        c0[g] = cpu_seconds(gpid[g]);
    usleep((useconds_t)(WINDOW_S * 1e6));
    double wall = MPI_Wtime() - t0;
    for (int g = 0; me == 0 && g < ng; g++) {
        double c = cpu_seconds(gpid[g]) - c0[g];
        CHECK(c0[g] >= 0 && c >= 0, "cannot read ghost %d's CPU time", gpid[g]);
        CHECK(c < IDLE_MAX * wall, "%s: ghost pid %d used %.3f s of CPU in %.3f s with nothing "
              "redirected to it (limit %.0f%%)", when, gpid[g], c, wall, 100 * IDLE_MAX);
        printf("%s: ghost pid %d used %.3f s of CPU in %.3f s\n", when, gpid[g], c, wall);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Collective, automatic mode: gets until the ghosts switched every user
 * off, then sleeps until they switched every user on again (each user
 * applies a commit at its next library entry). */
static void auto_off_then_on(void **ptr)
{
    double x, t0 = MPI_Wtime();
    /* a peer on another (virtual) node: gets from a node-mate are load/store
     * (the node-local path), which the decision never counts as waiting */
    int peer = (me + np / 2) % np, mine, all = 0;
    while (!all && MPI_Wtime() - t0 < 30) {
        /* the same time of gets for every user, not the same count: where
         * gets are cheap and some users' are cheaper (request-based
         * completion, 2-6 us), the faster users waited for the others in the
         * allreduce, outside the library, and the users spent only half
         * the time in calls, below the threshold.  A user already switched
         * off keeps getting too: waiting in the allreduce instead (MPICH
         * spins there, holding a core) it spent the window outside calls,
         * and the round that saw it so switched it on again */
        double t1 = MPI_Wtime();
        while (MPI_Wtime() - t1 < 0.2)
            for (int k = 0; k < 100; k++)
                ARMCI_Get(ptr[peer], &x, sizeof x, peer);
        mine = armcii_adapt_redirecting() == 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    }
    CHECK(all, "the automatic mode did not switch every user off in 30 s of gets");
    all = 0;
    while (!all && MPI_Wtime() - t0 < 60) {
        usleep(100000);
        ARMCI_Barrier(); /* a library entry: applies a commit */
        mine = armcii_adapt_redirecting() == 1;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    }
    CHECK(all, "the automatic mode did not switch every user on again while they slept");
}

int main(int argc, char **argv)
{
    /* read by the ghost layer's MPI_Init: automatic; off -> on when the
     * users spend at most half the time in calls (W >= 0%), on -> off at
     * 90%; thresholds only */
    static const char *const env[][2] = {
        {"ARMCI_GHOST_ASYNC", "AUTO"}, {"ARMCI_ADAPT_INPHASE", "1"},
        {"ARMCI_ADAPT_WAIT_ON", "0"},  {"ARMCI_ADAPT_CR_LOW", "50"},
        {"ARMCI_ADAPT_CR_HIGH", "90"}, {"ARMCI_ADAPT_REPROBE", "0"}};
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        setenv(env[i][0], env[i][1], 0);
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_idle";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int real_np, pid = (int)getpid(), ng = 0, gpid[MAX_GHOSTS];
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    int *upid = malloc((size_t)np * sizeof(int));
    void **ptr = malloc((size_t)np * sizeof(void *));
    if (!upid || !ptr)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Allgather(&pid, 1, MPI_INT, upid, 1, MPI_INT, MPI_COMM_WORLD);
    if (me == 0 && real_np > np) {
        ng = find_ghosts(upid, gpid);
        CHECK(ng == real_np - np, "found %d ghost processes, the job has %d", ng, real_np - np);
    }
    MPI_Bcast(&real_np, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (real_np == np) {
        if (me == 0)
            printf("SKIP test_ghost_idle: no ghosts in this job\n");
        ARMCI_Finalize();
        MPI_Finalize();
        return 77;
    }
    check_idle("no region yet", gpid, ng);

    /* A region; where it spans (virtual) nodes, accumulates go through the
     * ghosts, so they were busy (and the sums prove the path works). */
    if (ARMCI_Malloc(ptr, sizeof(double)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    *(double *)ptr[me] = 0;
    ARMCI_Barrier();
    double one = 1.0;
    for (int k = 0; k < 100; k++)
        ARMCI_Acc(ARMCI_ACC_DBL, &one, &one, ptr[(me + 1) % np], sizeof(double), (me + 1) % np);
    ARMCI_Barrier();
    CHECK(*(double *)ptr[me] == 100.0, "accumulated %g, expected 100", *(double *)ptr[me]);
    ARMCIX_Async_phase(0); /* nothing redirected any more */
    check_idle("after redirection was switched off", gpid, ng);
    ARMCIX_Async_phase(-1); /* automatic again (starting on) */
    auto_off_then_on(ptr);
    ARMCIX_Async_phase(0);
    check_idle("after an automatic switch on, then off by ARMCIX_Async_phase", gpid, ng);
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(upid);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
