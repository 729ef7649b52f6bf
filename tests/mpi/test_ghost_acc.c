/* Accumulates and fetch-and-add on regions whose software-handled
 * operations go to ghosts (ghost build, regions spanning virtual nodes):
 * every rank hits every rank, including itself, while some compute; sums
 * and fetched values must be exact.  Repeated allocate/free cycles check
 * that ghosts map and unmap slices; ARMCIX_Set_async_hint(0) regions take
 * the ordinary path.  In other builds it checks the same arithmetic.
 * Redirection is checked, not assumed: the library's internal counter of
 * redirected operations (the test links the library's objects) must grow
 * in the rounds meant to use ghosts and stay put in the hint-0 round and
 * while ARMCIX_Async_phase(0) has switched a live region off.
 * Every fetch-and-add counter must hand out 0..M-1 exactly once. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <armci.h>
#include <armcix.h>
#include "../testutil.h"
#include "ghost_setting.h"

#pragma weak ARMCI_Rmw

#define N 40
static int me, np, ghosts; /* ghosts: the job has ghost processes */

unsigned long armcii_gmr_redirected(void); /* src/gmr/gmr.h */
int armcii_mpi_yields_when_idle(void);      /* src/common/common.h */
static volatile double sink;

static void compute(double ms)
{
    double t0 = MPI_Wtime(), x = 1;
    while ((MPI_Wtime() - t0) * 1e3 < ms)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* Regions within one node and ARMCI_GHOST_ASYNC=OFF are documented not to
 * redirect (every transport does otherwise: the ghosts' pools are plain
 * MPI_Win_create windows); in the automatic mode (the default on a crowded
 * host under an MPI that spins) the library may have switched it off. */
static int redirect_unsupported(void)
{
    const char *vn = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    return !vn || atoi(vn) <= 0 || !tg_async_on();
}

/* Accumulates and fetch-and-adds from every rank into every rank's region
 * while half the ranks compute; checks values exactly and whether
 * operations went to ghosts: hint 0 or phase 0 never, otherwise where
 * redirection is supported. */
static void exercise(void **ptr, int hint, int phase, int iters)
{
    long *mine = ptr[me], src[N], one = 1, fetched = -1;
    memset(mine, 0, (N + 1) * sizeof(long));
    for (int i = 0; i < N; i++)
        src[i] = i + 1;
    ARMCI_Barrier();
    int have_rmw = ARMCI_Rmw != NULL;
    long *fsum = calloc(np, sizeof(long)), *zeros = calloc(np, sizeof(long));
    unsigned long redirected0 = armcii_gmr_redirected();
    for (int it = 0; it < iters; it++) {
        if (me % 2 == it % 2)
            compute(3);
        for (int k = 0; k < np; k++) {
            int t = (me + k) % np;
            ARMCI_Acc(ARMCI_ACC_LNG, &one, src, ptr[t], N * sizeof(long), t);
            if (have_rmw) {
                ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &fetched, (long *)ptr[t] + N, 1, t);
                CHECK(fetched >= 0 && fetched < (long)np * iters, "fetched %ld", fetched);
                fsum[t] += fetched;
                zeros[t] += fetched == 0;
            } else {
                ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, (long *)ptr[t] + N, sizeof(long), t);
            }
        }
    }
    unsigned long redirected = armcii_gmr_redirected() - redirected0;
    ARMCI_Barrier();
    if (have_rmw) {
        /* Counter t handed out 0..M-1 (M = np*iters) once each: the sum and
         * the single 0 are exact over all origins. */
        long m = (long)np * iters;
        MPI_Allreduce(MPI_IN_PLACE, fsum, np, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, zeros, np, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        CHECK(fsum[me] == m * (m - 1) / 2 && zeros[me] == 1,
              "hint %d: fetch-and-add values sum to %ld with %ld zeros, expected %ld and 1",
              hint, fsum[me], zeros[me], m * (m - 1) / 2);
    }
    free(fsum);
    free(zeros);
    if (ghosts && hint != 0 && phase != 0 && !redirect_unsupported())
        CHECK(redirected > 0, "hint %d phase %d: no operation was redirected to a ghost",
              hint, phase);
    if (hint == 0 || phase == 0)
        CHECK(redirected == 0, "hint %d phase %d: %lu operations went to ghosts", hint, phase,
              redirected);
    for (int i = 0; i < N; i++)
        CHECK(mine[i] == (long)iters * np * (i + 1), "hint %d: mine[%d]=%ld expected %ld",
              hint, i, mine[i], (long)iters * np * (i + 1));
    CHECK(mine[N] == (long)np * iters, "hint %d: counter %ld expected %d", hint, mine[N],
          np * iters);
    ARMCI_Barrier();
}

