/*
 * ga_patch - Global Arrays put, get and accumulate latency and bandwidth by
 * patch size, on patches owned by another process.
 *
 * Two global arrays of doubles, each process owning one block:
 *   contig   1-D, P*L elements, process p owns [p*L, (p+1)*L): a patch of
 *            b bytes is b/8 consecutive elements (one contiguous transfer);
 *   strided  2-D, (P*S) x S, process p owns rows [p*S, (p+1)*S) (all
 *            columns): a patch of m x m elements at rows p*S+1.., columns
 *            1..m is m rows of m*8 bytes, S*8 bytes apart (a strided
 *            transfer); S = 2 * the largest m.
 * All processes measure at once, each on the block of its peer, the process
 * half-way round ((me + P/2) mod P; peer=next: me + 1): with processes
 * placed node by node the peer is on another node; every block has exactly
 * one writer.  With one process the peer is itself (local).
 * One sample times `iters` back-to-back operations (NGA_Put, NGA_Get or
 * NGA_Acc with alpha = 1) followed by GA_Fence (put, acc: completion at the
 * owner) and gives the time per operation; a row is the median over `reps`
 * samples of the slowest process's time.  Bandwidth = size / time.
 * Verified after every (operation, size): puts are read back, gets are
 * compared with what the process put there, accumulates with the sum of
 * all of them (small integers: exact).
 *
 * Parameters (key=value or GA_BENCH_<KEY>):
 *   contig=LIST   patch sizes in bytes, multiples of 8
 *                 (default 8,64,512,4096,32768,262144,1048576)
 *   strided=LIST  patch edges m (m x m doubles)
 *                 (default 2,4,8,16,32,64,128,256)
 *   ops=LIST      any of put,get,acc (default all three)
 *   iters=I       operations per sample (default: 16 MiB / size, within
 *                 4..1000)
 *   reps=R        samples per row (default 5)
 *   peer=half|next
 *   small         contig=8,4096 strided=2,16 iters=2 reps=1
 * Rows: kernel "<op>_contig" or "<op>_strided", size = patch bytes,
 * seconds per operation.
 */
#include "gab.h"

static const char *usage =
    "[small] [contig=BYTES,...] [strided=M,...] [ops=put,get,acc] [iters=I] [reps=R] "
    "[peer=half|next]";

enum { OP_PUT, OP_GET, OP_ACC };
static const char *op_names[] = {"put", "get", "acc"};

typedef struct {
    const char *name;
    int g, ndim;
    int lo[2], hi[2]; /* the patch in the peer's block */
    int ld[1];        /* the local buffer's leading dimension (2-D) */
    long elems;
} patch_t;

/* Pattern written by process `me`, sample r, element e: small integers. */
static double pat(long e, int r, int me) { return (double)((e * 5 + r * 3 + me) % 61 - 30); }

static void op_once(int op, patch_t *p, double *buf, double *one)
{
    switch (op) {
    case OP_PUT: NGA_Put(p->g, p->lo, p->hi, buf, p->ld); break;
    case OP_GET: NGA_Get(p->g, p->lo, p->hi, buf, p->ld); break;
    case OP_ACC: NGA_Acc(p->g, p->lo, p->hi, buf, p->ld, one); break;
    }
}

static void check(const double *got, const double *want, long n, const char *what, int op,
                  const char *kind, long bytes)
{
    for (long e = 0; e < n; e++)
        if (got[e] != want[e])
            gab_mismatch("%s_%s %ld bytes: %s element %ld = %.17g, expected %.17g", op_names[op],
                         kind, bytes, what, e, got[e], want[e]);
}

