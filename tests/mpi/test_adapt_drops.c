/* Automatic redirection inside phases: proposals that keep being dropped
 * back off.  A proposal is dropped when some user does not acknowledge
 * within ARMCI_ADAPT_ACK_MS; meanwhile the users that did acknowledge wait
 * inside a call.  GA's NGA_Scatter_acc, whose calls outlast that wait, had
 * a proposal dropped nearly every round, and automatic mode ran several
 * times slower than either static setting
 * (benchmarks/results/ga_irreg_auto.2core.txt).  Now after a drop the
 * ghosts skip the next 2^drops proposals (up to 64).
 *
 * The users of the first (virtual) node are origins, the others targets;
 * the thresholds make every round propose a switch.  Each target holds its
 * ARMCI mutex while it computes, and each origin waits for it inside
 * ARMCI_Lock: a user inside a call acknowledges only at its next entry, so
 * every proposal meanwhile is dropped.  The computing target enters the
 * library every millisecond (ARMCI_Fence), as a computing application
 * would now and then, so it applies any switch committed just before the
 * origins blocked (a user outside the library keeps its old setting until
 * it enters, and the ghosts decide only while all users agree).  The
 * target computes until the ghosts have decided NDEC more rounds; the
 * proposals among them must be at most a quarter (without the backoff
 * every decision proposes).  Counts, not times: load on the machine slows
 * the rounds, not their ratio.  Checked too: the origin gets the lock only
 * after the target's release, and sees what the target wrote before it;
 * and the window saw at least one proposal (else nothing was tested).
 * Without ghosts or virtual nodes there is nothing to measure: exit 77. */
#include <stdio.h>
#include <stdlib.h>
#include <armci.h>
#include <mpi.h>
#include "../testutil.h"
#include "adapt_check.h"
#include "../../src/common/common.h"
#include "../../src/progress/progress.h"
#include "../../src/common/common_topo.h"

#define NDEC 100
#define DEADLINE_S 60.0

int main(int argc, char **argv)
{
    adapt_force_flips();
    setenv("ARMCI_ADAPT_ACK_MS", "10", 0);
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_adapt_drops";
    int me, np, real_np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np);
    int origin = me < np / 2, peer = origin ? me + np / 2 : me - np / 2;
    long d0, p0, d1, p1;
    armcii_round_counts(&d0, &p0);
    int skip = real_np == np || np % 2 || d0 < 0 ||
               armcii_node_of(me) == armcii_node_of(peer), any;
    MPI_Allreduce(&skip, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (me == 0)
            printf("SKIP: needs ghosts deciding inside phases, and the first half of the "
                   "users on other nodes than the second\n");
        ARMCI_Finalize();
        MPI_Finalize();
        return 77;
    }
    void **ptr = malloc((size_t)np * sizeof(void *));
    ARMCI_Malloc(ptr, sizeof(long));
    *(long *)ptr[me] = -1;
    ARMCI_Create_mutexes(1);
    if (!origin)
        ARMCI_Lock(0, me);
    ARMCI_Barrier();
    if (origin) {
        ARMCI_Lock(0, peer); /* inside the library until the target releases */
        long seen = 0;
        ARMCI_Get(ptr[peer], &seen, sizeof seen, peer);
        CHECK(seen == 2000 + peer, "holding %d's lock I read %ld there, expected %d (written "
              "before its release)", peer, seen, 2000 + peer);
        ARMCI_Unlock(0, peer);
    } else {
        armcii_round_counts(&d0, &p0);
        double t0 = MPI_Wtime();
        do { /* computing, the mutex held, entering the library each ms */
            double t = MPI_Wtime();
            while (MPI_Wtime() - t < 1e-3)
                ;
            ARMCI_Fence(peer);
            armcii_round_counts(&d1, &p1);
        } while (d1 - d0 < NDEC && MPI_Wtime() - t0 < DEADLINE_S);
        long dd = d1 - d0, pp = p1 - p0;
        printf("target %d: %ld rounds decided, %ld switches proposed in %.2f s\n", me, dd, pp,
               MPI_Wtime() - t0);
        CHECK(dd >= NDEC, "my ghost decided only %ld rounds in %.0f s", dd, DEADLINE_S);
        CHECK(pp >= 1, "no switch was proposed in %ld rounds: nothing was tested", dd);
        CHECK(4 * pp <= dd, "%ld switches proposed in %ld rounds while every proposal is "
              "dropped: at most a quarter expected (dropped proposals must back off)", pp, dd);
        *(long *)ptr[me] = 2000 + me;
        ARMCI_Unlock(0, me);
    }
    ARMCI_Barrier();
    ARMCI_Destroy_mutexes();
    ARMCI_Free(ptr[me]);
    free(ptr);
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
