/*
 * Minimal pure-MPI reproducer (no ARMCI): lost MPI_Accumulate updates when
 * the target datatype is an indexed/hindexed derived type and several
 * origins accumulate concurrently inside MPI_Win_lock_all + MPI_Win_flush.
 *
 * usage: ompi_indexed_acc_repro [allocate|create|shared] [TYPES] [OPTS]
 *   window: MPI_Win_allocate, MPI_Alloc_mem + MPI_Win_create, or
 *           MPI_Win_allocate_shared (single node only)
 *   TYPES: comma-separated target types: hindexed (byte displacements),
 *           indexed (element displacements) or contig (control: one
 *           contiguous op per block)
 *   OPTS: comma-separated option sets, each run with each type on a fresh
 *           window (one launch for many cases: a launch of 4 ranks costs
 *           more than a case); letters: e (flush each target, default),
 *           n (no flush until flush_all), l (flush_local), o (the target
 *           type on the origin side too), m (4096 blocks), b (long blocks)
 * Pick the osc component with `mpiexec --mca osc pt2pt|rdma|sm|ucx ...`.
 *
 * Every rank adds 1 to a fixed scattered set of doubles on every rank,
 * REPS times, with one accumulate per repetition.  Afterwards each covered
 * element must equal nproc * REPS, every other element 0.
 * Exit: 0 = all updates applied; 2 = updates lost in some case (the MPI
 * bug, printed as "LOST n of m updates ... type=T opt=O"); 1 = could not
 * run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define MAXBLK 4096
static int NBLK = 24;   /* blocks per accumulate */
static int REPS = 200;
static int NELEM;       /* doubles per window slice */

static int blen[MAXBLK], disp[MAXBLK]; /* in doubles */

static void make_layout(int mult)
{
    /* irregular block lengths and gaps, blocks sorted and disjoint */
    int pos = 1;
    for (int i = 0; i < NBLK; i++) {
        blen[i] = (1 + (i * 7) % 5) * mult;
        disp[i] = pos;
        pos += blen[i] + 1 + (i * 13) % 9;
    }
    NELEM = pos + 1;
}

static MPI_Datatype target_type(const char *kind, int *count)
{
    MPI_Datatype t;
    if (!strcmp(kind, "indexed")) {
        MPI_Type_indexed(NBLK, blen, disp, MPI_DOUBLE, &t);
    } else {
        MPI_Aint bd[NBLK];
        for (int i = 0; i < NBLK; i++)
            bd[i] = (MPI_Aint)disp[i] * (MPI_Aint)sizeof(double);
        MPI_Type_create_hindexed(NBLK, blen, bd, MPI_DOUBLE, &t);
    }
    MPI_Type_commit(&t);
    *count = 1;
    return t;
}

/* One case on a fresh window; returns 2 when updates were lost (all ranks). */
static int run_case(const char *wkind, const char *tkind, const char *opt)
{
    int me, np, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    NBLK = 24, REPS = 200;
    if (strchr(opt, 'm'))
        NBLK = MAXBLK, REPS = 20;
    make_layout(strchr(opt, 'b') ? 512 : 1);
    for (int i = 0; i < NBLK; i++)
        total += blen[i];

    double *base = NULL;
    MPI_Win win;
    MPI_Aint bytes = NELEM * sizeof(double);
    if (!strcmp(wkind, "create")) {
        MPI_Alloc_mem(bytes, MPI_INFO_NULL, &base);
        MPI_Win_create(base, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else if (!strcmp(wkind, "shared")) {
        MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else {
        MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    }
    memset(base, 0, (size_t)bytes);
    MPI_Barrier(MPI_COMM_WORLD);

    double *ones = malloc((size_t)total * sizeof(double));
    for (int i = 0; i < total; i++)
        ones[i] = 1.0;
    char flush = strchr(opt, 'n') ? 'n' : strchr(opt, 'l') ? 'l' : 'e';
    int odt = strchr(opt, 'o') != NULL;
    double *scat = malloc(NELEM * sizeof(double));
    for (int i = 0; i < NELEM; i++)
        scat[i] = 1.0;
    int tcount;
    MPI_Datatype tt = target_type(tkind, &tcount);

    MPI_Win_lock_all(0, win);
    for (int r = 0; r < REPS; r++) {
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            if (!strcmp(tkind, "contig")) {
                for (int b = 0, o = 0; b < NBLK; o += blen[b], b++)
                    MPI_Accumulate(ones + o, blen[b], MPI_DOUBLE, t,
                                   (MPI_Aint)disp[b] * (MPI_Aint)sizeof(double),
                                   blen[b], MPI_DOUBLE, MPI_SUM, win);
            } else if (odt) {
                MPI_Accumulate(scat, 1, tt, t, 0, tcount, tt, MPI_SUM, win);
            } else {
                MPI_Accumulate(ones, total, MPI_DOUBLE, t, 0, tcount, tt, MPI_SUM, win);
            }
            if (flush == 'e')
                MPI_Win_flush(t, win);
            else if (flush == 'l')
                MPI_Win_flush_local(t, win);
        }
        if (flush != 'e')
            MPI_Win_flush_all(win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    /* inside an epoch: Open MPI 4.1's osc/ucx refuses MPI_Win_sync outside
     * one (MPI_ERR_RMA_SYNC), as MPI-3.1 allows it to */
    MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
    MPI_Win_sync(win);
    MPI_Win_unlock(me, win);

    long lost = 0, wrong = 0;
    char *covered = calloc(NELEM, 1);
    for (int b = 0; b < NBLK; b++)
        for (int j = 0; j < blen[b]; j++)
            covered[disp[b] + j] = 1;
    for (int i = 0; i < NELEM; i++) {
        double expect = covered[i] ? (double)np * REPS : 0.0;
        if (base[i] < expect)
            lost += (long)(expect - base[i]);
        else if (base[i] != expect)
            wrong++;
    }
    long tl = 0, tw = 0;
    MPI_Reduce(&lost, &tl, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&wrong, &tw, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (me == 0) {
        long expected = (long)np * np * REPS * total;
        if (tl || tw) {
            printf("LOST %ld of %ld updates (%ld other wrong elements) window=%s type=%s "
                   "opt=%s\n", tl, expected, tw, wkind, tkind, opt);
            rc = 2;
        } else {
            printf("OK all %ld updates applied window=%s type=%s opt=%s\n", expected, wkind,
                   tkind, opt);
        }
        fflush(stdout);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Type_free(&tt);
    MPI_Win_free(&win);
    if (!strcmp(wkind, "create"))
        MPI_Free_mem(base);
    free(ones);
    free(scat);
    free(covered);
    return rc;
}

int main(int argc, char **argv)
{
    const char *wkind = argc > 1 ? argv[1] : "allocate";
    char types[256], opts[256], *ts, *os;
    snprintf(types, sizeof types, "%s", argc > 2 ? argv[2] : "hindexed");
    snprintf(opts, sizeof opts, "%s", argc > 3 ? argv[3] : "e");
    MPI_Init(&argc, &argv);
    int rc = 0;
    for (char *t = strtok_r(types, ",", &ts); t; t = strtok_r(NULL, ",", &ts)) {
        char olist[256];
        snprintf(olist, sizeof olist, "%s", opts);
        for (char *o = strtok_r(olist, ",", &os); o; o = strtok_r(NULL, ",", &os))
            rc |= run_case(wkind, t, o);
    }
    MPI_Finalize();
    return rc;
}
