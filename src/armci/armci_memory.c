/*
 * ARMCI_Malloc/Free and friends: checks in front of src/gmr, and private
 * local memory (ARMCI_Malloc_local).
 */
#include <unistd.h>
#ifdef __linux__
#include <sys/sysinfo.h>
#endif
#include "armci_api.h"
#include "../gmr/gmr.h"

/* Memory this node could give one process at most: RAM plus swap (what
 * Linux's default overcommit rule refuses beyond).  A larger request cannot
 * succeed, and MPI would report it in its own words, or abort the job from
 * MPI_COMM_WORLD's error handler (MPI_Alloc_mem): refuse it here.  Asked
 * on the allocation path only, where a system call is noise. */
static unsigned long long node_memory(void)
{
    unsigned long long t = 0;
#ifdef __linux__
    struct sysinfo si;
    if (sysinfo(&si) == 0)
        t = ((unsigned long long)si.totalram + si.totalswap) * si.mem_unit;
#endif
    if (!t) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        t = pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page : ~0ULL;
    }
    return t;
}

static void check_size(const char *call, armci_size_t bytes)
{
    if (bytes < 0)
        armcii_error(call, "negative size %ld", (long)bytes);
    unsigned long long b = (unsigned long long)bytes, mem;
    if (b > 1ULL << 30 && b > (mem = node_memory())) /* only large requests ask the system */
        armcii_error(call, "%ld bytes is more than this node's memory and swap (%llu bytes)",
                     (long)bytes, mem);
}

static int malloc_comm(const char *call, void **ptrs, armci_size_t bytes, MPI_Comm comm)
{
    check_size(call, bytes);
    if (!ptrs)
        armcii_error(call, "pointer array is NULL");
    armcii_progress_park();
    armcii_gmr_create(call, comm, (size_t)bytes, ptrs);
    return 0;
}

static MPI_Comm group_comm(const char *call, const ARMCI_Group *g)
{
    armcii_check_init(call);
    return armcii_api_group_comm(call, g);
}

static MPI_Comm world_comm(const char *call)
{
    armcii_check_init(call);
    return armcii_state.world;
}

/* Collective over comm: free the region at ptr. */
static void free_comm(const char *call, MPI_Comm comm, void *ptr)
{
    armcii_progress_park();
    armcii_gmr_destroy(call, comm, ptr);
}

int PARMCI_Malloc(void **base_ptrs, armci_size_t size)
{
    armcii_set_call("ARMCI_Malloc");
    return malloc_comm("ARMCI_Malloc", base_ptrs, size, world_comm("ARMCI_Malloc"));
}
ARMCII_WEAK(Malloc)

int PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char *device)
{
    static const char call[] = "ARMCI_Malloc_memdev";
    (void)device; /* memory devices are not distinguished */
    armcii_set_call(call);
    return malloc_comm(call, ptr_arr, bytes, world_comm(call));
}
ARMCII_WEAK(Malloc_memdev)

int ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group)
{
    static const char call[] = "ARMCI_Malloc_group";
    armcii_set_call(call);
    return malloc_comm(call, ptr_arr, bytes, group_comm(call, group));
}

int PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group,
                               const char *device)
{
    static const char call[] = "ARMCI_Malloc_group_memdev";
    (void)device;
    armcii_set_call(call);
    return malloc_comm(call, ptr_arr, bytes, group_comm(call, group));
}
ARMCII_WEAK(Malloc_group_memdev)

int PARMCI_Free(void *ptr)
{
    static const char call[] = "ARMCI_Free";
    armcii_set_call(call);
    free_comm(call, world_comm(call), ptr);
    return 0;
}
ARMCII_WEAK(Free)

int PARMCI_Free_memdev(void *ptr)
{
    static const char call[] = "ARMCI_Free_memdev";
    armcii_set_call(call);
    free_comm(call, world_comm(call), ptr);
    return 0;
}
ARMCII_WEAK(Free_memdev)

int ARMCI_Free_group(void *ptr, ARMCI_Group *group)
{
    static const char call[] = "ARMCI_Free_group";
    armcii_set_call(call);
    free_comm(call, group_comm(call, group), ptr);
    return 0;
}

void *PARMCI_Malloc_local(armci_size_t size)
{
    static const char call[] = "ARMCI_Malloc_local";
    armcii_set_call(call);
    armcii_check_init(call);
    check_size(call, size);
    return armcii_gmr_local_alloc(call, (size_t)size);
}
ARMCII_WEAK(Malloc_local)

int PARMCI_Free_local(void *ptr)
{
    static const char call[] = "ARMCI_Free_local";
    armcii_set_call(call);
    armcii_check_init(call);
    if (ptr)
        armcii_gmr_local_free(call, ptr);
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
