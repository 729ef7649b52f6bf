/*
 * Nonblocking handles: Wait/Test/WaitProc/WaitAll over gmr's completion
 * sets (the handle layout is explained in src/gmr/gmr_cset.c).
 */
#include "armci_api.h"
#include "../gmr/gmr.h"

static void check_hdl(const char *call, const armci_hdl_t *hdl)
{
    armcii_check_init(call);
    if (!hdl)
        armcii_error(call, "handle is NULL");
}

/* Locally completes the handle's operations; the handle is reusable. */
int PARMCI_Wait(armci_hdl_t *hdl)
{
    static const char call[] = "ARMCI_Wait";
    armcii_api_enter_sync(call);
    check_hdl(call, hdl);
    armcii_gmr_nb_wait(hdl);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(Wait)

/* Completes the operations and reports 0 (done): flush has no test form. */
int PARMCI_Test(armci_hdl_t *hdl)
{
    static const char call[] = "ARMCI_Test";
    armcii_api_enter_sync(call);
    check_hdl(call, hdl);
    armcii_gmr_nb_wait(hdl);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(Test)

/* Completes the implicit-handle operations issued to proc. */
int PARMCI_WaitProc(int proc)
{
    static const char call[] = "ARMCI_WaitProc";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    armcii_gmr_nb_wait_proc(proc);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(WaitProc)

/* Completes every implicit-handle operation. */
int PARMCI_WaitAll(void)
{
    static const char call[] = "ARMCI_WaitAll";
    armcii_api_enter_sync(call);
    armcii_check_init(call);
    armcii_gmr_nb_wait_proc(-1);
    armcii_api_leave();
    return 0;
}
ARMCII_WEAK(WaitAll)

/* Reset a handle to "no operation". */
void ARMCI_INIT_HANDLE(armci_hdl_t *hdl)
{
    if (hdl)
        hdl->target = hdl->aggregate = 0;
}

/* Every handle may carry several operations, so aggregation needs no mark;
 * the handle's fields are not touched (they identify its set). */
void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *handle) { (void)handle; }
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *handle) { (void)handle; }
