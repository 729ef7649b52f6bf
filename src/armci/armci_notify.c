/*
 * Notifications (classic ARMCI's armci_notify / armci_notify_wait, which
 * GA's configure detects): armci_notify(p) tells p that every put, accumulate
 * and Put_flag this process issued to p before it has completed at p;
 * armci_notify_wait(p, &v) waits for the next notification from p.
 */
#include "armci_api.h"
#include "../gmr/gmr.h"
#include "../msg/msg.h"

/* Returns how many notifications this process has sent to proc. */
int armci_notify(int proc)
{
    static const char call[] = "armci_notify";
    armcii_api_enter(call);
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    armcii_gmr_fence(proc); /* the data before the notification */
    int n = armcii_msg_notify_send(proc);
    armcii_api_leave();
    return n;
}

/* Blocks for proc's next notification; *pval (if not NULL) and the return
 * value are proc's count of notifications sent to this process. */
int armci_notify_wait(int proc, int *pval)
{
    static const char call[] = "armci_notify_wait";
    armcii_api_enter(call);
    armcii_check_init(call);
    armcii_check_proc(call, proc);
    int n = armcii_msg_notify_wait(proc);
    if (pval)
        *pval = n;
    armcii_api_leave();
    return n;
}
