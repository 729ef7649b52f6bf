/*
 * src/armci: the public API surface, and only that.
 *
 * Role: every public entry point (ARMCI_*, PARMCI_*, ARMCIX_*, armci_msg_*,
 * armci_domain_*, ...) lives here as a thin function: check that the
 * library is initialized, validate the user's arguments (a clear
 * armcii_error with rank, call and reason), then call one internal function
 * of a module.  No MPI calls here; no module calls back up into this layer.
 *
 * Invariants: the library never calls its own weak ARMCI_* names, only
 * PARMCI_* or armcii_* functions, so a profiler counts one event per user
 * call; every entry point records its name (for MPI failure reports) and
 * brackets the profiler.
 * May call: every module.
 */
#ifndef ARMCI_API_H
#define ARMCI_API_H

#include "../common/common.h"
#include "../progress/progress.h"

/* Make name a weak alias of the strong target defined in this object.
 * Not `#pragma weak`: clang gives such an alias the command line's hidden
 * visibility, whatever the name's declaration says, and the library then
 * exported no ARMCI_ name at all. */
#define ARMCII_ALIAS(name, target) \
    extern __typeof(target) name __attribute__((weak, alias(#target), visibility("default")));
/* Make ARMCI_<n> a weak alias of the strong PARMCI_<n> in this object. */
#define ARMCII_WEAK(n) ARMCII_ALIAS(ARMCI_##n, PARMCI_##n)

/* Entered / left: names the call for error reports, and times it. */
static inline void armcii_api_enter(const char *call)
{
    armcii_set_call(call);
    armcii_profile_enter();
}
/* The same for calls that synchronize or wait (fences, barriers, waits on
 * handles): they are timed from entry, having no operation that would
 * start the clock (progress.h). */
static inline void armcii_api_enter_sync(const char *call)
{
    armcii_api_enter(call);
    armcii_profile_clock();
}
static inline void armcii_api_leave(void) { armcii_profile_leave(); }

/* Shared by the transfer files: checks of an ARMCI_ACC_* accumulate
 * (datatype known, scale present, bytes a multiple of the element size);
 * returns the element size. */
int armcii_api_acc_check(const char *call, int datatype, const void *scale, int bytes);
/* The communicator of group g (the caller a member), or abort naming call
 * (armci_groups.c: NULL, impossible fields, freed, foreign, non-member). */
MPI_Comm armcii_api_group_comm(const char *call, const ARMCI_Group *g);
/* Element size of an ARMCI_ACC_* code, or abort naming the call. */
int armcii_api_acc_elem(const char *call, int datatype);

#endif /* ARMCI_API_H */