/* One row: operation op on patch p; returns the median time per op. */
static double measure(int op, patch_t *p, long iters, int reps, double *buf, double *want,
                      double *times)
{
    double one = 1.0;
    long n = p->elems;
    long bytes = n * (long)sizeof(double);
    char what[96];
    /* the patch's starting contents: put puts pattern 0 over whatever
     * was there; get reads pattern 1; acc adds to pattern 2 */
    for (long e = 0; e < n; e++)
        buf[e] = op == OP_PUT ? 0.0 : pat(e, op, gab_me);
    NGA_Put(p->g, p->lo, p->hi, buf, p->ld);
    for (long e = 0; e < n; e++)
        want[e] = buf[e];
    GA_Sync();
    for (int r = 0; r < reps; r++) {
        for (long e = 0; e < n; e++)
            buf[e] = op == OP_GET ? -1.0 : pat(e, r + 7, gab_me);
        GA_Sync();
        GA_Init_fence();
        double t0 = GA_Wtime();
        for (long it = 0; it < iters; it++)
            op_once(op, p, buf, &one);
        GA_Fence();
        double t = (GA_Wtime() - t0) / (double)iters;
        times[r] = gab_max(t);
        if (op == OP_PUT) {
            for (long e = 0; e < n; e++)
                want[e] = buf[e];
        } else if (op == OP_ACC) {
            for (long e = 0; e < n; e++)
                want[e] += (double)iters * buf[e];
        } else {
            check(buf, want, n, "got", op, p->name, bytes);
        }
    }
    /* read the patch back (puts and accumulates, completed by GA_Fence) */
    if (op != OP_GET) {
        NGA_Get(p->g, p->lo, p->hi, buf, p->ld);
        check(buf, want, n, "patch", op, p->name, bytes);
    }
    snprintf(what, sizeof what, "%s_%s of %ld bytes", op_names[op], p->name, bytes);
    gab_verdict(what);
    return gab_median(times, reps);
}

/* ops=LIST: indices into op_names; returns how many. */
static int parse_ops(const char *ops_s, long *opsv)
{
    int nops = 0;
    for (const char *s = ops_s; *s && nops < 3;) {
        size_t l = strcspn(s, ",");
        int found = -1;
        for (int o = 0; o < 3; o++)
            if (strlen(op_names[o]) == l && !strncmp(s, op_names[o], l))
                found = o;
        if (found < 0)
            gab_usage(usage, "ops=%s: operations are put, get, acc", ops_s);
        opsv[nops++] = found;
        s += l;
        if (*s)
            s++;
    }
    return nops;
}

/* The two arrays, one block per process (L doubles of the 1-D one, S rows
 * of S of the 2-D one), checked to be laid out as the rows say. */
static void create_arrays(long L, long S, int peer, int *g1, int *g2)
{
    int *map = gab_alloc((size_t)(gab_np + 1) * sizeof(int));
    int dims1[1] = {(int)(gab_np * L)}, block1[1] = {gab_np};
    for (int p = 0; p < gab_np; p++)
        map[p] = (int)(p * L);
    *g1 = NGA_Create_irreg(C_DBL, 1, dims1, "contig", block1, map);
    int dims2[2] = {(int)(gab_np * S), (int)S}, block2[2] = {gab_np, 1};
    for (int p = 0; p < gab_np; p++)
        map[p] = (int)(p * S);
    map[gab_np] = 0;
    *g2 = NGA_Create_irreg(C_DBL, 2, dims2, "strided", block2, map);
    free(map);
    if (!*g1 || !*g2)
        GA_Error("ga_patch: cannot create the arrays", 0);
    GA_Zero(*g1);
    GA_Zero(*g2);
    int lo[2], hi[2];
    NGA_Distribution(*g2, peer, lo, hi);
    if (lo[0] != peer * S || hi[0] != (peer + 1) * S - 1 || lo[1] != 0 || hi[1] != S - 1)
        gab_mismatch("strided array: process %d owns [%d:%d, %d:%d], expected rows %ld..%ld", peer,
                     lo[0], hi[0], lo[1], hi[1], peer * S, (peer + 1) * S - 1);
    NGA_Distribution(*g1, peer, lo, hi);
    if (lo[0] != peer * L || hi[0] != (peer + 1) * L - 1)
        gab_mismatch("contig array: process %d owns [%d:%d], expected %ld..%ld", peer, lo[0],
                     hi[0], peer * L, (peer + 1) * L - 1);
    gab_verdict("array distribution");
}

/* The patch of peer's block: bytes/8 consecutive doubles of g1, or the
 * m x m square at rows peer*S+1.., columns 1..m of g2. */
