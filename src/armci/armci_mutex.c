/*
 * Mutexes (ARMCI_Create_mutexes/Lock/Unlock and the ARMCIX handle forms)
 * and read-modify-write (ARMCI_Rmw): checks, then src/mutex.
 */
#include "armci_api.h"
#include "../gmr/gmr.h"
#include "../mutex/mutex.h"
#include "../common/common_acc.h"

/* A live handle of ARMCIX_Create_mutexes_hdl, or abort naming call. */
static struct armcix_mutex_hdl_s *live(const char *call, armcix_mutex_hdl_t hdl)
{
    if (ARMCII_UNLIKELY(!hdl))
        armcii_error(call, "mutex handle is NULL");
    return armcii_mutex_check_hdl(call, hdl);
}

/* Collective over the world: count mutexes hosted by the caller (0 allowed,
 * at least one process > 0).  Returns 0. */
int PARMCI_Create_mutexes(int count)
{
    static const char call[] = "ARMCI_Create_mutexes";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_progress_park();
    armcii_mutex_world_create(call, count);
    return 0;
}
ARMCII_WEAK(Create_mutexes)

/* Collective over the world.  Returns 0. */
int PARMCI_Destroy_mutexes(void)
{
    static const char call[] = "ARMCI_Destroy_mutexes";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_progress_park();
    armcii_mutex_world_destroy(call);
    return 0;
}
ARMCII_WEAK(Destroy_mutexes)

/* Blocks until mutex `mutex` hosted on absolute rank proc is acquired. */
void PARMCI_Lock(int mutex, int proc)
{
    static const char call[] = "ARMCI_Lock";
    armcii_api_enter(call);
    armcii_check_init(call);
    armcii_mutex_lock(call, armcii_mutex_world(call), mutex, proc);
    armcii_api_leave();
}
ARMCII_WEAK(Lock)

/* Unlock with release semantics: the caller's writes still in flight
 * (local completion only; a redirected one may not have reached its target
 * yet) complete first, so the next holder reads what this critical section
 * wrote.  Classic ARMCI leaves that to an ARMCI_Fence before the unlock;
 * programs written for an ARMCI whose blocking puts complete remotely skip
 * it (tests/ga/ga_atomic's fence=0 case), and with nothing in flight the
 * fence is one walk of an empty list. */
static void release(const char *call, struct armcix_mutex_hdl_s *m, int mutex, int proc)
{
    armcii_gmr_fence_all();
    armcii_mutex_unlock(call, m, mutex, proc);
}

/* Releases a mutex the caller holds (after completing its outstanding
 * writes) and hands it to the next waiter. */
void PARMCI_Unlock(int mutex, int proc)
{
    static const char call[] = "ARMCI_Unlock";
    armcii_api_enter(call);
    armcii_check_init(call);
    release(call, armcii_mutex_world(call), mutex, proc);
    armcii_api_leave();
}
ARMCII_WEAK(Unlock)

/* Collective over pgroup: count mutexes hosted by the caller. */
armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group *pgroup)
{
    static const char call[] = "ARMCIX_Create_mutexes_hdl";
    armcii_set_call(call);
    armcii_check_init(call);
    MPI_Comm comm = armcii_api_group_comm(call, pgroup);
    return armcii_mutex_create(call, count, comm, 0);
}

/* Collective over the handle's group. */
int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl)
{
    static const char call[] = "ARMCIX_Destroy_mutexes_hdl";
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_mutex_destroy(call, live(call, hdl), 0);
    return 0;
}

/* proc is absolute. */
void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    static const char call[] = "ARMCIX_Lock_hdl";
    armcii_api_enter(call);
    armcii_check_init(call);
    armcii_mutex_lock(call, live(call, hdl), mutex, proc);
    armcii_api_leave();
}

/* Nonblocking: 0 = acquired, 1 = held by another process. */
int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    static const char call[] = "ARMCIX_Trylock_hdl";
    armcii_api_enter(call);
    armcii_check_init(call);
    int rc = armcii_mutex_trylock(call, live(call, hdl), mutex, proc);
    armcii_api_leave();
    return rc;
}

void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc)
{
    static const char call[] = "ARMCIX_Unlock_hdl";
    armcii_api_enter(call);
    armcii_check_init(call);
    release(call, live(call, hdl), mutex, proc);
    armcii_api_leave();
}

/* Atomic op on *prem at proc; the old value is stored into *ploc. */
int PARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc)
{
    static const char call[] = "ARMCI_Rmw";
    armcii_api_enter(call);
    armcii_check_init(call);
    if (ARMCII_UNLIKELY(op < ARMCI_FETCH_AND_ADD || op > ARMCI_SWAP_LONG))
        armcii_error(call, "unknown operation %d (expected ARMCI_FETCH_AND_ADD, "
                     "ARMCI_FETCH_AND_ADD_LONG, ARMCI_SWAP or ARMCI_SWAP_LONG: 0..3)", op);
    armcii_check_proc(call, proc);
    if (ARMCII_UNLIKELY(!ploc))
        armcii_error(call, "local location ploc is NULL");
    if (ARMCII_UNLIKELY(!prem))
        armcii_error(call, "remote location prem is NULL");
    /* An atomic on a misaligned word faults on some CPUs and NICs, and on
     * x86 is a split lock, so it is refused everywhere alike. */
    size_t word = armcii_rmw_word(op);
    if (ARMCII_UNLIKELY((uintptr_t)prem % word))
        armcii_error(call, "remote location prem %p is not aligned to its %zu-byte word", prem,
                     word);
    armcii_mutex_rmw(call, op, ploc, prem, value, proc);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(Rmw)
