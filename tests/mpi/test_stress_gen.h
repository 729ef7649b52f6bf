/* test_stress.c's random streams and transfer shapes (included once, after
 * its state: the operation streams depend only on the seed, the rank and
 * the rank count). */
static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* xorshift64* */
static uint64_t xs(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static int rnd(int n) { return (int)((xs(&rstate) >> 11) % (uint64_t)n); }
static int crnd(int n) { return (int)((xs(&cstate) >> 11) % (uint64_t)n); }

static void fill_random(unsigned char *p, int n)
{
    while (n > 0) {
        uint64_t v = xs(&rstate);
        int k = n < 8 ? n : 8;
        memcpy(p, &v, (size_t)k);
        p += k, n -= k;
    }
}

/* ---- transfer shapes: segments of my area on the target (roff) and of
 * the local buffer (loff) ---- */
typedef struct {
    int kind, t, nseg;
    int roff[MAXSEG], loff[MAXSEG], len[MAXSEG];
    int levels, count[5], ls[4], rs[4], rbase, lbase;  /* strided */
    int ndesc, dbytes[3], dn[3];                        /* vector */
    void *sp[MAXSEG], *dp[MAXSEG];
    armci_giov_t iov[3];
} xfer_t;

static void gen_contig(xfer_t *x)
{
    int len = 1 + (rnd(8) ? rnd(256) : rnd(AREA));
    x->nseg = 1;
    x->len[0] = len;
    x->roff[0] = rnd(AREA - len + 1);
    x->loff[0] = rnd(BUFSZ - len + 1);
}

/* Strides at least the extent of the level below: blocks never overlap on
 * either side (overlapping destinations in one call are unordered). */
static void gen_strided(xfer_t *x)
{
    x->levels = rnd(5);
    int c0 = 1 + (rnd(4) ? rnd(48) : rnd(256));
    long rext = c0, lext = c0, nblk = 1;
    x->count[0] = c0;
    for (int k = 1; k <= x->levels; k++) {
        int c = 1 + rnd(4);
        int rstr = (int)rext + rnd(17), lstr = (int)lext + rnd(9);
        if (rext + (long)rstr * (c - 1) > AREA || lext + (long)lstr * (c - 1) > BUFSZ ||
            nblk * c > MAXSEG)
            c = 1;
        x->count[k] = c;
        x->rs[k - 1] = rstr;
        x->ls[k - 1] = lstr;
        rext += (long)rstr * (c - 1);
        lext += (long)lstr * (c - 1);
        nblk *= c;
    }
    x->rbase = rnd(AREA - (int)rext + 1);
    x->lbase = rnd(BUFSZ - (int)lext + 1);
    int idx[5] = {0};
    x->nseg = 0;
    for (;;) {
        int ro = x->rbase, lo = x->lbase;
        for (int k = 1; k <= x->levels; k++)
            ro += x->rs[k - 1] * idx[k], lo += x->ls[k - 1] * idx[k];
        x->roff[x->nseg] = ro;
        x->loff[x->nseg] = lo;
        x->len[x->nseg++] = c0;
        int k = 1;
        while (k <= x->levels && ++idx[k] == x->count[k])
            idx[k++] = 0;
        if (k > x->levels)
            break;
    }
}

static void shuffle(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rnd(i + 1), v = p[i];
        p[i] = p[j];
        p[j] = v;
    }
}

/* 1..3 descriptors, each of 1..16 segments of its own size, every segment
 * in its own VSLOT cell on both sides, in random order. */
static void gen_vector(xfer_t *x)
{
    int rp[AREA / VSLOT], lp[BUFSZ / VSLOT], used = 0;
    shuffle(rp, AREA / VSLOT);
    shuffle(lp, BUFSZ / VSLOT);
    x->ndesc = 1 + rnd(3);
    for (int d = 0; d < x->ndesc; d++) {
        int n = 1 + rnd(16), b = 1 + rnd(VSLOT);
        x->dn[d] = n;
        x->dbytes[d] = b;
        for (int i = 0; i < n; i++, used++) {
            x->roff[used] = rp[used] * VSLOT + rnd(VSLOT - b + 1);
            x->loff[used] = lp[used] * VSLOT + rnd(VSLOT - b + 1);
            x->len[used] = b;
        }
    }
    x->nseg = used;
}

/* iov for a put (local -> remote) or a get (remote -> local) */
static armci_giov_t *make_iov(xfer_t *x, char *buf, int put)
{
    char *area = (char *)W[x->t] + (size_t)me * AREA;
    int s = 0;
    for (int d = 0; d < x->ndesc; d++) {
        void **src = x->sp + s, **dst = x->dp + s;
        for (int i = 0; i < x->dn[d]; i++, s++) {
            char *l = buf + x->loff[s], *r = area + x->roff[s];
            x->sp[s] = put ? (void *)l : (void *)r;
            x->dp[s] = put ? (void *)r : (void *)l;
        }
        x->iov[d] = (armci_giov_t){src, dst, x->dbytes[d], x->dn[d]};
    }
    return x->iov;
}
