/*
 * Per-call timing, shared by the profiler (ARMCI_PROFILE=1) and the
 * automatic redirection (progress_adapt.c).  Time inside the library is
 * T_comm, outside T_comp.  Per operation class a call's unloaded cost is
 * the fastest call of the same path (own window or ghost), class and size
 * (power-of-two bucket) seen so far by this process; what a call takes
 * beyond it is, on the direct path, its wait for progress W (time spent
 * waiting on a target that did not progress: the "Wait for Progress"
 * pattern, measured online) and, on the ghost path, its congestion C
 * (queueing behind the other users a ghost serves).  A running minimum, so
 * early calls are under- rather than over-counted.
 * At finalize rank 0 prints the communication ratio CR = T_comm / (T_comm
 * + T_comp), the classes, the targets with the most W, and the
 * dedicated-core model for g ghosts per node of n processes (the advisor):
 *   T(g) = max over processes of U * n / (n - g),
 *   U = T_comp + T_ops - W_ghost,
 * T_ops being the time in data-moving calls and W_ghost their W in the
 * classes ghosts serve on the regions' windows (armcii_gmr_ghost_served): a
 * process's own work, its computation and its communication at unloaded
 * cost.  Why not the MPI+threads form T_comp * n/(n-g) + T_comm - W of the
 * dedicated-core paper (benchmarks/advisor_validate.sh measured both):
 *  - with ghost processes the node's work, its library calls included, is
 *    spread over the n - g users left, so all of it grows by n/(n-g);
 *  - W leaves out the waiting that busy targets cause at synchronization
 *    (a process waits in a barrier for one that waits on a busy target:
 *    the trace-analysis paper's propagated waiting), which ghosts remove
 *    too; so time in fences, barriers and waits counts as waiting, and the
 *    busiest process, not the mean, sets the pace (a lower bound where the
 *    busiest process changes from step to step).
 * Not modelled: the ghosts' congestion (one ghost serves the node's users;
 * the automatic mode watches it online as C), and W counting contention as
 * well as waiting on busy targets in communication-dense runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "progress_impl.h"

#define PG armcii_progress_state

/* Per thread: nesting of enter/leave, the time and API name of the
 * outermost enter (each thread of a threaded run is timed on its own;
 * T_comm is the sum). */
static __thread struct { int depth; double t_enter; const char *call; } prof_thread
    __attribute__((tls_model("initial-exec")));

void armcii_profile_start(void)
{
    PG.profile = armcii_state.cfg.profile;
    PG.timing = PG.profile || PG.adapt || armcii_round_live();
    prof_thread.depth = 0;
    PG.t_comm = 0;
    PG.calls = 0;
    PG.nother = 0;
    for (int c = 0; c < ARMCII_OP_NCLASS; c++) {
        PG.cls_calls[c] = PG.cls_time[c] = PG.cls_wait[c] = PG.cls_cong[c] = 0;
        for (int p = 0; p < ARMCII_NPATH; p++)
            for (int b = 0; b < ARMCII_PROF_BUCKETS; b++)
                PG.base[p][c][b] = HUGE_VAL;
    }
    free(PG.target_wait);
    PG.target_wait = PG.profile ? calloc((size_t)armcii_state.nproc, sizeof(double)) : NULL;
    if (PG.profile && !PG.target_wait)
        armcii_error("ARMCI_Init", "out of memory (profiler)");
    PG.t_init = MPI_Wtime();
}

void armcii_profile_enter_slow(void)
{
    if (prof_thread.depth++ == 0) {
        if (armcii_round_live())
            armcii_round_enter(); /* may wait for a switch to settle: not timed */
        armcii_gmr_call_begin();
        prof_thread.t_enter = PG.profile ? MPI_Wtime() : 0;
        prof_thread.call = armcii_current_call;
    }
}

