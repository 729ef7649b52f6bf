/* Bad input must end in a clean ARMCI_Error abort with the rank, the call
 * and the reason (never a crash or a hang).  argv[1] names the case; rank 0
 * makes the bad call while the others wait in a barrier.  Driven by
 * test_badinput.sh, which checks the exit status and the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>

static int me, np;

static void bad_call(const char *c, void **ptr)
{
    int local[4] = {0};
    armci_hdl_t h;
    if (!strcmp(c, "put_unknown_addr"))
        ARMCI_Put(local, local, sizeof local, (me + 1) % np);
    else if (!strcmp(c, "put_proc_range"))
        ARMCI_Put(local, ptr[0], 4, np);
    else if (!strcmp(c, "get_negative"))
        ARMCI_Get(ptr[0], local, -1, 0);
    else if (!strcmp(c, "put_past_end"))
        ARMCI_Put(local, (char *)ptr[1 % np] + 60, 16, 1 % np);
    else if (!strcmp(c, "acc_bad_type"))
        ARMCI_Acc(9, local, local, ptr[0], 4, 0);
    else if (!strcmp(c, "acc_bad_bytes"))
        ARMCI_Acc(ARMCI_ACC_DBL, local, local, ptr[0], 12, 0);
    else if (!strcmp(c, "free_unknown"))
        ARMCI_Free(local);
    else if (!strcmp(c, "free_local_foreign"))
        ARMCI_Free_local(local + 2);
    else if (!strcmp(c, "wait_null"))
        ARMCI_Wait(NULL);
    else if (!strcmp(c, "fence_range"))
        ARMCI_Fence(-1);
    else if (!strcmp(c, "nbget_unknown")) {
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbGet((char *)local, local, 4, 0, &h);
    } else if (!strcmp(c, "absolute_id_range")) {
        ARMCI_Group w;
        ARMCI_Group_get_world(&w);
        ARMCI_Absolute_id(&w, np + 3);
    } else {
        fprintf(stderr, "badinput: unknown case %s\n", c);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    /* thread_multiple: MPI_THREAD_MULTIPLE granted where the osc component
     * then refuses windows (Open MPI's pt2pt) must give an ARMCI_Error. */
    if (argc > 1 && !strcmp(argv[1], "thread_multiple")) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    /* thread_level_unavailable: MPI_Init provides MPI_THREAD_SINGLE here;
     * the error must name the call the program made */
    if (argc > 1 && !strcmp(argv[1], "thread_level_unavailable"))
        ARMCI_Init_thread(MPI_THREAD_MULTIPLE);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 2) {
        fprintf(stderr, "usage: badinput CASE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    void **ptr = malloc(np * sizeof(void *));
    ARMCI_Malloc(ptr, 64);
    if (!strcmp(argv[1], "free_unknown") || !strcmp(argv[1], "group_bad_pid")) {
        /* collective calls: everyone makes them */
        if (!strcmp(argv[1], "free_unknown")) {
            bad_call(argv[1], ptr);
        } else {
            int pids[2] = {0, np + 5};
            ARMCI_Group g;
            ARMCI_Group_create(2, pids, &g);
        }
    } else if (me == 0) {
        bad_call(argv[1], ptr);
    }
    ARMCI_Barrier();
    /* Reaching this point means the bad call was accepted. */
    if (me == 0)
        printf("badinput: case %s was NOT rejected\n", argv[1]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
