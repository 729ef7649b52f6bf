/*
 * The one place where the running MPI is identified and where its known
 * bugs are decided, keyed by implementation, version and one-sided
 * component.  Every other file asks armcii_quirks() / armcii_win_quirks()
 * instead of testing versions itself; each quirk names its reproducer
 * under tests/mpi.  PMPI calls only: the ghost layer asks from inside
 * MPI_Init, before the library is initialized.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common.h"
#include "common_quirks.h"

/* Computed once, before any thread can race on it (ARMCI_Init and the
 * ghost layer's MPI_Init both run single-threaded). */
static struct {
    int have_id;
    armcii_mpi_id_t id;
    int quirks;              /* -1 until decided */
    int yields;              /* -1 until read (armcii_mpi_yields_when_idle) */
} q_state = {0, {0, 0, 0, 0, ""}, -1, -1};

/* The one version parser: "Open MPI v4.1.4, ..." or "MPICH Version: 4.0.2 ...". */
static void parse_id(const char *lib, armcii_mpi_id_t *id)
{
    const char *p;
    id->impl = ARMCII_MPI_OTHER;
    id->major = id->minor = -1;
    id->release = 0; /* "4.1" alone is 4.1.0 */
    if ((p = strstr(lib, "Open MPI v"))) {
        id->impl = ARMCII_MPI_OMPI;
        sscanf(p + strlen("Open MPI v"), "%d.%d.%d", &id->major, &id->minor, &id->release);
    } else if ((p = strstr(lib, "MPICH Version:"))) {
        id->impl = ARMCII_MPI_MPICH;
        p += strlen("MPICH Version:");
        while (*p == ' ' || *p == '\t')
            p++;
        sscanf(p, "%d.%d.%d", &id->major, &id->minor, &id->release);
    }
    size_t n = strcspn(lib, "\n");
    if (n >= sizeof id->library)
        n = sizeof id->library - 1;
    memcpy(id->library, lib, n);
    id->library[n] = '\0';
}

const armcii_mpi_id_t *armcii_mpi_id(void)
{
    if (!q_state.have_id) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
        int len = 0;
        PMPI_Get_library_version(lib, &len);
        parse_id(lib, &q_state.id);
        q_state.have_id = 1;
    }
    return &q_state.id;
}

int armcii_win_unified(MPI_Win win)
{
    int *model = NULL, found = 0;
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &found);
    return found && *model == MPI_WIN_UNIFIED;
}

/* Open MPI names windows after their osc component ("rdma window 3");
 * osc/sm leaves the name empty.  Other MPIs do not tell. */
int armcii_win_component(MPI_Win win)
{
    const armcii_mpi_id_t *id = armcii_mpi_id();
    if (id->impl == ARMCII_MPI_MPICH)
        return ARMCII_OSC_MPICH;
    if (id->impl != ARMCII_MPI_OMPI)
        return ARMCII_OSC_UNKNOWN;
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0;
    PMPI_Win_get_name(win, name, &len);
    static const struct { const char *prefix; int osc; } names[] = {
        {"rdma window", ARMCII_OSC_RDMA}, {"pt2pt window", ARMCII_OSC_PT2PT},
        {"ucx window", ARMCII_OSC_UCX}, {"sm window", ARMCII_OSC_SM}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strncmp(name, names[i].prefix, strlen(names[i].prefix)))
            return names[i].osc;
    return name[0] ? ARMCII_OSC_UNKNOWN : ARMCII_OSC_SM;
}

const char *armcii_osc_name(int osc)
{
    static const char *const n[] = {"unknown", "osc/sm", "osc/rdma", "osc/pt2pt",
                                    "osc/ucx", "MPICH"};
    return osc >= 0 && osc <= ARMCII_OSC_MPICH ? n[osc] : "unknown";
}