/* One finished call that moved data of class op->cls (lock held). */
static void account(const armcii_gmr_callop_t *op, double dt)
{
    int c = op->cls, path = op->ghost ? ARMCII_PATH_GHOST : ARMCII_PATH_DIRECT;
    unsigned long nb = op->bytes >= 1 ? (unsigned long)op->bytes : 1;
    int b = 63 - __builtin_clzl(nb); /* floor(log2) */
    if (b >= ARMCII_PROF_BUCKETS)
        b = ARMCII_PROF_BUCKETS - 1;
    double *base = &PG.base[path][c][b];
    if (dt < *base)
        *base = dt;
    double x = dt - *base;
    if (PG.profile) {
        PG.cls_calls[c]++;
        PG.cls_time[c] += dt;
        if (path == ARMCII_PATH_GHOST) {
            PG.cls_cong[c] += x;
        } else {
            PG.cls_wait[c] += x;
            if (op->proc >= 0 && op->proc < armcii_state.nproc)
                PG.target_wait[op->proc] += x;
        }
    }
    if (op->ghostable) { /* the interval's W and C: what a switch would change */
        PG.ivl.gcalls++;
        if (path == ARMCII_PATH_GHOST)
            PG.ivl.cong += x;
        else
            PG.ivl.wait += x;
    }
}

static void account_call(const armcii_gmr_callop_t *op, double t0, const char *name);

/* A call that moved no data, under its API name (lock held): where T_comm
 * beyond the classes goes (barriers, fences, waits on handles, msg
 * collectives).  Once more names come than the table holds, its last
 * entry becomes "others" and sums them, its own name's calls included. */
static void account_other(const char *name, double dt)
{
    int k = 0;
    while (k < PG.nother && PG.other[k].name != name)
        k++;
    if (k == PG.nother) {
        if (k == ARMCII_PROF_OTHER) {
            k--, name = "others";
        } else {
            PG.nother++;
            PG.other[k].calls = PG.other[k].time = PG.other[k].tmax = 0;
        }
        PG.other[k].name = name;
    }
    PG.other[k].calls++;
    PG.other[k].time += dt;
    if (dt > PG.other[k].tmax)
        PG.other[k].tmax = dt;
}

void armcii_profile_leave_slow(void)
{
    if (prof_thread.depth <= 0 || --prof_thread.depth > 0)
        return;
    armcii_gmr_callop_t op = armcii_gmr_call_end();
    double t0 = PG.profile ? prof_thread.t_enter : op.t0;
    if (t0 > 0) /* else automatic mode: the call never left node-local load/store */
        account_call(&op, t0, prof_thread.call);
    if (armcii_round_live())
        armcii_round_leave();
}

static void account_call(const armcii_gmr_callop_t *opp, double t0, const char *name)
{
    armcii_gmr_callop_t op = *opp;
    double now = MPI_Wtime(), dt = now - t0;
    armcii_lock(&PG.lock);
    PG.t_comm += dt;
    PG.calls++;
    /* a call that decided (a barrier) began before its interval did */
    PG.ivl.comm += now - (t0 > PG.ivl.t0 ? t0 : PG.ivl.t0);
    if (op.cls >= 0)
        account(&op, dt);
    else if (PG.profile && name)
        account_other(name, dt);
    armcii_unlock(&PG.lock);
}

/* Rank 0: the targets with the most wait for progress (tw: summed over
 * origins). */
static void print_targets(const double *tw, int np)
{
    int top[3] = {-1, -1, -1};
    for (int p = 0; p < np; p++)
        for (int k = 0; k < 3; k++)
            if (tw[p] > 0 && (top[k] < 0 || tw[p] > tw[top[k]])) {
                for (int j = 2; j > k; j--)
                    top[j] = top[j - 1];
                top[k] = p;
                break;
            }
    for (int k = 0; k < 3 && top[k] >= 0; k++)
        fprintf(stderr, "[0] ARMCI profile: target %d: W %.6f s (all origins)\n", top[k],
                tw[top[k]]);
}

/* V_AT: a class's operations per target place (ARMCII_TO_*), which sum
 * to its operations. */
enum { V_COMM, V_COMP, V_CALLS, V_WORK, V_AT, V_BYTES = V_AT + ARMCII_TO_N * ARMCII_OP_NCLASS,
       V_CCALLS = V_BYTES + ARMCII_OP_NCLASS, V_CTIME = V_CCALLS + ARMCII_OP_NCLASS,
       V_CWAIT = V_CTIME + ARMCII_OP_NCLASS, V_CCONG = V_CWAIT + ARMCII_OP_NCLASS,
       V_MCALLS = V_CCONG + ARMCII_OP_NCLASS, V_MSECS = V_MCALLS + ARMCII_MPIOP_N,
       NV = V_MSECS + ARMCII_MPIOP_N };

