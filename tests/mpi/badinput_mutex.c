/* Bad mutex and read-modify-write input must end in ARMCI_Error naming the
 * call and the reason.  argv[1] names the case (badinput_mutex.cases, run
 * by test_badinput.sh).  Collective set-up runs on every rank; rank 0 then
 * makes the bad call and the others wait in the barrier. */
#include <stdio.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>

/* Cases that need a mutex set first, and how many mutexes rank r hosts. */
static int setup_count(const char *c, int rank)
{
    if (!strcmp(c, "lock_zero_count"))
        return rank == 1 ? 0 : 1;
    if (!strncmp(c, "lock_", 5) || !strncmp(c, "unlock_", 7) || !strcmp(c, "create_twice"))
        return strcmp(c, "lock_no_set") && strcmp(c, "unlock_no_set") ? 1 : -1;
    return -1;
}

static void bad_call(const char *c, void **ptr, int np)
{
    int v = 1, local = 0;
    if (!strcmp(c, "rmw_bad_op"))
        ARMCI_Rmw(7, &v, ptr[0], 1, 0);
    else if (!strcmp(c, "rmw_null_ploc"))
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, NULL, ptr[0], 1, 0);
    else if (!strcmp(c, "rmw_null_prem"))
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &v, NULL, 1, 0);
    else if (!strcmp(c, "rmw_unknown_addr"))
        ARMCI_Rmw(ARMCI_SWAP, &v, &local, 0, 0);
    else if (!strcmp(c, "rmw_misaligned_long"))
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &v, (char *)ptr[0] + 4, 1, 0);
    else if (!strcmp(c, "rmw_misaligned_int"))
        ARMCI_Rmw(ARMCI_SWAP, &v, (char *)ptr[0] + 2, 1, 0);
    else if (!strcmp(c, "rmw_proc_range"))
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &v, ptr[0], 1, np);
    else if (!strcmp(c, "create_negative"))
        ARMCI_Create_mutexes(-1);
    else if (!strcmp(c, "create_twice"))
        ARMCI_Create_mutexes(1);
    else if (!strcmp(c, "destroy_none"))
        ARMCI_Destroy_mutexes();
    else if (!strcmp(c, "lock_no_set"))
        ARMCI_Lock(0, 0);
    else if (!strcmp(c, "unlock_no_set"))
        ARMCI_Unlock(0, 0);
    else if (!strcmp(c, "lock_mutex_range"))
        ARMCI_Lock(1, 0);
    else if (!strcmp(c, "lock_negative_mutex"))
        ARMCI_Lock(-1, 0);
    else if (!strcmp(c, "lock_proc_range"))
        ARMCI_Lock(0, np);
    else if (!strcmp(c, "lock_zero_count"))
        ARMCI_Lock(0, 1);
    else if (!strcmp(c, "lock_reentrant")) {
        ARMCI_Lock(0, 0);
        ARMCI_Lock(0, 0);
    } else if (!strcmp(c, "unlock_not_held"))
        ARMCI_Unlock(0, 0);
    else if (!strcmp(c, "hdl_bogus"))
        ARMCIX_Lock_hdl((armcix_mutex_hdl_t)ptr, 0, 0);
    else if (!strcmp(c, "hdl_null_group"))
        ARMCIX_Create_mutexes_hdl(1, NULL);
    else
        printf("unknown case %s\n", c);
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void *ptr[256];
    ARMCI_Malloc(ptr, 64);
    const char *c = argc > 1 ? argv[1] : "";
    int n = setup_count(c, me);
    if (setup_count(c, 0) >= 0)
        ARMCI_Create_mutexes(n);
    ARMCI_Barrier();
    if (me == 0)
        bad_call(c, ptr, np);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
