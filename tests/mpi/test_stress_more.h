/* test_stress.c, part 2 (included after its helpers: me, np, seed, rnd(),
 * crnd(), cur_op, counts, kname, report_bytes): operations that share bytes
 * between origins, and the structure of the run changing under the load.
 *
 * - shared accumulate area (region A): NSA int, long and integer-valued
 *   double elements on every target that EVERY origin accumulates into
 *   (contiguous, multi-level strided, vector with overlapping segments,
 *   blocking and nonblocking, scale 1..3 or -1): at every checkpoint each
 *   element is the exact sum of every origin's contributions, read from
 *   the owner's memory and, for another target, by a get;
 * - mutex-protected read-modify-write: ARMCI_Lock(m, h), get the pair
 *   {a, b} of counter m on h, check a == b (no one else is inside), put
 *   a + inc, fence, put b + inc, fence, ARMCI_Unlock: at checkpoints a and
 *   b equal the sum of every origin's increments; besides the random ones,
 *   after every checkpoint all ranks update one counter MXBURST times at
 *   once (leaving the same barrier);
 * - groups: at checkpoints a group of a random subset in random order is
 *   created (ARMCI_Group_create), its members allocate a region on it
 *   (ARMCI_Malloc_group) and, until it is freed at a later checkpoint
 *   (ARMCI_Free_group, ARMCI_Group_free), accumulate into its shared
 *   elements and put/get their own slots on random members addressed by
 *   ARMCI_Absolute_id; checked at every checkpoint on the group;
 * - allocation during the run: A is freed and allocated again at random
 *   checkpoints, the mutex set is destroyed and created again with another
 *   count, and up to NTR extra regions of per-rank random sizes (some 0)
 *   are allocated while nonblocking operations are still outstanding and
 *   freed in random order; their contents (a pattern each owner writes)
 *   are read by gets from random targets. */
#define NSA 192       /* shared accumulate elements per type and target */
#define NMX 4         /* most mutexes per process */
#define NGA 32        /* group-shared accumulate elements */
#define GSL 64        /* bytes of a member's slot on each member */
#define NTR 3         /* most extra regions alive */
#define MXBURST 6     /* locked updates of one counter by everyone at once */

typedef struct {
    int i[NSA];
    long l[NSA];
    double d[NSA];
} sacc_t;

static void **A, **M;            /* shared accumulate area, mutex counters */
static int *sa_i;                /* [t][NSA] my contributions */
static long *sa_l, *mx_inc;      /* mx_inc: [h][NMX] my increments */
static double *sa_d;
static int nmx;                  /* mutexes per process now */
static int sx_last;              /* the checkpoint being run is the last */
static struct {
    int live, member, size, rank, *abs;
    ARMCI_Group g;
    void **ptr;
    long *ca;                    /* my contributions: [group rank][NGA] */
    unsigned char *model;        /* my slot on each member: [size][GSL] */
} grp;
static struct {
    void **ptr;
    int serial;
    long *size;                  /* [np] */
} treg[NTR];
static int ntreg, tserial;

static unsigned char tpat(int serial, int t, long off)
{
    return (unsigned char)(serial * 131 + t * 31 + off * 7 + (off >> 8));
}

static void sx_alloc_A(void)
{
    A = malloc((size_t)np * sizeof *A);
    ARMCI_Malloc(A, sizeof(sacc_t));
    memset(A[me], 0, sizeof(sacc_t));
    memset(sa_i, 0, (size_t)np * NSA * sizeof *sa_i);
    memset(sa_l, 0, (size_t)np * NSA * sizeof *sa_l);
    memset(sa_d, 0, (size_t)np * NSA * sizeof *sa_d);
}

static void sx_group_create(void);

static void sx_init(void)
{
    sa_i = calloc((size_t)np * NSA, sizeof *sa_i);
    sa_l = calloc((size_t)np * NSA, sizeof *sa_l);
    sa_d = calloc((size_t)np * NSA, sizeof *sa_d);
    mx_inc = calloc((size_t)np * NMX, sizeof *mx_inc);
    sx_alloc_A();
    M = malloc((size_t)np * sizeof *M);
    ARMCI_Malloc(M, NMX * 2 * sizeof(long));
    memset(M[me], 0, NMX * 2 * sizeof(long));
    nmx = 1 + crnd(NMX);
    ARMCI_Create_mutexes(nmx);
    sx_group_create();
}

