/*
 * Module lifecycle of src/mutex and the classic world mutex set
 * (ARMCI_Create_mutexes/Destroy_mutexes/Lock/Unlock), a thin layer over the
 * handle implementation in mutex_hdl.c.
 */
#include <string.h>
#include "mutex.h"
#include "../armci/armci_int.h"
#include "../progress/progress.h"

armcii_mutex_state_t armcii_mutex_state;

void armcii_mutex_init(void)
{
    memset(&armcii_mutex_state, 0, sizeof armcii_mutex_state);
}

/* Collective (ARMCI_Finalize on every rank). */
void armcii_mutex_finalize(void)
{
    int left = armcii_mutex_destroy_all("ARMCI_Finalize");
    if (left)
        armcii_log(1, "destroyed %d mutex set(s) left at finalize", left);
    armcii_mutex_state.world = NULL;
}

/* Collective over the world: count mutexes hosted by the caller (0 allowed,
 * at least one process > 0).  Returns 0. */
int PARMCI_Create_mutexes(int count)
{
    static const char call[] = "ARMCI_Create_mutexes";
    armcii_check_init(call);
    if (armcii_mutex_state.world)
        armcii_error(call, "a mutex set already exists (call ARMCI_Destroy_mutexes first)");
    armcii_mutex_state.world = armcii_mutex_create(call, count, armcii_state.world, 1);
    return 0;
}
ARMCII_WEAK(Create_mutexes)

/* Collective over the world.  Returns 0. */
int PARMCI_Destroy_mutexes(void)
{
    static const char call[] = "ARMCI_Destroy_mutexes";
    armcii_check_init(call);
    if (!armcii_mutex_state.world)
        armcii_error(call, "no mutexes exist (ARMCI_Create_mutexes was not called)");
    armcii_mutex_destroy(call, armcii_mutex_state.world, 0);
    armcii_mutex_state.world = NULL;
    return 0;
}
ARMCII_WEAK(Destroy_mutexes)

static struct armcix_mutex_hdl_s *world_set(const char *call)
{
    armcii_check_init(call);
    if (ARMCII_UNLIKELY(!armcii_mutex_state.world))
        armcii_error(call, "no mutexes exist (ARMCI_Create_mutexes was not called)");
    return armcii_mutex_state.world;
}

/* Blocks until mutex `mutex` hosted on absolute rank proc is acquired. */
void PARMCI_Lock(int mutex, int proc)
{
    static const char call[] = "ARMCI_Lock";
    armcii_profile_enter();
    armcii_mutex_lock(call, world_set(call), mutex, proc);
    armcii_profile_leave();
}
ARMCII_WEAK(Lock)

/* Releases a mutex the caller holds and hands it to the next waiter. */
void PARMCI_Unlock(int mutex, int proc)
{
    static const char call[] = "ARMCI_Unlock";
    armcii_profile_enter();
    armcii_mutex_unlock(call, world_set(call), mutex, proc);
    armcii_profile_leave();
}
ARMCII_WEAK(Unlock)
