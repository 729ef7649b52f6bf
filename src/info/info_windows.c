/*
 * Window kinds and MPI quirks: which one-sided component the MPI picks for
 * each kind of window the library creates, and which known bugs that
 * brings.  The windows are made here, on the spot, because the component
 * depends on the launch (e.g. --mca osc, one process or several), not only
 * on the MPI build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "info.h"
#include "../gmr/gmr.h"
#ifdef ARMCII_GHOSTS
#include "../ghost/ghost.h"
#endif

#define INFO_WIN_BYTES 64

static const struct {
    const char *call;
    const char *comm;
    const char *use;  /* where the library creates this kind */
} win_kinds[INFO_NWIN] = {
    {"MPI_Win_allocate_shared", "node",
     "region memory within a (virtual) node: the node-local path"},
    {"MPI_Win_allocate", "world",
     "regions where shared windows are refused; the creation lock"},
    {"MPI_Win_create", "world",
     "regions spanning nodes, over node-shared memory; ghost build: "
     "redirected regions and the ghosts' pools"},
    {"MPI_Win_create_dynamic", "world",
     "not used (probed for the DYNWIN_BROKEN quirk)"},
};

static int create_kind(int kind, MPI_Comm comm, void *mem, MPI_Win *win)
{
    void *base = NULL;
    switch (kind) {
    case INFO_WIN_SHARED:
        return MPI_Win_allocate_shared(INFO_WIN_BYTES, 1, MPI_INFO_NULL, comm, &base, win);
    case INFO_WIN_ALLOCATE:
        return MPI_Win_allocate(INFO_WIN_BYTES, 1, MPI_INFO_NULL, comm, &base, win);
    case INFO_WIN_CREATE:
        return MPI_Win_create(mem, INFO_WIN_BYTES, 1, MPI_INFO_NULL, comm, win);
    default:
        return MPI_Win_create_dynamic(MPI_INFO_NULL, comm, win);
    }
}

/* Collective over the world; comm carries MPI_ERRORS_RETURN so that a
 * refusal comes back as a code instead of aborting the job. */
static void probe_kind(int kind, MPI_Comm comm, info_win_t *w)
{
    static char mem[INFO_WIN_BYTES];
    MPI_Win win = MPI_WIN_NULL;
    int rc = create_kind(kind, comm, mem, &win), ok = rc == MPI_SUCCESS, all = 0;
    memset(w, 0, sizeof *w);
    ARMCII_MPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, armcii_state.world));
    w->ok = all;
    if (ok) {
        int len = 0;
        w->osc = armcii_win_component(win);
        w->quirks = armcii_win_quirks(win);
        MPI_Win_get_name(win, w->name, &len);
    } else {
        int len = 0;
        MPI_Error_string(rc, w->err, &len);
    }
    if (ok && !all)
        snprintf(w->err, sizeof w->err, "refused on another process");
    /* Freeing is collective: a window that exists on some processes only
     * is left alone rather than risk a hang (the MPIs seen refuse on all). */
    if (all)
        ARMCII_MPI(MPI_Win_free(&win));
}

void info_windows_probe(info_win_t w[INFO_NWIN])
{
    MPI_Comm node, world;
    armcii_comm_dup(armcii_state.node, &node);
    armcii_comm_dup(armcii_state.world, &world);
    for (int k = 0; k < INFO_NWIN; k++)
        probe_kind(k, k == INFO_WIN_SHARED ? node : world, &w[k]);
    ARMCII_MPI(MPI_Comm_free(&node));
    ARMCII_MPI(MPI_Comm_free(&world));
}

/* What gmr_region.c (and gmr_ghost.c) pick for a region in this run. */
static const char *region_windows(void)
{
#ifdef ARMCII_GHOSTS
    if (armcii_ghost_info().ghosts_on && armcii_state.nnodes > 1 &&
        armcii_gmr_async_setting() != ARMCII_ASYNC_OFF)
        return "MPI_Win_create over slices of the ghosts' pools, for groups spanning nodes; "
               "node-shared windows within a node";
#endif
    if (!armcii_gmr_facts().shm_ok)
        return "MPI_Win_allocate over the group";
    if (armcii_state.nnodes == 1)
        return "MPI_Win_allocate_shared (one node)";
    return "MPI_Win_allocate_shared per node + MPI_Win_create over groups spanning nodes";
}

