/*
 * armcip.h: the two error routines of the classic ARMCI's private header
 * that Global Arrays' own armci/testing programs call (msgcheck.c includes
 * "armcip.h" for armci_die2).  Nothing else of that header exists here.
 */
#ifndef _ARMCIP_H_
#define _ARMCIP_H_

#include "armci.h"
#include "message.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print "[rank] ARMCI Error: msg code" and abort the job. */
void armci_die(char *msg, int code);
/* As armci_die with two codes. */
void armci_die2(char *msg, int code1, int code2);

#ifdef __cplusplus
}
#endif
#endif /* _ARMCIP_H_ */
