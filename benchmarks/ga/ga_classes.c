/*
 * ga_classes - what one operation of each class costs through Global
 * Arrays when every process issues it at once, NWChem's sizes: the shared
 * task counter (NGA_Read_inc on one element owned by process 0, as
 * NWChem's nxtval), and small gets, accumulates and puts of a patch owned
 * by the process half-way round ((me + P/2) mod P: over 2 or more virtual
 * nodes, another node).  The per-class costs feed the NWChem cost model
 * (benchmarks/model.py, docs/performance.md).
 *
 * Rows (kernel size time_s; time per operation, the slowest process, the
 * median over `reps` samples of `iters` operations each):
 *   read_inc  1         NGA_Read_inc on the counter (contended by all)
 *   get       <bytes>   NGA_Get of a 1 x n patch (n doubles: contiguous)
 *   acc       <bytes>   NGA_Acc, alpha 1, of the same patch
 *   put       <bytes>   NGA_Put of the same patch
 *   get_2d    <bytes>   NGA_Get of an m x m patch (m rows: strided)
 *   acc_2d    <bytes>   NGA_Acc of it
 * Verified: the counter hands out every value once (the sum over all
 * processes is exact), gets return what the owner holds, accumulates of
 * small integers add up exactly, puts read back.
 *
 * Parameters (key=value or GA_BENCH_<KEY>):
 *   n=LIST     doubles per contiguous patch (default 4,8,64)
 *   m=LIST     edge of the 2-D patches (default 4,16)
 *   iters=I    operations per sample (default 400)
 *   reps=R     samples per row (default 5)
 *   busy=US    microseconds of CPU work each process does before each
 *              operation (default 0): NWChem's processes compute between
 *              calls, and where the MPI needs the target's software for an
 *              operation (MPICH on one host) the origin then also waits for
 *              the target to come back from its work.  With busy > 0 a
 *              row's time is the time inside the operations only, the work
 *              left out (benchmarks/results/ga_classes_busy.mpich.2core.txt)
 *   small      n=4,64 m=4,64 iters=20 reps=1 (64: a patch reaching the
 *              far edges of the peer's block)
 */
#include "gab.h"

static const char *usage = "[small] [n=LIST] [m=LIST] [iters=I] [reps=R] [busy=US]";

enum { EDGE = 64 }; /* each process owns an EDGE x EDGE block */

static int counter, arr, iters, reps;
static long busy; /* us of work before each operation */

/* With busy > 0: the work, then the time the operation starts. */
static double op_start(void)
{
    if (!busy)
        return 0;
    gab_work(busy);
    return MPI_Wtime();
}

/* With busy > 0: adds the operation's time since op_start to *inside. */
static void op_end(double t1, double *inside)
{
    if (busy)
        *inside += MPI_Wtime() - t1;
}

/* The sample: `iters` operations of kind k on a patch lo..hi (1-based
 * inclusive GA indices), the slowest process's time per operation. */
static double sample(int k, int *lo, int *hi, double *buf, int ld)
{
    double one = 1, t0, inside = 0;
    int zero = 0;
    GA_Sync();
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        double t1 = op_start();
        switch (k) {
        case 0: NGA_Read_inc(counter, &zero, 1); break;
        case 1: NGA_Get(arr, lo, hi, buf, &ld); break;
        case 2: NGA_Acc(arr, lo, hi, buf, &ld, &one); break;
        default: NGA_Put(arr, lo, hi, buf, &ld); break;
        }
        op_end(t1, &inside);
    }
    double t = (busy ? inside : MPI_Wtime() - t0) / iters;
    GA_Sync();
    return gab_max(t);
}

static void row(const char *kernel, long size, int k, int *lo, int *hi, double *buf, int ld)
{
    double v[GAB_MAXLIST];
    for (int r = 0; r < reps; r++)
        v[r] = sample(k, lo, hi, buf, ld);
    if (gab_me == 0)
        printf("%s %ld %.6e\n", kernel, size, gab_median(v, reps));
}

/* Counter: every value 0 .. total-1 handed out once; its sum is exact. */
static void counter_row(void)
{
    int zero = 0, z = 0;
    NGA_Put(counter, &zero, &zero, &z, &zero);
    GA_Sync();
    double v[GAB_MAXLIST], sum = 0;
    for (int r = 0; r < reps; r++) {
        GA_Sync();
        double t0 = MPI_Wtime(), inside = 0;
        for (int i = 0; i < iters; i++) {
            double t1 = op_start();
            sum += (double)NGA_Read_inc(counter, &zero, 1);
            op_end(t1, &inside);
        }
        v[r] = gab_max((busy ? inside : MPI_Wtime() - t0) / iters);
    }
    GA_Dgop(&sum, 1, "+");
    double total = (double)gab_np * iters * reps;
    if (gab_me == 0 && sum != total * (total - 1) / 2)
        gab_mismatch("read_inc handed out values summing to %.0f, expected %.0f", sum,
                     total * (total - 1) / 2);
    gab_verdict("read_inc");
    if (gab_me == 0)
        printf("read_inc 1 %.6e\n", gab_median(v, reps));
}