static patch_t make_patch(int strided_kind, long size, int g1, int g2, int peer, long L, long S)
{
    patch_t p = {0};
    if (!strided_kind) {
        p.name = "contig";
        p.g = g1;
        p.ndim = 1;
        p.elems = size / 8;
        p.lo[0] = (int)(peer * L);
        p.hi[0] = (int)(peer * L + p.elems - 1);
        p.ld[0] = 1; /* unused for 1-D */
    } else {
        p.name = "strided";
        p.g = g2;
        p.ndim = 2;
        p.elems = size * size;
        p.lo[0] = (int)(peer * S + 1);
        p.hi[0] = (int)(peer * S + size);
        p.lo[1] = 1;
        p.hi[1] = (int)size;
        p.ld[0] = (int)size;
    }
    return p;
}

int main(int argc, char **argv)
{
    long contig[GAB_MAXLIST], strided[GAB_MAXLIST], opsv[3];
    gab_init(&argc, &argv, "ga_patch");
    gab_check_args("contig strided ops iters reps peer", usage);
    int nc = gab_list("contig", gab_small ? "8,4096" : "8,64,512,4096,32768,262144,1048576",
                      contig, usage);
    int ns = gab_list("strided", gab_small ? "2,16" : "2,4,8,16,32,64,128,256", strided, usage);
    long iters_arg = gab_long("iters", gab_small ? 2 : 0, 0, usage);
    int reps = (int)gab_long("reps", gab_small ? 1 : 5, 1, usage);
    const char *peer_s = gab_str("peer", "half"), *ops_s = gab_str("ops", "put,get,acc");
    int nops = parse_ops(ops_s, opsv);
    int peer = 0;
    if (!strcmp(peer_s, "half"))
        peer = (gab_me + gab_np / 2) % gab_np;
    else if (!strcmp(peer_s, "next"))
        peer = (gab_me + 1) % gab_np;
    else
        gab_usage(usage, "peer=%s: half or next", peer_s);
    long maxc = 1, maxm = 1;
    for (int i = 0; i < nc; i++) {
        if (contig[i] % 8)
            gab_usage(usage, "contig=%ld: sizes are multiples of 8 bytes", contig[i]);
        maxc = contig[i] / 8 > maxc ? contig[i] / 8 : maxc;
    }
    for (int i = 0; i < ns; i++)
        maxm = strided[i] > maxm ? strided[i] : maxm;
    long L = maxc, S = 2 * maxm;
    if ((double)gab_np * L > 2e9 || (double)gab_np * S > 2e9)
        gab_usage(usage, "arrays too large for int indices");
    int g1, g2;
    create_arrays(L, S, peer, &g1, &g2);

    size_t maxel = (size_t)(maxc > maxm * maxm ? maxc : maxm * maxm);
    double *buf = gab_alloc(maxel * sizeof(double)), *want = gab_alloc(maxel * sizeof(double));
    double *times = gab_alloc((size_t)reps * sizeof(double));
    if (gab_me == 0)
        printf("# ga_patch: %d processes, peer=%s, reps=%d; time_s = seconds per operation "
               "(median over reps, slowest process), size = patch bytes (strided: m x m "
               "doubles, rows %ld bytes apart)\n",
               gab_np, peer_s, reps, S * 8);
    gab_header();
    for (int io = 0; io < nops; io++) {
        int op = (int)opsv[io];
        for (int kind = 0; kind < 2; kind++)
            for (int i = 0; i < (kind ? ns : nc); i++) {
                patch_t p = make_patch(kind, kind ? strided[i] : contig[i], g1, g2, peer, L, S);
                long bytes = p.elems * 8, iters = iters_arg;
                if (iters <= 0) {
                    iters = (16L << 20) / bytes;
                    iters = iters < 4 ? 4 : iters > 1000 ? 1000 : iters;
                }
                double t = measure(op, &p, iters, reps, buf, want, times);
                char kernel[32], size[32];
                snprintf(kernel, sizeof kernel, "%s_%s", op_names[op], p.name);
                snprintf(size, sizeof size, "%ld", bytes);
                gab_row(kernel, size, t);
            }
    }
    if (gab_me == 0)
        printf("# ga_patch: every put, get and accumulate verified\n");
    GA_Destroy(g2);
    GA_Destroy(g1);
    free(buf);
    free(want);
    free(times);
    return gab_finish(0);
}
