/*
 * message.h - the ARMCI message layer: two-sided and collective helpers over
 * the ARMCI world communicator (ranks are absolute ARMCI ranks).
 */
#ifndef HAVE_ARMCI_MSG_H
#define HAVE_ARMCI_MSG_H

#include <armci.h>

enum armci_scope_e { SCOPE_ALL = 0, SCOPE_NODE = 1, SCOPE_MASTERS = 2 };
enum armci_type_e {
    ARMCI_INT = 0, ARMCI_LONG = 1, ARMCI_LONG_LONG = 2,
    ARMCI_FLOAT = 3, ARMCI_DOUBLE = 4
};

/* Initializes MPI if it is not (classic ARMCI programs call it first);
 * armci_msg_finalize ends ARMCI if still initialized, then MPI. */
void armci_msg_init(int *argc, char ***argv);
void armci_msg_finalize(void);
int armci_msg_me(void);
int armci_msg_nproc(void);
void armci_msg_abort(int code);
double armci_timer(void);

void armci_msg_snd(int tag, void *buffer, int len, int to);
void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from);
int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen);

void armci_msg_barrier(void);
void armci_msg_group_barrier(ARMCI_Group *group);
void parmci_msg_barrier(void);
void parmci_msg_group_barrier(ARMCI_Group *group);

void armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right);
void armci_msg_bcast(void *buffer, int len, int root);
void armci_msg_brdcst(void *buffer, int len, int root);
void armci_msg_bcast_scope(int scope, void *buffer, int len, int root);
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root,
                                 ARMCI_Group *group);

void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);
void armci_msg_igop(int *x, int n, char *op);
void armci_msg_lgop(long *x, int n, char *op);
void armci_msg_llgop(long long *x, int n, char *op);
void armci_msg_fgop(float *x, int n, char *op);
void armci_msg_dgop(double *x, int n, char *op);

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type,
                               ARMCI_Group *group);
void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *group);

void armci_msg_sel(void *x, int n, char *op, int type, int contribute);
void armci_msg_sel_scope(int scope, void *x, int n, char *op, int type,
                         int contribute);
void armci_msg_reduce(void *x, int n, char *op, int type);
void armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type);

#endif /* HAVE_ARMCI_MSG_H */
