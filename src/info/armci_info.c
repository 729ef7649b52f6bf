/*
 * armci-info: what libarmci will do on this machine (like ompi_info).
 * Run it the way the application runs: same launcher, same environment,
 * same MPI parameters, since every answer depends on them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "info.h"
#include "../gmr/gmr.h"
#ifdef ARMCII_GHOSTS
#include "../ghost/ghost.h"
#endif
#include "../common/common_config.h"
#include "../common/common_quirks.h"
#include "../common/common_topo.h"

#define PROBE_MS_DEFAULT 100

typedef struct {
    int probe;
    int probe_ms;
    int thread;      /* -1: plain MPI_Init, as most applications do */
    int armci_level; /* what ARMCI_Init_thread may ask: min(asked, granted) */
} info_opts_t;

static const struct { const char *name; int level; } thread_levels[] = {
    {"single", MPI_THREAD_SINGLE}, {"funneled", MPI_THREAD_FUNNELED},
    {"serialized", MPI_THREAD_SERIALIZED}, {"multiple", MPI_THREAD_MULTIPLE}};
#define N_LEVELS (int)(sizeof thread_levels / sizeof thread_levels[0])

static const char *level_name(int level)
{
    static const char *const n[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                    "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    for (int i = 0; i < N_LEVELS; i++)
        if (thread_levels[i].level == level)
            return n[i];
    return "unknown";
}

static void usage(void)
{
    printf(
        "Usage: mpiexec -n N armci-info [--probe] [--probe-ms MS] [--thread LEVEL]\n"
        "Prints on rank 0 what libarmci " ARMCI_PACKAGE_VERSION " does on this machine:\n"
        "build options, the MPI library and its quirks, the one-sided component\n"
        "of each window kind, the ARMCI_* configuration, the node layout.\n"
        "\n"
        "  --probe          measure which RMA operation classes need the target\n"
        "                   to make MPI progress (2 or more processes)\n"
        "  --probe-ms MS    computation time of the probed target (default %d)\n"
        "  --thread LEVEL   initialize MPI with MPI_Init_thread at LEVEL (single,\n"
        "                   funneled, serialized, multiple) instead of MPI_Init\n"
        "  -h, --help       this text\n"
        "\n"
        "Run it with the launcher, MPI parameters (e.g. --mca osc ucx) and ARMCI_*\n"
        "variables of the application.  In a --enable-ghost-progress build the last\n"
        "ARMCI_GHOSTS_PER_NODE ranks of each node are ghosts: launch users + ghosts\n"
        "(e.g. -n 3 for --probe) or set ARMCI_GHOSTS_PER_NODE=0.\n",
        PROBE_MS_DEFAULT);
}

/* Value of option argv[*i] ("--probe-ms 50" or "--probe-ms=50"), or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n))
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int parse_level(const char *v)
{
    for (int k = 0; k < N_LEVELS; k++)
        if (!strcmp(v, thread_levels[k].name))
            return thread_levels[k].level;
    return -1;
}

/* 0: run; 1: --help given; 2: bad usage (said on stderr). */
static int parse_args(int argc, char **argv, info_opts_t *o)
{
    *o = (info_opts_t){0, PROBE_MS_DEFAULT, -1, MPI_THREAD_SINGLE};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        char *end;
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return 1;
        if (!strcmp(a, "--probe")) {
            o->probe = 1;
        } else if ((v = opt_value(argc, argv, &i, "--probe-ms"))) {
            long ms = strtol(v, &end, 10);
            if (*end || end == v || ms < 10 || ms > 10000) {
                fprintf(stderr, "armci-info: --probe-ms wants 10 to 10000, not '%s'\n", v);
                return 2;
            }
            o->probe_ms = (int)ms;
        } else if ((v = opt_value(argc, argv, &i, "--thread"))) {
            if ((o->thread = parse_level(v)) < 0) {
                fprintf(stderr, "armci-info: unknown thread level '%s'\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "armci-info: unknown option or missing value: %s\n", a);
            return 2;
        }
    }
    return 0;
}

void info_section(const char *title)
{
    printf("\n== %s\n", title);
}

void info_kv(const char *key, const char *fmt, ...)
{
    va_list ap;
    printf("  %-26s: ", key);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static const char *yes_no(int b) { return b ? "yes" : "no"; }

static void print_build(void)
{
    int ghosts = 0, debug = 0;
#ifdef ARMCII_GHOSTS
    ghosts = 1;
#endif
#ifdef ARMCII_DEBUG
    debug = 1;
#endif
    info_section("Version and build");
    info_kv("libarmci version", "%s", PACKAGE_VERSION);
    info_kv("configure options", "%s", ARMCII_CONFIGURE_ARGS[0] ? ARMCII_CONFIGURE_ARGS
                                                                 : "(none)");
    info_kv("ghost-progress build", "%s%s", yes_no(ghosts),
            ghosts ? " (--enable-ghost-progress)" : "");
    info_kv("debug assertions", "%s%s", yes_no(debug), debug ? " (--enable-debug)" : "");
}

/* The first line of the library's version, whitespace runs (MPICH uses
 * tabs) squeezed to one space, so that scripts can compare it. */
static void version_line(char *out, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n = 0;
    size_t o = 0;
    MPI_Get_library_version(lib, &n);
    for (const char *p = lib; *p && *p != '\n' && o + 1 < len; p++) {
        if (*p == ' ' || *p == '\t') {
            if (o && out[o - 1] == ' ')
                continue;
            out[o++] = ' ';
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}

const char *info_mpich_device(void)
{
    static char dev[64];
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n = 0;
    const char *p;
    MPI_Get_library_version(lib, &n);
    if (dev[0] || !(p = strstr(lib, "MPICH Device:")))
        return dev;
    p += strlen("MPICH Device:");
    p += strspn(p, " \t");
    snprintf(dev, sizeof dev, "%.*s", (int)strcspn(p, " \t\n"), p);
    return dev;
}

static void print_mpi(int requested)
{
    const armcii_mpi_id_t *id = armcii_mpi_id();
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int major = 0, minor = 0;
    version_line(lib, sizeof lib);
    MPI_Get_version(&major, &minor);
    info_section("MPI library");
    info_kv("MPI_Get_library_version", "%s", lib);
    if (id->impl == ARMCII_MPI_OTHER)
        info_kv("identified as", "other MPI (no quirks known)");
    else
        info_kv("identified as", "%s %d.%d",
                id->impl == ARMCII_MPI_OMPI ? "Open MPI" : "MPICH", id->major, id->minor);
    if (info_mpich_device()[0])
        info_kv("MPICH device", "%s", info_mpich_device());
    info_kv("MPI standard", "%d.%d", major, minor);
    info_kv("thread level granted", "%s (asked for %s)",
            level_name(armcii_state.thread_level),
            requested < 0 ? "MPI_THREAD_SINGLE via MPI_Init" : level_name(requested));
    info_kv("processes (ARMCI world)", "%d", armcii_state.nproc);
}

static void print_config(void)
{
    info_section("Environment (configuration table)");
    printf("  read once at ARMCI_Init; 'environment' = set in this run\n");
    armcii_config_dump(&armcii_state.cfg, stdout, 1);
}

/* Sizes of the (virtual) nodes, compressed: "2 (every node)" or "2,2,1". */
static void node_sizes(char *buf, size_t len)
{
    int nn = armcii_state.nnodes, *cnt = calloc((size_t)nn, sizeof(int));
    if (!cnt) {
        snprintf(buf, len, "?");
        return;
    }
    for (int p = 0; p < armcii_state.nproc; p++)
        cnt[armcii_node_of(p)]++;
    int same = 1;
    for (int k = 1; k < nn; k++)
        same &= cnt[k] == cnt[0];
    if (same) {
        snprintf(buf, len, "%d (every node)", cnt[0]);
    } else {
        size_t off = 0;
        for (int k = 0; k < nn && off + 12 < len; k++)
            off += (size_t)snprintf(buf + off, len - off, "%s%d", k ? "," : "", cnt[k]);
    }
    free(cnt);
}

static void print_ghosts(void)
{
#ifdef ARMCII_GHOSTS
    armcii_ghost_info_t g = armcii_ghost_info();
    int world = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &world);
    info_kv("ghosts per node", "%d (%s)", g.ghosts_per_node,
            g.ghosts_on ? "ghosts on" : "ghosts off");
    if (g.ghosts_on) {
        info_kv("users per node", "%d", g.users_per_node);
        info_kv("MPI processes with ghosts", "%d", world);
        int unset = !armcii_config_from_env(&armcii_state.cfg, "ARMCI_GHOST_ASYNC");
        info_kv("redirection to ghosts", "%s%s",
                armcii_config_choice("ARMCI_GHOST_ASYNC", armcii_gmr_async_setting()),
                unset && g.async_default == ARMCII_ASYNC_AUTO
                    ? " (the default where a host has more processes than CPUs and MPI "
                      "spins in its waits)" : "");
        info_kv("puts and gets to ghosts", "%s (ARMCI_GHOST_PUTGET)",
                armcii_gmr_ghost_putget() == ARMCII_PUTGET_GHOSTS
                    ? "yes, where the MPI leaves them to the target"
                : armcii_gmr_ghost_putget() == ARMCII_PUTGET_BY_COST
                    ? "puts yes, gets each process sends where they cost it less"
                    : "no, they go to the target");
        info_kv("ghost pools", "%d, %zu KiB per user (ARMCI_GHOST_POOL_SIZE; grow on demand)",
                g.npools, g.pool_bytes_per_user >> 10);
    }
#else
    info_kv("ghosts per node", "none (not a ghost-progress build)");
#endif
}

static void print_layout(void)
{
    char sizes[128];
    int vn = armcii_state.cfg.virtual_node_size;
    node_sizes(sizes, sizeof sizes);
    info_section("Node layout");
    info_kv("nodes", "%d (%s)", armcii_state.nnodes, vn > 0 ? "virtual" : "real");
    info_kv("ranks per node", "%s", sizes);
    if (vn > 0)
        info_kv("virtual nodes", "on (ARMCI_VIRTUAL_NODE_SIZE=%d)", vn);
    else
        info_kv("virtual nodes", "off (ARMCI_VIRTUAL_NODE_SIZE unset or 0)");
    info_kv("shared-memory windows", "%s", yes_no(armcii_gmr_facts().shm_ok));
    info_kv("node-local path", "%s%s", armcii_gmr_facts().direct ? "on" : "off",
            armcii_state.cfg.node_local && !armcii_gmr_facts().shm_ok
                ? " (asked for, but this MPI refuses shared windows)" : "");
    print_ghosts();
}

/* MPI is up, options are parsed: initialize the library and report. */
static void report(const info_opts_t *o)
{
    info_win_t wins[INFO_NWIN];
    if (o->thread >= 0)
        ARMCI_Init_thread(o->armci_level);
    else
        ARMCI_Init();
    /* Collective: every process creates the windows, rank 0 prints. */
    info_windows_probe(wins);
    if (armcii_state.rank == 0) {
        printf("armci-info: libarmci %s\n", PACKAGE_VERSION);
        print_build();
        print_mpi(o->thread);
        info_print_quirks(wins);
        info_print_windows(wins);
        print_config();
        print_layout();
        fflush(stdout);
    }
    info_probe(o->probe, o->probe_ms);
    ARMCI_Finalize();
}

int main(int argc, char **argv)
{
    info_opts_t o;
    /* Parsed before MPI_Init so that --help needs no launcher (and, in the
     * ghost build, no ghost). */
    int st = parse_args(argc, argv, &o);
    if (st == 1)
        usage();
    if (st == 2)
        fprintf(stderr, "Try 'armci-info --help'.\n");
    if (st)
        return st == 1 ? 0 : 2;
    if (o.thread >= 0) {
        int provided;
        MPI_Init_thread(&argc, &argv, o.thread, &provided);
        o.armci_level = provided < o.thread ? provided : o.thread;
    } else {
        MPI_Init(&argc, &argv);
    }
    report(&o);
    MPI_Finalize();
    return 0;
}
