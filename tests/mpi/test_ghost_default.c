/* ARMCI_GHOST_ASYNC's default in the ghost build: on, except where a host
 * has more processes (ghosts included) than CPUs and MPI spins in its
 * waits, where the job starts in the automatic mode
 * (src/ghost/ghost_init.c).  The variable is unset before MPI_Init (the
 * ghosts read it when the job is laid out), except in mode "off", where it
 * is set to OFF and must win over the default.  Checked on every rank:
 * the setting in force, that every rank has the same one, that
 * redirection starts as the setting says, and, independently of the
 * library's own predicates, that MPICH on a crowded host gets the
 * automatic mode.  A fetch-and-add from every rank to a counter on the
 * last rank (another virtual node in the ghost modes) then hands out
 * 0..np-1, whatever path it took.  Other builds: the default is on. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>
#include "../testutil.h"
#include "../../src/common/common_quirks.h"
#include "../../src/gmr/gmr.h"
#include "ghost_setting.h"

static const char *name_of(int s)
{
    return s == ARMCII_ASYNC_ON ? "ON" : s == ARMCII_ASYNC_OFF ? "OFF" : "AUTO";
}

/* The fetch-and-adds must hand out each of 0..np-1 once. */
static void counter_round(int me, int np)
{
    void **ptr = malloc((size_t)np * sizeof(void *));
    CHECK(ptr && ARMCI_Malloc(ptr, sizeof(long)) == 0, "ARMCI_Malloc failed");
    *(long *)ptr[me] = 0;
    ARMCI_Barrier();
    long got = -1, *all = calloc((size_t)np, sizeof(long));
    ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &got, ptr[np - 1], 1, np - 1);
    MPI_Allgather(&got, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
    for (long v = 0; v < np; v++) {
        int seen = 0;
        for (int r = 0; r < np; r++)
            seen += all[r] == v;
        CHECK(seen == 1, "fetch-and-add handed out %ld %d times (expected once)", v, seen);
    }
    ARMCI_Barrier();
    if (me == np - 1)
        CHECK(*(long *)ptr[me] == np, "counter %ld after %d fetch-and-adds", *(long *)ptr[me], np);
    ARMCI_Free(ptr[me]);
    free(all);
    free(ptr);
}

int main(int argc, char **argv)
{
    const char *mode = getenv("ARMCI_TEST_MODE");
    int explicit_off = mode && !strcmp(mode, "off");
    if (explicit_off)
        setenv("ARMCI_GHOST_ASYNC", "OFF", 1);
    else
        unsetenv("ARMCI_GHOST_ASYNC");
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_default";
    int me, np, real_np, len = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    PMPI_Comm_size(MPI_COMM_WORLD, &real_np); /* the wrapped world hides ghosts */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    MPI_Get_library_version(lib, &len);
    int ghosts = armcii_gmr_ghost_usable() && real_np > np;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* every process of a test run shares this host */
    int crowded = cpus > 0 && real_np > cpus;
    int want = explicit_off ? ARMCII_ASYNC_OFF
               : ghosts && crowded && !armcii_mpi_yields_when_idle() ? ARMCII_ASYNC_AUTO
                                                                     : ARMCII_ASYNC_ON;
    int got = armcii_gmr_async_setting(), lo, hi;
    CHECK(got == want, "ARMCI_GHOST_ASYNC in force is %s, expected %s (%s; ghosts %d, %d "
          "processes on %ld CPUs)", name_of(got), name_of(want),
          explicit_off ? "set to OFF" : "unset", ghosts, real_np, cpus);
    if (ghosts && crowded && !explicit_off && strstr(lib, "MPICH"))
        CHECK(got == ARMCII_ASYNC_AUTO, "MPICH, %d processes on %ld CPUs: %s, expected AUTO",
              real_np, cpus, name_of(got));
    MPI_Allreduce(&got, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&got, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lo == hi, "processes disagree on ARMCI_GHOST_ASYNC: %s..%s", name_of(lo), name_of(hi));
    if (ghosts)
        CHECK(armcii_gmr_redirecting() == (got != ARMCII_ASYNC_OFF),
              "redirection starts %s under %s", armcii_gmr_redirecting() ? "on" : "off",
              name_of(got));
    counter_round(me, np);
    if (me == 0)
        printf("ARMCI_GHOST_ASYNC %s (%s), ghosts %d, %d processes on %ld CPUs\n",
               name_of(got), explicit_off ? "set" : "default", ghosts, real_np, cpus);
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
