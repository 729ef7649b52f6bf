/*
 * Message-layer implementation: MPI two-sided and collectives, the ARMCI
 * operator strings and the absolute-value operators.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "msg.h"
#include "../common/common_wait.h"

static struct {
    MPI_Op absmax, absmin;
} msg_state = {MPI_OP_NULL, MPI_OP_NULL};

MPI_Datatype armcii_msg_type(const char *call, int type, int *size)
{
    switch (type) {
    case ARMCI_INT: *size = sizeof(int); return MPI_INT;
    case ARMCI_LONG: *size = sizeof(long); return MPI_LONG;
    case ARMCI_LONG_LONG: *size = sizeof(long long); return MPI_LONG_LONG;
    case ARMCI_FLOAT: *size = sizeof(float); return MPI_FLOAT;
    case ARMCI_DOUBLE: *size = sizeof(double); return MPI_DOUBLE;
    }
    armcii_error(call, "unknown element type %d (expected ARMCI_INT..ARMCI_DOUBLE, 0..4)",
                 type);
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

void armcii_msg_init(void)
{
    ARMCII_MPI(MPI_Op_create(op_absmax, 1, &msg_state.absmax));
    ARMCII_MPI(MPI_Op_create(op_absmin, 1, &msg_state.absmin));
    armcii_msg_notify_init();
}

void armcii_msg_finalize(void)
{
    armcii_msg_notify_finalize();
    if (msg_state.absmax != MPI_OP_NULL)
        ARMCII_MPI(MPI_Op_free(&msg_state.absmax));
    if (msg_state.absmin != MPI_OP_NULL)
        ARMCII_MPI(MPI_Op_free(&msg_state.absmin));
}

void armcii_msg_barrier(MPI_Comm comm) { armcii_barrier(comm); }

double armcii_msg_time(void) { return MPI_Wtime(); }

void armcii_msg_send(int tag, const void *buf, int len, int to, MPI_Comm comm)
{
    ARMCII_MPI(MPI_Send(buf, len, MPI_BYTE, to, tag, comm));
}

int armcii_msg_recv(int tag, void *buf, int buflen, int *msglen, int from, MPI_Comm comm)
{
    MPI_Status st;
    int n;
    ARMCII_MPI(MPI_Recv(buf, buflen, MPI_BYTE, from < 0 ? MPI_ANY_SOURCE : from, tag, comm,
                        &st));
    ARMCII_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    if (msglen)
        *msglen = n;
    return st.MPI_SOURCE;
}

void armcii_msg_bcast(const char *call, void *buf, int len, int root, MPI_Comm comm)
{
    int size;
    ARMCII_MPI(MPI_Comm_size(comm, &size));
    if (root < 0 || root >= size)
        armcii_error(call, "root %d out of range [0, %d)", root, size);
    if (len < 0)
        armcii_error(call, "negative length %d", len);
    if (len > 0 && !buf)
        armcii_error(call, "buffer is NULL");
    armcii_bcast(buf, len, MPI_BYTE, root, comm);
}

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
        *is_abs = 1;
        return op[4] == 'a' ? msg_state.absmax : msg_state.absmin;
    }
    if (!strncmp(op, "land", 4) || !strncmp(op, "&&", 2)) return MPI_LAND;
    if (!strncmp(op, "lor", 3) || !strncmp(op, "||", 2)) return MPI_LOR;
    if (!strncmp(op, "band", 4) || !strncmp(op, "&", 1)) return MPI_BAND;
    if (!strncmp(op, "bor", 3) || !strncmp(op, "|", 1)) return MPI_BOR;
    armcii_error(call, "unknown operator '%s'", op);
}

/* |x| in place, for a one-process reduction (MPI never applies the op). */
static void apply_abs(const char *call, void *x, int n, int type)
{
    int size, one = n;
    MPI_Datatype dt = armcii_msg_type(call, type, &size);
    void *copy = malloc((size_t)n * (size_t)size);
    if (!copy)
        armcii_error(call, "out of memory for %d elements", n);
    memcpy(copy, x, (size_t)n * (size_t)size);
    op_absmax(copy, x, &one, &dt);
    free(copy);
}

void armcii_msg_gop(const char *call, void *x, int n, const char *op, int type, MPI_Comm comm)
{
    int size, is_abs, csize;
    MPI_Datatype dt = armcii_msg_type(call, type, &size);
    if (n < 0)
        armcii_error(call, "negative count %d", n);
    if (n > 0 && !x)
        armcii_error(call, "buffer is NULL");
    MPI_Op mop = parse_op(call, op, &is_abs);
    ARMCII_MPI(MPI_Comm_size(comm, &csize));
    if (n == 0)
        return;
    if (is_abs && csize == 1) {
        apply_abs(call, x, n, type);
        return;
    }
    armcii_allreduce(MPI_IN_PLACE, x, n, dt, mop, comm);
}

/* Keys compare as doubles: long keys above 2^53 lose precision
 * (docs/mpi-notes.md, known limitations). */
static double key_of(const void *x, int type)
{
    switch (type) {
    case ARMCI_INT: return *(const int *)x;
    case ARMCI_LONG: return (double)*(const long *)x;
    case ARMCI_LONG_LONG: return (double)*(const long long *)x;
    case ARMCI_FLOAT: return *(const float *)x;
    default: return *(const double *)x;
    }
}

void armcii_msg_sel(const char *call, void *x, int n, const char *op, int type,
                    int contribute, MPI_Comm comm)
{
    int size, me, np;
    armcii_msg_type(call, type, &size);
    if (n < size)
        armcii_error(call, "record of %d bytes is smaller than its %d-byte key", n, size);
    if (!x)
        armcii_error(call, "record pointer is NULL");
    if (!op)
        armcii_error(call, "operator is NULL");
    int want_max;
    if (!strncmp(op, "max", 3)) want_max = 1;
    else if (!strncmp(op, "min", 3)) want_max = 0;
    else armcii_error(call, "operator '%s' is not \"min\" or \"max\"", op);
    ARMCII_MPI(MPI_Comm_rank(comm, &me));
    ARMCII_MPI(MPI_Comm_size(comm, &np));
    /* Reduce (key, rank) with MAXLOC/MINLOC, then bcast the winner's record. */
    struct { double v; int r; } in, out;
    in.v = contribute ? key_of(x, type) : (want_max ? -HUGE_VAL : HUGE_VAL);
    in.r = contribute ? me : np;
    armcii_allreduce(&in, &out, 1, MPI_DOUBLE_INT, want_max ? MPI_MAXLOC : MPI_MINLOC, comm);
    if (out.r >= np)
        return; /* nobody contributed */
    armcii_bcast(x, n, MPI_BYTE, out.r, comm);
}
