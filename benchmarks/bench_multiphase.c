/*
 * bench_multiphase: a multiphase application in miniature, to compare ghost
 * redirection statically off, statically on, user-guided (ARMCIX_Async_phase
 * at phase boundaries) and automatic (ARMCIX_Async_phase(-1): the library
 * decides at synchronization points).
 *
 * Phases alternate two patterns (the Casper adaptive paper's COMP and COMM):
 *  - comp: get-compute-update tasks.  Each task takes a ticket with a
 *    fetch-and-add on a counter of a process on another node (NXTASK),
 *    gets a 16x16 block of doubles from it (strided), computes outside the
 *    library, and accumulates the block into the next process (strided).
 *    Task lengths vary and the two halves of the job are staggered by half
 *    a task, so targets are computing while others talk to them: without
 *    progress help every operation waits for a target's next library call.
 *  - comm: many small strided accumulates (4x4 doubles) and fetch-and-adds
 *    from every user to the users of the other node, no computation: every
 *    ghost serves all its node's users at once (over-aggregation).
 *  - read: MP_COMM_OPS contiguous gets of 2 KiB per user and step from
 *    the users of the other node, no computation: every target is inside
 *    the library, issuing its own gets, as NWChem's TCE processes wait
 *    on their task counter and their patch gets (what
 *    ARMCI_GHOST_PUTGET=OFF and AUTO are for).  Each get is checked.
 * A fourth pattern, bsp, is for the advisor's validation
 * (benchmarks/advisor_validate.sh): every process computes its tasks, then
 * all exchange the blocks at once (gets and accumulates while every target
 * is inside the library too), so nobody waits for progress and a ghost
 * only takes a core.
 * Each phase is a number of steps; comp and bsp steps end with
 * ARMCI_Barrier, a comm step with ARMCI_AllFence + armci_msg_barrier
 * (GA_Sync's path); with MP_STEP_SYNC=0 only the phase ends with a
 * barrier (NWChem's coupled-cluster contractions are such phases).
 *
 * Computation is nanosleep by default (MP_COMPUTE=sleep): a process that
 * sleeps makes no progress, exactly as one that computes, but leaves the
 * core to the others, so a small host with more processes than cores
 * behaves like a node with a core per process (ghosts then run when they
 * are needed, as on a real node); MP_COMPUTE=spin burns the CPU instead.
 *
 * Every repetition runs every mode once, the starting mode rotating; the
 * report gives per mode and phase the median over repetitions, the
 * totals, and the redirection setting seen at each step (the decisions).
 * Correctness: the fetch-and-add counters and the accumulated sums are
 * checked exactly after every run (exit 1 on a wrong value).
 *
 * usage: bench_multiphase [reps=5]
 * env: MP_PHASES (comma list of comp/comm/read/bsp, default comp,comm,comp,comm),
 *      MP_STEPS (steps per phase, 12), MP_TASKS (tasks per comp step, 4),
 *      MP_TASK_MS (ms per task, mean; 6), MP_COMM_OPS (accumulates, or
 *      gets, per user per comm or read step, 200), MP_MODES (default
 *      off,on,user,auto),
 *      MP_COMPUTE (sleep or spin), MP_STEP_SYNC (1: every step ends with
 *      a barrier; 0: only phases do, so the automatic mode must decide
 *      inside a phase).  MP_MODES=auto with ARMCI_GHOST_ASYNC=AUTO
 *      runs the automatic mode from the environment alone (no ARMCIX call).
 * Run it in the ghost build with virtual nodes and software RMA, e.g.
 *   ARMCI_VIRTUAL_NODE_SIZE=2 mpiexec -n 6 --mca osc pt2pt ./bench_multiphase
 * (2 nodes x (2 users + 1 ghost)).  It links the library's objects to
 * print the current setting (armcii_adapt_redirecting).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <armci.h>
#include <armcix.h>
#include <message.h>
#include <mpi.h>

int armcii_adapt_redirecting(void); /* src/progress: the current setting */

enum { COMP, COMM, BSP, READ };
static const char *phase_name[] = {"comp", "comm", "bsp", "read"};
enum { M_OFF, M_ON, M_USER, M_AUTO, NMODES };
static const char *mode_name[NMODES] = {"off", "on", "user", "auto"};
enum { MAXPH = 16, MAXSTEPS = 64, MAXREPS = 64 };
enum { BLK = 16, SBLK = 4 };          /* block edges, in doubles */
enum { CNT_OFF = 0, COMP_OFF = 64, COMM_OFF = COMP_OFF + BLK * BLK * 8,
       READ_OFF = COMM_OFF + BLK * SBLK * 8, READ_N = 256, REGION = READ_OFF + READ_N * 8 };

