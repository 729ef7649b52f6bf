/*
 * bench_contig - contiguous put/get/accumulate latency and bandwidth.
 *
 * Rank 0 drives every operation at rank 1 (the other ranks wait in a
 * barrier, i.e. inside MPI).  For each size, the ARMCI operations and their
 * baselines are sampled round-robin (A B C A B C ...) in the same run, so
 * machine noise hits all of them alike:
 *   put/get/acc        ARMCI_Put/Get/Acc (double, scale 1.0), blocking
 *   nbput/nbget        ARMCI_NbPut/NbGet + ARMCI_Wait, one op per handle
 *   mpi_put/get/acc    MPI_Put/Get/Accumulate + MPI_Win_flush_local on an
 *                      MPI_Win_allocate window in a lock_all epoch
 *   memcpy_put/get     memcpy to/from the peer's MPI_Win_allocate_shared
 *   cpu_acc            a plain double loop into the peer's shared memory
 *   puts/gets_seg8     ARMCI_PutS/GetS of bytes/8 rows of 8 B (up to 1024
 *   puts/gets_seg1k    rows) or bytes/1024 rows of 1 KiB; remote stride 2*seg
 *   mpi_puts/gets_*    the same with an MPI_Type_vector + flush_local
 * memcpy and cpu_acc are the physical limit on one node (only measured when
 * rank 1 shares rank 0's node).  Extra columns: GiB/s, and ratios of the
 * median to the MPI baseline, to the CPU baseline and (nb ops) to the
 * blocking operation; a ratio below 1 means faster than the baseline.
 */
#include <armci.h>
#include "bench_common.h"

enum {
    OP_PUT, OP_GET, OP_ACC, OP_NBPUT, OP_NBGET,
    OP_MPI_PUT, OP_MPI_GET, OP_MPI_ACC, OP_CPU_PUT, OP_CPU_GET, OP_CPU_ACC,
    OP_PUTS8, OP_GETS8, OP_PUTS1K, OP_GETS1K,
    OP_MPI_PUTS8, OP_MPI_GETS8, OP_MPI_PUTS1K, OP_MPI_GETS1K, NOPS
};

/* name; MPI baseline, CPU baseline, blocking twin (-1: none); strided
 * segment size (0: contiguous). */
static const struct {
    const char *name;
    int mpi, cpu, blk, seg;
} ops[NOPS] = {
    {"put", OP_MPI_PUT, OP_CPU_PUT, -1, 0},
    {"get", OP_MPI_GET, OP_CPU_GET, -1, 0},
    {"acc", OP_MPI_ACC, OP_CPU_ACC, -1, 0},
    {"nbput", OP_MPI_PUT, OP_CPU_PUT, OP_PUT, 0},
    {"nbget", OP_MPI_GET, OP_CPU_GET, OP_GET, 0},
    {"mpi_put", -1, -1, -1, 0},
    {"mpi_get", -1, -1, -1, 0},
    {"mpi_acc", -1, -1, -1, 0},
    {"memcpy_put", -1, -1, -1, 0},
    {"memcpy_get", -1, -1, -1, 0},
    {"cpu_acc", -1, -1, -1, 0},
    {"puts_seg8", OP_MPI_PUTS8, -1, -1, 8},
    {"gets_seg8", OP_MPI_GETS8, -1, -1, 8},
    {"puts_seg1k", OP_MPI_PUTS1K, -1, -1, 1024},
    {"gets_seg1k", OP_MPI_GETS1K, -1, -1, 1024},
    {"mpi_puts_seg8", -1, -1, -1, 8},
    {"mpi_gets_seg8", -1, -1, -1, 8},
    {"mpi_puts_seg1k", -1, -1, -1, 1024},
    {"mpi_gets_seg1k", -1, -1, -1, 1024},
};
/* Strided rows: bytes/seg segments, remote stride 2*seg, local contiguous. */
#define MAX_ROWS 1024

