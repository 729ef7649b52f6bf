/*
 * The message layer (message.h): two-sided and collective helpers over the
 * ARMCI world (or a group), used by Global Arrays for its own collectives.
 * Ranks are absolute; src/msg does the work.
 */
#include "armci_api.h"
#include "../msg/msg.h"
#include "../common/common_group.h"

ARMCII_ALIAS(armci_msg_barrier, parmci_msg_barrier)
ARMCII_ALIAS(armci_msg_group_barrier, parmci_msg_group_barrier)

int armci_msg_me(void)
{
    armcii_check_init("armci_msg_me");
    return armcii_state.rank;
}

int armci_msg_nproc(void)
{
    armcii_check_init("armci_msg_nproc");
    return armcii_state.nproc;
}

/* Classic ARMCI programs start MPI through the message layer. */
void armci_msg_init(int *argc, char ***argv)
{
    if (armcii_mpi_start("armci_msg_init", argc, argv) < 0)
        armcii_error("armci_msg_init", "MPI has already been finalized");
}

/* Collective: ends ARMCI (every nested initialization) if still
 * initialized, then MPI if it is initialized and not yet finalized. */
void armci_msg_finalize(void)
{
    while (armcii_state.init_count > 0)
        PARMCI_Finalize();
    armcii_mpi_end();
}

double armci_timer(void) { return armcii_msg_time(); }

void armci_msg_abort(int code) { armcii_abort_msg("armci_msg_abort called", code ? code : 1); }


/* The world's communicator, after the init check. */
static MPI_Comm world_of(const char *call)
{
    armcii_set_call(call);
    armcii_check_init(call);
    armcii_progress_park(); /* every armci_msg_* call may wait for others */
    return armcii_state.world;
}

/* The communicator of a group the caller belongs to (required). */
static MPI_Comm group_of(const char *call, const ARMCI_Group *group)
{
    armcii_set_call(call);
    armcii_check_init(call);
    MPI_Comm c = armcii_api_group_comm(call, group);
    armcii_progress_park();
    return c;
}

static void check_len(const char *call, const void *buf, int len)
{
    if (len < 0)
        armcii_error(call, "negative length %d", len);
    if (len > 0 && !buf)
        armcii_error(call, "buffer is NULL");
}

static void check_tag(const char *call, int tag)
{
    if (tag < 0)
        armcii_error(call, "negative tag %d", tag);
}

static void check_scope(const char *call, int scope)
{
    if (scope != SCOPE_ALL && scope != SCOPE_NODE && scope != SCOPE_MASTERS)
        armcii_error(call, "unknown scope %d (expected SCOPE_ALL, SCOPE_NODE or "
                     "SCOPE_MASTERS: 0..2)", scope);
}

void armci_msg_snd(int tag, void *buffer, int len, int to)
{
    static const char call[] = "armci_msg_snd";
    MPI_Comm c = world_of(call);
    check_tag(call, tag);
    armcii_check_proc(call, to);
    check_len(call, buffer, len);
    armcii_msg_send(tag, buffer, len, to, c);
}

void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from)
{
    static const char call[] = "armci_msg_rcv";
    MPI_Comm c = world_of(call);
    check_tag(call, tag);
    armcii_check_proc(call, from);
    check_len(call, buffer, buflen);
    armcii_msg_recv(tag, buffer, buflen, msglen, from, c);
}

int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen)
{
    static const char call[] = "armci_msg_rcvany";
    MPI_Comm c = world_of(call);
    check_tag(call, tag);
    check_len(call, buffer, buflen);
    return armcii_msg_recv(tag, buffer, buflen, msglen, -1, c);
}

/* No fence: GA pairs it with ARMCI_AllFence itself (GA_Sync), which makes
 * it a point where automatic redirection may switch (progress_adapt.c). */
void parmci_msg_barrier(void)
{
    MPI_Comm c = world_of("armci_msg_barrier");
    armcii_api_enter_sync("armci_msg_barrier");
    if (!armcii_progress_sync(ARMCII_SYNC_MSG))
        armcii_msg_barrier(c);
    armcii_api_leave();
}

void parmci_msg_group_barrier(ARMCI_Group *group)
{
    armcii_msg_barrier(group_of("armci_msg_group_barrier", group));
}

void armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right)
{
    static const char call[] = "armci_msg_bintree";
    armcii_check_init(call);
    check_scope(call, scope);
    if (!Root || !Up || !Left || !Right)
        armcii_error(call, "an output pointer is NULL");
    int me = armcii_state.rank, n = armcii_state.nproc;
    *Root = 0;
    if (scope == SCOPE_NODE) { /* every process is its own node */
        *Up = *Left = *Right = -1;
        return;
    }
    *Up = me == 0 ? -1 : (me - 1) / 2;
    *Left = 2 * me + 1 < n ? 2 * me + 1 : -1;
    *Right = 2 * me + 2 < n ? 2 * me + 2 : -1;
}

