/* ARMCI_GHOST_PUTGET in the ghost build: whether ghosts serve contiguous
 * gets and puts that the MPI leaves to the target's software.  Redirection
 * is set ON before MPI_Init, so only this setting decides where a get
 * goes.  ARMCI_Init runs six times, each with the variable as phase k
 * sets it: unset (AUTO), ON, OFF, OFF on rank 0 only (one choice for all:
 * off), AUTO, and AUTO on rank 0 only with ON elsewhere (AUTO for all).
 * Each phase checks on every rank that the setting in force is the
 * expected one and the same everywhere; then each rank puts 4 KiB (above
 * the size small puts travel to ghosts as messages) to a rank on another
 * node and gets 8 bytes back from it: the values must be right, and the
 * operations count as redirected to a ghost exactly when ghosts serve gets
 * here (the setting on or AUTO, whose first get goes to the ghost, the
 * region across nodes, the window's component leaving gets to software).
 * With AUTO (also the default) each rank then puts 8 bytes there and gets
 * them straight back 96 times, blocking, by handle and by the implicit
 * handle: each get must read what was put, every get must be timed for the
 * choice, some must have gone each way (the 16th tries the other path),
 * and as many operations must count as redirected as the puts and the gets
 * that went to ghosts.  Other builds: the setting is off and values are
 * checked. */
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include "../testutil.h"
#include "../../src/common/common_quirks.h"
#include "../../src/common/common_topo.h"
#include "../../src/gmr/gmr.h"

enum { NPUT = 512 }; /* longs: 4 KiB */

enum { NPHASE = 6, NAUTO = 96 };

static void set_phase(int phase, int me)
{
    static const char *const v[NPHASE] = {NULL, "ON", "OFF", "OFF", "AUTO", "AUTO"};
    if (phase == 0)
        unsetenv("ARMCI_GHOST_PUTGET");
    else
        setenv("ARMCI_GHOST_PUTGET", (phase == 3 || phase == 5) && me != 0 ? "ON" : v[phase], 1);
}

/* The setting expected in force (armcii_gmr_ghost_putget) with ghosts. */
static int expected(int phase)
{
    return phase == 1 ? ARMCII_PUTGET_GHOSTS
           : phase == 0 || phase >= 4 ? ARMCII_PUTGET_BY_COST : ARMCII_PUTGET_TARGET;
}

/* AUTO: NAUTO times an 8-byte put to t's row (slot me; a message to the
 * ghost where small puts travel so) and a get of it straight back: a
 * third blocking, a third by handle, a third by the implicit handle.  The
 * get must read the value put whichever path it took (a read completes
 * this process's writes to the target on both paths first).  Both paths
 * are certain to be taken: gets start on ghosts, and the 16th choice tries
 * the target, its budget then untouched.  Then the row is restored. */
static void auto_gets(long *row, int t, int phase, const long *src)
{
    armcii_getpath_t before = armcii_gmr_getpath_stats(-1);
    unsigned long r0 = armcii_gmr_redirected();
    for (int i = 0; i < NAUTO; i++) {
        long v = 7000000L + 100000L * phase + 1000L * armcii_state.rank + i, back = -1;
        int k = (i * 37) % NPUT;
        ARMCI_Put(&v, row + k, sizeof v, t);
        if (i % 3 == 1) {
            armci_hdl_t h;
            ARMCI_INIT_HANDLE(&h);
            ARMCI_NbGet(row + k, &back, sizeof back, t, &h);
            ARMCI_Wait(&h);
        } else if (i % 3 == 2) { /* the implicit handle: timed at its wait too */
            ARMCI_NbGet(row + k, &back, sizeof back, t, NULL);
            ARMCI_WaitAll();
        } else {
            ARMCI_Get(row + k, &back, sizeof back, t);
        }
        if (back != v) {
            CHECK(0, "phase %d: get %d after a put of %ld to element %d of %d read %ld", phase,
                  i, v, k, t, back);
            break;
        }
    }
    armcii_getpath_t p = armcii_gmr_getpath_stats(-1);
    long tgt = p.n[ARMCII_GETPATH_TARGET] - before.n[ARMCII_GETPATH_TARGET];
    long gh = p.n[ARMCII_GETPATH_GHOST] - before.n[ARMCII_GETPATH_GHOST];
    unsigned long redirected = armcii_gmr_redirected() - r0;
    CHECK(p.tick - before.tick == NAUTO && tgt + gh == NAUTO,
          "phase %d: %lu gets chosen, %ld timed (%ld to targets, %ld to ghosts); expected %d",
          phase, p.tick - before.tick, tgt + gh, tgt, gh, NAUTO);
    CHECK(tgt >= 1 && gh >= 1, "phase %d: %ld gets to the target, %ld to ghosts: one path "
          "never tried", phase, tgt, gh);
    CHECK(redirected == (unsigned long)(NAUTO + gh), "phase %d: %lu operations counted as "
          "redirected; expected the %d puts and the %ld gets that went to ghosts", phase,
          redirected, NAUTO, gh);
    if (armcii_state.rank == 0)
        printf("phase %d: %d gets by cost: %ld to the target, %ld to its ghost\n", phase,
               NAUTO, tgt, gh);
    ARMCI_Put((void *)src, row, NPUT * sizeof(long), t);
}