int armcii_quirks(void)
{
    if (ARMCII_LIKELY(q_state.quirks >= 0))
        return q_state.quirks;
    const armcii_mpi_id_t *id = armcii_mpi_id();
    int q = 0;
    /* Open MPI up to 4.0.0 applied accumulates with derived datatypes
     * wrongly (open-mpi/ompi#6275, e.g. MPI_REPLACE for MPI_SUM; fixed in
     * 4.0.1 and the 3.x backports by ompi#6327-6329).  The pure-MPI probe
     * tests/mpi/ompi_indexed_acc_repro.c lost no update with 4.1.4 (osc
     * rdma, pt2pt, sm, ucx) nor 5.0.10 (rdma, sm) on one node, so only those
     * old releases split strided/vector accumulates into one contiguous
     * operation per block; ARMCI_ACC_DTYPE_SPLIT=on forces the split
     * elsewhere (a network transport nobody measured). */
    if (id->impl == ARMCII_MPI_OMPI &&
        (id->major < 4 || (id->major == 4 && id->minor == 0 && id->release < 1)))
        q |= ARMCII_QUIRK_ACC_DTYPE_SPLIT;
    /* MPICH (4.0.2 and 4.3.2, ch4:ucx): after a batch of gets completed by
     * MPI_Win_flush, a get followed by MPI_Win_flush_all may still be in
     * flight when flush_all returns, and the MPI_Win_flush to its target
     * that follows returns at once: the origin reads its buffer before the
     * data.  MPI_Win_allocate and MPI_Win_create windows, not shared ones;
     * a flush per rank completes every get (tests/mpi/mpich_flush_all_repro.c;
     * rates in benchmarks/results/mpis.txt).  GA 5.9.2's nga-onesided.x
     * read zeros when the bound on outstanding operations (gmr_ops.c)
     * flushed all right after a get.  Set for every MPICH until a release
     * is measured without it; armcii_win_quirks tells the window kinds
     * apart. */
    if (id->impl == ARMCII_MPI_MPICH)
        q |= ARMCII_QUIRK_FLUSH_ALL_EARLY;
    /* MPICH (4.0.2 and 4.3.2, ch4:ucx) completes a derived-datatype
     * MPI_Rget's request before the data is in the origin buffer, while the
     * same transfer as MPI_Rget_accumulate with MPI_NO_OP completes with its
     * data (tests/mpi/rget_dtype_repro.c, forms vector, tvec and gacc;
     * tests/mpi/test_rget_dtype.sh probes every MPI).  Only the library's
     * waits that test and yield depend on it (src/gmr/gmr_yield.c). */
    if (id->impl == ARMCII_MPI_MPICH)
        q |= ARMCII_QUIRK_RGET_DTYPE_EARLY;
    q_state.quirks = q;
    return q;
}

int armcii_acc_split(void)
{
    switch (armcii_state.cfg.acc_dtype_split) {
    case ARMCII_ACC_SPLIT_ON:
        return 1;
    case ARMCII_ACC_SPLIT_OFF:
        return 0;
    default:
        return (armcii_quirks() & ARMCII_QUIRK_ACC_DTYPE_SPLIT) != 0;
    }
}

