/* ARMCI_PROFILE=1: finalize prints the profile on rank 0 (communication
 * ratio in [0, 1], per-class calls, time and wait for progress, where the
 * operations' targets were, and the dedicated-core prediction); checked by capturing
 * rank 0's stderr around ARMCI_Finalize.  Without the variable nothing is
 * printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>
#include "../testutil.h"

#define NPUT 100
#define NSELF 7 /* puts each process aims at itself */
#define NCLASS 6 /* ARMCII_OP_NCLASS */
#define NWAIT 5 /* nonblocking gets, each completed by ARMCI_Wait */
#define NBARRIER 2 /* ARMCI_Barrier calls */

/* src/gmr/gmr.h, src/common/common.h: the test links the library's objects */
struct armcii_gmr;
struct armcii_gmr *armcii_gmr_find_local(const void *ptr);
MPI_Win armcii_gmr_window(const struct armcii_gmr *g);
int armcii_win_component(MPI_Win win);
unsigned armcii_gmr_software_classes(int osc);
const char *armcii_gmr_class_name(int cls);

/* Whether the report's "ghosts serve here (...)" list names every class
 * that the test's own region's window leaves to the target's software: the
 * advisor must judge by the regions' windows, not by the world-spanning
 * ones (between virtual nodes under Open MPI these are of different
 * components: osc sm for MPI_Win_allocate over the host, rdma or ucx for
 * the regions' MPI_Win_create windows). */
static int names_region_classes(const char *out, unsigned want, char *missing, size_t len)
{
    static const char key0[] = "W of the classes ghosts serve here (";
    const char *p = strstr(out, key0);
    const char *e = p ? strchr(p, ')') : NULL;
    snprintf(missing, len, "%s", e ? "" : "(no class list) ");
    if (!e)
        return 0;
    p += strlen(key0);
    char list[128];
    snprintf(list, sizeof list, " %.*s ", (int)(e - p), p);
    for (int c = 0; c < NCLASS; c++) {
        char key[32];
        snprintf(key, sizeof key, " %s ", armcii_gmr_class_name(c));
        if (want & 1u << c && !strstr(list, key))
            snprintf(missing + strlen(missing), len - strlen(missing), "%s ",
                     armcii_gmr_class_name(c));
    }
    return missing[0] == 0;
}

/* The summed operation count of class name in the report, or -1. */
static double ops_of(const char *out, const char *name)
{
    char key[64];
    double n = -1;
    snprintf(key, sizeof key, "ARMCI profile: %-9s ops ", name);
    const char *p = strstr(out, key);
    if (p)
        sscanf(p + strlen(key), "%lf", &n);
    return n;
}

/* Calls, T_comm and W of class name in the report; 0 if the line is missing. */
static int class_line(const char *out, const char *name, double *calls, double *t, double *w)
{
    char key[64];
    snprintf(key, sizeof key, "ARMCI profile: %-9s ops ", name);
    const char *p = strstr(out, key);
    return p && sscanf(p + strlen(key), "%*f, bytes %*f, calls %lf (all processes), "
                       "T_comm %lf s, W %lf s", calls, t, w) == 3;
}

/* The ops of class name to self, the same node and other nodes; 0 if the
 * line is missing. */
static int where_line(const char *out, const char *name, double at[3])
{
    char key[64];
    snprintf(key, sizeof key, "ARMCI profile: %-9s ops to self ", name);
    const char *p = strstr(out, key);
    return p && sscanf(p + strlen(key), "%lf, to the same node %lf, to other nodes %lf",
                       &at[0], &at[1], &at[2]) == 3;
}

/* Each world rank's (virtual) node, as the lowest rank on it, from MPI's
 * shared-memory domains and the documented rule for
 * ARMCI_VIRTUAL_NODE_SIZE=k (k consecutive ranks), not the library's own
 * tables (collective; the caller frees). */