static void bcast(const char *call, int scope, void *buffer, int len, int root)
{
    MPI_Comm c = world_of(call);
    check_scope(call, scope);
    if (scope != SCOPE_NODE)
        armcii_msg_bcast(call, buffer, len, root, c);
}

void armci_msg_bcast(void *buffer, int len, int root)
{
    bcast("armci_msg_bcast", SCOPE_ALL, buffer, len, root);
}

void armci_msg_brdcst(void *buffer, int len, int root)
{
    bcast("armci_msg_brdcst", SCOPE_ALL, buffer, len, root);
}

void armci_msg_bcast_scope(int scope, void *buffer, int len, int root)
{
    bcast("armci_msg_bcast_scope", scope, buffer, len, root);
}

/* root is an absolute rank. */
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root,
                                 ARMCI_Group *group)
{
    static const char call[] = "armci_msg_group_bcast_scope";
    MPI_Comm c = group_of(call, group);
    check_scope(call, scope);
    if (scope == SCOPE_NODE)
        return;
    armcii_check_proc(call, root);
    int groot = armcii_group_rank_of(group, root);
    if (groot < 0)
        armcii_error(call, "root %d is not a member of the group", root);
    armcii_msg_bcast(call, buf, len, groot, c);
}

/* Every reduction names the entry point the user called. */
static void gop(const char *call, int scope, void *x, int n, char *op, int type,
                const ARMCI_Group *group)
{
    MPI_Comm c = group ? group_of(call, group) : world_of(call);
    check_scope(call, scope);
    armcii_msg_gop(call, x, n, op, type, scope == SCOPE_NODE ? MPI_COMM_SELF : c);
}

void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type)
{
    gop("armci_msg_gop_scope", scope, x, n, op, type, NULL);
}

void armci_msg_igop(int *x, int n, char *op) { gop("armci_msg_igop", SCOPE_ALL, x, n, op, ARMCI_INT, NULL); }
void armci_msg_lgop(long *x, int n, char *op) { gop("armci_msg_lgop", SCOPE_ALL, x, n, op, ARMCI_LONG, NULL); }
void armci_msg_llgop(long long *x, int n, char *op) { gop("armci_msg_llgop", SCOPE_ALL, x, n, op, ARMCI_LONG_LONG, NULL); }
void armci_msg_fgop(float *x, int n, char *op) { gop("armci_msg_fgop", SCOPE_ALL, x, n, op, ARMCI_FLOAT, NULL); }
void armci_msg_dgop(double *x, int n, char *op) { gop("armci_msg_dgop", SCOPE_ALL, x, n, op, ARMCI_DOUBLE, NULL); }

/* The group is required (NULL is an error, not the world). */
static void group_gop(const char *call, int scope, void *x, int n, char *op, int type,
                      const ARMCI_Group *group)
{
    if (!group)
        armcii_error(call, "group is NULL");
    gop(call, scope, x, n, op, type, group);
}

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type,
                               ARMCI_Group *group)
{
    group_gop("armci_msg_group_gop_scope", scope, x, n, op, type, group);
}

void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *g) { group_gop("armci_msg_group_igop", SCOPE_ALL, x, n, op, ARMCI_INT, g); }
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *g) { group_gop("armci_msg_group_lgop", SCOPE_ALL, x, n, op, ARMCI_LONG, g); }
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *g) { group_gop("armci_msg_group_llgop", SCOPE_ALL, x, n, op, ARMCI_LONG_LONG, g); }
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *g) { group_gop("armci_msg_group_fgop", SCOPE_ALL, x, n, op, ARMCI_FLOAT, g); }
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *g) { group_gop("armci_msg_group_dgop", SCOPE_ALL, x, n, op, ARMCI_DOUBLE, g); }

/* The record of the process with the min/max leading key reaches everyone. */
static void sel(const char *call, int scope, void *x, int n, char *op, int type,
                int contribute)
{
    MPI_Comm c = world_of(call);
    check_scope(call, scope);
    if (n < 0)
        armcii_error(call, "negative record size %d", n);
    if (scope != SCOPE_NODE)
        armcii_msg_sel(call, x, n, op, type, contribute, c);
}

void armci_msg_sel_scope(int scope, void *x, int n, char *op, int type, int contribute)
{
    sel("armci_msg_sel_scope", scope, x, n, op, type, contribute);
}

void armci_msg_sel(void *x, int n, char *op, int type, int contribute)
{
    sel("armci_msg_sel", SCOPE_ALL, x, n, op, type, contribute);
}

/* Rooted reduce: the result is needed on process 0 only; an allreduce
 * gives it there (and everywhere else, harmlessly). */
void armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type)
{
    gop("armci_msg_reduce_scope", scope, x, n, op, type, NULL);
}

void armci_msg_reduce(void *x, int n, char *op, int type)
{
    gop("armci_msg_reduce", SCOPE_ALL, x, n, op, type, NULL);
}
