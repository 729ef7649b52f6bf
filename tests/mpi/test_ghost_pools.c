/*
 * Ghost memory pools at their limits.  With a first partition of one page
 * (ARMCI_GHOST_POOL_SIZE=4096 unless set) and regions of 40 KiB, every
 * world allocation needs a new pool (later pools double up to 16 pages),
 * so the pool table fills: the test checks that
 *  - the pools grow past 32 (a region records its pools in a bit set,
 *    which was a 32-bit unsigned: pool 32 and up shifted out of range and
 *    fences skipped those pools) and up to the table's 64;
 *  - a freed slice is reused by the next allocation of its size (no new
 *    pool);
 *  - once the table is full, allocations still succeed and keep the
 *    direct path (the full-pool fallback): on virtual nodes with
 *    redirection on, an accumulate to a rank of another virtual node on a
 *    region in a pool goes to a ghost and one on a region allocated after
 *    the table filled does not (every
 *    partition from the third on is 64 KiB, so none has room for another
 *    40 KiB slice);
 *  - every region, in every pool, carries accumulates and puts from every
 *    rank exactly, completed by ARMCI_Fence (which flushes a region's
 *    pools through that bit set) and ARMCI_Barrier.
 * In other builds there are no pools and the same writes are checked.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <armci.h>
#include "../testutil.h"
#include "region_pattern.h"
#include "ghost_setting.h"

int armcii_gmr_ghost_pools(void);          /* src/gmr/gmr.h */
unsigned long armcii_gmr_redirected(void); /* src/gmr/gmr.h */

#define NREG 80
#define REG_BYTES (40 * 1024)
#define MAX_POOLS 64 /* ARMCII_GHOST_MAX_POOLS */

static int me, np;

static void **alloc_region(void)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    if (!ptr || ARMCI_Malloc(ptr, REG_BYTES))
        CHECK(0, "ARMCI_Malloc of %d bytes failed", REG_BYTES);
    memset(ptr[me], 0, REG_BYTES);
    return ptr;
}

int main(int argc, char **argv)
{
    setenv("ARMCI_GHOST_POOL_SIZE", "4096", 0); /* read by the ghost layer's MPI_Init */
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_pools";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int real_np;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    int ghosts = real_np > np && armcii_gmr_ghost_pools() > 0;
    void **reg[NREG];
    int i;
    for (i = 0; i < 8; i++)
        reg[i] = alloc_region();
    /* A freed slice is found again: no new pool for a region of its size. */
    int before = armcii_gmr_ghost_pools();
    ARMCI_Free(reg[3][me]);
    free(reg[3]);
    reg[3] = alloc_region();
    CHECK(armcii_gmr_ghost_pools() == before, "reallocating a freed 40 KiB slice grew the "
          "pools from %d to %d", before, armcii_gmr_ghost_pools());
    int full_at = -1;
    for (; i < NREG; i++) {
        reg[i] = alloc_region();
        if (full_at < 0 && armcii_gmr_ghost_pools() == MAX_POOLS)
            full_at = i;
    }
    if (ghosts) {
        CHECK(armcii_gmr_ghost_pools() == MAX_POOLS, "%d pools after %d allocations of 40 KiB "
              "from a one-page first pool, expected the table's %d", armcii_gmr_ghost_pools(),
              NREG, MAX_POOLS);
        CHECK(full_at >= 0 && full_at < NREG - 4, "the pool table filled at region %d of %d: "
              "too late to test the full-pool fallback", full_at, NREG);
    } else {
        CHECK(armcii_gmr_ghost_pools() == 0, "%d ghost pools without ghosts",
              armcii_gmr_ghost_pools());
    }
    /* redirection on across virtual nodes: which path each region took */
    const char *vn = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int paths = ghosts && vn && atoi(vn) > 0 && atoi(vn) < np && full_at >= 0 && tg_async_on();
    ARMCI_Barrier();
    for (i = 0; i < NREG; i++) {
        rp_write(reg[i], i, me, np, 1);
        /* the path, probed on a rank of another virtual node (accumulates
         * to this node's ranks are CPU work where ghosts apply them too),
         * in the region's last double, which rp_check does not read */
        int far = (me + np / 2) % np;
        double one = 1;
        unsigned long r0 = armcii_gmr_redirected();
        ARMCI_Acc(ARMCI_ACC_DBL, &one, &one, (double *)reg[i][far] + REG_BYTES / 8 - 1,
                  sizeof(double), far);
        unsigned long r = armcii_gmr_redirected() - r0;
        if (paths && i <= full_at)
            CHECK(r > 0, "region %d (in a pool) was not redirected to a ghost", i);
        if (paths && i > full_at)
            CHECK(r == 0, "region %d (allocated after the pool table filled at region %d) "
                  "went to a ghost, expected the direct path", i, full_at);
    }
    ARMCI_Barrier();
    for (i = 0; i < NREG; i++)
        rp_check(reg[i], i, me, np, "pooled");
    ARMCI_Barrier();
    for (i = 0; i < NREG; i++) {
        ARMCI_Free(reg[i][me]);
        free(reg[i]);
    }
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
