/*
 * The message layer (message.h): two-sided and collective helpers over the
 * ARMCI world communicator, used by Global Arrays for its own collectives.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "armci_int.h"

#pragma weak armci_msg_barrier = parmci_msg_barrier
#pragma weak armci_msg_group_barrier = parmci_msg_group_barrier

/* Custom MPI ops (absmax/absmin), created on first use. */
static struct {
    MPI_Op absmax, absmin;
} msg_state = {MPI_OP_NULL, MPI_OP_NULL};

int armci_msg_me(void) { return armcii_state.rank; }
int armci_msg_nproc(void) { return armcii_state.nproc; }
double armci_timer(void) { return MPI_Wtime(); }

void armci_msg_abort(int code)
{
    MPI_Abort(armcii_state.init_count > 0 ? armcii_state.world : MPI_COMM_WORLD,
              code ? code : 1);
}

static MPI_Comm comm_of(const char *call, ARMCI_Group *group)
{
    armcii_check_init(call);
    if (!group)
        return armcii_state.world;
    if (group->comm == MPI_COMM_NULL)
        armcii_error(call, "the calling process is not a member of the group");
    return group->comm;
}

void armci_msg_snd(int tag, void *buffer, int len, int to)
{
    armcii_check_init("armci_msg_snd");
    armcii_check_proc("armci_msg_snd", to);
    if (len < 0)
        armcii_error("armci_msg_snd", "negative length %d", len);
    ARMCII_MPI(MPI_Send(buffer, len, MPI_BYTE, to, tag, armcii_state.world));
}

void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from)
{
    MPI_Status st;
    int n;
    armcii_check_init("armci_msg_rcv");
    armcii_check_proc("armci_msg_rcv", from);
    ARMCII_MPI(MPI_Recv(buffer, buflen, MPI_BYTE, from, tag, armcii_state.world, &st));
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (msglen)
        *msglen = n;
}

int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen)
{
    MPI_Status st;
    int n;
    armcii_check_init("armci_msg_rcvany");
    ARMCII_MPI(MPI_Recv(buffer, buflen, MPI_BYTE, MPI_ANY_SOURCE, tag,
                        armcii_state.world, &st));
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (msglen)
        *msglen = n;
    return st.MPI_SOURCE;
}

/* No fence: GA pairs it with ARMCI_AllFence itself. */
void parmci_msg_barrier(void)
{
    ARMCII_MPI(MPI_Barrier(comm_of("armci_msg_barrier", NULL)));
}

void parmci_msg_group_barrier(ARMCI_Group *group)
{
    ARMCII_MPI(MPI_Barrier(comm_of("armci_msg_group_barrier", group)));
}

void armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right)
{
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

static void bcast_comm(const char *call, void *buf, int len, int root, MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    if (root < 0 || root >= size)
        armcii_error(call, "root %d out of range [0, %d)", root, size);
    if (len < 0)
        armcii_error(call, "negative length %d", len);
    ARMCII_MPI(MPI_Bcast(buf, len, MPI_BYTE, root, comm));
}

void armci_msg_bcast(void *buffer, int len, int root)
{
    bcast_comm("armci_msg_bcast", buffer, len, root, comm_of("armci_msg_bcast", NULL));
}

void armci_msg_brdcst(void *buffer, int len, int root)
{
    bcast_comm("armci_msg_brdcst", buffer, len, root, comm_of("armci_msg_brdcst", NULL));
}

void armci_msg_bcast_scope(int scope, void *buffer, int len, int root)
{
    if (scope == SCOPE_NODE)
        return;
    bcast_comm("armci_msg_bcast_scope", buffer, len, root,
               comm_of("armci_msg_bcast_scope", NULL));
}

/* root is an absolute rank. */
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root,
                                 ARMCI_Group *group)
{
    static const char call[] = "armci_msg_group_bcast_scope";
    MPI_Comm comm = comm_of(call, group);
    if (scope == SCOPE_NODE)
        return;
    armcii_check_proc(call, root);
    int groot = group->abs_to_grp ? group->abs_to_grp[root] : root;
    if (groot < 0)
        armcii_error(call, "root %d is not a member of the group", root);
    bcast_comm(call, buf, len, groot, comm);
}

/* ---- reductions ---- */