static void round_trip(int hint, int iters)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCIX_Set_async_hint(hint);
    ARMCI_Malloc(ptr, (N + 1) * sizeof(long));
    ARMCIX_Set_async_hint(-1);
    exercise(ptr, hint, -1, iters);
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Contiguous puts and gets follow the per-component decision
 * (armcii_gmr_software_classes): under osc pt2pt, ucx and MPICH they go to ghosts,
 * under Open MPI's osc rdma (modes vn2, off) they do not.  Values are
 * checked either way. */
static void put_get_round(void)
{
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, np * sizeof(long));
    memset(ptr[me], 0, np * sizeof(long));
    ARMCI_Barrier();
    unsigned long r0 = armcii_gmr_redirected();
    for (int k = 0; k < np; k++) {
        int t = (me + k) % np;
        long v = 1000L * me + t, back = -1;
        ARMCI_Put(&v, (long *)ptr[t] + me, sizeof v, t);
        ARMCI_Get((long *)ptr[t] + me, &back, sizeof back, t);
        CHECK(back == v, "put/get round: read %ld from %d, expected %ld", back, t, v);
    }
    unsigned long redirected = armcii_gmr_redirected() - r0;
    ARMCI_Barrier();
    for (int p = 0; p < np; p++)
        CHECK(((long *)ptr[me])[p] == 1000L * p + me, "put/get round: slot %d = %ld", p,
              ((long *)ptr[me])[p]);
    const char *mode = getenv("ARMCI_TEST_MODE"), *am = getenv("ARMCI_GHOST_AM");
    /* software RMA: where puts need the target (osc pt2pt, MPICH, Open MPI
     * 5's osc/rdma) and osc ucx over MPI_Win_create memory, every class
     * goes to ghosts; Open MPI 4.1's osc rdma moves put/get itself, and
     * only small puts go to ghosts, as messages (ARMCI_GHOST_AM=ALL, the
     * default): np of the 2 np operations above at most */
    int software = tu_put_needs_target() || (mode && !strcmp(mode, "ucx"));
    int small_puts = !am || !strcasecmp(am, "all");
    if (ghosts && (software || small_puts) && !redirect_unsupported())
        CHECK(redirected > 0, "no contiguous put/get went to a ghost");
    if (ghosts && !software && mode && (!strcmp(mode, "vn2") || !strcmp(mode, "off")))
        CHECK(redirected <= (small_puts ? (unsigned long)np : 0),
              "osc rdma: %lu contiguous puts/gets went to ghosts", redirected);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

/* Many strided accumulates of m x m/2 doubles (messages whose sends a
 * ghost build leaves in flight, more of them than it keeps, by count at
 * m = 4, by bytes at m = 100; at m = 256, 256 KiB, just over the size it
 * leaves) to a process on the other
 * node, read back at once without a fence, then by the owner after a
 * barrier: reads after writes through a ghost must see every one. */