/* element e of type ty on target t gets v (scaled by sc) in my model */
static void sa_note(int ty, int t, int e, int v, int sc)
{
    size_t k = (size_t)t * NSA + (size_t)e;
    if (ty == 0)
        sa_i[k] += sc * v;
    else if (ty == 1)
        sa_l[k] += (long)sc * v * 1000003L;
    else
        sa_d[k] += (double)sc * v;
}

static void sa_put_val(char *p, int ty, int v)
{
    if (ty == 0)
        memcpy(p, &v, 4);
    else if (ty == 1) {
        long l = (long)v * 1000003L;
        memcpy(p, &l, 8);
    } else {
        double d = v;
        memcpy(p, &d, 8);
    }
}

/* K_SACC (contiguous), K_SACCS (strided, levels 1-2), K_SACCV (vector) */
static void sx_sacc(int kind)
{
    static const int atype[3] = {ARMCI_ACC_INT, ARMCI_ACC_LNG, ARMCI_ACC_DBL};
    static char buf[NSA * 8 * 4];
    int t = rnd(np), ty = rnd(3), e = ty ? 8 : 4, sc = rnd(4) ? 1 + rnd(3) : -1, nb = rnd(3) == 0;
    int si = sc;
    long sl = sc;
    double sd = sc;
    void *scale = ty == 0 ? (void *)&si : ty == 1 ? (void *)&sl : (void *)&sd;
    sacc_t *ra = A[t];
    char *rb = ty == 0 ? (char *)ra->i : ty == 1 ? (char *)ra->l : (char *)ra->d;
    armci_hdl_t h, *hp = NULL;
    if (nb) {
        ARMCI_INIT_HANDLE(&h);
        hp = rnd(2) ? &h : NULL;
    }
    if (kind == K_SACC) {
        int n = 1 + rnd(NSA), r0 = rnd(NSA - n + 1);
        for (int i = 0; i < n; i++) {
            int v = rnd(9) - 4;
            sa_put_val(buf + (size_t)i * e, ty, v);
            sa_note(ty, t, r0 + i, v, sc);
        }
        if (nb)
            ARMCI_NbAcc(atype[ty], scale, buf, rb + (size_t)r0 * e, n * e, t, hp);
        else
            ARMCI_Acc(atype[ty], scale, buf, rb + (size_t)r0 * e, n * e, t);
    } else if (kind == K_SACCS) {
        /* element blocks of k, c1 blocks at remote stride s1 (>= k), c2
         * groups at stride s2 (>= extent of one group); local packed */
        int levels = 1 + rnd(2), k = 1 + rnd(8), c1 = 1 + rnd(6), s1 = k + rnd(5);
        int ext1 = s1 * (c1 - 1) + k, c2 = 1, s2 = ext1;
        if (levels == 2) {
            c2 = 1 + rnd(4);
            s2 = ext1 + rnd(9);
            while (s2 * (c2 - 1) + ext1 > NSA)
                c2--;
        }
        int r0 = rnd(NSA - (s2 * (c2 - 1) + ext1) + 1), n = 0;
        for (int g = 0; g < c2; g++)
            for (int b = 0; b < c1; b++)
                for (int i = 0; i < k; i++, n++) {
                    int v = rnd(9) - 4;
                    sa_put_val(buf + (size_t)n * e, ty, v);
                    sa_note(ty, t, r0 + g * s2 + b * s1 + i, v, sc);
                }
        int count[3] = {k * e, c1, c2}, rs[2] = {s1 * e, s2 * e}, ls[2] = {k * e, k * c1 * e};
        if (nb)
            ARMCI_NbAccS(atype[ty], scale, buf, ls, rb + (size_t)r0 * e, rs, count, levels, t,
                         hp);
        else
            ARMCI_AccS(atype[ty], scale, buf, ls, rb + (size_t)r0 * e, rs, count, levels, t);
    } else {
        /* descriptors of n segments of k elements anywhere: may overlap */
        int nd = 1 + rnd(2), used = 0;
        void *sp[64], *dp[64];
        armci_giov_t iov[2];
        for (int d = 0; d < nd; d++) {
            int n = 1 + rnd(32), k = 1 + rnd(4);
            for (int s = 0; s < n; s++, used++) {
                int r = rnd(NSA - k + 1);
                sp[used] = buf + (size_t)used * 4 * e;
                dp[used] = rb + (size_t)r * e;
                for (int i = 0; i < k; i++) {
                    int v = rnd(9) - 4;
                    sa_put_val(buf + ((size_t)used * 4 + i) * e, ty, v);
                    sa_note(ty, t, r + i, v, sc);
                }
            }
            iov[d] = (armci_giov_t){sp + used - n, dp + used - n, k * e, n};
        }
        if (nb)
            ARMCI_NbAccV(atype[ty], scale, iov, nd, t, hp);
        else
            ARMCI_AccV(atype[ty], scale, iov, nd, t);
    }
    if (nb) {  /* the buffer is static: complete before reuse */
        if (hp)
            ARMCI_Wait(hp);
        else
            ARMCI_WaitProc(t);
    }
}

