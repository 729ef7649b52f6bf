/*
 * The profiler (ARMCI_PROFILE=1): time inside the library (T_comm) versus
 * outside (T_comp) per process, library calls and operations per class.
 * At finalize rank 0 prints the communication ratio CR = T_comm / (T_comm +
 * T_comp) and the dedicated-core model's prediction for g ghosts per node of
 * n processes: T(g) = T_comp * n / (n - g) + T_comm (the "waiting saved"
 * term is not measured yet, so the prediction is an upper bound on what
 * ghosts give).
 */
#include <stdio.h>
#include "progress.h"

#define PS armcii_progress_state

/* Per thread: nesting of enter/leave and the time of the outermost enter
 * (each thread of a threaded run is timed on its own; T_comm is the sum). */
static __thread struct { int depth; double t_enter; } prof_thread;

void armcii_profile_start(void)
{
    PS.profile = armcii_state.cfg.profile;
    prof_thread.depth = 0;
    PS.t_comm = 0;
    PS.calls = 0;
    PS.t_init = MPI_Wtime();
}

void armcii_profile_enter_slow(void)
{
    if (prof_thread.depth++ == 0)
        prof_thread.t_enter = MPI_Wtime();
}

void armcii_profile_leave_slow(void)
{
    if (prof_thread.depth > 0 && --prof_thread.depth == 0) {
        double dt = MPI_Wtime() - prof_thread.t_enter;
        armcii_lock(&PS.lock);
        PS.t_comm += dt;
        PS.calls++;
        armcii_unlock(&PS.lock);
    }
}

static void print_report(const double *sum, const double *mx, int np, int n)
{
    static const char *name[] = {"put", "get", "acc", "rmw", "noncontig", "notify"};
    double comm = sum[0] / np, comp = sum[1] / np, tot = comm + comp;
    fprintf(stderr, "[0] ARMCI profile (%d processes, %d per node): per process "
            "T_comm %.6f s, T_comp %.6f s (max %.6f / %.6f), library calls %.0f\n",
            np, n, comm, comp, mx[0], mx[1], sum[2] / np);
    fprintf(stderr, "[0] ARMCI profile: communication ratio CR = %.4f\n",
            tot > 0 ? comm / tot : 0.0);
    for (int c = 0; c < ARMCII_OP_NCLASS; c++)
        if (sum[3 + c] > 0)
            fprintf(stderr, "[0] ARMCI profile: %-9s ops %.0f, bytes %.0f\n", name[c],
                    sum[3 + c], sum[3 + ARMCII_OP_NCLASS + c]);
    fprintf(stderr, "[0] ARMCI profile: measured T = %.6f s\n", tot);
    for (int g = 1; g < n && g <= 4; g++)
        fprintf(stderr, "[0] ARMCI profile: dedicated-core model, %d ghost(s) per node: "
                "T(%d) = T_comp*%d/%d + T_comm = %.6f s\n", g, g, n, n - g,
                comp * n / (n - g) + comm);
    fflush(stderr);
}

/* Collective over the world: rank 0 prints the summary. */
void armcii_profile_report(void)
{
    enum { NV = 3 + 2 * (ARMCII_OP_NCLASS) };
    if (!PS.profile)
        return;
    PS.profile = 0;
    double total = MPI_Wtime() - PS.t_init, v[NV], sum[NV], mx[NV];
    v[0] = PS.t_comm;
    v[1] = total - PS.t_comm;
    v[2] = (double)PS.calls;
    for (int c = 0; c < ARMCII_OP_NCLASS; c++) {
        v[3 + c] = (double)armcii_gmr_state.ops[c];
        v[3 + ARMCII_OP_NCLASS + c] = armcii_gmr_state.bytes[c];
    }
    ARMCII_MPI(MPI_Reduce(v, sum, NV, MPI_DOUBLE, MPI_SUM, 0, armcii_state.world));
    ARMCII_MPI(MPI_Reduce(v, mx, NV, MPI_DOUBLE, MPI_MAX, 0, armcii_state.world));
    if (armcii_state.rank == 0)
        print_report(sum, mx, armcii_state.nproc, armcii_state.node_size);
}