int armcii_win_quirks(MPI_Win win)
{
    const armcii_mpi_id_t *id = armcii_mpi_id();
    int osc = armcii_win_component(win), q = armcii_quirks();
    /* Open MPI 4.1's osc/ucx serves the atomics others aim at this process
     * (UCX's shared-memory transports emulate them in software) only from
     * opal_progress(), which its own RMA calls never run: a process that
     * polls through RMA alone starves everyone's atomics
     * (tests/mpi/ompi_ucx_rma_progress_repro.c).  Its dynamic windows attach
     * at most 32 regions, crash in MPI_Win_free after attach/detach traffic
     * and leave origins with stale keys (tests/mpi/ompi_ucx_dynwin_repro.c).
     * Open MPI 5 reworked osc/ucx. */
    if (osc == ARMCII_OSC_UCX && id->major < 5)
        q |= ARMCII_QUIRK_WIN_POKE | ARMCII_QUIRK_DYNWIN_BROKEN;
    /* Open MPI 4.1's osc/pt2pt never returns from MPI_Win_flush_local(p)
     * while an MPI_Get to any other target is outstanding, p being the
     * target of a put (tests/mpi/ompi_pt2pt_getflush_repro.c, form "put").
     * Completing reads with flush is not enough there: an ARMCI_NbGet left
     * in flight while a blocking put completes hung every rank
     * (tests/mpi/test_stress.c, mode pt2pt).  osc/pt2pt is gone in 5.0. */
    if (osc == ARMCII_OSC_PT2PT && id->major < 5)
        q |= ARMCII_QUIRK_NO_FLUSH_LOCAL;
    /* Open MPI 4.1's osc/rdma between processes of one host (virtual
     * nodes) moves a contiguous put or get with a single-copy system call
     * inside MPI_Put/MPI_Get and waits inside MPI_Fetch_and_op until the
     * result is in, while its MPI_Win_flush and flush_local run
     * opal_progress at least once even with nothing outstanding (a do-while
     * in ompi_osc_rdma_sync_rdma_complete), which yields the core when
     * processes outnumber cores.  The request-based forms (MPI_Rput,
     * MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate) return requests that
     * are complete, or complete them in MPI_Wait, which runs no progress on
     * a complete one, so they cost less there.  osc/ucx's request forms
     * cost more (it completes a request with a flush of its own), MPICH
     * 4.0's are mixed, and osc/pt2pt's flush quirk above makes waits on
     * its requests a risk; Open MPI 5's source has the same loop,
     * unmeasured.  Both forms are correct everywhere.  The raw forms side
     * by side: benchmarks/bench_fop_forms.c, bench_rma_forms.c; figures in
     * docs/mpi-notes.md and benchmarks/results/rmw_request.2core.txt,
     * rma_request.2core.txt. */
    if (osc == ARMCII_OSC_RDMA && id->major == 4)
        q |= ARMCII_QUIRK_BY_REQUEST;
    if (q & ARMCII_QUIRK_FLUSH_ALL_EARLY) {
        int *flavor = NULL, found = 0;
        PMPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &found);
        if (found && *flavor == MPI_WIN_FLAVOR_SHARED)
            q &= ~ARMCII_QUIRK_FLUSH_ALL_EARLY; /* measured unaffected */
    }
    return q;
}

/* Known case: Open MPI 4.1's osc pt2pt refuses windows when
 * MPI_THREAD_MULTIPLE was granted. */
const char *armcii_no_windows_hint(void)
{
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    if (armcii_mpi_id()->impl == ARMCII_MPI_OMPI && level == MPI_THREAD_MULTIPLE)
        return "; with MPI_THREAD_MULTIPLE, Open MPI's osc pt2pt refuses windows: "
               "initialize MPI with a lower thread level or use another osc";
    return "";
}

/* Nonzero if the bool/int control variable `name` reads nonzero; 0 if
 * this MPI has no such variable or no tools interface. */
static int cvar_set(const char *name)
{
    int provided, idx, count, set = 0, level = MPI_THREAD_SINGLE;
    /* At the MPI's own level: Open MPI takes MPI_T's level as the MPI's,
     * and a MULTIPLE run opened at SINGLE lost its thread safety
     * (tests/mpi/mpit_thread_level_repro.c). */
    PMPI_Query_thread(&level);
    if (MPI_T_init_thread(level, &provided) != MPI_SUCCESS)
        return 0;
    MPI_T_cvar_handle h;
    if (MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS &&
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) == MPI_SUCCESS) {
        /* Zeroed and oversized: Open MPI writes a bool variable as one
         * byte although it declares MPI_INT. */
        unsigned char v[16] = {0};
        if (count == 1 && MPI_T_cvar_read(h, v) == MPI_SUCCESS)
            for (size_t i = 0; i < sizeof v; i++)
                set |= v[i] != 0;
        MPI_T_cvar_handle_free(&h);
    }
    MPI_T_finalize();
    return set;
}

int armcii_mpi_yields_when_idle_mpit(void)
{
    if (armcii_mpi_id()->impl != ARMCII_MPI_OMPI)
        return 0;
    return cvar_set("mpi_yield_when_idle");
}

/* Open MPI's MCA boolean spellings; -1 for anything else. */
static int mca_bool(const char *v)
{
    static const char *const yes[] = {"true", "yes", "enabled"}, *const no[] = {"false", "no",
                                                                                 "disabled"};
    char *end;
    long n = strtol(v, &end, 10);
    if (end != v && *end == '\0')
        return n != 0;
    for (int i = 0; i < 3; i++) {
        if (!strcasecmp(v, yes[i]))
            return 1;
        if (!strcasecmp(v, no[i]))
            return 0;
    }
    return -1;
}

/* Whether the MCA parameter file `path` sets mpi_yield_when_idle. */
static int file_sets_yield(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = line + strspn(line, " \t");
        found = !strncmp(p, "mpi_yield_when_idle", strlen("mpi_yield_when_idle"));
    }
    fclose(f);
    return found;
}

