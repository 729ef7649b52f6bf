/*
 * The write-and-check pattern of the many-region tests (test_ghost_regions,
 * test_ghost_pools): on region i every rank adds me+1 into slot 0 at
 * target (i+me)%np and puts its rank into slot 1+me at target (i+1)%np, so
 * each region sees accumulates from several origins and puts to distinct
 * slots.  A region holds at least np+1 doubles.  Include after testutil.h.
 */
#ifndef ARMCI_REGION_PATTERN_H
#define ARMCI_REGION_PATTERN_H
#include <armci.h>

/* Issue rank me's writes to region i; with fence, complete them at both
 * targets (ARMCI_Fence) before returning. */
static void rp_write(void **ptr, int i, int me, int np, int fence)
{
    double one = 1.0, mine = me, scale = me + 1;
    int t = (i + me) % np, u = (i + 1) % np;
    ARMCI_Acc(ARMCI_ACC_DBL, &scale, &one, ptr[t], sizeof(double), t);
    ARMCI_Put(&mine, (double *)ptr[u] + 1 + me, sizeof(double), u);
    if (fence) {
        ARMCI_Fence(t);
        ARMCI_Fence(u);
    }
}

/* After every rank's rp_write and a barrier: my slice of region i. */
static void rp_check(void **ptr, int i, int me, int np, const char *what)
{
    const double *d = ptr[me];
    double want = 0;
    for (int r = 0; r < np; r++)
        if ((i + r) % np == me)
            want += r + 1;
    CHECK(d[0] == want, "%s region %d: slot 0 = %g, expected %g", what, i, d[0], want);
    if ((i + 1) % np == me)
        for (int r = 0; r < np; r++)
            CHECK(d[1 + r] == r, "%s region %d: slot %d = %g, expected %d", what, i, 1 + r,
                  d[1 + r], r);
}
#endif
