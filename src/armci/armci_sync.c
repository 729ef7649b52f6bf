/*
 * Fence, barrier and direct local access.
 */
#include "armci_int.h"
#include "../gmr/gmr.h"
#include "../progress/progress.h"

void PARMCI_Fence(int proc)
{
    armcii_check_init("ARMCI_Fence");
    armcii_check_proc("ARMCI_Fence", proc);
    armcii_profile_enter();
    armcii_gmr_fence(proc);
    armcii_profile_leave();
}
ARMCII_WEAK(Fence)

void PARMCI_AllFence(void)
{
    armcii_check_init("ARMCI_AllFence");
    armcii_profile_enter();
    armcii_gmr_fence_all();
    armcii_profile_leave();
}
ARMCII_WEAK(AllFence)

/* World-wide (not the default group), as GA expects. */
void PARMCI_Barrier(void)
{
    armcii_check_init("ARMCI_Barrier");
    armcii_profile_enter();
    armcii_gmr_fence_all();
    ARMCII_MPI(MPI_Barrier(armcii_state.world));
    armcii_profile_leave();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
ARMCII_WEAK(Barrier)

static void check_own(const char *call, void *ptr)
{
    armcii_check_init(call);
    if (!armcii_gmr_find_local(ptr))
        armcii_error(call, "%p is not inside this process's slice of an ARMCI "
                     "allocation", ptr);
}

/* Windows are unified memory here: a memory barrier is all an epoch needs. */
void PARMCI_Access_begin(void *ptr)
{
    check_own("ARMCI_Access_begin", ptr);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
ARMCII_WEAK(Access_begin)

void PARMCI_Access_end(void *ptr)
{
    check_own("ARMCI_Access_end", ptr);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
ARMCII_WEAK(Access_end)
