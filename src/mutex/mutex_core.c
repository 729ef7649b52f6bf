/*
 * Module lifecycle of src/mutex and the classic world mutex set of
 * ARMCI_Create_mutexes, one handle of mutex_hdl.c over the world.
 */
#include <string.h>
#include "mutex.h"

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

void armcii_mutex_world_create(const char *call, int count)
{
    if (armcii_mutex_state.world)
        armcii_error(call, "a mutex set already exists (call ARMCI_Destroy_mutexes first)");
    armcii_mutex_state.world = armcii_mutex_create(call, count, armcii_state.world, 1);
}

void armcii_mutex_world_destroy(const char *call)
{
    armcii_mutex_destroy(call, armcii_mutex_world(call), 0);
    armcii_mutex_state.world = NULL;
}

struct armcix_mutex_hdl_s *armcii_mutex_world(const char *call)
{
    if (ARMCII_UNLIKELY(!armcii_mutex_state.world))
        armcii_error(call, "no mutexes exist (ARMCI_Create_mutexes was not called)");
    return armcii_mutex_state.world;
}
