/* Bad input to the remaining entry-point families (memory, values,
 * groups, message layer, locality, notifications, the stride iterator)
 * must end in ARMCI_Error naming the call and the reason.  argv[1] names
 * the case (tests/mpi/badinput_misc.cases, run by test_badinput.sh);
 * rank 0 makes the bad call, the others wait in the barrier, except in
 * the collective cases, where every process calls. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <armci.h>
#include <armcix.h>
#include <iterator.h>
#include <message.h>

static int me, np;

static int memory_case(const char *c, void **ptr)
{
    char buf[64];
    if (!strcmp(c, "free_local_twice")) {
        void *p = ARMCI_Malloc_local(4 << 20);
        ARMCI_Free_local(p);
        ARMCI_Free_local(p);
    } else if (!strcmp(c, "copy_null")) {
        ARMCI_Copy(NULL, buf, 8);
    } else if (!strcmp(c, "async_phase_mode")) {
        ARMCIX_Async_phase(2);
    } else if (!strcmp(c, "putvalue_unknown_addr")) {
        ARMCI_PutValueInt(1, buf, 0);
    } else if (!strcmp(c, "getvalue_proc_range")) {
        ARMCI_GetValueLong(ptr[0], np);
    } else if (!strcmp(c, "putflag_unknown_flag")) {
        int flag = 0;
        ARMCI_Put_flag(buf, ptr[0], 8, &flag, 1, 0);
    } else if (!strcmp(c, "nbacc_bad_type")) {
        double one = 1;
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbAcc(99, &one, buf, ptr[0], 8, 0, &h);
    } else if (!strcmp(c, "same_node_range")) {
        ARMCI_Same_node(np);
    } else {
        return 0;
    }
    return 1;
}

static int group_msg_case(const char *c)
{
    int x[4] = {0};
    ARMCI_Group world;
    if (!strcmp(c, "group_get_default_null")) {
        ARMCI_Group_get_default(NULL);
    } else if (!strcmp(c, "group_get_world_null")) {
        ARMCI_Group_get_world(NULL);
    } else if (!strcmp(c, "group_plausible_wild_tables")) {
        /* the world group's size, rank and communicator, but wild tables:
         * they must not be followed */
        ARMCI_Group_get_world(&world);
        world.grp_to_abs = (int *)(uintptr_t)0x10;
        world.abs_to_grp = (int *)(uintptr_t)0x20;
        int r;
        ARMCI_Group_rank(&world, &r);
    } else if (!strcmp(c, "group_split_null_out")) {
        ARMCI_Group_get_world(&world);
        ARMCIX_Group_split(&world, 0, 0, NULL);
    } else if (!strcmp(c, "msg_sel_null_op")) {
        armci_msg_sel(x, sizeof x, NULL, ARMCI_INT, 1);
    } else if (!strcmp(c, "msg_group_bcast_null_group")) {
        armci_msg_group_bcast_scope(SCOPE_ALL, x, sizeof x, 0, NULL);
    } else if (!strcmp(c, "msg_snd_proc_range")) {
        armci_msg_snd(1, x, sizeof x, np);
    } else if (!strcmp(c, "msg_gop_unknown_op")) {
        armci_msg_igop(x, 4, "xor3");
    } else if (!strcmp(c, "domain_nprocs_bad_id")) {
        armci_domain_nprocs(ARMCI_DOMAIN_SMP, 1 << 20);
    } else if (!strcmp(c, "notify_proc_range")) {
        armci_notify(np);
    } else if (!strcmp(c, "notify_wait_proc_range")) {
        armci_notify_wait(-1, x);
    } else if (!strcmp(c, "stride_info_levels")) {
        stride_info_t s;
        int count[2] = {8, 2}, stride[1] = {16};
        armci_stride_info_init(&s, x, ARMCI_MAX_STRIDE_LEVEL + 1, stride, count);
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void *ptr[256];
    ARMCI_Malloc(ptr, 256);
    ARMCI_Barrier();
    if (argc > 1 && !strcmp(argv[1], "free_mixed")) {
        /* a collective free of two allocations: rank 0 names another one */
        void *other[256];
        ARMCI_Malloc(other, 64);
        ARMCI_Free(me == 0 ? other[me] : ptr[me]);
        printf("free_mixed: ARMCI_Free returned on %d\n", me);
    } else if (me == 0 && argc > 1 && !memory_case(argv[1], ptr) && !group_msg_case(argv[1]))
        printf("unknown case %s\n", argv[1]);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
