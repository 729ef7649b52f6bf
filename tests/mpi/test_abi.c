/* The ABI Global Arrays 5.8.2 was compiled against: sizes, offsets and
 * enum values (the GA 5.8.2 armci.h ABI), plus the profiling aliases. */
#include <stddef.h>
#include <armci.h>
#include <armcix.h>
#include <message.h>
#include "../testutil.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_abi";
    CHECK(sizeof(armci_hdl_t) == 8, "sizeof(armci_hdl_t) = %zu", sizeof(armci_hdl_t));
    CHECK(_Alignof(armci_hdl_t) <= 8, "armci_hdl_t alignment");
    CHECK(sizeof(armci_giov_t) == 24 && offsetof(armci_giov_t, src_ptr_array) == 0 &&
          offsetof(armci_giov_t, dst_ptr_array) == 8 && offsetof(armci_giov_t, bytes) == 16 &&
          offsetof(armci_giov_t, ptr_array_len) == 20, "armci_giov_t layout");
    CHECK(offsetof(ARMCI_Group, comm) == 0, "ARMCI_Group.comm at offset 0");
#ifdef OPEN_MPI
    CHECK(sizeof(ARMCI_Group) == 40 && offsetof(ARMCI_Group, noncoll_pgroup_comm) == 8 &&
          offsetof(ARMCI_Group, grp_to_abs) == 16 && offsetof(ARMCI_Group, abs_to_grp) == 24 &&
          offsetof(ARMCI_Group, rank) == 32 && offsetof(ARMCI_Group, size) == 36,
          "ARMCI_Group layout (Open MPI): size %zu", sizeof(ARMCI_Group));
#endif
    CHECK(sizeof(armci_size_t) == 8, "armci_size_t");
    CHECK(ARMCI_ACC_INT == 0 && ARMCI_ACC_LNG == 1 && ARMCI_ACC_FLT == 2 &&
          ARMCI_ACC_DBL == 3 && ARMCI_ACC_CPL == 4 && ARMCI_ACC_DCP == 5, "ARMCI_Acc_e");
    CHECK(ARMCI_FETCH_AND_ADD == 0 && ARMCI_FETCH_AND_ADD_LONG == 1 && ARMCI_SWAP == 2 &&
          ARMCI_SWAP_LONG == 3, "ARMCI_Rmw_e");
    CHECK(SCOPE_ALL == 0 && SCOPE_NODE == 1 && SCOPE_MASTERS == 2, "scopes");
    CHECK(ARMCI_INT == 0 && ARMCI_LONG == 1 && ARMCI_LONG_LONG == 2 && ARMCI_FLOAT == 3 &&
          ARMCI_DOUBLE == 4, "msg types");
    CHECK(ARMCI_DOMAIN_SMP == 0 && ARMCI_MPI == 3, "domain/ARMCI_MPI");
    /* The weak ARMCI_X and strong PARMCI_X are the same function here
     * (no profiling library linked).  Compared through volatile slots: C
     * gives distinct functions distinct addresses, so clang folds a direct
     * comparison of the two names to false. */
    void *volatile alias[6] = {(void *)ARMCI_Put, (void *)PARMCI_Put, (void *)ARMCI_Rmw,
                               (void *)PARMCI_Rmw, (void *)armci_msg_barrier,
                               (void *)parmci_msg_barrier};
    CHECK(alias[0] == alias[1] && alias[2] == alias[3] && alias[4] == alias[5],
          "profiling aliases");
    MPI_Comm wc;
    ARMCIX_Get_world_comm(&wc);
    ARMCI_Group w;
    ARMCI_Group_get_world(&w);
    int r1, r2;
    MPI_Comm_rank(wc, &r1);
    MPI_Comm_rank(w.comm, &r2);
    CHECK(r1 == r2 && w.rank == r1, "world communicators");
    int rc = tu_finish();
    ARMCI_Finalize();
    MPI_Finalize();
    return rc;
}
