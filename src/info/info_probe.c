/*
 * --probe: which operation classes wait for the target to make MPI
 * progress.  Components differ (hardware RMA, shared memory, software
 * emulation) and the documentation rarely says, so it is measured: rank 1
 * computes T ms outside MPI while rank 0 completes one operation of a
 * class against it.  An operation the target must serve in software
 * finishes only when rank 1 comes back into MPI, i.e. after ~T.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "info.h"
#include "../gmr/gmr.h"
#ifdef ARMCII_GHOSTS
#include "../ghost/ghost.h"
#endif

enum { P_PUT, P_GET, P_ACC, P_FOP, P_STRIDED, P_N };
static const char *const class_names[P_N] = {"put", "get", "accumulate", "fetch_and_op",
                                             "strided put"};

#define PROBE_BYTES 512
#define PROBE_FOP_DISP 256 /* the counter lies past the doubles the others touch */
#define PROBE_REPS 3       /* median: one preempted repetition changes nothing */

typedef struct {
    MPI_Comm comm;
    MPI_Win win, shm;      /* shm: node-shared window under win, or MPI_WIN_NULL */
    const char *kind;
    MPI_Datatype vec;
} probe_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Busy computation with no MPI call: nothing on this process serves RMA. */
static void compute(int ms)
{
    volatile double x = 0;
    double end = now_s() + ms * 1e-3;
    while (now_s() < end)
        for (int i = 0; i < 1000; i++)
            x += i * 0.5;
    (void)x;
}

static int all_ok(int ok)
{
    int all = 0;
    ARMCII_MPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, armcii_state.world));
    return all;
}

/* The window the library would give a region spanning every process
 * (gmr_region.c alloc_windows), falling back to MPI_Win_allocate. */
static void open_window(probe_t *p)
{
    void *base = NULL;
    p->win = p->shm = MPI_WIN_NULL;
    armcii_comm_dup(armcii_state.world, &p->comm);
    if (armcii_gmr_facts().shm_ok && armcii_state.nnodes == 1) {
        p->kind = "MPI_Win_allocate_shared (one node)";
        if (all_ok(MPI_Win_allocate_shared(PROBE_BYTES, 1, MPI_INFO_NULL, p->comm, &base,
                                           &p->win) == MPI_SUCCESS))
            return;
    } else if (armcii_gmr_facts().shm_ok) {
        MPI_Comm node;
        p->kind = "MPI_Win_create over node-shared memory (nodes > 1)";
        armcii_comm_dup(armcii_state.node, &node);
        int ok = all_ok(MPI_Win_allocate_shared(PROBE_BYTES, 1, MPI_INFO_NULL, node, &base,
                                                &p->shm) == MPI_SUCCESS);
        ARMCII_MPI(MPI_Comm_free(&node));
        if (ok && all_ok(MPI_Win_create(base, PROBE_BYTES, 1, MPI_INFO_NULL, p->comm,
                                        &p->win) == MPI_SUCCESS))
            return;
        if (ok)
            ARMCII_MPI(MPI_Win_free(&p->shm));
    }
    /* A window refused above exists nowhere (the MPIs seen refuse on every
     * process), so nothing else is left to free. */
    p->shm = p->win = MPI_WIN_NULL;
    p->kind = "MPI_Win_allocate";
    ARMCII_MPI(MPI_Win_allocate(PROBE_BYTES, 1, MPI_INFO_NULL, p->comm, &base, &p->win));
}

static void close_window(probe_t *p)
{
    ARMCII_MPI(MPI_Win_free(&p->win));
    if (p->shm != MPI_WIN_NULL)
        ARMCII_MPI(MPI_Win_free(&p->shm));
    ARMCII_MPI(MPI_Comm_free(&p->comm));
}

/* One operation of class cls from rank 0 to rank 1, completed remotely. */
static void issue(const probe_t *p, int cls)
{
    double buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    long one = 1, old = 0;
    switch (cls) {
    case P_PUT:
        ARMCII_MPI(MPI_Put(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, p->win));
        break;
    case P_GET:
        ARMCII_MPI(MPI_Get(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, p->win));
        break;
    case P_ACC:
        ARMCII_MPI(MPI_Accumulate(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, MPI_SUM, p->win));
        break;
    case P_FOP:
        ARMCII_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 1, PROBE_FOP_DISP, MPI_SUM, p->win));
        break;
    default:
        ARMCII_MPI(MPI_Put(buf, 8, MPI_DOUBLE, 1, 0, 1, p->vec, p->win));
        break;
    }
    ARMCII_MPI(MPI_Win_flush(1, p->win));
}

