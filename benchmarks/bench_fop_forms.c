/*
 * bench_fop_forms - the raw MPI forms of a fetch-and-add, side by side: the
 * fetch-and-add half of ARMCII_QUIRK_BY_REQUEST (src/common/common_quirks.c).
 * Pure MPI, no ARMCI: every rank adds 1 to one long counter on rank 0
 * through an MPI_Win_create window (private memory, as the library's
 * regions between nodes), in one lock_all epoch, in three forms sampled
 * round-robin in the same run (A B C A B C ...):
 *   fop_flush        MPI_Fetch_and_op + MPI_Win_flush (remote completion)
 *   fop_flush_local  MPI_Fetch_and_op + MPI_Win_flush_local
 *   rgetacc_wait     MPI_Rget_accumulate(MPI_SUM) + MPI_Wait (the result
 *                    is in; the update is remotely complete at the next flush)
 * Times: the slowest rank's ns per operation; vs_flush = the form's median
 * over fop_flush's.  Each counter is checked against the adds issued, and
 * each rank's fetched values must increase: a wrong count exits non-zero.
 * Launch it with 1 rank per virtual node's worth of processes you want to
 * contend, e.g. 4 ranks on 2 cores (the library's vn2 and vn1 modes) or 2.
 */
#include "bench_common.h"

enum { F_FLUSH, F_FLUSH_LOCAL, F_RGETACC, NFORMS };
static const char *const names[NFORMS] = {"fop_flush", "fop_flush_local", "rgetacc_wait"};

static struct {
    MPI_Win win;
    long *mem;
    long issued[NFORMS];
    long last[NFORMS];   /* the last value this rank fetched (must grow) */
} S;

static void add_one(int form)
{
    const long one = 1;
    long old;
    if (form == F_RGETACC) {
        MPI_Request r;
        MPI_Rget_accumulate(&one, 1, MPI_LONG, &old, 1, MPI_LONG, 0, form, 1, MPI_LONG, MPI_SUM,
                            S.win, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, form, MPI_SUM, S.win);
        if (form == F_FLUSH)
            MPI_Win_flush(0, S.win);
        else
            MPI_Win_flush_local(0, S.win);
    }
    if (old < S.last[form])
        bc_die("bench_fop_forms: %s fetched %ld after %ld (not increasing)", names[form], old,
               S.last[form]);
    S.last[form] = old;
    S.issued[form]++;
}

static void check_counts(void)
{
    long total[NFORMS];
    MPI_Win_flush_all(S.win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Reduce(S.issued, total, NFORMS, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (bc_rank() != 0)
        return;
    for (int f = 0; f < NFORMS; f++) {
        long seen;
        MPI_Fetch_and_op(NULL, &seen, MPI_LONG, 0, f, MPI_NO_OP, S.win);
        MPI_Win_flush(0, S.win);
        if (seen != total[f])
            bc_die("bench_fop_forms: %s counter is %ld after %ld adds", names[f], seen,
                   total[f]);
    }
    printf("# all counters verified\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me = bc_rank(), reps = bc_reps(15), iters = bc_iters_for(8, 2000);
    MPI_Alloc_mem(NFORMS * sizeof(long), MPI_INFO_NULL, &S.mem);
    memset(S.mem, 0, NFORMS * sizeof(long));
    MPI_Win_create(S.mem, NFORMS * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &S.win);
    MPI_Win_lock_all(0, S.win);
    static double samples[NFORMS][BC_MAX_REPS];
    for (int f = 0; f < NFORMS; f++) /* warm-up */
        for (int i = 0; i < iters / 10 + 1; i++)
            add_one(f);
    for (int r = 0; r < reps; r++)
        for (int f = 0; f < NFORMS; f++)
            BC_SAMPLE_ALL(samples[f][r], iters, add_one(f));
    bc_stats_t st[NFORMS];
    for (int f = 0; f < NFORMS; f++)
        st[f] = bc_stats(samples[f], reps);
    if (me == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        printf("# bench_fop_forms: ranks=%d, one counter on rank 0 (MPI_Win_create); MPI: %.*s\n",
               bc_nranks(), (int)strcspn(lib, "\n"), lib);
        printf("# %-12s %9s %5s %6s %12s %12s %12s %s\n", "op", "bytes", "reps", "iters",
               "med_ns", "min_ns", "max_ns", "vs_flush");
        for (int f = 0; f < NFORMS; f++) {
            bc_row(names[f], 8, iters, &st[f]);
            bc_ratio(st[f].med, st[F_FLUSH].med);
            printf("\n");
        }
    }
    check_counts();
    MPI_Win_unlock_all(S.win);
    MPI_Win_free(&S.win);
    MPI_Free_mem(S.mem);
    MPI_Finalize();
    return 0;
}
