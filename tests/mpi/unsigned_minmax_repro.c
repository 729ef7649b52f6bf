/*
 * Minimal pure-MPI reproducer (no ARMCI): MPI_MAX and MPI_MIN on
 * MPI_UNSIGNED_LONG compare as signed in Open MPI 4.1.4 and MPICH 4.0.2,
 * Debian 12's (Open MPI issues 10276 and 10525, MPICH issue 6083):
 * max(2^64 - 2, 0) comes out 0.  Values below 2^63 are
 * unaffected, and so are signed types.  The library's reductions of
 * unsigned values (sizes, limits) stay below 2^63, and the free's
 * agreement on a region (src/gmr/gmr_region.c, armcii_gmr_destroy), which
 * needs a minimum as well as a maximum, reduces signed longs and their
 * negations instead of unsigned complements.
 *
 * usage: unsigned_minmax_repro [workaround] (any number of ranks): with no
 * argument exits 0 when MPI_Allreduce and MPI_Reduce_local give unsigned
 * maxima and minima right, 2 when they compare as signed (what went wrong
 * on stdout); with "workaround" checks the form the library uses (MPI_LONG
 * maxima of x and -x give the largest and smallest x) and exits 0 when
 * right, 1 when not.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <mpi.h>

static int unsigned_wrong(int me)
{
    unsigned long big = ULONG_MAX - 1, v[2] = {me == 0 ? big : 0, me == 0 ? big : 0}, loc = 0;
    MPI_Allreduce(MPI_IN_PLACE, &v[0], 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &v[1], 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Reduce_local(&big, &loc, 1, MPI_UNSIGNED_LONG, MPI_MAX);
    int np, wrong = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (v[0] != big) {
        printf("MPI_Allreduce MPI_MAX of MPI_UNSIGNED_LONG %lu and 0 gave %lu\n", big, v[0]);
        wrong = 1;
    }
    if (np > 1 && v[1] != 0) {
        printf("MPI_Allreduce MPI_MIN of MPI_UNSIGNED_LONG %lu and 0 gave %lu\n", big, v[1]);
        wrong = 1;
    }
    if (loc != big) {
        printf("MPI_Reduce_local MPI_MAX of MPI_UNSIGNED_LONG %lu and 0 gave %lu\n", big, loc);
        wrong = 1;
    }
    return wrong;
}

static int workaround_wrong(int me)
{
    /* what the library reduces: addresses below 2^63 and their negations */
    long x = (long)(LONG_MAX / 2 + (long)me * 4096), v[2] = {x, -x};
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    long hi = LONG_MAX / 2 + (long)(np - 1) * 4096, lo = LONG_MAX / 2;
    if (v[0] != hi || -v[1] != lo) {
        printf("MPI_LONG maxima of x and -x gave %ld and %ld, expected %ld and %ld\n", v[0],
               -v[1], hi, lo);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int rc = argc > 1 && !strcmp(argv[1], "workaround") ? workaround_wrong(me)
                                                        : 2 * unsigned_wrong(me);
    MPI_Finalize();
    return rc;
}