/* Whether a parameter file Open MPI reads by default may set the value:
 * the user's list (OMPI_MCA_mca_base_param_files) or the user's file, and
 * the site's files in the directories an install is commonly found by. */
static int param_files_set_yield(void)
{
    char path[4096];
    const char *list = getenv("OMPI_MCA_mca_base_param_files"), *home = getenv("HOME");
    if (list) {
        for (const char *p = list; *p;) {
            size_t n = strcspn(p, ",:");
            if (n > 0 && n < sizeof path) {
                memcpy(path, p, n);
                path[n] = '\0';
                if (file_sets_yield(path))
                    return 1;
            }
            p += n + (p[n] != '\0');
        }
    } else if (home) {
        snprintf(path, sizeof path, "%s/.openmpi/mca-params.conf", home);
        if (file_sets_yield(path))
            return 1;
    }
    const char *sys = getenv("OPAL_SYSCONFDIR"), *prefix = getenv("OPAL_PREFIX");
    const char *dirs[] = {sys, NULL, "/etc/openmpi", "/etc"};
    char pdir[4096];
    if (prefix && snprintf(pdir, sizeof pdir, "%s/etc", prefix) < (int)sizeof pdir)
        dirs[1] = pdir;
    static const char *const names[] = {"openmpi-mca-params.conf",
                                        "openmpi-mca-params-override.conf"};
    for (int d = 0; d < 4; d++)
        for (int i = 0; dirs[d] && i < 2; i++)
            if (snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]) < (int)sizeof path &&
                file_sets_yield(path))
                return 1;
    return 0;
}

int armcii_mpi_yields_when_idle(void)
{
    /* Open MPI yields in opal_progress when mpi_yield_when_idle is set,
     * which it does by itself on an oversubscribed node.  MPICH 4.0's
     * default device spins (bench_async with ghosts pinned beside a
     * waiting origin: the origin kept the core for whole time slices while
     * a yielding ghost waited; benchmarks/results/design_measurements.txt,
     * "MPICH spins").
     * Opening MPI_T costs Open MPI 4.1 a noticeable part of a short run's
     * start-up (MPI_T_init_thread registers every component's variables;
     * docs/mpi-notes.md, "tools interface").  Where
     * the launcher's environment decides it, it is read there instead:
     * OMPI_MCA_mpi_yield_when_idle outranks parameter files; in 4.1 the
     * variable defaults to mpi_oversubscribe, which mpirun passes as
     * OMPI_MCA_mpi_oversubscribe, unless a parameter file sets it (then,
     * and in Open MPI 5, which takes oversubscription from PMIx, MPI_T).
     * tests/mpi/test_mpi_yields.sh checks both ways agree. */
    if (q_state.yields >= 0)
        return q_state.yields;
    const armcii_mpi_id_t *id = armcii_mpi_id();
    int v = -1;
    if (id->impl == ARMCII_MPI_OMPI && id->major == 4 && id->minor >= 1) {
        const char *set = getenv("OMPI_MCA_mpi_yield_when_idle");
        const char *over = getenv("OMPI_MCA_mpi_oversubscribe");
        if (set)
            v = mca_bool(set);
        else if (over && !param_files_set_yield())
            v = mca_bool(over);
    }
    q_state.yields = v >= 0 ? v : armcii_mpi_yields_when_idle_mpit();
    return q_state.yields;
}

void armcii_quirks_log(void)
{
    const armcii_mpi_id_t *id = armcii_mpi_id();
    armcii_log(1, "MPI: %s (%s %d.%d.%d); quirks: acc_dtype_split=%s, flush_all_early=%s "
               "(windows other than shared ones), rget_dtype_early=%s",
               id->library,
               id->impl == ARMCII_MPI_OMPI ? "Open MPI"
               : id->impl == ARMCII_MPI_MPICH ? "MPICH" : "other",
               id->major, id->minor, id->release, armcii_acc_split() ? "on" : "off",
               armcii_quirks() & ARMCII_QUIRK_FLUSH_ALL_EARLY ? "on" : "off",
               armcii_quirks() & ARMCII_QUIRK_RGET_DTYPE_EARLY ? "on" : "off");
}