/* Read-modify-write of a counter pair under a mutex. */
static void sx_locked_at(int h, int m)
{
    long inc = 1 + rnd(5), v[2], *c = (long *)M[h] + 2 * m;
    ARMCI_Lock(m, h);
    ARMCI_Get(c, v, sizeof v, h);
    CHECK(v[0] == v[1], "seed %llu rank %d op %ld mutex %d on %d: the pair holds %ld, %ld "
          "inside the lock (another holder is half way)", seed, me, cur_op, m, h, v[0], v[1]);
    v[0] += inc;
    ARMCI_Put(&v[0], c, sizeof(long), h);
    ARMCI_Fence(h);
    v[1] += inc;
    ARMCI_Put(&v[1], c + 1, sizeof(long), h);
    ARMCI_Fence(h);
    ARMCI_Unlock(m, h);
    mx_inc[(size_t)h * NMX + m] += inc;
}

static void sx_locked(void)
{
    int h = rnd(np);
    sx_locked_at(h, rnd(nmx));
}

/* Group region on each member: long acc[NGA], then size slots of GSL. */
static void sx_group_op(void)
{
    int gr = rnd(grp.size), t = grp.abs[gr];
    char *base = grp.ptr[gr];
    if (rnd(2)) {
        long buf[NGA], sc = 1;
        int n = 1 + rnd(NGA), r0 = rnd(NGA - n + 1);
        for (int i = 0; i < n; i++) {
            buf[i] = 1 + rnd(100);
            grp.ca[(size_t)gr * NGA + r0 + i] += buf[i];
        }
        ARMCI_Acc(ARMCI_ACC_LNG, &sc, buf, (long *)base + r0, n * 8, t);
    } else {
        unsigned char buf[GSL], back[GSL], *m = grp.model + (size_t)gr * GSL;
        int n = 1 + rnd(GSL), off = rnd(GSL - n + 1);
        char *slot = base + NGA * 8 + (size_t)grp.rank * GSL + off;
        fill_random(buf, n);
        memcpy(m + off, buf, (size_t)n);
        ARMCI_Put(buf, slot, n, t);
        memset(back, 0, sizeof back);
        ARMCI_Get(slot, back, n, t);
        report_bytes(cur_op, K_GRP, t, off, m + off, back, n, "group slot");
    }
}

/* A get from a random extra region on a random target with memory. */
static void sx_tget(void)
{
    unsigned char buf[256];
    if (!ntreg)
        return;
    int r = rnd(ntreg), t = rnd(np);
    if (!treg[r].size[t])
        return;
    long sz = treg[r].size[t], n = 1 + rnd(sz < 256 ? (int)sz : 256), off = rnd((int)(sz - n + 1));
    unsigned char exp[256];
    ARMCI_Get((char *)treg[r].ptr[t] + off, buf, (int)n, t);
    for (long i = 0; i < n; i++)
        exp[i] = tpat(treg[r].serial, t, off + i);
    report_bytes(cur_op, K_TGET, t, (int)off, exp, buf, (int)n, "extra region");
}

static void sx_op(int kind)
{
    if (kind <= K_SACCV)
        sx_sacc(kind);
    else if (kind == K_LOCKED)
        sx_locked();
    else if (kind == K_GRP && grp.live && grp.member)
        sx_group_op();
    else
        sx_tget();
}

/* Before the checkpoint completes anything: allocate an extra region
 * while nonblocking operations are outstanding. */
