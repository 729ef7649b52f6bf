/*
 * MPI-path completions that give up the CPU (ARMCI_WAIT_YIELD, common_wait.c).
 *
 * MPICH's MPI_Win_flush and flush_local poll until the operations are done
 * and never yield.  On a host with more processes than CPUs an origin
 * polling for an accumulate or a get that the target serves in its own
 * progress engine holds its core while the target queues for one, and
 * every completion costs time slices (NWChem's tddft_h2o on 4 MPICH ranks
 * over virtual nodes, before and after: benchmarks/results/nwchem_qa.txt).  Where the library's
 * waits yield, the MPI-path primitives (gmr_ops.c) issue the request-based
 * forms (fetch-and-op too, as MPI_Rget_accumulate waited for at once); a
 * completion, local or remote, first tests the requests of its target,
 * yielding between tests, and its flush then finds them done.  Completing more
 * than asked is always allowed, so a full list is simply waited out.
 * Only single-threaded runs: the list is the process's own, unguarded.
 *
 * Gets with derived datatypes break that: MPICH (4.0.2, 4.3.2) completes
 * such an MPI_Rget's request before the data arrives, whatever side the
 * derived type is on (tests/mpi/rget_dtype_repro.c, forms vector and
 * tvec), and the MPI_Win_flush that brings the data spins without yielding
 * until the target answers.  On a crowded host every strided get then
 * held a core the target needed, and other ranks' fetch-and-adds waited
 * behind it.  The same transfer as MPI_Rget_accumulate with MPI_NO_OP
 * completes its request with the data (form gacc), so where the MPI has
 * that quirk (ARMCII_QUIRK_RGET_DTYPE_EARLY) and waits yield, a derived
 * get is issued that way: one request, waited for by test and yield, the
 * flush finding nothing left.  Before that the library issued such gets
 * one contiguous request per block (iov_strided.c, iov_methods.c), which
 * every target served request by request: with 4 MPICH ranks on 2 cores,
 * raw MPI took 1.0-5.1 ms per 16x16 to 64x64 double patch that way against
 * 0.18-0.42 as one MPI_Rget_accumulate, and the NWChem-shaped kernel over
 * 2 virtual nodes ran 1.8-4.5x faster with the change, GA's ga_scf 1.4-5.5x
 * (benchmarks/results/get_by_getacc.mpich.2core.txt, ga_getacc.mpich.2core.txt).
 * Other MPIs where waits yield keep the per-block gets, unmeasured
 * against their derived MPI_Rget.  With a core per process waits do not
 * yield and the derived MPI_Get stays.
 */
#include "gmr_impl.h"
#include "../common/common_quirks.h"
#include "../common/common_wait.h"

#define GS armcii_gmr_state

void armcii_gmr_yield_init(void)
{
    GS.yield_rma = armcii_wait_yields() && !armcii_state.threaded;
    GS.rget_acc = GS.yield_rma && (armcii_quirks() & ARMCII_QUIRK_RGET_DTYPE_EARLY);
    armcii_log(1, "MPI-path completions: %s",
               !GS.yield_rma ? "MPI_Win_flush(_local)"
               : GS.rget_acc ? "request-based, test and yield; strided and vector gets "
                               "MPI_Rget_accumulate(MPI_NO_OP)"
                             : "request-based, test and yield; strided and vector gets "
                               "one request per block");
}

int armcii_gmr_get_by_blocks(void) { return GS.yield_rma && !GS.rget_acc; }

MPI_Request *armcii_gmr_yield_slot(MPI_Win win, int rank)
{
    if (GS.nyreq == ARMCII_YREQ_MAX)
        armcii_gmr_yield_wait(MPI_WIN_NULL, -1);
    armcii_gmr_yreq_t *y = &GS.yreq[GS.nyreq++];
    y->win = win;
    y->rank = rank;
    return &y->req;
}

void armcii_gmr_yield_wait(MPI_Win win, int rank)
{
    for (int i = 0; i < GS.nyreq;) {
        armcii_gmr_yreq_t *y = &GS.yreq[i];
        if ((win != MPI_WIN_NULL && y->win != win) || (rank >= 0 && y->rank != rank)) {
            i++;
            continue;
        }
        armcii_wait(&y->req);
        *y = GS.yreq[--GS.nyreq];
    }
}
