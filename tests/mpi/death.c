/*
 * A process of the job dies by SIGKILL at a chosen point; the job must end
 * on its own (tests/mpi/test_death.sh measures how fast, reads the message
 * and looks for leftover processes and /dev/shm files).
 *
 * usage: death SCENARIO TAG      (TAG is ignored: it marks the job for pgrep)
 *   comm     rank 1 dies in the middle of puts and accumulates to every
 *            rank (the others keep sending to it, also across nodes)
 *   barrier  rank 1 dies inside ARMCI_Barrier; the others enter it later
 *   mutex    rank 1 dies holding mutex 0 of rank 0; the others wait for it
 *   ghost    (ghost build) a ghost dies while the users send accumulates
 *            through it: rank 0 finds the ghosts among its siblings (same
 *            executable, same parent) that are not users
 *
 * The killer thread prints, just before the kill,
 *   death: killing <who> pid <pid> (launcher rank <r>) at <unix time> (<scenario>)
 * (the launcher's rank counts ghosts: the launcher names the dead by it),
 * and rank 0 prints Open MPI's job id (its shared-memory files carry it).
 * The survivors never end by themselves before SURVIVE_S: a job that is
 * not taken down runs into the script's time limit.
 */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <armci.h>

enum { N = 1024, SURVIVE_S = 40 };

static struct {
    pid_t pid;
    int launcher_rank;
    const char *who, *scenario;
    long delay_ms;
} victim;

static double now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts))
        ;
}

/* A process's rank as its launcher numbers it (Open MPI, MPICH), or -1. */
static int launcher_rank(pid_t pid)
{
    char path[64], env[65536];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(env, 1, sizeof env - 1, f) : 0;
    if (f)
        fclose(f);
    env[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
        if (!strncmp(env + i, "OMPI_COMM_WORLD_RANK=", 21))
            return atoi(env + i + 21);
        if (!strncmp(env + i, "PMI_RANK=", 9))
            return atoi(env + i + 9);
    }
    return -1;
}

static void *killer(void *arg)
{
    (void)arg;
    nap_ms(victim.delay_ms);
    fprintf(stderr, "death: killing %s pid %d (launcher rank %d) at %.3f (%s)\n", victim.who,
            (int)victim.pid, victim.launcher_rank, now(), victim.scenario);
    fflush(stderr);
    kill(victim.pid, SIGKILL);
    return NULL;
}

/* Kill victim.pid after ms milliseconds, from a thread of this process. */
static void kill_later(pid_t pid, const char *who, long ms)
{
    pthread_t t;
    victim.pid = pid;
    victim.launcher_rank = launcher_rank(pid);
    victim.who = who;
    victim.delay_ms = ms;
    if (pthread_create(&t, NULL, killer, NULL)) {
        fprintf(stderr, "death: cannot start the killer thread\n");
        exit(2);
    }
}

/* Puts and accumulates of N doubles to every rank, in a loop, until
 * seconds have passed (a dead peer's launcher ends the job first). */
static void traffic(void **base, int me, int np, double seconds)
{
    static double src[N];
    double one = 1.0, t_end = now() + seconds;
    for (int i = 0; i < N; i++)
        src[i] = me + i;
    for (long it = 0; now() < t_end; it++) {
        int p = (int)((me + 1 + it) % np);
        double *dst = (double *)base[p] + (size_t)me * 8;
        ARMCI_Put(src, dst, 8 * sizeof(double), p);
        ARMCI_Acc(ARMCI_ACC_DBL, &one, src, (double *)base[p] + N / 2, N / 2 * sizeof(double), p);
        if (it % 64 == 0)
            ARMCI_Fence(p);
    }
}

/* The pid of a ghost: a sibling (same parent, same executable) that is not
 * one of the users' pids; 0 if none. */
static pid_t find_ghost(const int *user_pids, int np)
{
    char self[4096], path[64], exe[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (d && !found && (e = readdir(d))) {
        pid_t pid = (pid_t)atoi(e->d_name);
        int ppid = -1, user = 0;
        if (pid <= 0)
            continue;
        for (int i = 0; i < np; i++)
            user |= user_pids[i] == (int)pid;
        snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
        ssize_t m = readlink(path, exe, sizeof exe - 1);
        if (user || m != n || memcmp(exe, self, (size_t)n))
            continue;
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (f && fscanf(f, "%*d (%*[^)]) %*c %d", &ppid) == 1 && ppid == (int)getppid())
            found = pid;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

int main(int argc, char **argv)
{
    int me, np;
    const char *sc = argc > 1 ? argv[1] : "";
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    victim.scenario = sc;
    void **base = malloc((size_t)np * sizeof *base);
    int *pids = malloc((size_t)np * sizeof *pids);
    int pid = (int)getpid();
    if (!base || !pids || np < 2 || ARMCI_Malloc(base, N * sizeof(double))) {
        fprintf(stderr, "death: setup failed (needs 2 ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
    const char *job = getenv("OMPI_MCA_ess_base_jobid");
    if (me == 0)
        printf("death: %s, %d users, pids of ranks 0 1: %d %d, jobid %s\n", sc, np, pids[0],
               pids[1], job ? job : "-");
    fflush(stdout);
    traffic(base, me, np, 0.2); /* regions in use, connections made */
    ARMCI_Barrier();
    if (!strcmp(sc, "comm")) {
        if (me == 1)
            kill_later(getpid(), "rank 1", 300);
        traffic(base, me, np, SURVIVE_S);
    } else if (!strcmp(sc, "barrier")) {
        if (me == 1) {
            kill_later(getpid(), "rank 1", 300);
        } else {
            traffic(base, me, np, 0.1);
            nap_ms(1000); /* rank 1 is in the barrier, then dead */
        }
        ARMCI_Barrier();
        nap_ms(SURVIVE_S * 1000);
    } else if (!strcmp(sc, "mutex")) {
        ARMCI_Create_mutexes(1);
        if (me == 1)
            ARMCI_Lock(0, 0);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 holds it */
        if (me == 1) {
            kill_later(getpid(), "rank 1", 300);
            nap_ms(SURVIVE_S * 1000);
        }
        ARMCI_Lock(0, 0);
        ARMCI_Unlock(0, 0);
        nap_ms(SURVIVE_S * 1000);
    } else if (!strcmp(sc, "ghost")) {
        pid_t g = me == 0 ? find_ghost(pids, np) : 0;
        if (me == 0 && !g) {
            fprintf(stderr, "death: rank 0 found no ghost among its siblings\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (me == 0)
            kill_later(g, "a ghost", 300);
        traffic(base, me, np, SURVIVE_S);
    } else {
        fprintf(stderr, "death: unknown scenario '%s'\n", sc);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fprintf(stderr, "death: rank %d is still running %d s after the kill\n", me, SURVIVE_S);
    ARMCI_Finalize();
    MPI_Finalize();
    return 3;
}
