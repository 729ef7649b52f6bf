#!/bin/sh
# The shared library exports the public API only (plus the MPI_* wrappers
# of the ghost-progress build).
lib=${TESTS_BUILDDIR:-tests}/../.libs/libarmci.so
if [ ! -f "$lib" ]; then
    echo "SKIP test_exports: no shared library built"; exit 77
fi
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TWDBRV]/ {print $3}' |
      grep -v -E '^(ARMCI_|ARMCIX_|PARMCI_|armci_msg_|parmci_msg_|armci_domain_|MPI_|PMPI_|mpi_|pmpi_)' |
      grep -v -E '^(armci_read_strided|armci_write_strided|armci_timer|armci_group_comm|armci_notify|armci_notify_wait|armci_die|armci_die2|armci_stride_info_[a-z_]+|_init|_fini|_edata|_end|__bss_start)$')
if [ -n "$bad" ]; then
    echo "FAIL test_exports: non-API symbols exported:"; echo "$bad" | head -20; exit 1
fi
n=$(nm -D --defined-only "$lib" | grep -c -E ' (ARMCI|PARMCI|armci_msg)_')
# the 76 names Global Arrays 5.8.2 needs must all be there
missing=""
for s in ARMCI_Absolute_id ARMCI_AccS ARMCI_AccV ARMCI_AllFence ARMCI_Cleanup \
    ARMCI_Create_mutexes ARMCI_Destroy_mutexes ARMCI_Error ARMCI_Fence ARMCI_Finalize \
    ARMCI_Free ARMCI_Free_group ARMCI_Free_local ARMCI_Free_memdev ARMCI_GetS ARMCI_GetV \
    ARMCI_Group_create ARMCI_Group_free ARMCI_Group_get_world ARMCI_Group_set_default \
    ARMCI_INIT_HANDLE ARMCI_Init ARMCI_Init_args ARMCI_Initialized ARMCI_Lock ARMCI_Malloc \
    ARMCI_Malloc_group ARMCI_Malloc_group_memdev ARMCI_Malloc_local ARMCI_Malloc_memdev \
    ARMCI_NbAccS ARMCI_NbGetS ARMCI_NbPutS ARMCI_PutS ARMCI_PutS_flag ARMCI_PutV ARMCI_Rmw \
    ARMCI_Same_node ARMCI_Set_shm_limit ARMCI_Test ARMCI_Unlock ARMCI_Uses_shm \
    ARMCI_Uses_shm_grp ARMCI_Wait ARMCI_WaitAll armci_domain_count armci_domain_glob_proc_id \
    armci_domain_id armci_domain_my_id armci_domain_nprocs armci_domain_same_id \
    armci_msg_abort armci_msg_barrier armci_msg_bcast armci_msg_bintree armci_msg_dgop \
    armci_msg_fgop armci_msg_gop_scope armci_msg_group_barrier armci_msg_group_bcast_scope \
    armci_msg_group_dgop armci_msg_group_fgop armci_msg_group_gop_scope armci_msg_group_igop \
    armci_msg_group_lgop armci_msg_group_llgop armci_msg_igop armci_msg_lgop armci_msg_llgop \
    armci_msg_me armci_msg_nproc armci_msg_rcv armci_msg_sel_scope armci_msg_snd \
    armci_read_strided armci_write_strided; do
    nm -D --defined-only "$lib" | grep -q " $s\$" || missing="$missing $s"
done
# and the optional functions GA 5.8.2's configure probes for
for s in armci_group_comm armci_stride_info_init armci_notify armci_notify_wait \
    armci_msg_init armci_msg_finalize armci_die armci_die2; do
    nm -D --defined-only "$lib" | grep -q " $s\$" || missing="$missing $s"
done
if [ -n "$missing" ]; then
    echo "FAIL test_exports: missing GA symbols:$missing"; exit 1
fi
echo "PASS test_exports ($n API symbols, all 76 GA symbols present)"