static struct {
    int me, peer;
    size_t maxsize;
    double *src;        /* private origin buffer (normal doubles: no denormals) */
    double *dst;        /* private destination of gets */
    void **base;        /* ARMCI_Malloc bases, one per rank */
    char *remote;       /* base[peer] */
    MPI_Win win;        /* MPI_Win_allocate baseline window */
    MPI_Win shm_win;    /* node-shared baseline window, or MPI_WIN_NULL */
    char *shm_peer;     /* the peer's shared slice, or NULL off-node */
    double scale;
} B;

/* The CPU limit for accumulate: a vectorized loop (plain -O2 would not). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
static void cpu_acc(double *restrict d, const double *restrict s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] += s[i];
}

/* Strided ops: bytes/seg rows of seg bytes, remote stride 2*seg. */
static double time_strided(int op, int bytes, int iters)
{
    double ns = 0;
    int p = B.peer, seg = ops[op].seg, rows = bytes / seg;
    int rs[1] = {2 * seg}, ls[1] = {seg}, cnt[2] = {seg, rows};
    MPI_Datatype vt;
    MPI_Type_vector(rows, seg, 2 * seg, MPI_BYTE, &vt);
    MPI_Type_commit(&vt);
    switch (op) {
    case OP_PUTS8: case OP_PUTS1K:
        BC_SAMPLE(ns, iters, ARMCI_PutS(B.src, ls, B.remote, rs, cnt, 1, p));
        break;
    case OP_GETS8: case OP_GETS1K:
        BC_SAMPLE(ns, iters, ARMCI_GetS(B.remote, rs, B.dst, ls, cnt, 1, p));
        break;
    case OP_MPI_PUTS8: case OP_MPI_PUTS1K:
        BC_SAMPLE(ns, iters, MPI_Put(B.src, bytes, MPI_BYTE, p, 0, 1, vt, B.win);
                  MPI_Win_flush_local(p, B.win));
        break;
    default:
        BC_SAMPLE(ns, iters, MPI_Get(B.dst, bytes, MPI_BYTE, p, 0, 1, vt, B.win);
                  MPI_Win_flush_local(p, B.win));
        break;
    }
    MPI_Type_free(&vt);
    return ns;
}

/* ns per operation of `iters` back-to-back runs of op at `bytes`;
 * warm: the caller already warmed this op up. */
static double time_op(int op, int bytes, int iters, int warm)
{
    double ns = 0;
    int p = B.peer, nd = bytes / 8;
    armci_hdl_t h;
    /* Large transfers: one untimed run first, so that every op is timed in
     * its own cache state, not in whatever state the previous op left. */
    if (iters < 16 && !warm)
        time_op(op, bytes, 1, 1);
    if (ops[op].seg)
        return time_strided(op, bytes, iters);
    switch (op) {
    case OP_PUT: BC_SAMPLE(ns, iters, ARMCI_Put(B.src, B.remote, bytes, p)); break;
    case OP_GET: BC_SAMPLE(ns, iters, ARMCI_Get(B.remote, B.dst, bytes, p)); break;
    case OP_ACC:
        BC_SAMPLE(ns, iters, ARMCI_Acc(ARMCI_ACC_DBL, &B.scale, B.src, B.remote, bytes, p));
        break;
    case OP_NBPUT:
        BC_SAMPLE(ns, iters, ARMCI_INIT_HANDLE(&h);
                  ARMCI_NbPut(B.src, B.remote, bytes, p, &h); ARMCI_Wait(&h));
        break;
    case OP_NBGET:
        BC_SAMPLE(ns, iters, ARMCI_INIT_HANDLE(&h);
                  ARMCI_NbGet(B.remote, B.dst, bytes, p, &h); ARMCI_Wait(&h));
        break;
    case OP_MPI_PUT:
        BC_SAMPLE(ns, iters, MPI_Put(B.src, bytes, MPI_BYTE, p, 0, bytes, MPI_BYTE, B.win);
                  MPI_Win_flush_local(p, B.win));
        break;
    case OP_MPI_GET:
        BC_SAMPLE(ns, iters, MPI_Get(B.dst, bytes, MPI_BYTE, p, 0, bytes, MPI_BYTE, B.win);
                  MPI_Win_flush_local(p, B.win));
        break;
    case OP_MPI_ACC:
        BC_SAMPLE(ns, iters, MPI_Accumulate(B.src, nd, MPI_DOUBLE, p, 0, nd, MPI_DOUBLE,
                                            MPI_SUM, B.win);
                  MPI_Win_flush_local(p, B.win));
        break;
    case OP_CPU_PUT: BC_SAMPLE(ns, iters, memcpy(B.shm_peer, B.src, (size_t)bytes)); break;
    case OP_CPU_GET: BC_SAMPLE(ns, iters, memcpy(B.dst, B.shm_peer, (size_t)bytes)); break;
    case OP_CPU_ACC: BC_SAMPLE(ns, iters, cpu_acc((double *)B.shm_peer, B.src, (size_t)nd)); break;
    }
    return ns;
}

