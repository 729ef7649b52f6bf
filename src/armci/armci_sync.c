/*
 * Fence, barrier and direct local access.
 */
#include "armci_api.h"
#include "../gmr/gmr.h"

/* Remote completion of everything this process wrote to proc. */
void PARMCI_Fence(int proc)
{
    static const char call[] = "ARMCI_Fence";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    armcii_gmr_fence(proc);
    armcii_api_leave();
}
ARMCII_WEAK(Fence)

void PARMCI_AllFence(void)
{
    static const char call[] = "ARMCI_AllFence";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    armcii_gmr_fence_all();
    armcii_api_leave();
}
ARMCII_WEAK(AllFence)

/* World-wide (not the default group), as GA expects; in automatic mode a
 * point where redirection may switch (progress_adapt.c). */
void PARMCI_Barrier(void)
{
    static const char call[] = "ARMCI_Barrier";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    if (!armcii_progress_sync(ARMCII_SYNC_BARRIER))
        armcii_gmr_barrier();
    armcii_api_leave();
}
ARMCII_WEAK(Barrier)

static void check_own(const char *call, void *ptr)
{
    armcii_check_init(call);
    if (!ptr)
        armcii_error(call, "pointer is NULL");
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