void info_print_windows(const info_win_t w[INFO_NWIN])
{
    info_section("One-sided components by window kind");
    printf("  %-24s %-6s %-34s %s\n", "window kind", "comm", "component",
           "used by the library for");
    for (int k = 0; k < INFO_NWIN; k++) {
        char comp[80];
        if (w[k].ok && w[k].osc == ARMCII_OSC_MPICH && info_mpich_device()[0])
            snprintf(comp, sizeof comp, "MPICH %s", info_mpich_device());
        else if (w[k].ok && w[k].name[0])
            snprintf(comp, sizeof comp, "%s (\"%.40s\")", armcii_osc_name(w[k].osc), w[k].name);
        else if (w[k].ok)
            snprintf(comp, sizeof comp, "%s", armcii_osc_name(w[k].osc));
        else
            snprintf(comp, sizeof comp, "refused");
        printf("  %-24s %-6s %-34s %s\n", win_kinds[k].call, win_kinds[k].comm, comp,
               win_kinds[k].use);
        if (!w[k].ok)
            printf("  %-24s %-6s   (%s)\n", "", "", w[k].err);
    }
    printf("  ARMCI regions here use   : %s\n", region_windows());
    /* The ghost build's decision (common_quirks.c): which classes go to a
     * target's ghost on the window kind of regions spanning nodes. */
    const info_win_t *c = &w[INFO_WIN_CREATE];
    char names[64];
    if (!c->ok)
        printf("  ghosts would serve       : none (MPI_Win_create refused here)\n");
    else {
        unsigned cls = armcii_gmr_ghost_classes(c->osc);
        int kept = cls != armcii_gmr_software_classes(c->osc); /* ARMCI_GHOST_PUTGET */
        printf("  ghosts would serve       : %s (on %s windows; component facts in "
               "armcii_gmr_software_classes%s)\n",
               armcii_gmr_class_names(cls, names, sizeof names), armcii_osc_name(c->osc),
               kept ? "; puts and gets stay at the target: ARMCI_GHOST_PUTGET" : "");
    }
}

static const struct {
    int bit;
    const char *name;
    int per_window;      /* 0: of the MPI; else of windows of kind only_kind (-1: any) */
    int only_kind;
    const char *when;
    const char *action;
} quirk_rows[] = {
    {ARMCII_QUIRK_ACC_DTYPE_SPLIT, "ACC_DTYPE_SPLIT", 0, -1,
     "Open MPI <= 4.0.0: applies accumulates with derived datatypes wrongly (ompi#6275)",
     "strided/vector accumulates are issued as one contiguous MPI_Accumulate per block "
     "(puts and gets keep derived datatypes); tests/mpi/ompi_indexed_acc_repro.c"},
    {ARMCII_QUIRK_WIN_POKE, "WIN_POKE", 1, -1,
     "Open MPI < 5, osc/ucx window: others' atomics are served only from the progress "
     "engine, which RMA calls never run",
     "every 64th completion calls MPI_Iprobe so this process keeps serving others' "
     "atomics; tests/mpi/ompi_ucx_rma_progress_repro.c"},
    {ARMCII_QUIRK_DYNWIN_BROKEN, "DYNWIN_BROKEN", 1, INFO_WIN_DYNAMIC,
     "Open MPI < 5, osc/ucx dynamic window: at most 32 attachments, crash in "
     "MPI_Win_free, stale remote keys",
     "nothing: no build creates dynamic windows (the ghost build reaches memory "
     "through pool windows, src/ghost/ghost_pool.c); tests/mpi/ompi_ucx_dynwin_repro.c"},
    {ARMCII_QUIRK_NO_FLUSH_LOCAL, "NO_FLUSH_LOCAL", 1, -1,
     "Open MPI < 5, osc/pt2pt window: MPI_Win_flush_local never returns while a get "
     "to another target is outstanding",
     "every operation completes with MPI_Win_flush (as ARMCI_NO_FLUSH_LOCAL=on); "
     "tests/mpi/ompi_pt2pt_getflush_repro.c put"},
    {ARMCII_QUIRK_FLUSH_ALL_EARLY, "FLUSH_ALL_EARLY", 1, -1,
     "MPICH (4.0.2 and 4.3.2 measured), MPI_Win_allocate and MPI_Win_create windows: "
     "MPI_Win_flush_all may return before a get issued just before it has completed",
     "such windows are flushed one rank at a time where the library would flush all; "
     "tests/mpi/mpich_flush_all_repro.c"},
    {ARMCII_QUIRK_RGET_DTYPE_EARLY, "RGET_DTYPE_EARLY", 0, -1,
     "MPICH (4.0.2 and 4.3.2 measured): a derived-datatype MPI_Rget's request completes "
     "before its data arrives",
     "every get is completed by a flush; where waits yield, strided and vector gets are "
     "MPI_Rget_accumulate(MPI_NO_OP), whose request completes with the data; "
     "tests/mpi/rget_dtype_repro.c"},
    {ARMCII_QUIRK_BY_REQUEST, "BY_REQUEST", 1, -1,
     "Open MPI 4, osc/rdma window (a cost, not a bug): operations are done when their "
     "call returns, and MPI_Win_flush(_local) still runs a progress pass",
     "put, get, accumulate and ARMCI_Rmw's fetch-and-add go in request-based form and "
     "complete locally by MPI_Wait, without a flush (single-threaded runs); "
     "benchmarks/bench_rma_forms.c, bench_fop_forms.c"},
};
#define N_QUIRKS (int)(sizeof quirk_rows / sizeof quirk_rows[0])