/* What the MPI did with the classes: calls and time per MPI operation. */
static void print_mpiops(const double *sum, const double *mx, int np)
{
    for (int k = 0; k < ARMCII_MPIOP_N; k++) {
        if (sum[V_MCALLS + k] <= 0)
            continue;
        fprintf(stderr, "[0] ARMCI profile: MPI op %-30s calls %.0f (all processes), "
                "%.6f s per process (max %.6f), %.2f us per call\n", armcii_gmr_mpiop_name(k),
                sum[V_MCALLS + k], sum[V_MSECS + k] / np, mx[V_MSECS + k],
                1e6 * sum[V_MSECS + k] / sum[V_MCALLS + k]);
    }
}

static void print_report(const double *sum, const double *mx, int np, int n, unsigned ghost)
{
    double comm = sum[V_COMM] / np, comp = sum[V_COMP] / np, tot = comm + comp, wg = 0;
    fprintf(stderr, "[0] ARMCI profile (%d processes, %d per node): per process "
            "T_comm %.6f s, T_comp %.6f s (max %.6f / %.6f), library calls %.0f\n",
            np, n, comm, comp, mx[V_COMM], mx[V_COMP], sum[V_CALLS] / np);
    fprintf(stderr, "[0] ARMCI profile: communication ratio CR = %.4f\n",
            tot > 0 ? comm / tot : 0.0);
    for (int c = 0; c < ARMCII_OP_NCLASS; c++) {
        const double *at = sum + V_AT + ARMCII_TO_N * c;
        double ops = at[ARMCII_TO_SELF] + at[ARMCII_TO_NODE] + at[ARMCII_TO_OFFNODE];
        if (ops <= 0 && sum[V_CCALLS + c] <= 0)
            continue;
        fprintf(stderr, "[0] ARMCI profile: %-9s ops %.0f, bytes %.0f, calls %.0f (all "
                "processes), T_comm %.6f s, W %.6f s, C %.6f s (per process)\n",
                armcii_gmr_class_name(c),
                ops, sum[V_BYTES + c], sum[V_CCALLS + c], sum[V_CTIME + c] / np,
                sum[V_CWAIT + c] / np, sum[V_CCONG + c] / np);
        fprintf(stderr, "[0] ARMCI profile: %-9s ops to self %.0f, to the same node %.0f, "
                "to other nodes %.0f (all processes)\n", armcii_gmr_class_name(c),
                at[ARMCII_TO_SELF], at[ARMCII_TO_NODE], at[ARMCII_TO_OFFNODE]);
        if (ghost & 1u << c)
            wg += sum[V_CWAIT + c] / np;
    }
    print_mpiops(sum, mx, np);
    char names[64];
    fprintf(stderr, "[0] ARMCI profile: measured T = %.6f s; W of the classes ghosts serve "
            "here (%s) = %.6f s\n", tot, armcii_gmr_class_names(ghost, names, sizeof names), wg);
    fprintf(stderr, "[0] ARMCI profile: own work U = T_comp + T_ops - W_ghost (T_ops: time "
            "in data-moving calls): mean %.6f s, max %.6f s\n", sum[V_WORK] / np, mx[V_WORK]);
    for (int g = 1; g < n && g <= 4; g++) {
        double t = mx[V_WORK] * n / (n - g);
        fprintf(stderr, "[0] ARMCI profile: dedicated-core model, %d ghost(s) per node: "
                "T(%d) = max U * %d/%d = %.6f s (%s)\n", g, g, n, n - g, t,
                t < tot ? "ghosts would pay" : "ghosts would not pay");
    }
    fflush(stderr);
}

/* The calls that moved no data, merged by name over processes (rank 0
 * prints them, the most time first).  Gathered as fixed records: the
 * names are string literals, whose addresses differ between processes. */
enum { OTHER_NAME = 40 };
typedef struct { char name[OTHER_NAME]; double calls, time, tmax, pmax; } other_rec_t;

static int other_cmp(const void *a, const void *b)
{
    double x = ((const other_rec_t *)a)->time, y = ((const other_rec_t *)b)->time;
    return (x < y) - (x > y);
}

