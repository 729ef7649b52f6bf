/*
 * bench_rma_forms - the raw MPI forms of a blocking put, get and
 * accumulate, side by side: the choice behind ARMCII_QUIRK_BY_REQUEST
 * (src/common/common_quirks.c).  Pure MPI, no ARMCI: every rank r works on
 * rank r+1 (mod n) through an MPI_Win_create window (private memory, as the
 * library's regions between nodes), in one lock_all epoch; per size the six
 * forms are sampled round-robin in the same run:
 *   put_flush_local  MPI_Put + MPI_Win_flush_local
 *   rput_wait        MPI_Rput + MPI_Wait
 *   get_flush        MPI_Get + MPI_Win_flush (the library's reads)
 *   rget_wait        MPI_Rget + MPI_Wait
 *   acc_flush_local  MPI_Accumulate (doubles, MPI_SUM) + MPI_Win_flush_local
 *   racc_wait        MPI_Raccumulate + MPI_Wait
 * Times: the slowest rank's ns per operation; vs_call = the request form
 * over its call + flush twin.  After the run every rank checks what its
 * neighbour's puts and accumulates left in its window and what its gets
 * read: a wrong value exits non-zero.
 */
#include "bench_common.h"

enum { F_PUT, F_RPUT, F_GET, F_RGET, F_ACC, F_RACC, NFORMS };
static const char *const names[NFORMS] = {"put_flush_local", "rput_wait", "get_flush",
                                          "rget_wait", "acc_flush_local", "racc_wait"};

static struct {
    MPI_Win win;
    double *mem, *src, *dst;
    size_t maxbytes;
    int peer;
} S;

static void one(int form, int bytes)
{
    int n = bytes / 8, p = S.peer;
    MPI_Aint second = (MPI_Aint)(S.maxbytes / 8); /* accumulates: the puts' values stay checkable */
    MPI_Request r = MPI_REQUEST_NULL;
    switch (form) {
    case F_PUT:
        MPI_Put(S.src, n, MPI_DOUBLE, p, 0, n, MPI_DOUBLE, S.win);
        break;
    case F_RPUT:
        MPI_Rput(S.src, n, MPI_DOUBLE, p, 0, n, MPI_DOUBLE, S.win, &r);
        break;
    case F_GET:
        MPI_Get(S.dst, n, MPI_DOUBLE, p, 0, n, MPI_DOUBLE, S.win);
        break;
    case F_RGET:
        MPI_Rget(S.dst, n, MPI_DOUBLE, p, 0, n, MPI_DOUBLE, S.win, &r);
        break;
    case F_ACC:
        MPI_Accumulate(S.src, n, MPI_DOUBLE, p, second, n, MPI_DOUBLE, MPI_SUM, S.win);
        break;
    default:
        MPI_Raccumulate(S.src, n, MPI_DOUBLE, p, second, n, MPI_DOUBLE, MPI_SUM, S.win, &r);
        break;
    }
    if (form % 2)
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    else if (form == F_GET)
        MPI_Win_flush(p, S.win);
    else
        MPI_Win_flush_local(p, S.win);
}

/* Puts write 1.0 everywhere; accumulates add 1.0: the first element of the
 * second half counts every accumulate the left neighbour issued. */
static void check(long accs)
{
    long left_accs;
    int me = bc_rank(), n = bc_nranks();
    MPI_Win_flush_all(S.win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Sendrecv(&accs, 1, MPI_LONG, S.peer, 0, &left_accs, 1, MPI_LONG, (me + n - 1) % n, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_sync(S.win);
    if (S.mem[0] != 1.0 || S.dst[0] != 1.0)
        bc_die("bench_rma_forms: rank %d holds %g and read %g, expected 1 (the puts)", me,
               S.mem[0], S.dst[0]);
    if (S.mem[S.maxbytes / 8] != (double)left_accs)
        bc_die("bench_rma_forms: rank %d's accumulated element is %g after %ld accumulates", me,
               S.mem[S.maxbytes / 8], left_accs);
    if (me == 0)
        printf("# all values verified\n");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me = bc_rank(), reps = bc_reps(9);
    long accs = 0;
    S.maxbytes = (size_t)bc_env_long("BENCH_MAXSIZE", 4096);
    S.peer = (me + 1) % bc_nranks();
    MPI_Alloc_mem((MPI_Aint)(2 * S.maxbytes), MPI_INFO_NULL, &S.mem);
    memset(S.mem, 0, 2 * S.maxbytes);
    S.src = bc_alloc(S.maxbytes);
    S.dst = bc_alloc(S.maxbytes);
    for (size_t i = 0; i < S.maxbytes / 8; i++)
        S.src[i] = 1.0;
    MPI_Win_create(S.mem, (MPI_Aint)(2 * S.maxbytes), 8, MPI_INFO_NULL, MPI_COMM_WORLD, &S.win);
    MPI_Win_lock_all(0, S.win);
    if (me == 0)
        printf("# bench_rma_forms: ranks=%d, rank r on rank r+1 (MPI_Win_create)\n"
               "# %-12s %9s %5s %6s %12s %12s %12s %s\n", bc_nranks(), "op", "bytes",
               "reps", "iters", "med_ns", "min_ns", "max_ns", "vs_call");
    static double samples[NFORMS][BC_MAX_REPS];
    for (long b = bc_env_long("BENCH_MINSIZE", 8); b <= (long)S.maxbytes; b *= 8) {
        int iters = bc_iters_for((size_t)b, 1000);
        for (int r = 0; r < reps; r++)
            for (int f = 0; f < NFORMS; f++) {
                BC_SAMPLE_ALL(samples[f][r], iters, one(f, (int)b));
                accs += f == F_ACC || f == F_RACC ? iters : 0;
            }
        bc_stats_t st[NFORMS];
        for (int f = 0; f < NFORMS; f++)
            st[f] = bc_stats(samples[f], reps);
        for (int f = 0; me == 0 && f < NFORMS; f++) {
            bc_row(names[f], b, iters, &st[f]);
            bc_ratio(st[f].med, f % 2 ? st[f - 1].med : 0);
            printf("\n");
        }
    }
    check(accs);
    MPI_Win_unlock_all(S.win);
    MPI_Win_free(&S.win);
    MPI_Free_mem(S.mem);
    MPI_Finalize();
    return 0;
}