/* Whether the library acts on quirk row i in this run. */
static const char *in_force(int i, const info_win_t w[INFO_NWIN])
{
    int bit = quirk_rows[i].bit;
    if (bit == ARMCII_QUIRK_ACC_DTYPE_SPLIT) {
        int forced = armcii_state.cfg.acc_dtype_split != ARMCII_ACC_SPLIT_AUTO;
        if (armcii_acc_split())
            return forced ? "yes (ARMCI_ACC_DTYPE_SPLIT=on)" : "yes";
        return forced ? "no (ARMCI_ACC_DTYPE_SPLIT=off)" : "no";
    }
    if (bit == ARMCII_QUIRK_WIN_POKE)
        return armcii_gmr_facts().poke ? "yes" : "no (until a region's window needs it)";
    if (bit == ARMCII_QUIRK_FLUSH_ALL_EARLY)
        return armcii_quirks() & bit ? "yes, on the window kinds above" : "no";
    if (bit == ARMCII_QUIRK_RGET_DTYPE_EARLY)
        return !(armcii_quirks() & bit) ? "no"
               : armcii_gmr_facts().rget_acc ? "yes (waits yield)"
                                             : "no (waits do not yield: gets complete by flush)";
    if (bit == ARMCII_QUIRK_BY_REQUEST) {
        int any = 0;
        for (int k = 0; k < INFO_NWIN; k++)
            any |= w[k].ok && (w[k].quirks & bit);
        return !any ? "no"
               : armcii_state.threaded ? "no (MPI_THREAD_MULTIPLE: a flush after each)"
                                       : "yes, on the window kinds above";
    }
    if (bit == ARMCII_QUIRK_NO_FLUSH_LOCAL)
        return !armcii_gmr_facts().no_flush_local ? "no"
               : armcii_state.cfg.no_flush_local ? "yes (ARMCI_NO_FLUSH_LOCAL=on)" : "yes";
    return "no (no dynamic window is created)";
}

/* "on" with the window kinds that have it, or "off". */
static void quirk_state(int i, const info_win_t w[INFO_NWIN], char *buf, size_t len)
{
    int bit = quirk_rows[i].bit, n = 0;
    if (!quirk_rows[i].per_window) {
        snprintf(buf, len, "%s", armcii_quirks() & bit ? "on" : "off");
        return;
    }
    size_t off = 0;
    for (int k = 0; k < INFO_NWIN && off < len; k++)
        if (w[k].ok && (w[k].quirks & bit) &&
            (quirk_rows[i].only_kind < 0 || quirk_rows[i].only_kind == k))
            off += (size_t)snprintf(buf + off, len - off, "%s%s", n++ ? ", " : "on for ",
                                    win_kinds[k].call);
    if (!n)
        snprintf(buf, len, "off (no window kind created here has it)");
}

void info_print_quirks(const info_win_t w[INFO_NWIN])
{
    info_section("MPI quirks and workarounds");
    for (int i = 0; i < N_QUIRKS; i++) {
        char state[160];
        quirk_state(i, w, state, sizeof state);
        printf("  %-16s: %s\n", quirk_rows[i].name, state);
        printf("  %-16s  when: %s\n", "", quirk_rows[i].when);
        printf("  %-16s  does: %s\n", "", quirk_rows[i].action);
        printf("  %-16s  in force in this run: %s\n", "", in_force(i, w));
    }
    printf("  %-16s: reads complete with MPI_Win_flush, never flush_local (Open MPI 4.1\n"
           "  %-16s  osc/pt2pt hangs there; tests/mpi/ompi_pt2pt_getflush_repro.c)\n",
           "on every MPI", "");
    printf("  %-16s: window creation over groups smaller than the world is serialized\n"
           "  %-16s  world-wide (Open MPI issue 7393: disjoint groups collide)\n",
           "on every MPI", "");
    const char *hint = armcii_no_windows_hint();
    if (hint[0])
        printf("  %-16s: %s\n", "note", hint + 2); /* the hint starts with "; " */
}