#define INFLIGHT_ACCS 100
static void writes_in_flight(int m)
{
    const int w = m * m;
    void **ptr = malloc(np * sizeof(void *));
    double *src = malloc((size_t)w * sizeof(double)), *back = malloc((size_t)w * sizeof(double));
    CHECK(ptr && src && back, "writes in flight (m %d): out of memory", m);
    ARMCI_Malloc(ptr, (size_t)np * w * sizeof(double));
    memset(ptr[me], 0, (size_t)np * w * sizeof(double));
    ARMCI_Barrier();
    int t = (me + np / 2) % np; /* the other node when nodes split the ranks in halves */
    double one = 1.0;
    for (int i = 0; i < w; i++)
        src[i] = me + 0.25 * i;
    /* my slot of t: rows of m doubles, 2m apart (a strided patch) */
    double *slot = (double *)ptr[t] + (size_t)me * w;
    int sst[1] = {m * (int)sizeof(double)}, dst[1] = {2 * m * (int)sizeof(double)};
    int cnt[2] = {m * (int)sizeof(double), m / 2};
    for (int k = 0; k < INFLIGHT_ACCS; k++)
        ARMCI_AccS(ARMCI_ACC_DBL, &one, src, sst, slot, dst, cnt, 1, t);
    ARMCI_GetS(slot, dst, back, sst, cnt, 1, t);
    for (int i = 0; i < w / 2; i++)
        CHECK(back[i] == INFLIGHT_ACCS * src[i], "writes in flight (m %d): element %d of my "
              "patch at %d reads %g right after %d accumulates, expected %g", m, i, t, back[i],
              INFLIGHT_ACCS, INFLIGHT_ACCS * src[i]);
    ARMCI_Barrier();
    for (int p = 0; p < np; p++)
        for (int r = 0; r < m / 2; r++)
            for (int c = 0; c < m; c++) {
                double got = ((double *)ptr[me])[(size_t)p * w + 2 * m * r + c];
                double want = INFLIGHT_ACCS * (p + 0.25 * (m * r + c));
                if ((p + np / 2) % np != me)
                    want = 0; /* p aimed at another process */
                CHECK(got == want, "writes in flight (m %d): owner reads %g at origin %d's row "
                      "%d column %d, expected %g", m, got, p, r, c, want);
            }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
    free(src);
    free(back);
}

/* ARMCIX_Async_phase switches one live region between the paths (off, on,
 * off, automatic) and a region allocated while off follows later phases. */
static void phases(void)
{
    void **ptr = malloc(np * sizeof(void *)), **late = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, (N + 1) * sizeof(long));
    static const int seq[] = {0, 1, 0, -1};
    for (int i = 0; i < 4; i++) {
        CHECK(ARMCIX_Async_phase(seq[i]) == 0, "ARMCIX_Async_phase(%d) did not return 0",
              seq[i]);
        exercise(ptr, -1, seq[i], 2);
        if (i == 0)
            ARMCI_Malloc(late, (N + 1) * sizeof(long)); /* allocated in phase 0 */
    }
    exercise(late, -1, -1, 2);
    CHECK(ARMCIX_Async_phase(0) == 0, "ARMCIX_Async_phase(0) did not return 0");
    exercise(late, -1, 0, 2);
    ARMCIX_Async_phase(-1);
    ARMCI_Free(late[me]);
    ARMCI_Free(ptr[me]);
    free(late);
    free(ptr);
}

/* The fact that sets an idle ghost's nap (src/ghost/ghost_init.c): Open
 * MPI yields when idle on an oversubscribed node (or as its MCA variable
 * says), MPICH never. */
static void check_yield_fact(int real_np)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, got = armcii_mpi_yields_when_idle();
    MPI_Get_library_version(lib, &len);
    const char *mca = getenv("OMPI_MCA_mpi_yield_when_idle");
    if (strstr(lib, "Open MPI") && mca)
        CHECK(got == (strcmp(mca, "0") && strcasecmp(mca, "false")),
              "yields when idle: %d, but OMPI_MCA_mpi_yield_when_idle=%s", got, mca);
    else if (strstr(lib, "Open MPI") && real_np > sysconf(_SC_NPROCESSORS_ONLN))
        CHECK(got == 1, "Open MPI with %d processes on %ld cores: yields when idle %d, "
              "expected 1", real_np, sysconf(_SC_NPROCESSORS_ONLN), got);
    else if (strstr(lib, "MPICH"))
        CHECK(got == 0, "MPICH: yields when idle %d, expected 0", got);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_acc";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int real_np;
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    ghosts = real_np > np;
    check_yield_fact(real_np);
    for (int cycle = 0; cycle < 3; cycle++)
        round_trip(-1, 4);
    round_trip(0, 3);
    round_trip(1, 3);
    phases();
    put_get_round();
    writes_in_flight(4);
    writes_in_flight(100); /* 40 KiB messages */
    writes_in_flight(256); /* 256 KiB + the header: waited for */
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
