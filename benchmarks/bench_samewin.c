/*
 * bench_samewin - ARMCI_Put/Get against raw MPI_Put/Get on the very window
 * the library uses for the target region (in-tree only: it reads the
 * region's window through the internal translation, so it links the static
 * library and does not build against another ARMCI).
 *
 * Rank 0 drives rank 1; the six operations are sampled round-robin in the
 * same run (A B C D A B C D ...), so machine noise hits them alike:
 *   put/get/acc      ARMCI_Put/ARMCI_Get/ARMCI_Acc (doubles, scale 1;
 *                    blocking: local completion)
 *   win_put/win_get/win_acc  MPI_Put/MPI_Get/MPI_Accumulate (MPI_DOUBLE,
 *                    MPI_SUM) + MPI_Win_flush_local on the region's window,
 *                    at the displacement ARMCI itself would use
 * Extra column vs_win: median of the ARMCI op over its raw twin (< 1: the
 * library is faster, e.g. the node-local load/store path).
 */
#include <armci.h>
#include "bench_common.h"
#include "gmr.h"

enum { OP_PUT, OP_GET, OP_ACC, OP_WIN_PUT, OP_WIN_GET, OP_WIN_ACC, NOPS };
static const char *const names[NOPS] = {"put", "get", "acc", "win_put", "win_get", "win_acc"};
static const int twin[NOPS] = {OP_WIN_PUT, OP_WIN_GET, OP_WIN_ACC, -1, -1, -1};

static struct {
    int peer;
    size_t maxsize;
    char *src, *dst;
    void **base;
    MPI_Win win;      /* the region's own window */
    int wrank;        /* the peer's rank in it */
    MPI_Aint disp;    /* base[peer]'s displacement in it */
} S;

static double time_op(int op, int bytes, int iters)
{
    double ns = 0;
    int p = S.peer;
    char *remote = S.base[p];
    switch (op) {
    case OP_PUT:
        BC_SAMPLE(ns, iters, ARMCI_Put(S.src, remote, bytes, p));
        break;
    case OP_GET:
        BC_SAMPLE(ns, iters, ARMCI_Get(remote, S.dst, bytes, p));
        break;
    case OP_ACC: {
        double one = 1;
        BC_SAMPLE(ns, iters, ARMCI_Acc(ARMCI_ACC_DBL, &one, S.src, remote, bytes, p));
        break;
    }
    case OP_WIN_ACC:
        BC_SAMPLE(ns, iters, MPI_Accumulate(S.src, bytes / 8, MPI_DOUBLE, S.wrank, S.disp,
                                            bytes / 8, MPI_DOUBLE, MPI_SUM, S.win);
                  MPI_Win_flush_local(S.wrank, S.win));
        break;
    case OP_WIN_PUT:
        BC_SAMPLE(ns, iters, MPI_Put(S.src, bytes, MPI_BYTE, S.wrank, S.disp, bytes,
                                     MPI_BYTE, S.win);
                  MPI_Win_flush_local(S.wrank, S.win));
        break;
    default:
        BC_SAMPLE(ns, iters, MPI_Get(S.dst, bytes, MPI_BYTE, S.wrank, S.disp, bytes,
                                     MPI_BYTE, S.win);
                  MPI_Win_flush_local(S.wrank, S.win));
        break;
    }
    return ns;
}

/* Both paths must move the same bytes to the same place, else the
 * comparison is between different things. */
static void validate(int bytes)
{
    for (int i = 0; i < bytes; i++)
        S.src[i] = (char)(i * 7 + bytes);
    ARMCI_Put(S.src, S.base[S.peer], bytes, S.peer);
    ARMCI_Fence(S.peer);
    memset(S.dst, 0x5a, (size_t)bytes);
    MPI_Get(S.dst, bytes, MPI_BYTE, S.wrank, S.disp, bytes, MPI_BYTE, S.win);
    MPI_Win_flush(S.wrank, S.win);
    if (memcmp(S.src, S.dst, (size_t)bytes))
        bc_die("bench_samewin: MPI_Get on the region's window did not return the %d bytes "
               "ARMCI_Put wrote", bytes);
}

static void run_size(int bytes, int reps)
{
    static double samples[NOPS][BC_MAX_REPS];
    bc_stats_t st[NOPS];
    int iters = bc_iters_for((size_t)bytes, 1000);
    validate(bytes);
    for (int op = 0; op < NOPS; op++)
        time_op(op, bytes, iters);
    for (int r = 0; r < reps; r++)
        for (int op = 0; op < NOPS; op++)
            samples[op][r] = time_op(op, bytes, iters);
    for (int op = 0; op < NOPS; op++)
        st[op] = bc_stats(samples[op], reps);
    for (int op = 0; op < NOPS; op++) {
        bc_row(names[op], bytes, iters, &st[op]);
        bc_ratio(st[op].med, twin[op] >= 0 ? st[twin[op]].med : 0);
        printf("\n");
    }
    fflush(stdout);
}

static void setup(void)
{
    int n = bc_nranks();
    armcii_target_t t;
    S.peer = 1;
    S.maxsize = (size_t)bc_env_long("BENCH_MAXSIZE", 64L << 10);
    S.src = bc_alloc(S.maxsize);
    S.dst = bc_alloc(S.maxsize);
    S.base = malloc((size_t)n * sizeof *S.base);
    if (!S.base || ARMCI_Malloc(S.base, (armci_size_t)S.maxsize))
        bc_die("ARMCI_Malloc of %zu bytes failed", S.maxsize);
    /* The region's own window and displacement (a get is never redirected
     * to a ghost, so this is the window ARMCI_Put/Get/Acc use off-node in
     * the plain build). */
    if (armcii_gmr_xlate_try(S.base[S.peer], S.maxsize, S.peer, ARMCII_OP_GET, &t))
        bc_die("rank %d's ARMCI_Malloc slice is not in the translation table", S.peer);
    S.win = t.win;
    S.wrank = t.grank;
    S.disp = t.disp;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    if (bc_nranks() < 2)
        bc_die("bench_samewin needs at least 2 ranks");
    setup();
    ARMCI_Barrier();
    if (bc_rank() == 0) {
        int reps = bc_reps(31);
        bc_header("bench_samewin", "  vs_win");
        for (long b = bc_env_long("BENCH_MINSIZE", 8); b <= (long)S.maxsize; b *= 2)
            run_size((int)b, reps);
    }
    ARMCI_Barrier();
    ARMCI_Free(S.base[bc_rank()]);
    free(S.base);
    free(S.src);
    free(S.dst);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