static struct {
    int me, nu, nph, steps, tasks, ops, spin, reps;
    int step_sync; /* MP_STEP_SYNC: steps end with a barrier (0: only phases do) */
    int ph[MAXPH];
    double task_ms;
    int modes[NMODES], nmodes;
    int env_auto; /* MP_MODES=auto under ARMCI_GHOST_ASYNC=AUTO: no ARMCIX call at all */
    void **ptr;
} B;
static volatile double sink;

static void compute(double ms)
{
    if (!B.spin) {
        struct timespec ts = {(time_t)(ms / 1e3), (long)((ms - 1e3 * (long)(ms / 1e3)) * 1e6)};
        nanosleep(&ts, NULL);
        return;
    }
    double t0 = MPI_Wtime(), x = 1;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* Task k of a step lasts between 0.5 and 1.5 times the mean, in an order
 * that differs per process and step: processes drift apart within a step
 * (targets are computing whenever others talk to them, as with real,
 * uneven tasks), but each computes the same total per step, so the
 * barriers do not add load imbalance to the comparison. */
static double jitter(int me, int step, int k)
{
    return 0.5 + ((k + me + step) % B.tasks + 0.5) / B.tasks;
}

/* A user on another node (half the users away), the k-th one. */
static int remote(int k) { return (B.me + B.nu / 2 + k) % B.nu; }

/* The halves of the job (the nodes the users talk across) take turns: in
 * a step one half starts with half a task of computation while the other
 * fires its first operations at it, and ends with it; the total per step
 * is the same for everyone. */
static void comp_step(int step, double *blk)
{
    double one = 1;
    long ticket;
    int ld[1] = {BLK * sizeof(double)}, cnt[2] = {BLK * sizeof(double), BLK};
    int lead = (B.me / (B.nu / 2) + step) % 2;
    if (lead)
        compute(B.task_ms / 2);
    for (int k = 0; k < B.tasks; k++) {
        int o = remote(k), up = (o + 1) % B.nu;
        char *rem = (char *)B.ptr[o] + COMP_OFF;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ticket, (char *)B.ptr[o] + CNT_OFF, 1, o);
        ARMCI_GetS(rem, ld, blk, ld, cnt, 1, o);
        compute(B.task_ms * jitter(B.me, step, k));
        for (int i = 0; i < BLK * BLK; i++)
            blk[i] = 1.0;
        ARMCI_AccS(ARMCI_ACC_DBL, &one, blk, ld, (char *)B.ptr[up] + COMP_OFF, ld, cnt, 1, up);
    }
    if (!lead)
        compute(B.task_ms / 2);
    if (B.step_sync)
        ARMCI_Barrier();
}

static void bsp_step(int step, double *blk)
{
    double one = 1, t = 0;
    int ld[1] = {BLK * sizeof(double)}, cnt[2] = {BLK * sizeof(double), BLK};
    for (int k = 0; k < B.tasks; k++)
        t += B.task_ms * jitter(B.me, step, k);
    compute(t);
    for (int k = 0; k < B.tasks; k++) {
        int o = remote(k), up = (o + 1) % B.nu;
        ARMCI_GetS((char *)B.ptr[o] + COMP_OFF, ld, blk, ld, cnt, 1, o);
        for (int i = 0; i < BLK * BLK; i++)
            blk[i] = 1.0;
        ARMCI_AccS(ARMCI_ACC_DBL, &one, blk, ld, (char *)B.ptr[up] + COMP_OFF, ld, cnt, 1, up);
    }
    if (B.step_sync)
        ARMCI_Barrier();
}

static void comm_step(int step)
{
    double one = 1, src[SBLK * SBLK];
    long ticket;
    int sld[1] = {SBLK * sizeof(double)}, dld[1] = {BLK * sizeof(double)};
    int cnt[2] = {SBLK * sizeof(double), SBLK};
    for (int i = 0; i < SBLK * SBLK; i++)
        src[i] = 1.0;
    for (int i = 0; i < B.ops; i++) {
        int t = remote(i + step);
        char *dst = (char *)B.ptr[t] + COMM_OFF + (size_t)(i % 4) * SBLK * sizeof(double);
        ARMCI_AccS(ARMCI_ACC_DBL, &one, src, sld, dst, dld, cnt, 1, t);
        if (i % 4 == 3)
            ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ticket, (char *)B.ptr[t] + CNT_OFF, 1, t);
    }
    if (B.step_sync) {
        ARMCI_AllFence();
        armci_msg_barrier();
    }
}

/* What read_step finds at element i of process p's read block. */
static double read_val(int p, int i) { return 1000.0 * p + i; }

