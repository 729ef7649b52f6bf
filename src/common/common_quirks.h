/*
 * Which MPI the library runs on and the bugs it works around
 * (common_quirks.c): one place, one version parser.
 */
#ifndef ARMCI_COMMON_QUIRKS_H
#define ARMCI_COMMON_QUIRKS_H

#include "common.h"

enum { ARMCII_MPI_OTHER = 0, ARMCII_MPI_OMPI, ARMCII_MPI_MPICH };
typedef struct {
    int impl;                /* ARMCII_MPI_* */
    int major, minor, release; /* of the implementation (Open MPI 4.1.4 -> 4, 1, 4) */
    char library[128];       /* first line of MPI_Get_library_version */
} armcii_mpi_id_t;
/* Who we run on; PMPI only, so it is safe inside the ghost layer's MPI_Init. */
const armcii_mpi_id_t *armcii_mpi_id(void);
/* Whether strided/vector accumulates go one contiguous MPI_Accumulate per
 * block: the ACC_DTYPE_SPLIT quirk, unless ARMCI_ACC_DTYPE_SPLIT forces it. */
int armcii_acc_split(void);

/* One-sided components, as far as they can be told apart. */
enum { ARMCII_OSC_UNKNOWN = 0, ARMCII_OSC_SM, ARMCII_OSC_RDMA, ARMCII_OSC_PT2PT,
       ARMCII_OSC_UCX, ARMCII_OSC_MPICH };
int armcii_win_component(MPI_Win win);
/* Nonzero when win's memory model is MPI_WIN_UNIFIED (public and private
 * copies are one: loads and stores see the MPI's own updates). */
int armcii_win_unified(MPI_Win win);
const char *armcii_osc_name(int osc);

enum {
    /* Accumulate with a derived datatype must be split into contiguous
     * operations (one per block). */
    ARMCII_QUIRK_ACC_DTYPE_SPLIT = 1,
    /* This window's MPI serves others' atomics only from its progress
     * engine, which its RMA calls never run: poke it now and then. */
    ARMCII_QUIRK_WIN_POKE = 2,
    /* Dynamic windows of this MPI cannot carry many attached regions. */
    ARMCII_QUIRK_DYNWIN_BROKEN = 4,
    /* MPI_Win_flush_local on this window never returns while a get to
     * another target is outstanding: complete everything with flush. */
    ARMCII_QUIRK_NO_FLUSH_LOCAL = 8,
    /* MPI_Win_flush_all on this window may return before an MPI_Get issued
     * just before it has completed, and a later MPI_Win_flush to the same
     * target then returns at once too: flush each rank instead. */
    ARMCII_QUIRK_FLUSH_ALL_EARLY = 16,
    /* A derived-datatype MPI_Rget's request completes before its data has
     * arrived; MPI_Rget_accumulate(MPI_NO_OP)'s does not. */
    ARMCII_QUIRK_RGET_DTYPE_EARLY = 32,
    /* Not a bug, a cost: this window's operations are done when their call
     * returns, and MPI_Win_flush(_local) still runs a progress pass: issue
     * the request-based forms and wait for their (complete) requests. */
    ARMCII_QUIRK_BY_REQUEST = 64,
};
/* Quirks of the running MPI (not window specific), decided once. */
int armcii_quirks(void);
/* Quirks of one window (its component). */
int armcii_win_quirks(MPI_Win win);
/* Why this MPI may refuse windows, for the error message ("" if unknown). */
const char *armcii_no_windows_hint(void);
/* Log the decisions once (ARMCI_VERBOSE). */
void armcii_quirks_log(void);
/* Whether this MPI's waiting calls give the core away (sched_yield) when
 * they find nothing to do; read once, from the launcher's environment where
 * it decides, else through MPI_T; PMPI only, for the ghost layer. */
int armcii_mpi_yields_when_idle(void);
/* The same read through MPI_T every time (tests compare the two). */
int armcii_mpi_yields_when_idle_mpit(void);

#endif /* ARMCI_COMMON_QUIRKS_H */
