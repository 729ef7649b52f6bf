/*
 * Operation classes: their names, and which classes a window's component
 * leaves to the target's software, so that a ghost should serve them (the
 * table behind the ghost redirection decision, gmr_ghost.c, and the
 * profiler's advisor).
 */
#include <stdio.h>
#include "gmr_impl.h"
#include "../common/common_quirks.h"

/* Facts per component, measured with tests/mpi/rma_target_progress_repro.c
 * and armci-info --probe (a target computing outside MPI; docs/mpi-notes.md):
 * Open MPI 4.1 osc/pt2pt and MPICH 4.0 ch4 complete every class only when
 * the target calls MPI; Open MPI 4.1's osc/rdma moves contiguous put/get data by hardware
 * or shared memory while fetch-and-op waits, and its accumulates are served by the target's
 * progress engine on transports without network atomics, so both go to
 * ghosts.  osc/ucx does the same on windows over memory it allocated, but
 * the ghost build's regions are MPI_Win_create windows over the ghosts'
 * pools, where its shared-memory transports wait for the target even for
 * put and get (benchmarks/results/bench_async.ghost_pools.txt; pure MPI:
 * rma_target_progress_repro memfd, checked by test_info_probe.sh): every class goes to
 * ghosts there (on an RDMA network a put to the ghost's window costs what
 * one to the target's does: same pages).  osc/sm is one node (no ghost
 * needed).  Put_flag's
 * flag (NOTIFY) goes wherever its data could wait.  Unknown components:
 * everything but contiguous put/get. */
unsigned armcii_gmr_software_classes(int osc)
{
    enum { ALL = (1u << ARMCII_OP_NCLASS) - 1,
           ATOMICS = 1u << ARMCII_OP_ACC | 1u << ARMCII_OP_RMW | 1u << ARMCII_OP_NOTIFY };
    switch (osc) {
    case ARMCII_OSC_PT2PT:
    case ARMCII_OSC_MPICH:
    case ARMCII_OSC_UCX:
        return ALL;
    case ARMCII_OSC_RDMA:
        /* Open MPI 5.0's osc/rdma without an RDMA-capable BTL (one node:
         * btl/sm, whose put/get it emulates with active messages) needs the
         * target for every class, put and get included (armci-info --probe
         * with 5.0.10, docs/mpi-notes.md). */
        return armcii_mpi_id()->major >= 5 ? ALL : ATOMICS;
    case ARMCII_OSC_SM:
        return 0;
    default:
        return ATOMICS | 1u << ARMCII_OP_NONCONTIG;
    }
}

const char *armcii_gmr_class_name(int cls)
{
    static const char *const n[ARMCII_OP_NCLASS] = {"put", "get", "acc", "rmw", "noncontig",
                                                    "notify"};
    return cls >= 0 && cls < ARMCII_OP_NCLASS ? n[cls] : "?";
}

const char *armcii_gmr_class_names(unsigned mask, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int c = 0; c < ARMCII_OP_NCLASS; c++)
        if (mask & 1u << c && k < len)
            k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? " " : "", armcii_gmr_class_name(c));
    if (!mask)
        snprintf(buf, len, "none");
    return buf;
}