static void sx_before_checkpoint(void)
{
    if (ntreg == NTR || !crnd(2))
        return;
    treg[ntreg].ptr = malloc((size_t)np * sizeof(void *));
    treg[ntreg].size = malloc((size_t)np * sizeof(long));
    treg[ntreg].serial = ++tserial;
    for (int p = 0; p < np; p++)  /* common stream: everyone knows every size */
        treg[ntreg].size[p] = crnd(4) ? 1 + crnd(crnd(2) ? 100000 : 2000) : 0;
    long mine = treg[ntreg].size[me];
    ARMCI_Malloc(treg[ntreg].ptr, (armci_size_t)mine);
    CHECK(mine == 0 || treg[ntreg].ptr[me], "ARMCI_Malloc of %ld bytes gave NULL", mine);
    for (long i = 0; i < mine; i++)
        ((unsigned char *)treg[ntreg].ptr[me])[i] = tpat(tserial, me, i);
    counts[X_ALLOC]++;
    ntreg++;
    ARMCI_Barrier();  /* patterns written before anyone reads */
}

static void sx_check(long epoch_end, long epoch)
{
    /* shared accumulate area */
    int *si;
    long *sl;
    double *sd;
    sum_over_ranks(sa_i, sa_l, sa_d, np * NSA, &si, &sl, &sd);
    int t = (int)((me + 1 + epoch) % np);
    sacc_t *got = malloc(sizeof *got), *mine = A[me];
    ARMCI_Get(A[t], got, sizeof *got, t);
    ARMCI_Access_begin(mine);
    for (int pass = 0; pass < 2; pass++) {
        sacc_t *a = pass ? got : mine;
        int o = pass ? t : me, bad = 0;
        for (int i = 0; i < NSA && !bad; i++) {
            size_t k = (size_t)o * NSA + (size_t)i;
            if (a->i[i] != si[k] || a->l[i] != sl[k] || a->d[i] != sd[k]) {
                bad = 1;
                CHECK(0, "seed %llu rank %d checkpoint after op %ld: shared accumulate element "
                      "%d on %d (%s) holds int %d long %ld double %.17g; every origin's sum is "
                      "%d, %ld, %.17g", seed, me, epoch_end, i, o, pass ? "get" : "memory",
                      a->i[i], a->l[i], a->d[i], si[k], sl[k], sd[k]);
            }
        }
    }
    ARMCI_Access_end(mine);
    free(si), free(sl), free(sd), free(got);

    /* mutex counters */
    long *inc = malloc((size_t)np * NMX * sizeof *inc), *c = M[me];
    MPI_Allreduce(mx_inc, inc, np * NMX, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    ARMCI_Access_begin(c);
    for (int m = 0; m < NMX; m++)
        CHECK(c[2 * m] == inc[(size_t)me * NMX + m] && c[2 * m + 1] == c[2 * m],
              "seed %llu rank %d checkpoint after op %ld: mutex-protected counter %d holds "
              "%ld, %ld; the increments sum to %ld (lost update: no mutual exclusion)", seed,
              me, epoch_end, m, c[2 * m], c[2 * m + 1], inc[(size_t)me * NMX + m]);
    ARMCI_Access_end(c);
    free(inc);

    /* group region: its members sum their contributions */
    if (grp.live && grp.member) {
        MPI_Comm gc = armci_group_comm(&grp.g);
        int S = grp.size, r = grp.rank;
        long *sum = malloc((size_t)S * NGA * sizeof *sum);
        unsigned char *all = malloc((size_t)S * S * GSL);
        MPI_Allreduce(grp.ca, sum, S * NGA, MPI_LONG, MPI_SUM, gc);
        MPI_Allgather(grp.model, S * GSL, MPI_BYTE, all, S * GSL, MPI_BYTE, gc);
        long *acc = grp.ptr[r];
        unsigned char *slots = (unsigned char *)grp.ptr[r] + NGA * 8;
        ARMCI_Access_begin(acc);
        for (int i = 0; i < NGA; i++)
            CHECK(acc[i] == sum[(size_t)r * NGA + i], "seed %llu rank %d (group rank %d of %d) "
                  "checkpoint after op %ld: group accumulate element %d holds %ld, members' "
                  "sum %ld", seed, me, r, S, epoch_end, i, acc[i], sum[(size_t)r * NGA + i]);
        for (int q = 0; q < S; q++)
            report_bytes(epoch_end, K_GRP, me, 0, all + ((size_t)q * S + r) * GSL,
                         slots + (size_t)q * GSL, GSL, "checkpoint: group member's slot");
        ARMCI_Access_end(acc);
        free(sum), free(all);
    }
}

static void sx_group_free(void)
{
    if (grp.member)
        ARMCI_Free_group(grp.ptr[grp.rank], &grp.g);
    ARMCI_Group_free(&grp.g);
    free(grp.ptr), free(grp.abs), free(grp.ca), free(grp.model);
    grp.live = 0;
}

/* Collective over the world: a group of a random subset in random order
 * (group rank i is world rank perm[i]) and a region on it. */
static void sx_group_create(void)
{
    {
        int n = 1 + crnd(np), *perm = malloc((size_t)np * sizeof(int));
        for (int i = 0; i < np; i++)
            perm[i] = i;
        for (int i = np - 1; i > 0; i--) {
            int j = crnd(i + 1), v = perm[i];
            perm[i] = perm[j], perm[j] = v;
        }
        ARMCI_Group_create(n, perm, &grp.g);
        int r, S;
        ARMCI_Group_rank(&grp.g, &r);
        ARMCI_Group_size(&grp.g, &S);
        grp.member = 0;
        for (int i = 0; i < n; i++)
            if (perm[i] == me)
                grp.member = 1, grp.rank = i;
        CHECK(grp.member ? r == grp.rank && S == n : r == -1,
              "seed %llu rank %d: ARMCI_Group_rank %d, size %d of a group of %d", seed, me, r,
              S, n);
        grp.size = n;
        grp.abs = malloc((size_t)n * sizeof(int));
        grp.ptr = malloc((size_t)n * sizeof(void *));
        grp.ca = calloc((size_t)n * NGA, sizeof(long));
        grp.model = calloc((size_t)n * GSL, 1);
        if (grp.member) {
            for (int i = 0; i < n; i++) {
                grp.abs[i] = ARMCI_Absolute_id(&grp.g, i);
                CHECK(grp.abs[i] == perm[i], "seed %llu rank %d: ARMCI_Absolute_id(%d) = %d, "
                      "expected %d", seed, me, i, grp.abs[i], perm[i]);
            }
            ARMCI_Malloc_group(grp.ptr, NGA * 8 + (armci_size_t)n * GSL, &grp.g);
            memset(grp.ptr[grp.rank], 0, NGA * 8 + (size_t)n * GSL);
        }
        free(perm);
        grp.live = 1;
        counts[X_GROUP]++;
    }
}

/* After every check, before anyone writes again: change the structure. */
static void sx_reshape(void)
{
    if (grp.live && crnd(2))
        sx_group_free();
    if (!grp.live && crnd(3))
        sx_group_create();
    if (ntreg && crnd(2)) {  /* free one extra region, not always the last */
        int r = crnd(ntreg);
        ARMCI_Free(treg[r].ptr[me]);
        free(treg[r].ptr), free(treg[r].size);
        treg[r] = treg[--ntreg];
    }
    if (!crnd(4)) {
        ARMCI_Free(A[me]);
        free(A);
        sx_alloc_A();
        counts[X_ALLOC]++;
    }
    if (!crnd(4)) {
        ARMCI_Destroy_mutexes();
        nmx = 1 + crnd(NMX);
        ARMCI_Create_mutexes(nmx);
        counts[X_MUTEXSET]++;
    }
    ARMCI_Barrier();  /* every check done, new regions zeroed */
    /* every rank leaves the barrier into the same critical section
     * (checked at the next checkpoint: none after the last) */
    int h = crnd(np), m = crnd(nmx);
    if (sx_last)
        return;
    for (int i = 0; i < MXBURST; i++)
        sx_locked_at(h, m);
}

static void sx_finish(void)
{
    ARMCI_Barrier();
    if (grp.live)
        sx_group_free();
    while (ntreg) {
        ARMCI_Free(treg[--ntreg].ptr[me]);
        free(treg[ntreg].ptr), free(treg[ntreg].size);
    }
    ARMCI_Destroy_mutexes();
    ARMCI_Free(A[me]);
    ARMCI_Free(M[me]);
    free(A), free(M), free(sa_i), free(sa_l), free(sa_d), free(mx_inc);
}
