/* ARMCI_GHOST_ASYNC as the library resolved it.  Its default depends on
 * the host and the MPI (on, or automatic where a host has more processes
 * than CPUs and MPI spins: src/ghost/ghost_init.c), so the ghost tests read
 * the setting in force instead of the environment. */
#ifndef TEST_GHOST_SETTING_H
#define TEST_GHOST_SETTING_H

#include "../../src/common/common.h"

int armcii_gmr_async_setting(void); /* src/gmr/gmr.h */

/* Redirection is on and stays on unless the program switches it. */
static inline int tg_async_on(void) { return armcii_gmr_async_setting() == ARMCII_ASYNC_ON; }
/* Regions are kept out of the ghosts' pools. */
static inline int tg_async_off(void) { return armcii_gmr_async_setting() == ARMCII_ASYNC_OFF; }

#endif