/* A put and a get to a rank on another node where there is one. */
static void transfer(int me, int np, int phase, int ghosts_serve_gets)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, (size_t)np * NPUT * sizeof(long)) == 0,
          "phase %d: ARMCI_Malloc failed", phase);
    long *mine = ptr[me], src[NPUT];
    memset(mine, 0, (size_t)np * NPUT * sizeof(long));
    int t = (me + np / 2) % np; /* the other node where nodes split the ranks in halves */
    int across = armcii_node_of(t) != armcii_node_of(me);
    int ghost_path = ghosts_serve_gets && across && armcii_gmr_redirecting() == 1 &&
                     (armcii_gmr_software_classes(armcii_win_component(
                          armcii_gmr_window(armcii_gmr_find_local(mine)))) >>
                          ARMCII_OP_GET & 1u);
    for (int i = 0; i < NPUT; i++)
        src[i] = 1000000L * phase + 1000L * me + i;
    ARMCI_Barrier();
    unsigned long r0 = armcii_gmr_redirected();
    ARMCI_Put(src, (long *)ptr[t] + (size_t)me * NPUT, sizeof src, t);
    long back = -1;
    ARMCI_Get((long *)ptr[t] + (size_t)me * NPUT + NPUT - 1, &back, sizeof back, t);
    unsigned long redirected = armcii_gmr_redirected() - r0;
    CHECK(back == src[NPUT - 1], "phase %d: read back %ld from %d, expected %ld", phase, back,
          t, src[NPUT - 1]);
    if (ghost_path)
        CHECK(redirected == 2, "phase %d: ghosts serve gets, but %lu of the put and get to %d "
              "went to a ghost", phase, redirected, t);
    else
        CHECK(redirected == 0, "phase %d: %lu of the put and get to %d went to a ghost (ghosts "
              "serve gets: %d, across nodes: %d)", phase, redirected, t, ghosts_serve_gets,
              across);
    if (ghosts_serve_gets == 1 && ghost_path) {
        auto_gets((long *)ptr[t] + (size_t)me * NPUT, t, phase, src);
    } else
        CHECK(armcii_gmr_getpath_stats(-1).tick == 0, "phase %d: %lu gets chosen by cost where "
              "none may be (ghosts serve gets: %d, their path: %d)", phase,
              armcii_gmr_getpath_stats(-1).tick, ghosts_serve_gets, ghost_path);
    if (me == 0)
        printf("phase %d: put and get to rank %d %s\n", phase, t,
               ghost_path ? "through its ghost" : "to the target");
    ARMCI_Barrier();
    for (int p = 0; p < np; p++) {
        if ((p + np / 2) % np != me)
            continue;
        for (int i = 0; i < NPUT; i++) {
            long want = 1000000L * phase + 1000L * p + i;
            if (mine[(size_t)p * NPUT + i] != want) {
                CHECK(0, "phase %d: element %d from %d is %ld, expected %ld", phase, i, p,
                      mine[(size_t)p * NPUT + i], want);
                break;
            }
        }
    }
    ARMCI_Barrier();
    ARMCI_Free(mine);
    free(ptr);
}

int main(int argc, char **argv)
{
    setenv("ARMCI_GHOST_ASYNC", "ON", 1); /* before MPI_Init: the ghosts read it there */
    MPI_Init(&argc, &argv);
    tu_name = "test_ghost_putget";
    int me, np, real_np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    for (int phase = 0; phase < NPHASE; phase++) {
        set_phase(phase, me);
        ARMCI_Init();
        int ghosts = armcii_gmr_ghost_usable() && real_np > np;
        int want = ghosts ? expected(phase) : 0;
        int got = armcii_gmr_ghost_putget(), lo, hi;
        CHECK(got == want, "phase %d (ARMCI_GHOST_PUTGET %s): puts and gets to ghosts %d, "
              "expected %d (ghosts %d, %d processes)", phase,
              phase == 0 ? "unset" : getenv("ARMCI_GHOST_PUTGET"), got, want, ghosts, real_np);
        MPI_Allreduce(&got, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&got, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        CHECK(lo == hi, "phase %d: processes disagree on ARMCI_GHOST_PUTGET (%d..%d)", phase,
              lo, hi);
        transfer(me, np, phase, got);
        if (me == 0 && phase == 0)
            printf("ARMCI_GHOST_PUTGET default: %s (ghosts %d, %d processes)\n",
                   got == ARMCII_PUTGET_GHOSTS    ? "on"
                   : got == ARMCII_PUTGET_BY_COST ? "auto"
                                                  : "off",
                   ghosts, real_np);
        ARMCI_Finalize();
    }
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