static void read_step(int step)
{
    double got[READ_N];
    for (int i = 0; i < B.ops; i++) {
        int t = remote(i + step);
        ARMCI_Get((char *)B.ptr[t] + READ_OFF, got, sizeof got, t);
        int k = (i * 31 + step) % READ_N;
        if (got[0] != read_val(t, 0) || got[k] != read_val(t, k)) {
            printf("[%d] read of %d: element %d is %g, expected %g\n", B.me, t, k, got[k],
                   read_val(t, k));
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (B.step_sync)
        ARMCI_Barrier();
}

/* Before phase p: a user-guided run says what the phase wants; the other
 * modes only synchronize. */
static void boundary(int mode, int p)
{
    if (mode == M_USER)
        ARMCIX_Async_phase(B.ph[p] != COMM);
    else
        ARMCI_Barrier();
}

/* Fetch-and-adds and accumulates must all have landed: each counter and
 * sum is a known function of the run's shape. */
static void check(void)
{
    long *cnt = (long *)((char *)B.ptr[B.me] + CNT_OFF), want_cnt = 0;
    double *comp = (double *)((char *)B.ptr[B.me] + COMP_OFF);
    double *comm = (double *)((char *)B.ptr[B.me] + COMM_OFF);
    int ncomp = 0, ncomm = 0, nbsp = 0, bad = 0;
    for (int p = 0; p < B.nph; p++) {
        ncomp += B.ph[p] == COMP;
        ncomm += B.ph[p] == COMM;
        nbsp += B.ph[p] == BSP;
    }
    /* every user's k-th task hits remote(k); over all users each process
     * is hit B.tasks times per step (remote() is a rotation) */
    want_cnt = (long)ncomp * B.steps * B.tasks + (long)ncomm * B.steps * (B.ops / 4);
    if (*cnt != want_cnt)
        bad = printf("[%d] counter %ld, expected %ld\n", B.me, *cnt, want_cnt);
    double wcomp = (double)(ncomp + nbsp) * B.steps * B.tasks;
    for (int i = 0; i < BLK * BLK && !bad; i++)
        if (comp[i] != wcomp)
            bad = printf("[%d] comp block[%d] = %g, expected %g\n", B.me, i, comp[i], wcomp);
    double tot = 0;
    for (int r = 0; r < SBLK; r++)
        for (int c = 0; c < BLK; c++)
            tot += comm[r * BLK + c];
    double wcomm = (double)ncomm * B.steps * B.ops * SBLK * SBLK;
    if (!bad && tot != wcomm)
        bad = printf("[%d] comm sum %g, expected %g\n", B.me, tot, wcomm);
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* One run of every phase in one mode: per-phase seconds, and the setting
 * at each step (1 on, 0 off) in state[phase][step]. */
static void run(int mode, double *t, int state[][MAXSTEPS], double *blk)
{
    memset(B.ptr[B.me], 0, READ_OFF);
    for (int i = 0; i < READ_N; i++)
        ((double *)((char *)B.ptr[B.me] + READ_OFF))[i] = read_val(B.me, i);
    ARMCI_Barrier();
    if (mode == M_OFF || mode == M_ON)
        ARMCIX_Async_phase(mode == M_ON);
    if (mode == M_AUTO && !B.env_auto) { /* start as ARMCI_GHOST_ASYNC=AUTO does: on */
        ARMCIX_Async_phase(1);
        ARMCIX_Async_phase(-1);
    }
    for (int p = 0; p < B.nph; p++) {
        double t0 = MPI_Wtime();
        boundary(mode, p);
        for (int s = 0; s < B.steps; s++) {
            state[p][s] = armcii_adapt_redirecting();
            if (B.ph[p] == COMP)
                comp_step(s, blk);
            else if (B.ph[p] == BSP)
                bsp_step(s, blk);
            else if (B.ph[p] == READ)
                read_step(s);
            else
                comm_step(s);
        }
        if (!B.step_sync) /* the phase ends complete everywhere */
            ARMCI_Barrier();
        t[p] = MPI_Wtime() - t0;
        MPI_Bcast(&t[p], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    check();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    double s[MAXREPS];
    memcpy(s, v, (size_t)n * sizeof(double));
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

static void parse(int argc, char **argv)
{
    B.reps = argc > 1 ? atoi(argv[1]) : 5;
    B.steps = env_int("MP_STEPS", 12);
    B.tasks = env_int("MP_TASKS", 4);
    B.ops = env_int("MP_COMM_OPS", 200);
    B.step_sync = env_int("MP_STEP_SYNC", 1);
    const char *v = getenv("MP_TASK_MS");
    B.task_ms = v && *v ? atof(v) : 6;
    v = getenv("MP_COMPUTE");
    B.spin = v && !strcmp(v, "spin");
    char buf[256];
    snprintf(buf, sizeof buf, "%s", getenv("MP_PHASES") ? getenv("MP_PHASES") : "comp,comm,comp,comm");
    for (char *tok = strtok(buf, ","); tok && B.nph < MAXPH; tok = strtok(NULL, ","))
        B.ph[B.nph++] = !strcmp(tok, "comm")   ? COMM
                        : !strcmp(tok, "bsp")  ? BSP
                        : !strcmp(tok, "read") ? READ
                                               : COMP;
    snprintf(buf, sizeof buf, "%s", getenv("MP_MODES") ? getenv("MP_MODES") : "off,on,user,auto");
    for (char *tok = strtok(buf, ","); tok && B.nmodes < NMODES; tok = strtok(NULL, ","))
        for (int m = 0; m < NMODES; m++)
            if (!strcmp(tok, mode_name[m]))
                B.modes[B.nmodes++] = m;
    v = getenv("ARMCI_GHOST_ASYNC");
    B.env_auto = B.nmodes == 1 && B.modes[0] == M_AUTO && v && !strcasecmp(v, "auto");
    if (B.reps < 1 || B.reps > MAXREPS || B.steps < 1 || B.steps > MAXSTEPS || B.nph < 1 ||
        B.nmodes < 1 || B.nu < 2) {
        if (B.me == 0)
            fprintf(stderr, "bench_multiphase: needs 2+ users, 1 <= reps <= %d, 1 <= MP_STEPS "
                    "<= %d, phases and modes\n", MAXREPS, MAXSTEPS);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void report(double t[][MAXREPS][MAXPH], int st[][MAXPH][MAXSTEPS])
{
    printf("# per phase: median over %d repetitions (s); total = median of the run totals\n",
           B.reps);
    printf("%-6s", "mode");
    for (int p = 0; p < B.nph; p++)
        printf("  %d:%-6s", p + 1, phase_name[B.ph[p]]);
    printf("  %8s  %8s  %8s\n", "total", "min", "max");
    for (int i = 0; i < B.nmodes; i++) {
        int m = B.modes[i];
        double tot[MAXREPS], ph[MAXREPS];
        printf("%-6s", mode_name[m]);
        for (int p = 0; p < B.nph; p++) {
            for (int r = 0; r < B.reps; r++)
                ph[r] = t[m][r][p];
            printf("  %8.3f", median(ph, B.reps));
        }
        for (int r = 0; r < B.reps; r++) {
            tot[r] = 0;
            for (int p = 0; p < B.nph; p++)
                tot[r] += t[m][r][p];
        }
        qsort(tot, (size_t)B.reps, sizeof(double), cmp_double);
        printf("  %8.3f  %8.3f  %8.3f\n", median(tot, B.reps), tot[0], tot[B.reps - 1]);
    }
    printf("# redirection at each step of the last repetition (1 on, 0 off, - nothing can be "
           "redirected in this job), per phase\n");
    for (int i = 0; i < B.nmodes; i++) {
        printf("%-6s", mode_name[B.modes[i]]);
        for (int p = 0; p < B.nph; p++) {
            printf("  ");
            for (int s = 0; s < B.steps; s++)
                putchar(st[B.modes[i]][p][s] < 0 ? '-' : '0' + st[B.modes[i]][p][s]);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &B.me);
    MPI_Comm_size(MPI_COMM_WORLD, &B.nu);
    parse(argc, argv);
    B.ptr = malloc((size_t)B.nu * sizeof(void *));
    ARMCI_Malloc(B.ptr, REGION);
    double *blk = malloc(BLK * BLK * sizeof(double));
    static double t[NMODES][MAXREPS][MAXPH];
    static int st[NMODES][MAXPH][MAXSTEPS];
    if (B.me == 0)
        printf("# bench_multiphase: %d users, %d phases x %d steps; comp: %d tasks of %.1f ms "
               "(%s); comm: %d strided acc + %d fetch-and-add per user and step\n", B.nu,
               B.nph, B.steps, B.tasks, B.task_ms, B.spin ? "spin" : "sleep", B.ops, B.ops / 4);
    for (int r = 0; r < B.reps; r++)
        for (int i = 0; i < B.nmodes; i++) {
            int m = B.modes[(i + r) % B.nmodes];
            run(m, t[m][r], st[m], blk);
            if (B.me == 0) {
                printf("# rep %d %-4s", r + 1, mode_name[m]);
                for (int p = 0; p < B.nph; p++)
                    printf(" %.3f", t[m][r][p]);
                printf("\n");
                fflush(stdout);
            }
        }
    if (B.me == 0)
        report(t, st);
    ARMCI_Free(B.ptr[B.me]);
    free(B.ptr);
    free(blk);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
