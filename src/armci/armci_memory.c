/*
 * ARMCI_Malloc/Free and friends: thin checks in front of src/gmr.
 */
#include <stdint.h>
#include <string.h>
#include "armci_int.h"
#include "../gmr/gmr.h"

static void check_group(const char *call, const ARMCI_Group *g)
{
    if (!g)
        armcii_error(call, "group is NULL");
    if (g->comm == MPI_COMM_NULL || g->rank < 0)
        armcii_error(call, "the calling process is not a member of the group");
}

static int malloc_comm(const char *call, void **ptrs, armci_size_t bytes, MPI_Comm comm)
{
    armcii_check_init(call);
    if (bytes < 0)
        armcii_error(call, "negative size %ld", (long)bytes);
    if (!ptrs)
        armcii_error(call, "pointer array is NULL");
    armcii_gmr_create(call, comm, (size_t)bytes, ptrs);
    return 0;
}

int PARMCI_Malloc(void **base_ptrs, armci_size_t size)
{
    return malloc_comm("ARMCI_Malloc", base_ptrs, size, armcii_state.world);
}
ARMCII_WEAK(Malloc)

int PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char *device)
{
    (void)device; /* memory devices are not distinguished */
    return malloc_comm("ARMCI_Malloc_memdev", ptr_arr, bytes, armcii_state.world);
}
ARMCII_WEAK(Malloc_memdev)

int ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group)
{
    check_group("ARMCI_Malloc_group", group);
    return malloc_comm("ARMCI_Malloc_group", ptr_arr, bytes, group->comm);
}

int PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group,
                               const char *device)
{
    (void)device;
    check_group("ARMCI_Malloc_group_memdev", group);
    return malloc_comm("ARMCI_Malloc_group_memdev", ptr_arr, bytes, group->comm);
}
ARMCII_WEAK(Malloc_group_memdev)

int PARMCI_Free(void *ptr)
{
    armcii_check_init("ARMCI_Free");
    armcii_gmr_destroy("ARMCI_Free", armcii_state.world, ptr);
    return 0;
}
ARMCII_WEAK(Free)

int PARMCI_Free_memdev(void *ptr)
{
    armcii_check_init("ARMCI_Free_memdev");
    armcii_gmr_destroy("ARMCI_Free_memdev", armcii_state.world, ptr);
    return 0;
}
ARMCII_WEAK(Free_memdev)

int ARMCI_Free_group(void *ptr, ARMCI_Group *group)
{
    armcii_check_init("ARMCI_Free_group");
    check_group("ARMCI_Free_group", group);
    armcii_gmr_destroy("ARMCI_Free_group", group->comm, ptr);
    return 0;
}

/* Local memory carries a small header so that Free_local can tell its own
 * blocks from foreign pointers and report them instead of corrupting. */
#define LOCAL_HDR 64
#define LOCAL_MAGIC 0x41524d43494c4f43ULL /* "ARMCILOC" */

void *PARMCI_Malloc_local(armci_size_t size)
{
    static const char call[] = "ARMCI_Malloc_local";
    char *p;
    armcii_check_init(call);
    if (size < 0)
        armcii_error(call, "negative size %ld", (long)size);
    if (MPI_Alloc_mem((MPI_Aint)size + LOCAL_HDR, MPI_INFO_NULL, &p) != MPI_SUCCESS)
        armcii_error(call, "MPI_Alloc_mem of %ld bytes failed", (long)size);
    *(uint64_t *)p = LOCAL_MAGIC;
    if (armcii_state.cfg.debug_alloc)
        memset(p + LOCAL_HDR, 0, (size_t)size);
    return p + LOCAL_HDR;
}
ARMCII_WEAK(Malloc_local)

int PARMCI_Free_local(void *ptr)
{
    static const char call[] = "ARMCI_Free_local";
    armcii_check_init(call);
    if (!ptr)
        return 0;
    char *p = (char *)ptr - LOCAL_HDR;
    if (((uintptr_t)ptr & 7) || *(uint64_t *)p != LOCAL_MAGIC)
        armcii_error(call, "%p was not returned by ARMCI_Malloc_local (or was freed "
                     "already)", ptr);
    *(uint64_t *)p = 0;
    ARMCII_MPI(MPI_Free_mem(p));
    return 0;
}
ARMCII_WEAK(Free_local)

/* Recorded only: memory comes from MPI, which enforces its own limits. */
void ARMCI_Set_shm_limit(unsigned long shmemlimit)
{
    armcii_state.shm_limit = shmemlimit;
}

/* GA is built with AVOID_MA_STORAGE; 0 keeps its classic code paths. */
int ARMCI_Uses_shm(void) { return 0; }
int ARMCI_Uses_shm_grp(ARMCI_Group *group)
{
    (void)group;
    return 0;
}