/* Collective; the median completion time in ms (meaningful on rank 0). */
static double time_class(const probe_t *p, int cls, int ms)
{
    int me = armcii_state.rank;
    double t[PROBE_REPS] = {0};
    /* Untimed first: connection set-up and lazy lock acquisition are paid
     * while the target sits in MPI (the barrier). */
    if (me == 0)
        issue(p, cls);
    ARMCII_MPI(MPI_Barrier(armcii_state.world));
    for (int r = 0; r < PROBE_REPS; r++) {
        ARMCII_MPI(MPI_Barrier(armcii_state.world));
        if (me == 1) {
            compute(ms);
        } else if (me == 0) {
            /* Give rank 1 time to leave the barrier and start computing. */
            struct timespec nap = {0, (long)ms * 100000L};
            nanosleep(&nap, NULL);
            double t0 = MPI_Wtime();
            issue(p, cls);
            t[r] = (MPI_Wtime() - t0) * 1e3;
        }
        ARMCII_MPI(MPI_Barrier(armcii_state.world));
    }
    for (int i = 1; i < PROBE_REPS; i++) /* insertion sort of 3 */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x;
        }
    return t[PROBE_REPS / 2];
}

static void print_advice(int any_yes)
{
    int ghost_build = 0, ghosts = 0;
#ifdef ARMCII_GHOSTS
    ghost_build = 1;
    ghosts = armcii_ghost_info().ghosts_on;
#endif
    if (!any_yes)
        printf("  no class waits for the target here\n");
    else
        printf("  classes marked yes wait while the target computes outside MPI: run with\n"
               "  ARMCI_PROGRESS_THREAD=1 (needs MPI_THREAD_MULTIPLE) or %s;\n"
               "  ARMCIX_Progress() in compute loops also helps\n",
               ghost_build ? "with ghosts" : "build with --enable-ghost-progress");
    if (ghosts)
        printf("  (measured against rank 1 directly; in this run accumulates, atomics and\n"
               "  noncontiguous operations to other nodes go through the target's ghost)\n");
    if (armcii_state.nnodes == 1)
        printf("  (one node: ARMCI_VIRTUAL_NODE_SIZE=1 measures the path between nodes)\n");
}

static void run_probe(int ms)
{
    probe_t p;
    double t[P_N];
    open_window(&p);
    armcii_win_errors_return(p.win);
    ARMCII_MPI(MPI_Type_vector(8, 1, 2, MPI_DOUBLE, &p.vec));
    ARMCII_MPI(MPI_Type_commit(&p.vec));
    if (armcii_state.rank == 0)
        ARMCII_MPI(MPI_Win_lock_all(0, p.win));
    for (int c = 0; c < P_N; c++)
        t[c] = time_class(&p, c, ms);
    if (armcii_state.rank == 0) {
        int any = 0;
        int mpich = armcii_win_component(p.win) == ARMCII_OSC_MPICH;
        printf("  window: %s, component %s%s%s\n", p.kind,
               armcii_osc_name(armcii_win_component(p.win)), mpich ? " " : "",
               mpich ? info_mpich_device() : "");
        printf("  rank 1 computes %d ms outside MPI while rank 0 completes one operation\n"
               "  (+ MPI_Win_flush) on it; median of %d; needs progress when > %d ms\n",
               ms, PROBE_REPS, ms / 2);
        printf("  %-14s | %9s | %s\n", "class", "time ms", "needs target progress");
        for (int c = 0; c < P_N; c++) {
            int yes = t[c] > ms / 2.0;
            any |= yes;
            printf("  %-14s | %9.3f | %s\n", class_names[c], t[c], yes ? "yes" : "no");
        }
        print_advice(any);
        ARMCII_MPI(MPI_Win_unlock_all(p.win));
    }
    ARMCII_MPI(MPI_Type_free(&p.vec));
    close_window(&p);
}

void info_probe(int run, int ms)
{
    int me = armcii_state.rank;
    if (me == 0)
        info_section("Target progress (--probe)");
    if (!run || armcii_state.nproc < 2) {
        if (me == 0)
            printf("  not run%s: armci-info --probe (2 or more processes) measures which\n"
                   "  operation classes (put, get, accumulate, fetch_and_op, strided put)\n"
                   "  need the target to make MPI progress\n",
                   run ? " with 1 process" : "");
        return;
    }
    run_probe(ms);
    if (me == 0)
        fflush(stdout);
}