static MPI_Datatype mpi_type(const char *call, int type, int *size)
{
    switch (type) {
    case ARMCI_INT: *size = sizeof(int); return MPI_INT;
    case ARMCI_LONG: *size = sizeof(long); return MPI_LONG;
    case ARMCI_LONG_LONG: *size = sizeof(long long); return MPI_LONG_LONG;
    case ARMCI_FLOAT: *size = sizeof(float); return MPI_FLOAT;
    case ARMCI_DOUBLE: *size = sizeof(double); return MPI_DOUBLE;
    }
    armcii_error(call, "unknown element type %d (expected ARMCI_INT..ARMCI_DOUBLE)", type);
}

#define ABS_LOOP(T, CMP)                                                      \
    do {                                                                      \
        T *a = in, *b = inout;                                                \
        for (int i = 0; i < *len; i++) {                                      \
            T x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];       \
            b[i] = (x CMP y) ? x : y;                                         \
        }                                                                     \
    } while (0)

#define ABS_SWITCH(CMP)                                                       \
    do {                                                                      \
        if (*dt == MPI_INT) ABS_LOOP(int, CMP);                               \
        else if (*dt == MPI_LONG) ABS_LOOP(long, CMP);                        \
        else if (*dt == MPI_LONG_LONG) ABS_LOOP(long long, CMP);              \
        else if (*dt == MPI_FLOAT) ABS_LOOP(float, CMP);                      \
        else ABS_LOOP(double, CMP);                                           \
    } while (0)

static void op_absmax(void *in, void *inout, int *len, MPI_Datatype *dt) { ABS_SWITCH(>); }
static void op_absmin(void *in, void *inout, int *len, MPI_Datatype *dt) { ABS_SWITCH(<); }

/* Operator strings are matched by prefix in this order (the ARMCI rules). */
static MPI_Op parse_op(const char *call, const char *op, int *is_abs)
{
    *is_abs = 0;
    if (!op)
        armcii_error(call, "operator is NULL");
    if (!strncmp(op, "+", 1)) return MPI_SUM;
    if (!strncmp(op, "*", 1)) return MPI_PROD;
    if (!strncmp(op, "max", 3)) return MPI_MAX;
    if (!strncmp(op, "min", 3)) return MPI_MIN;
    if (!strncmp(op, "or", 2)) return MPI_BOR;
    if (!strncmp(op, "absmax", 6) || !strncmp(op, "absmin", 6)) {
        int max = op[4] == 'a';
        MPI_Op *o = max ? &msg_state.absmax : &msg_state.absmin;
        if (*o == MPI_OP_NULL)
            ARMCII_MPI(MPI_Op_create(max ? op_absmax : op_absmin, 1, o));
        *is_abs = 1;
        return *o;
    }
    if (!strncmp(op, "land", 4) || !strncmp(op, "&&", 2)) return MPI_LAND;
    if (!strncmp(op, "lor", 3) || !strncmp(op, "||", 2)) return MPI_LOR;
    if (!strncmp(op, "band", 4) || !strncmp(op, "&", 1)) return MPI_BAND;
    if (!strncmp(op, "bor", 3) || !strncmp(op, "|", 1)) return MPI_BOR;
    armcii_error(call, "unknown operator '%s'", op);
}

static void apply_abs(void *x, int n, int type)
{
    int one = n;
    MPI_Datatype dt;
    int size;
    dt = mpi_type("gop", type, &size);
    /* |x| in place: reduce x with itself. */
    void *copy = malloc((size_t)n * (size_t)size);
    if (!copy)
        armcii_error("armci_msg_gop", "out of memory");
    memcpy(copy, x, (size_t)n * (size_t)size);
    op_absmax(copy, x, &one, &dt);
    free(copy);
}

static void gop_comm(const char *call, void *x, int n, char *op, int type, MPI_Comm comm)
{
    int size, is_abs;
    MPI_Datatype dt = mpi_type(call, type, &size);
    if (n < 0)
        armcii_error(call, "negative count %d", n);
    MPI_Op mop = parse_op(call, op, &is_abs);
    int csize;
    MPI_Comm_size(comm, &csize);
    if (is_abs && csize == 1) { /* the op is never applied on one process */
        apply_abs(x, n, type);
        return;
    }
    if (n == 0)
        return;
    ARMCII_MPI(MPI_Allreduce(MPI_IN_PLACE, x, n, dt, mop, comm));
}

void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type)
{
    static const char call[] = "armci_msg_gop_scope";
    armcii_check_init(call);
    gop_comm(call, x, n, op, type, scope == SCOPE_NODE ? MPI_COMM_SELF : armcii_state.world);
}