static void report_other(int np)
{
    other_rec_t mine[ARMCII_PROF_OTHER], *all = NULL;
    memset(mine, 0, sizeof mine);
    /* one name spelled as two literals is one entry, so that a process's
     * entries have distinct names and pmax is its whole time */
    for (int k = 0, j; k < PG.nother; k++) {
        char name[OTHER_NAME];
        snprintf(name, OTHER_NAME, "%s", PG.other[k].name);
        for (j = 0; j < k && strcmp(mine[j].name, name) != 0; j++)
            ;
        memcpy(mine[j].name, name, OTHER_NAME);
        mine[j].calls += PG.other[k].calls;
        mine[j].time += PG.other[k].time;
        if (PG.other[k].tmax > mine[j].tmax)
            mine[j].tmax = PG.other[k].tmax;
    }
    int n = np * ARMCII_PROF_OTHER, m = 0;
    if (armcii_state.rank == 0 && !(all = malloc((size_t)n * sizeof *all)))
        armcii_error("ARMCI_Finalize", "out of memory (profiler)");
    ARMCII_MPI(MPI_Gather(mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                          armcii_state.world));
    if (armcii_state.rank != 0)
        return;
    for (int i = 0; i < n; i++) { /* m <= i: merged entries overwrite consumed ones */
        other_rec_t x = all[i];
        if (x.calls <= 0)
            continue;
        int k = 0;
        while (k < m && strcmp(all[k].name, x.name) != 0)
            k++;
        if (k == m) {
            all[m] = (other_rec_t){.pmax = 0};
            memcpy(all[m++].name, x.name, OTHER_NAME);
        }
        all[k].calls += x.calls;
        all[k].time += x.time;
        all[k].tmax = x.tmax > all[k].tmax ? x.tmax : all[k].tmax;
        all[k].pmax = x.time > all[k].pmax ? x.time : all[k].pmax;
    }
    qsort(all, (size_t)m, sizeof *all, other_cmp);
    for (int k = 0; k < m; k++)
        fprintf(stderr, "[0] ARMCI profile: no-data call %-26s calls %.0f (all processes), "
                "%.6f s per process (max %.6f), longest call %.3f ms\n", all[k].name,
                all[k].calls, all[k].time / np, all[k].pmax, 1e3 * all[k].tmax);
    free(all);
}

/* Collective over the world: rank 0 prints the summary. */
void armcii_profile_report(void)
{
    if (!PG.profile)
        return;
    PG.profile = 0;
    PG.timing = PG.adapt;
    int np = armcii_state.nproc;
    double total = MPI_Wtime() - PG.t_init, v[NV], sum[NV], mx[NV];
    /* ghosts serve what the regions' windows leave to software: the ghost
     * build's pool windows are MPI_Win_create windows, like the plain
     * build's between virtual nodes, whose component can differ from the
     * world's (docs/progress.md, "Profiler and advisor") */
    unsigned ghost = armcii_gmr_ghost_served();
    long ops[ARMCII_TO_N][ARMCII_OP_NCLASS];
    double bytes[ARMCII_OP_NCLASS];
    armcii_gmr_op_stats(ops, bytes);
    armcii_gmr_mpiop_stats(v + V_MCALLS, v + V_MSECS);
    v[V_COMM] = PG.t_comm;
    v[V_COMP] = total - PG.t_comm;
    v[V_CALLS] = (double)PG.calls;
    v[V_WORK] = v[V_COMP];
    for (int c = 0; c < ARMCII_OP_NCLASS; c++)
        v[V_WORK] += PG.cls_time[c] - (ghost & 1u << c ? PG.cls_wait[c] : 0);
    for (int c = 0; c < ARMCII_OP_NCLASS; c++) {
        for (int w = 0; w < ARMCII_TO_N; w++)
            v[V_AT + ARMCII_TO_N * c + w] = (double)ops[w][c];
        v[V_BYTES + c] = bytes[c];
        v[V_CCALLS + c] = PG.cls_calls[c];
        v[V_CTIME + c] = PG.cls_time[c];
        v[V_CWAIT + c] = PG.cls_wait[c];
        v[V_CCONG + c] = PG.cls_cong[c];
    }
    double *tw = malloc((size_t)np * sizeof(double));
    if (!tw)
        armcii_error("ARMCI_Finalize", "out of memory (profiler)");
    ARMCII_MPI(MPI_Reduce(v, sum, NV, MPI_DOUBLE, MPI_SUM, 0, armcii_state.world));
    ARMCII_MPI(MPI_Reduce(v, mx, NV, MPI_DOUBLE, MPI_MAX, 0, armcii_state.world));
    ARMCII_MPI(MPI_Reduce(PG.target_wait, tw, np, MPI_DOUBLE, MPI_SUM, 0, armcii_state.world));
    if (armcii_state.rank == 0) {
        print_report(sum, mx, np, armcii_state.node_size, ghost);
        print_targets(tw, np);
    }
    report_other(np);
    free(tw);
    free(PG.target_wait);
    PG.target_wait = NULL;
}