static int *node_of_ranks(int np)
{
    MPI_Comm real, vnode;
    int me, first, *node = malloc(np * sizeof(int));
    const char *vns = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int vn = vns ? atoi(vns) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &real);
    MPI_Comm_split(real, vn > 0 ? me / vn : 0, me, &vnode);
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, vnode);
    MPI_Comm_free(&vnode);
    MPI_Comm_free(&real);
    MPI_Allgather(&first, 1, MPI_INT, node, 1, MPI_INT, MPI_COMM_WORLD);
    return node;
}

/* Calls summed over the report's lines of MPI operation op; 0 if none. */
static double mpiop_calls(const char *out, const char *op)
{
    char key[96];
    double n = 0;
    snprintf(key, sizeof key, "ARMCI profile: MPI op %-30s calls ", op);
    const char *p = strstr(out, key);
    if (p)
        sscanf(p + strlen(key), "%lf", &n);
    return n;
}

/* Calls and seconds per process of the report's line for the calls named
 * name that moved no data; 0 if the line is missing. */
static int nodata_line(const char *out, const char *name, double *calls, double *secs)
{
    char key[96];
    snprintf(key, sizeof key, "ARMCI profile: no-data call %-26s calls ", name);
    const char *p = strstr(out, key);
    return p && sscanf(p + strlen(key), "%lf (all processes), %lf s per process", calls,
                       secs) == 2;
}