void armci_msg_igop(int *x, int n, char *op) { armci_msg_gop_scope(SCOPE_ALL, x, n, op, ARMCI_INT); }
void armci_msg_lgop(long *x, int n, char *op) { armci_msg_gop_scope(SCOPE_ALL, x, n, op, ARMCI_LONG); }
void armci_msg_llgop(long long *x, int n, char *op) { armci_msg_gop_scope(SCOPE_ALL, x, n, op, ARMCI_LONG_LONG); }
void armci_msg_fgop(float *x, int n, char *op) { armci_msg_gop_scope(SCOPE_ALL, x, n, op, ARMCI_FLOAT); }
void armci_msg_dgop(double *x, int n, char *op) { armci_msg_gop_scope(SCOPE_ALL, x, n, op, ARMCI_DOUBLE); }

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type,
                               ARMCI_Group *group)
{
    static const char call[] = "armci_msg_group_gop_scope";
    MPI_Comm comm = comm_of(call, group);
    gop_comm(call, x, n, op, type, scope == SCOPE_NODE ? MPI_COMM_SELF : comm);
}

void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *g) { armci_msg_group_gop_scope(SCOPE_ALL, x, n, op, ARMCI_INT, g); }
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *g) { armci_msg_group_gop_scope(SCOPE_ALL, x, n, op, ARMCI_LONG, g); }
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *g) { armci_msg_group_gop_scope(SCOPE_ALL, x, n, op, ARMCI_LONG_LONG, g); }
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *g) { armci_msg_group_gop_scope(SCOPE_ALL, x, n, op, ARMCI_FLOAT, g); }
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *g) { armci_msg_group_gop_scope(SCOPE_ALL, x, n, op, ARMCI_DOUBLE, g); }

/* Select: x is an n-byte record whose first field is a value of type; the
 * record of the winning contributor reaches every process. */
void armci_msg_sel_scope(int scope, void *x, int n, char *op, int type, int contribute)
{
    static const char call[] = "armci_msg_sel_scope";
    armcii_check_init(call);
    if (scope == SCOPE_NODE)
        return;
    int size;
    mpi_type(call, type, &size);
    if (n < size)
        armcii_error(call, "record of %d bytes is smaller than its %d-byte key", n, size);
    int want_max;
    if (!strncmp(op, "max", 3)) want_max = 1;
    else if (!strncmp(op, "min", 3)) want_max = 0;
    else armcii_error(call, "operator '%s' is not \"min\" or \"max\"", op);
    /* Reduce (key, rank) with MAXLOC/MINLOC, then bcast the winner's record. */
    double key = 0;
    switch (type) {
    case ARMCI_INT: key = *(int *)x; break;
    case ARMCI_LONG: key = (double)*(long *)x; break;
    case ARMCI_LONG_LONG: key = (double)*(long long *)x; break;
    case ARMCI_FLOAT: key = *(float *)x; break;
    default: key = *(double *)x; break;
    }
    struct { double v; int r; } in, out;
    in.v = contribute ? key : (want_max ? -HUGE_VAL : HUGE_VAL);
    in.r = contribute ? armcii_state.rank : armcii_state.nproc;
    ARMCII_MPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, want_max ? MPI_MAXLOC : MPI_MINLOC,
                             armcii_state.world));
    if (out.r >= armcii_state.nproc)
        return; /* nobody contributed */
    ARMCII_MPI(MPI_Bcast(x, n, MPI_BYTE, out.r, armcii_state.world));
}

void armci_msg_sel(void *x, int n, char *op, int type, int contribute)
{
    armci_msg_sel_scope(SCOPE_ALL, x, n, op, type, contribute);
}

/* Rooted reduce: the result is needed on process 0 only; an allreduce
 * gives it there (and everywhere else, harmlessly). */
void armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type)
{
    armci_msg_gop_scope(scope, x, n, op, type);
}

void armci_msg_reduce(void *x, int n, char *op, int type)
{
    armci_msg_gop_scope(SCOPE_ALL, x, n, op, type);
}

void armcii_msg_finalize(void)
{
    if (msg_state.absmax != MPI_OP_NULL)
        MPI_Op_free(&msg_state.absmax);
    if (msg_state.absmin != MPI_OP_NULL)
        MPI_Op_free(&msg_state.absmin);
}