/* One patch size: get, acc, put rows, then the checks. */
static void patch_rows(int rows, int cols, const char *suffix)
{
    int peer = (gab_me + gab_np / 2) % gab_np;
    /* the C API's indices start at 0: the patch is the peer block's corner */
    int lo[2] = {peer * EDGE, 0}, hi[2] = {peer * EDGE + rows - 1, cols - 1}, ld = cols;
    double *buf = malloc(sizeof(double) * (size_t)rows * (size_t)cols), *back = buf;
    long bytes = 8L * rows * cols;
    char name[32];
    GA_Zero(arr);
    for (int i = 0; i < rows * cols; i++)
        buf[i] = 1;
    /* accumulates: every process adds 1 to its peer's patch, iters*reps times */
    snprintf(name, sizeof name, "acc%s", suffix);
    row(name, bytes, 2, lo, hi, buf, ld);
    snprintf(name, sizeof name, "get%s", suffix);
    row(name, bytes, 1, lo, hi, back, ld);
    /* each process is the only one accumulating into its peer's patch */
    for (int i = 0; i < rows * cols; i++)
        if (back[i] != (double)iters * reps)
            gab_mismatch("%s patch %dx%d at %d: %g after the accumulates, expected %d",
                         suffix, rows, cols, i, back[i], iters * reps);
    gab_verdict("accumulates read back");
    if (!*suffix) { /* puts: the last one wins, then read back */
        for (int i = 0; i < rows * cols; i++)
            buf[i] = gab_me * 1000 + i;
        row("put", bytes, 3, lo, hi, buf, ld);
        double *chk = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
        GA_Sync();
        NGA_Get(arr, lo, hi, chk, &ld);
        for (int i = 0; i < rows * cols; i++)
            if (chk[i] != gab_me * 1000 + i)
                gab_mismatch("put patch at %d: %g, expected %d", i, chk[i], gab_me * 1000 + i);
        free(chk);
        gab_verdict("puts read back");
    }
    free(buf);
}

int main(int argc, char **argv)
{
    gab_init(&argc, &argv, "ga_classes");
    gab_check_args("n m iters reps busy", usage);
    long n[GAB_MAXLIST], m[GAB_MAXLIST];
    int nn = gab_list("n", gab_small ? "4,64" : "4,8,64", n, usage);
    int nm = gab_list("m", gab_small ? "4,64" : "4,16", m, usage);
    iters = (int)gab_long("iters", gab_small ? 20 : 400, 1, usage);
    reps = (int)gab_long("reps", gab_small ? 1 : 5, 1, usage);
    busy = gab_long("busy", 0, 0, usage);
    if (reps > GAB_MAXLIST)
        gab_usage(usage, "reps at most %d", GAB_MAXLIST);
    for (int i = 0; i < nn; i++)
        if (n[i] > EDGE)
            gab_usage(usage, "n at most %d", EDGE);
    for (int i = 0; i < nm; i++)
        if (m[i] > EDGE)
            gab_usage(usage, "m at most %d", EDGE);
    int one = 1, dims[2] = {gab_np * EDGE, EDGE}, chunk[2] = {EDGE, EDGE};
    counter = NGA_Create(C_INT, 1, &one, "counter", NULL);
    arr = NGA_Create(C_DBL, 2, dims, "patches", chunk);
    if (!counter || !arr)
        GA_Error("ga_classes: cannot create the arrays", 0);
    if (gab_me == 0)
        printf("# ga_classes: %d processes, iters=%d reps=%d busy=%ld; time_s = seconds per "
               "operation (slowest process, median), every process at once%s\nkernel size time_s\n",
               gab_np, iters, reps, busy, busy ? ", inside the operations" : "");
    counter_row();
    for (int i = 0; i < nn; i++)
        patch_rows(1, (int)n[i], "");
    for (int i = 0; i < nm; i++)
        patch_rows((int)m[i], (int)m[i], "_2d");
    if (gab_me == 0)
        printf("# ga_classes: every operation verified\n");
    GA_Destroy(arr);
    GA_Destroy(counter);
    return gab_finish(0);
}