static int op_runs(int op, int bytes)
{
    if (!bc_op_enabled(ops[op].name))
        return 0;
    if ((op == OP_ACC || op == OP_MPI_ACC || op == OP_CPU_ACC) && bytes % 8)
        return 0;
    if (op >= OP_CPU_PUT && op <= OP_CPU_ACC && !B.shm_peer)
        return 0;
    int seg = ops[op].seg;
    if (seg && (bytes % seg || bytes / seg > MAX_ROWS || 2 * (size_t)bytes > B.maxsize))
        return 0;
    return 1;
}

/* A put then a get must give back the origin data, else the timings lie. */
static void validate(int bytes)
{
    memset(B.dst, 0xa5, (size_t)bytes);
    ARMCI_Put(B.src, B.remote, bytes, B.peer);
    ARMCI_Fence(B.peer);
    ARMCI_Get(B.remote, B.dst, bytes, B.peer);
    if (memcmp(B.src, B.dst, (size_t)bytes))
        bc_die("bench_contig: put+get of %d bytes to rank %d returned different data",
               bytes, B.peer);
}

static void print_rows(int bytes, int iters, double samples[NOPS][BC_MAX_REPS], int reps)
{
    bc_stats_t st[NOPS];
    for (int op = 0; op < NOPS; op++)
        st[op] = op_runs(op, bytes) ? bc_stats(samples[op], reps) : (bc_stats_t){0, 0, 0, 0};
    for (int op = 0; op < NOPS; op++) {
        if (!st[op].reps)
            continue;
        bc_row(ops[op].name, bytes, iters, &st[op]);
        printf(" %8.3f", bc_gibps(bytes, st[op].med));
        bc_ratio(st[op].med, ops[op].mpi >= 0 ? st[ops[op].mpi].med : 0);
        bc_ratio(st[op].med, ops[op].cpu >= 0 ? st[ops[op].cpu].med : 0);
        bc_ratio(st[op].med, ops[op].blk >= 0 ? st[ops[op].blk].med : 0);
        printf("\n");
    }
    fflush(stdout);
}

static void run_size(int bytes, int reps)
{
    static double samples[NOPS][BC_MAX_REPS];
    int iters = bc_iters_for((size_t)bytes, 1000);
    validate(bytes);
    for (int op = 0; op < NOPS; op++) /* warm-up: caches, pages, MPI paths */
        if (op_runs(op, bytes))
            time_op(op, bytes, iters, 1);
    for (int r = 0; r < reps; r++)
        for (int op = 0; op < NOPS; op++)
            if (op_runs(op, bytes))
                samples[op][r] = time_op(op, bytes, iters, 0);
    print_rows(bytes, iters, samples, reps);
}