/* Run ARMCI_Finalize with stderr captured into buf (rank 0 only). */
static void finalize_captured(int me, char *buf, size_t len)
{
    char path[] = "/tmp/armci_profile_XXXXXX";
    int fd = -1, saved = -1;
    buf[0] = 0;
    if (me == 0) {
        fflush(stderr);
        fd = mkstemp(path);
        saved = dup(2);
        dup2(fd, 2);
    }
    ARMCI_Finalize();
    if (me == 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        lseek(fd, 0, SEEK_SET);
        ssize_t n = read(fd, buf, len - 1);
        buf[n > 0 ? n : 0] = 0;
        close(fd);
        unlink(path);
    }
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    setenv("ARMCI_PROFILE", "1", 1);
    ARMCI_Init();
    tu_name = "test_progress_profile";
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, 8 * sizeof(double));
    unsigned want = armcii_gmr_software_classes(
        armcii_win_component(armcii_gmr_window(armcii_gmr_find_local(ptr[me]))));
    double v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, one = 1;
    /* off: the processes whose next process is on another node; node0:
     * the processes on rank 0's node, for which the report models ghosts */
    int next = (me + 1) % np, off = 0, node0 = 0, *node = node_of_ranks(np);
    for (int r = 0; r < np; r++) {
        off += node[r] != node[(r + 1) % np];
        node0 += node[r] == node[0];
    }
    free(node);
    ARMCI_Barrier();
    for (int k = 0; k < NPUT; k++)
        ARMCI_Put(v, ptr[next], sizeof v, next);
    for (int k = 0; k < NSELF; k++)
        ARMCI_Put(v, ptr[me], sizeof v, me);
    /* a strided put of 2 blocks: counted whole or by block, depending on
     * the path; either way each count has a place */
    int stride = 4 * sizeof(double), cnt[2] = {2 * sizeof(double), 2};
    ARMCI_PutS(v, &stride, ptr[next], &stride, cnt, 1, next);
    ARMCI_Acc(ARMCI_ACC_DBL, &one, v, ptr[next], sizeof v, next);
    /* NWAIT calls that move no data, each timed under its own name */
    for (int k = 0; k < NWAIT; k++) {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbGet(ptr[next], v, sizeof v, next, &h);
        ARMCI_Wait(&h);
    }
    ARMCI_Barrier();
    /* Computation outside the library: T_comp must see it. */
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 0.02)
        ;
    ARMCI_Free(ptr[me]);
    free(ptr);
    static char out[8192];
    finalize_captured(me, out, sizeof out);
    if (me == 0) {
        const char *p = strstr(out, "communication ratio CR = ");
        double cr = -1;
        CHECK(p && sscanf(p + strlen("communication ratio CR = "), "%lf", &cr) == 1,
              "no CR line in the profile output: '%s'", out);
        /* Barriers and puts were timed inside, the busy loop outside. */
        CHECK(cr > 0 && cr < 1, "CR %g outside (0, 1)", cr);
        CHECK(ops_of(out, "put") == (double)(NPUT + NSELF) * np, "put ops %g, expected %d",
              ops_of(out, "put"), (NPUT + NSELF) * np);
        /* where they went: NSELF from each process to itself, NPUT to its
         * next process, which is on another node for off of them */
        double at[3] = {-1, -1, -1};
        double self = np > 1 ? NSELF * np : (NSELF + NPUT);
        double offn = (double)NPUT * off, node = (double)(NPUT + NSELF) * np - self - offn;
        CHECK(where_line(out, "put", at) && at[0] == self && at[1] == node && at[2] == offn,
              "put targets self %g, same node %g, other nodes %g; expected %g, %g, %g: '%s'",
              at[0], at[1], at[2], self, node, offn, out);
        double nc = ops_of(out, "noncontig");
        CHECK(nc >= np && where_line(out, "noncontig", at) && at[0] + at[1] + at[2] == nc &&
                  (np == 1 || at[0] == 0),
              "noncontig ops %g by target: self %g, same node %g, other nodes %g: '%s'", nc,
              at[0], at[1], at[2], out);
        CHECK(ops_of(out, "acc") == np, "acc ops %g, expected %d", ops_of(out, "acc"), np);
        /* every ARMCI_Put is one timed call of class put; its wait for
         * progress (beyond the fastest put) lies within its time */
        double calls = -1, t = -1, w = -1;
        CHECK(class_line(out, "put", &calls, &t, &w), "no put class line: '%s'", out);
        CHECK(calls == (double)(NPUT + NSELF) * np, "put calls %g, expected %d", calls,
              (NPUT + NSELF) * np);
        CHECK(t > 0 && w >= 0 && w <= t, "put T_comm %g s, W %g s: want 0 <= W <= T_comm", t,
              w);
        CHECK(class_line(out, "acc", &calls, &t, &w) && calls == np,
              "acc calls %g, expected %d", calls, np);
        /* where puts take the MPI path, the report says what MPI did with them */
        const char *mode = getenv("ARMCI_TEST_MODE");
        if (mode && strcmp(mode, "on") != 0)
            CHECK(mpiop_calls(out, "MPI_Put") + mpiop_calls(out, "message to a ghost (write)") > 0,
                  "mode %s: no MPI operation line for the puts: '%s'", mode, out);
        char missing[64];
        CHECK(names_region_classes(out, want, missing, sizeof missing),
              "the classes ghosts serve here leave out the region window's '%s': '%s'",
              missing, out);
        if (node0 > 1)
            CHECK(strstr(out, "T(1) = ") != NULL, "no dedicated-core prediction: '%s'", out);
        CHECK(strstr(out, "measured T = ") != NULL, "no measured time: '%s'", out);
        /* the calls that moved no data, by name, over all processes */
        double secs = -1;
        CHECK(nodata_line(out, "ARMCI_Wait", &calls, &secs) && calls == NWAIT * np && secs >= 0,
              "ARMCI_Wait: %g calls, %g s; expected %d calls: '%s'", calls, secs, NWAIT * np,
              out);
        CHECK(nodata_line(out, "ARMCI_Barrier", &calls, &secs) && calls == NBARRIER * np &&
                  secs > 0,
              "ARMCI_Barrier: %g calls, %g s; expected %d calls: '%s'", calls, secs,
              NBARRIER * np, out);
        CHECK(!nodata_line(out, "ARMCI_Put", &calls, &secs),
              "ARMCI_Put, which moved data, listed as moving none: '%s'", out);
    }
    /* A second init/finalize without the variable prints nothing. */
    unsetenv("ARMCI_PROFILE");
    ARMCI_Init();
    finalize_captured(me, out, sizeof out);
    if (me == 0)
        CHECK(strstr(out, "ARMCI profile") == NULL, "profile printed while off: '%s'", out);
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