static void setup(void)
{
    int n = bc_nranks();
    B.me = bc_rank();
    B.peer = 1;
    B.scale = 1.0;
    B.maxsize = (size_t)bc_env_long("BENCH_MAXSIZE", 4L << 20);
    B.src = bc_alloc(B.maxsize);
    B.dst = bc_alloc(B.maxsize);
    for (size_t i = 0; i < B.maxsize / sizeof(double); i++)
        B.src[i] = (double)(i % 251) + 0.5;
    B.base = malloc((size_t)n * sizeof *B.base);
    if (!B.base || ARMCI_Malloc(B.base, (armci_size_t)B.maxsize))
        bc_die("ARMCI_Malloc of %zu bytes failed", B.maxsize);
    B.remote = B.base[B.peer];
    char *mem;
    MPI_Win_allocate((MPI_Aint)B.maxsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &B.win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, B.win);

    /* The memcpy baseline needs the peer's memory mapped here. */
    MPI_Comm node = bc_node_comm();
    MPI_Group wg, ng;
    int peer_node_rank;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(node, &ng);
    MPI_Group_translate_ranks(wg, 1, &B.peer, ng, &peer_node_rank);
    MPI_Group_free(&wg);
    MPI_Group_free(&ng);
    int all_have_peer;
    int have = peer_node_rank != MPI_UNDEFINED || B.me != 0;
    MPI_Allreduce(&have, &all_have_peer, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    B.shm_win = MPI_WIN_NULL;
    B.shm_peer = NULL;
    if (all_have_peer) {
        MPI_Win_allocate_shared((MPI_Aint)B.maxsize, 1, MPI_INFO_NULL, node, &mem, &B.shm_win);
        if (B.me == 0) {
            MPI_Aint sz;
            int du;
            MPI_Win_shared_query(B.shm_win, peer_node_rank, &sz, &du, &B.shm_peer);
            memset(B.shm_peer, 0, B.maxsize);
        }
    }
    MPI_Comm_free(&node);
}

static void teardown(void)
{
    MPI_Win_unlock_all(B.win);
    MPI_Win_free(&B.win);
    if (B.shm_win != MPI_WIN_NULL)
        MPI_Win_free(&B.shm_win);
    ARMCI_Free(B.base[B.me]);
    free(B.base);
    free(B.src);
    free(B.dst);
}

static void run_pass(const char *title)
{
    setup();
    ARMCI_Barrier();
    if (B.me == 0) {
        int reps = bc_reps(31);
        long lo = bc_env_long("BENCH_MINSIZE", 8);
        bc_header(title, "   GiB/s   vs_mpi   vs_cpu   vs_blk");
        for (long b = lo; b <= (long)B.maxsize; b *= 2)
            run_size((int)b, reps);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    teardown();
}

/* BENCH_THREADED=1: MPI at MPI_THREAD_MULTIPLE, and the sweep runs twice in
 * the same job, first after ARMCI_Init_thread(MPI_THREAD_SINGLE) (ARMCI_Init
 * would take MPI's level), then after ARMCI_Finalize and
 * ARMCI_Init_thread(MPI_THREAD_MULTIPLE) with one thread: the cost of the
 * library's thread-safe mode alone (MPI's thread level is the same). */
int main(int argc, char **argv)
{
    int threaded = bc_env_long("BENCH_THREADED", 0) != 0, provided;
    if (threaded)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    ARMCI_Init_thread(MPI_THREAD_SINGLE);
    if (bc_nranks() < 2)
        bc_die("bench_contig needs at least 2 ranks");
    if (threaded && provided < MPI_THREAD_MULTIPLE)
        bc_die("BENCH_THREADED=1 needs MPI_THREAD_MULTIPLE");
    run_pass(threaded ? "bench_contig (ARMCI_Init_thread(MPI_THREAD_SINGLE), MPI at MULTIPLE)"
                      : "bench_contig");
    if (threaded) {
        ARMCI_Finalize();
        ARMCI_Init_thread(MPI_THREAD_MULTIPLE);
        run_pass("bench_contig (ARMCI_Init_thread(MPI_THREAD_MULTIPLE), one thread)");
    }
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
