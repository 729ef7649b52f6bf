/*
 * The bad-input matrix (tests/badinput/matrix_table.h, generated from the
 * public headers by gen_matrix.py), many cases in one process.
 *
 * Each case calls one entry point with valid arguments except one (or two)
 * replaced by a bad value of a class (NULL, negative, out of range, freed,
 * garbage, ...), or calls it before ARMCI_Init / after ARMCI_Finalize.  The
 * library's error path is redirected through armcii_error_set_hook (linked
 * from libarmci_core): the hook records the line and siglongjmps back here,
 * so the process survives and runs the next case.  Signals (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGABRT) and hangs (SIGALRM after MX_CASE_TIMEOUT seconds)
 * also jump back and are failures naming the case.  Anything the case
 * writes to stderr besides the hooked line is a failure too (MPI's own
 * error messages, warnings).
 *
 * Expectations: ERROR - exactly one "[rank] ARMCI Error in <call>: <reason>"
 * with the call's public name, a non-empty reason matching the class's
 * keywords, not an MPI failure report; ACCEPTED - the call returns; the
 * table says why it is legal; USER_ABORT - ARMCI_Error & co. abort with
 * "[rank] ARMCI Error: <msg>".
 *
 * Launch: collective entry points are called by every rank with the same
 * arguments, the others by rank 0 only, first with the caller itself as
 * the target process; with 2 or more processes the non-collective cases run
 * a second time ("remote:") with rank np/2 (rounded up) as the target:
 * remote addresses, remote mutexes, another (virtual) node where there are
 * several.  Cases that need a second process (a duplicate member) run only
 * with 2 or more.
 *
 * usage: matrix [--list] [--only SUBSTRING] [--skip ,NAME,NAME,]
 * (--skip: exact case names, "remote:" prefixed for the second pass; for
 * measuring a library that still dies on some cases).
 * Prints "run <case>" before each case (the last one names a case that
 * killed the process; what it wrote stays in MX_CAPTURE_DIR), every failure
 * ("FAIL <case>: <what happened>"), and per rank the summary "matrix (rank
 * R of N): N cases: P clean errors, A accepted, U documented aborts, F
 * failures (...)" (also written to MX_CAPTURE_DIR/matrix-summary.R where
 * that is set); exit status 1 when any rank had a failure.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../src/common/common.h"
#include "../../src/gmr/gmr_impl.h"

/* ---- the table's types ---- */
#include "matrix_table.h"
#define MX_ENUM_K(k) MK_##k,
enum { MX_KINDS(MX_ENUM_K) MK_N };
#define MX_ENUM_C(c) MC_##c,
enum { MX_CLASSES(MX_ENUM_C) MC_N };
#define MX_STR_C(c) #c,
static const char *mc_name[] = {MX_CLASSES(MX_STR_C)};
#define MX_ENUM_F(f) MX_FIX_##f,
enum { MX_FIXTURES(MX_ENUM_F) MX_FIX_N };
enum { MX_PREINIT, MX_INIT, MX_POSTFINI };
enum { MX_EXPECT_ERROR, MX_EXPECT_ACCEPTED, MX_EXPECT_USER_ABORT };

typedef struct mx_case {
    const char *name;
    int fn;
    int phase;
    int two;          /* needs a second process */
    int arg[2];       /* parameter index of each bad value, -1: none */
    int cls[2];
    int expect;
    const char *why;     /* accepted / aborting: the reason it is legal */
    const char *reason;  /* ERROR: extended regex the reason must match */
} mx_case_t;

typedef struct {
    const char *name;  /* as declared */
    const char *call;  /* the name errors must carry */
    int collective;
    int fixture;
    void (*fn)(const mx_case_t *c);
} mx_func_t;

static union {
    long l;
    double d;
    void *p;
    MPI_Comm comm;
} mx_ret;

static void reused_handle(void);
static int mx_int(const mx_case_t *c, int i, int kind);
static long mx_long(const mx_case_t *c, int i, int kind);
static double mx_dbl(const mx_case_t *c, int i, int kind);
static void *mx_ptr(const mx_case_t *c, int i, int kind);
static MPI_Comm mx_comm(const mx_case_t *c, int i, int kind);

#define MX_TABLE
#include "matrix_table.h"

static const struct {
    const char *name, *why;
} mx_excluded[] = {MX_EXCLUDED};

/* ---- the world the cases run in ---- */
#define SZ 1024       /* bytes per process of the allocations */
#define VBYTES 16     /* a valid transfer size (a multiple of every element size) */
#define NMTX 2        /* mutexes per process */
#define MX_CASE_TIMEOUT 10

static struct {
    int me, np, target, phase;
    int remote;        /* second INIT pass: operations target another process */
    void **A;          /* live allocation, SZ bytes per process */
    void **F;          /* an allocation that was freed */
    void **tmp;        /* fixture allocations */
    void *freed_local; /* a freed ARMCI_Malloc_local block */
    void *tmp_local;
    ARMCI_Group world, all, empty, freed, cur_grp, tmp_grp;
    armcix_mutex_hdl_t mh, mh_dead, cur_mh;
    int world_mtx;
    ARMCI_Group *out_grp; /* the group a GROUP_NEW call wrote */
    MPI_Request req, req2;
    armci_hdl_t hdl, hdl_garbage;
    double scale[2];
    int argc;
    char **argv;
    char junk[256] __attribute__((aligned(16)));
    /* per-parameter scratch: arrays and structures a call may read or write */
    struct {
        int ints[8];
        void *ptrs[8];
        armci_giov_t iov;
        void *src[2], *dst[2];
        ARMCI_Group grp;
        stride_info_t sinfo;
        MPI_Comm comm;
        long out;
    } sc[12];
} mx;
static char mx_local[4096] __attribute__((aligned(64)));
static char mx_local2[4096] __attribute__((aligned(64)));
static char mx_fixbuf[4096] __attribute__((aligned(64))); /* fixtures' own messages */


static int cls_of(const mx_case_t *c, int i)
{
    if (c->arg[0] == i)
        return c->cls[0];
    if (c->arg[1] == i)
        return c->cls[1];
    return MC_none;
}

static void unknown(const mx_case_t *c, int i, int kind, int cls)
{
    fflush(stdout);
    printf( "matrix: case %s: no value for kind %d class %s of parameter %d\n",
            c->name, kind, mc_name[cls], i);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* The process the case's operation goes to. */
static int target_of(const mx_case_t *c)
{
    int fx = mx_funcs[c->fn].fixture;
    /* a collective's ranks (roots) are the same on every process */
    if (mx_funcs[c->fn].collective)
        return 0;
    /* messages and notifications go to the caller itself (nobody else
     * would receive them) */
    if (fx == MX_FIX_MSG_SND || fx == MX_FIX_MSG_RCV || fx == MX_FIX_NOTIFY ||
        fx == MX_FIX_NOTIFY_WAIT)
        return mx.me;
    return mx.target;
}

static char *remote_base(const mx_case_t *c)
{
    return mx.A ? (char *)mx.A[target_of(c)] : mx_local;
}

/* Inside an allocation that was freed: its middle, which the small
 * allocations of the fixtures (one page at most) cannot cover again. */
#define FREED_SZ (64 << 10)
#define FREED_OFF (32 << 10)
static char *freed_base(const mx_case_t *c)
{
    return mx.F ? (char *)mx.F[target_of(c)] + FREED_OFF : mx_local;
}

static int mx_int(const mx_case_t *c, int i, int kind)
{
    int cls = cls_of(c, i);
    int T = target_of(c);
    switch (kind) {
    case MK_BYTES: case MK_LBYTES:
        switch (cls) {
        case MC_none: return VBYTES;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_huge: return INT_MAX;
        case MC_zero: return 0;
        }
        break;
    case MK_PROC: case MK_DOMID_NEG_MINE:
        switch (cls) {
        case MC_none: return T;
        case MC_neg: return -1;
        case MC_nproc: return mx.np;
        case MC_huge: return INT_MAX;
        case MC_min: return INT_MIN;
        }
        break;
    case MK_ACCTYPE:
        switch (cls) {
        case MC_none: return ARMCI_ACC_DBL;
        case MC_neg: return -1;
        case MC_range: return ARMCI_ACC_DCP + 1;
        case MC_huge: return INT_MAX;
        }
        break;
    case MK_VALUE:
        if (cls == MC_none)
            return 3;
        break;
    case MK_LEVELS:
        switch (cls) {
        case MC_none: return 1;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_range: return 33; /* above the engine's 32 */
        case MC_huge: return INT_MAX;
        case MC_zero: return 0;
        }
        break;
    case MK_ILEVELS:
        switch (cls) {
        case MC_none: return 1;
        case MC_neg: return -1;
        case MC_range: return ARMCI_MAX_STRIDE_LEVEL + 1;
        case MC_huge: return INT_MAX;
        }
        break;
    case MK_IOVLEN:
        switch (cls) {
        case MC_none: return 1;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_zero: return 0;
        }
        break;
    case MK_RMWOP:
        switch (cls) {
        case MC_none: return ARMCI_FETCH_AND_ADD;
        case MC_neg: return -1;
        case MC_range: return ARMCI_SWAP_LONG + 1;
        case MC_huge: return INT_MAX;
        }
        break;
    case MK_MTXCOUNT:
        switch (cls) {
        case MC_none: return NMTX;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_huge: return INT_MAX;
        case MC_zero: return 0;
        }
        break;
    case MK_MUTEX:
        switch (cls) {
        case MC_none: return 0;
        case MC_neg: return -1;
        case MC_count: return NMTX;
        case MC_huge: return INT_MAX;
        }
        break;
    case MK_GRPSIZE:
        switch (cls) {
        case MC_none: return mx.np;
        case MC_neg: return -1;
        case MC_range: return mx.np + 1;
        case MC_huge: return INT_MAX;
        case MC_zero: return 0;
        }
        break;
    case MK_GRANK:
        switch (cls) {
        case MC_none: return 0;
        case MC_neg: return -1;
        case MC_range: return mx.np;
        case MC_huge: return INT_MAX;
        }
        break;
    case MK_COLOR:
        switch (cls) {
        case MC_none: return 0;
        case MC_neg: return -5;
        case MC_undefined: return MPI_UNDEFINED;
        }
        break;
    case MK_DOMAIN:
        switch (cls) {
        case MC_none: return ARMCI_DOMAIN_SMP;
        case MC_neg: return -1;
        case MC_range: return ARMCI_DOMAIN_SMP + 1;
        }
        break;
    case MK_LOCPROC:
        switch (cls) {
        case MC_none: return 0;
        case MC_neg: return -1;
        case MC_range: return 1;
        }
        break;
    case MK_THREADLEVEL:
        switch (cls) {
        case MC_none: return MPI_THREAD_SINGLE;
        case MC_neg: return -1;
        case MC_range: return 99;
        }
        break;
    case MK_ASYNCMODE:
        switch (cls) {
        case MC_none: return 0;
        case MC_neg: return -2;
        case MC_range: return 2;
        }
        break;
    case MK_TAG:
        switch (cls) {
        case MC_none: return 7;
        case MC_neg: return -1;
        }
        break;
    case MK_MSGLEN:
        switch (cls) {
        case MC_none: return VBYTES;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_zero: return 0;
        }
        break;
    case MK_SCOPE:
        switch (cls) {
        case MC_none: return SCOPE_ALL;
        case MC_neg: return -1;
        case MC_range: return SCOPE_MASTERS + 1;
        }
        break;
    case MK_GOPN:
        switch (cls) {
        case MC_none: return 2;
        case MC_neg: return -1;
        case MC_min: return INT_MIN;
        case MC_zero: return 0;
        }
        break;
    case MK_MSGTYPE:
        switch (cls) {
        case MC_none: return ARMCI_INT;
        case MC_neg: return -1;
        case MC_range: return ARMCI_DOUBLE + 1;
        }
        break;
    case MK_SELN:
        switch (cls) {
        case MC_none: return VBYTES;
        case MC_neg: return -1;
        case MC_small: return 1;
        }
        break;
    }
    unknown(c, i, kind, cls);
    return 0;
}

static long mx_long(const mx_case_t *c, int i, int kind)
{
    int cls = cls_of(c, i);
    switch (kind) {
    case MK_ALLOCSIZE:
        switch (cls) {
        case MC_none: return 64;
        case MC_neg: return -1;
        case MC_min: return LONG_MIN;
        case MC_huge: return LONG_MAX;
        case MC_zero: return 0;
        }
        break;
    case MK_VALUE:
        if (cls == MC_none)
            return 3;
        break;
    }
    unknown(c, i, kind, cls);
    return 0;
}

static double mx_dbl(const mx_case_t *c, int i, int kind)
{
    if (kind == MK_VALUE && cls_of(c, i) == MC_none)
        return 3.0;
    unknown(c, i, kind, cls_of(c, i));
    return 0;
}

static MPI_Comm mx_comm(const mx_case_t *c, int i, int kind)
{
    int cls = cls_of(c, i);
    if (kind == MK_COMM && cls == MC_none)
        return MPI_COMM_WORLD;
    if (kind == MK_COMM && cls == MC_null)
        return MPI_COMM_NULL;
    unknown(c, i, kind, cls);
    return MPI_COMM_NULL;
}

static ARMCI_Group *group_value(const mx_case_t *c, int i, int cls)
{
    ARMCI_Group *g = &mx.sc[i].grp;
    switch (cls) {
    case MC_none: *g = mx.cur_grp; return g;
    case MC_null: return NULL;
    case MC_freed: *g = mx.freed; return g;
    case MC_zeroed: memset(g, 0, sizeof *g); return g;
    case MC_garbage: memset(g, 0x5a, sizeof *g); return g;
    case MC_nonmember: *g = mx.empty; return g;
    }
    unknown(c, i, MK_GROUP, cls);
    return NULL;
}

static void *giov_value(const mx_case_t *c, int i, int kind, int cls)
{
    armci_giov_t *v = &mx.sc[i].iov;
    char *rem = remote_base(c);
    void **loc_arr, **rem_arr;
    mx.sc[i].src[0] = mx.sc[i].src[1] = mx.sc[i].dst[0] = mx.sc[i].dst[1] = NULL;
    v->src_ptr_array = mx.sc[i].src;
    v->dst_ptr_array = mx.sc[i].dst;
    v->bytes = VBYTES;
    v->ptr_array_len = 2;
    if (kind == MK_GIOV_W)
        loc_arr = mx.sc[i].src, rem_arr = mx.sc[i].dst;
    else
        loc_arr = mx.sc[i].dst, rem_arr = mx.sc[i].src;
    loc_arr[0] = mx_local;
    loc_arr[1] = mx_local + 2 * VBYTES;
    rem_arr[0] = rem;
    rem_arr[1] = rem + 2 * VBYTES;
    switch (cls) {
    case MC_none: break;
    case MC_null: return NULL;
    case MC_src_arr_null: v->src_ptr_array = NULL; break;
    case MC_dst_arr_null: v->dst_ptr_array = NULL; break;
    case MC_loc_elem_null: loc_arr[1] = NULL; break;
    case MC_rem_elem_null: rem_arr[1] = NULL; break;
    case MC_rem_elem_outside: rem_arr[1] = mx.junk; break;
    case MC_rem_elem_freed: rem_arr[1] = freed_base(c); break;
    case MC_bytes_neg: v->bytes = -1; break;
    case MC_bytes_huge: v->bytes = INT_MAX; break;
    case MC_len_neg: v->ptr_array_len = -1; break;
    case MC_zero_bytes_null_arrs:
        v->bytes = 0;
        v->src_ptr_array = v->dst_ptr_array = NULL;
        break;
    default: unknown(c, i, kind, cls);
    }
    return v;
}

static void *mx_ptr(const mx_case_t *c, int i, int kind)
{
    int cls = cls_of(c, i);
    int *ints = mx.sc[i].ints;
    char *rem = remote_base(c);
    switch (kind) {
    case MK_LBUF: case MK_GOPBUF: case MK_MSGBUF: case MK_ANYPTR:
        if (cls == MC_none)
            return i % 2 ? mx_local2 : mx_local;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_RADDR: case MK_FLAG: case MK_PREM: {
        /* contiguous data at the start, the flag and the atomic further in */
        size_t off = kind == MK_FLAG ? 512 : kind == MK_PREM ? 256 : 0;
        switch (cls) {
        case MC_none: return rem + off;
        case MC_null: return NULL;
        case MC_outside: return mx.junk;
        case MC_freed: return freed_base(c) + off;
        case MC_pastend: return rem + SZ - 2;
        }
        break;
    }
    case MK_OWNPTR:
        switch (cls) {
        case MC_none: return mx.A ? mx.A[mx.me] : mx_local;
        case MC_null: return NULL;
        case MC_outside: return mx.junk;
        case MC_freed: return mx.F ? (char *)mx.F[mx.me] + FREED_OFF : mx_local;
        }
        break;
    case MK_FREEPTR:
        switch (cls) {
        case MC_none: return mx.tmp ? mx.tmp[mx.me] : mx_local;
        case MC_null: return NULL;
        case MC_outside: return mx.junk;
        case MC_freed: return mx.F ? (char *)mx.F[mx.me] + FREED_OFF : mx_local;
        }
        break;
    case MK_FREELOCAL:
        switch (cls) {
        case MC_none: return mx.tmp_local ? mx.tmp_local : mx_local;
        case MC_null: return NULL;
        case MC_outside: return mx.junk;
        case MC_freed: return mx.freed_local ? mx.freed_local : mx_local;
        }
        break;
    case MK_SCALE:
        if (cls == MC_none)
            return mx.scale;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_HDL_NB: case MK_HDL_WAIT: case MK_HDL_MARK:
        switch (cls) {
        case MC_none: ARMCI_INIT_HANDLE(&mx.hdl); return &mx.hdl;
        case MC_null: return NULL;
        case MC_garbage: memset(&mx.hdl_garbage, 0x5a, sizeof mx.hdl_garbage);
            return &mx.hdl_garbage;
        }
        break;
    case MK_LSTRIDE: case MK_RSTRIDE: case MK_ISTRIDE:
        ints[0] = 2 * VBYTES;
        switch (cls) {
        case MC_none: return ints;
        case MC_null: return NULL;
        case MC_neg_elem: ints[0] = -2 * VBYTES; return ints;
        case MC_huge_elem: ints[0] = INT_MAX; return ints;
        }
        break;
    case MK_COUNTS: case MK_LCOUNTS: case MK_ISEGS:
        ints[0] = VBYTES;
        ints[1] = 2;
        switch (cls) {
        case MC_none: return ints;
        case MC_null: return NULL;
        case MC_neg0: ints[0] = -1; return ints;
        case MC_negn: ints[1] = -1; return ints;
        case MC_huge0: ints[0] = INT_MAX; return ints;
        case MC_hugen: ints[1] = INT_MAX; return ints;
        case MC_zero0: ints[0] = 0; return ints;
        case MC_zeron: ints[1] = 0; return ints;
        }
        break;
    case MK_GIOV_W: case MK_GIOV_R:
        return giov_value(c, i, kind, cls);
    case MK_MTXHDL:
        switch (cls) {
        case MC_none: return mx.cur_mh;
        case MC_null: return NULL;
        case MC_garbage: memset(mx.junk, 0x5a, sizeof mx.junk); return mx.junk;
        case MC_destroyed:
            /* a handle created since may have taken the destroyed one's
             * memory: that pointer is live again (no library can tell, as
             * with a freed pointer), so the case is not run (reused_handle) */
            if (mx.mh_dead == mx.cur_mh || mx.mh_dead == mx.mh)
                reused_handle();
            return mx.mh_dead;
        }
        break;
    case MK_GROUP: case MK_GROUPQ:
        return group_value(c, i, cls);
    case MK_GROUP_OUT: case MK_OUT: case MK_OPTOUT: case MK_SINFO_OUT:
        if (kind == MK_GROUP_OUT && cls == MC_none)
            mx.out_grp = &mx.sc[i].grp;
        /* outputs arrive uninitialized: the call must not read them */
        memset(&mx.sc[i].sinfo, 0x5a, sizeof mx.sc[i].sinfo);
        memset(&mx.sc[i].grp, 0x5a, sizeof mx.sc[i].grp);
        memset(&mx.sc[i].out, 0x5a, sizeof mx.sc[i].out);
        if (cls == MC_none)
            return kind == MK_SINFO_OUT ? (void *)&mx.sc[i].sinfo :
                   kind == MK_GROUP_OUT ? (void *)&mx.sc[i].grp : (void *)&mx.sc[i].out;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_PIDS:
        for (int k = 0; k < mx.np && k < 8; k++)
            ints[k] = k;
        switch (cls) {
        case MC_none: return ints;
        case MC_null: return NULL;
        case MC_elem_neg: ints[mx.np - 1] = -1; return ints;
        case MC_elem_range: ints[mx.np - 1] = mx.np; return ints;
        case MC_elem_dup: ints[mx.np - 1] = 0; return ints;
        }
        break;
    case MK_SINFO: {
        stride_info_t *s = &mx.sc[i].sinfo;
        int stride[1] = {2 * VBYTES}, seg[2] = {VBYTES, 2};
        switch (cls) {
        case MC_none: armci_stride_info_init(s, mx_local, 1, stride, seg); return s;
        case MC_null: return NULL;
        case MC_garbage: memset(s, 0x5a, sizeof *s); return s;
        }
        break;
    }
    case MK_ARGC:
        if (cls == MC_none)
            return &mx.argc;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_ARGV:
        if (cls == MC_none)
            return &mx.argv;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_ERRMSG:
        if (cls == MC_none)
            return "matrix: the valid message";
        if (cls == MC_null)
            return NULL;
        break;
    case MK_DEVICE:
        if (cls == MC_none)
            return "host";
        if (cls == MC_null)
            return NULL;
        break;
    case MK_PTRARR:
        if (cls == MC_none)
            return mx.sc[i].ptrs;
        if (cls == MC_null)
            return NULL;
        break;
    case MK_OPSTR:
        switch (cls) {
        case MC_none: return "+";
        case MC_null: return NULL;
        case MC_unknown: return "xor3";
        }
        break;
    case MK_SELOP:
        switch (cls) {
        case MC_none: return "max";
        case MC_null: return NULL;
        case MC_unknown: return "+";
        }
        break;
    }
    unknown(c, i, kind, cls);
    return NULL;
}

/* ---- recovery: the error hook and the signal handlers ---- */
enum { OUT_RETURNED = 0, OUT_ERROR = 1, OUT_SIGNAL = 2, OUT_HANG = 3, OUT_REUSED = 4 };
static sigjmp_buf env;
static volatile sig_atomic_t armed;
static char got_line[1200];
static int got_lines;
static volatile int got_signal;

static void hook(const char *line)
{
    if (!armed)
        return; /* outside a case: the job aborts as usual */
    snprintf(got_line, sizeof got_line, "%s", line);
    got_lines++;
    armed = 0;
    siglongjmp(env, OUT_ERROR);
}

static int n_reused; /* cases not run: their destroyed handle's memory was reused */

static void reused_handle(void)
{
    armed = 0;
    n_reused++;
    siglongjmp(env, OUT_REUSED);
}

static void on_signal(int sig)
{
    if (!armed) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    armed = 0;
    got_signal = sig;
    siglongjmp(env, sig == SIGALRM ? OUT_HANG : OUT_SIGNAL);
}

static void install_handlers(void)
{
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++)
        sigaction(sigs[k], &sa, NULL);
}

/* ---- fixtures: set-up and clean-up around the calls that need them ---- */
static int is_valid(const mx_case_t *c) { return c->arg[0] < 0; }

static void world_malloc(void ***p, long size)
{
    *p = calloc((size_t)mx.np, sizeof(void *));
    PARMCI_Malloc(*p, size);
}

static void fixture_pre(const mx_case_t *c)
{
    int T = target_of(c);
    mx.cur_grp = mx.all;
    mx.cur_mh = mx.mh;
    switch (mx_funcs[c->fn].fixture) {
    case MX_FIX_FREE:
        PARMCI_Malloc(mx.tmp, 64);
        break;
    case MX_FIX_FREE_GROUP:
        ARMCI_Malloc_group(mx.tmp, 64, &mx.all);
        break;
    case MX_FIX_FREE_LOCAL:
        mx.tmp_local = PARMCI_Malloc_local(64);
        break;
    case MX_FIX_CREATE_MUTEXES:
        if (mx.world_mtx)
            PARMCI_Destroy_mutexes();
        mx.world_mtx = 0;
        break;
    case MX_FIX_UNLOCK:
        PARMCI_Lock(0, T);
        break;
    case MX_FIX_DESTROY_MUTEXES_HDL:
        mx.cur_mh = ARMCIX_Create_mutexes_hdl(NMTX, &mx.world);
        break;
    case MX_FIX_UNLOCK_HDL:
        ARMCIX_Lock_hdl(mx.mh, 0, T);
        break;
    case MX_FIX_GROUP_FREE: {
        int pids[8];
        for (int k = 0; k < mx.np; k++)
            pids[k] = k;
        ARMCI_Group_create(mx.np, pids, &mx.tmp_grp);
        mx.cur_grp = mx.tmp_grp;
        break;
    }
    case MX_FIX_MSG_SND:
        /* a message to oneself needs its receive posted first (MPI_Send
         * may wait for it): on the library's world, as armci_msg_snd */
        MPI_Irecv(mx_fixbuf, VBYTES, MPI_BYTE, mx.me, 7, armcii_state.world, &mx.req);
        break;
    case MX_FIX_MSG_RCV:
        MPI_Isend(mx_fixbuf, VBYTES, MPI_BYTE, mx.me, 7, armcii_state.world, &mx.req);
        break;
    case MX_FIX_NOTIFY_WAIT:
        armci_notify(mx.me);
        break;
    }
}

static void fixture_post(const mx_case_t *c, int out)
{
    int T = target_of(c);
    int ok = out == OUT_RETURNED, done = ok && is_valid(c);
    switch (mx_funcs[c->fn].fixture) {
    case MX_FIX_INIT:
        if (ok)
            PARMCI_Finalize();
        break;
    case MX_FIX_MALLOC:
        if (ok)
            PARMCI_Free(mx.sc[0].ptrs[mx.me]);
        break;
    case MX_FIX_MALLOC_GROUP:
        if (ok)
            ARMCI_Free_group(mx.sc[0].ptrs[mx.all.rank], &mx.all);
        break;
    case MX_FIX_FREE:
        if (!done)
            PARMCI_Free(mx.tmp[mx.me]);
        break;
    case MX_FIX_FREE_GROUP:
        if (!done)
            ARMCI_Free_group(mx.tmp[mx.all.rank], &mx.all);
        break;
    case MX_FIX_MALLOC_LOCAL:
        if (ok && mx_ret.p)
            PARMCI_Free_local(mx_ret.p);
        break;
    case MX_FIX_FREE_LOCAL:
        if (!done)
            PARMCI_Free_local(mx.tmp_local);
        mx.tmp_local = NULL;
        break;
    case MX_FIX_CREATE_MUTEXES:
        if (ok)
            PARMCI_Destroy_mutexes();
        PARMCI_Create_mutexes(NMTX);
        mx.world_mtx = 1;
        break;
    case MX_FIX_DESTROY_MUTEXES:
        if (ok)
            PARMCI_Create_mutexes(NMTX);
        break;
    case MX_FIX_LOCK:
        if (done)
            PARMCI_Unlock(0, T);
        break;
    case MX_FIX_UNLOCK:
        if (!done)
            PARMCI_Unlock(0, T);
        break;
    case MX_FIX_CREATE_MUTEXES_HDL:
        if (ok && mx_ret.p)
            ARMCIX_Destroy_mutexes_hdl(mx_ret.p);
        break;
    case MX_FIX_DESTROY_MUTEXES_HDL:
        if (!done)
            ARMCIX_Destroy_mutexes_hdl(mx.cur_mh);
        break;
    case MX_FIX_LOCK_HDL:
        if (done && (strstr(mx_funcs[c->fn].name, "Trylock") == NULL || mx_ret.l == 0))
            ARMCIX_Unlock_hdl(mx.mh, 0, T);
        break;
    case MX_FIX_UNLOCK_HDL:
        if (!done)
            ARMCIX_Unlock_hdl(mx.mh, 0, T);
        break;
    case MX_FIX_GROUP_NEW:
        if (ok && mx.out_grp)
            ARMCI_Group_free(mx.out_grp);
        break;
    case MX_FIX_GROUP_FREE:
        if (!done)
            ARMCI_Group_free(&mx.tmp_grp);
        break;
    case MX_FIX_SET_DEFAULT:
        if (ok)
            ARMCI_Group_set_default(&mx.world);
        break;
    case MX_FIX_MSG_SND:
        if (!ok) /* nothing was sent */
            MPI_Isend(mx_fixbuf + VBYTES, VBYTES, MPI_BYTE, mx.me, 7, armcii_state.world, &mx.req2),
            MPI_Wait(&mx.req2, MPI_STATUS_IGNORE);
        MPI_Wait(&mx.req, MPI_STATUS_IGNORE);
        break;
    case MX_FIX_MSG_RCV: /* any return received the message */
        if (!ok)
            MPI_Recv(mx_fixbuf + VBYTES, VBYTES, MPI_BYTE, mx.me, 7, armcii_state.world,
                     MPI_STATUS_IGNORE);
        MPI_Wait(&mx.req, MPI_STATUS_IGNORE);
        break;
    case MX_FIX_NOTIFY:
        if (ok)
            armci_notify_wait(mx.me, NULL);
        break;
    case MX_FIX_NOTIFY_WAIT: /* any return consumed the notification */
        if (!ok)
            armci_notify_wait(mx.me, NULL);
        break;
    }
    /* nothing a case issued stays in flight */
    PARMCI_Wait(&mx.hdl);
    PARMCI_Wait(&mx.hdl_garbage);
    PARMCI_WaitAll();
}

/* An error raised in the middle of an operation leaves behind what a real
 * abort discards: the one piece that would stop later cases is the slice
 * lock of the node-local accumulate path (a vector accumulate holds it
 * across segments, and a later segment's bad address ends the call).
 * Release the locks of the allocation the cases write to. */
static void heal(void)
{
    armcii_gmr_t *g = mx.A ? armcii_gmr_find_local(mx.A[mx.me]) : NULL;
    for (int r = 0; g && r < g->size; r++)
        if (g->slice[r].acc_lock)
            __atomic_store_n(g->slice[r].acc_lock, 0, __ATOMIC_RELEASE);
}

/* The world of the INIT phase. */
static void setup(void)
{
    int pids[8];
    for (int k = 0; k < mx.np; k++)
        pids[k] = k;
    world_malloc(&mx.A, SZ);
    world_malloc(&mx.F, FREED_SZ);
    PARMCI_Free(mx.F[mx.me]);
    mx.tmp = calloc((size_t)mx.np, sizeof(void *));
    /* large (mapped on its own): the fixtures' small blocks cannot reuse
     * its address */
    mx.freed_local = PARMCI_Malloc_local(1 << 20);
    PARMCI_Free_local(mx.freed_local);
    ARMCI_Group_get_world(&mx.world);
    ARMCI_Group_create(mx.np, pids, &mx.all);
    ARMCI_Group_create(0, NULL, &mx.empty);
    ARMCI_Group g;
    ARMCI_Group_create(mx.np, pids, &g);
    mx.freed = g;
    ARMCI_Group_free(&g);
    PARMCI_Create_mutexes(NMTX);
    mx.world_mtx = 1;
    mx.mh = ARMCIX_Create_mutexes_hdl(NMTX, &mx.world);
    mx.mh_dead = ARMCIX_Create_mutexes_hdl(NMTX, &mx.world);
    ARMCIX_Destroy_mutexes_hdl(mx.mh_dead);
    PARMCI_Barrier();
}

static void teardown(void)
{
    PARMCI_Barrier();
    ARMCIX_Destroy_mutexes_hdl(mx.mh);
    if (mx.world_mtx)
        PARMCI_Destroy_mutexes();
    ARMCI_Group_free(&mx.all);
    ARMCI_Group_free(&mx.empty);
    PARMCI_Free(mx.A[mx.me]);
}

/* ---- judging ---- */
static int n_run, n_err, n_acc, n_abort, n_fail, n_skip_two;
static regex_t line_re, mpi_fail_re, abort_re;

static void fail(const mx_case_t *c, const char *fmt, const char *a, const char *b)
{
    n_fail++;
    printf("FAIL %s%s: ", mx.remote ? "remote:" : "", c->name);
    printf(fmt, a, b);
    printf("\n");
}

static const char *outcome_name(int out)
{
    static char buf[64];
    switch (out) {
    case OUT_RETURNED: return "the call returned";
    case OUT_ERROR: return "error";
    case OUT_HANG: return "hung (no return within the case timeout)";
    default:
        snprintf(buf, sizeof buf, "signal %d (%s)", got_signal, strsignal(got_signal));
        return buf;
    }
}

static void judge(const mx_case_t *c, int out, const char *extra)
{
    const mx_func_t *f = &mx_funcs[c->fn];
    regmatch_t m[3];
    if (out == OUT_SIGNAL || out == OUT_HANG) {
        fail(c, "%s%s", outcome_name(out), got_lines ? "" : "");
        return;
    }
    if (extra[0]) {
        fail(c, "unexpected output: %.300s", extra, "");
        return;
    }
    switch (c->expect) {
    case MX_EXPECT_ACCEPTED:
        if (out != OUT_RETURNED)
            fail(c, "expected to be accepted (%s), got: %s", c->why, got_line);
        else
            n_acc++;
        return;
    case MX_EXPECT_USER_ABORT:
        if (out != OUT_ERROR || regexec(&abort_re, got_line, 0, NULL, 0))
            fail(c, "expected the documented abort \"ARMCI Error: <msg>\", got: %s",
                 out == OUT_ERROR ? got_line : outcome_name(out), "");
        else
            n_abort++;
        return;
    }
    if (out == OUT_RETURNED) {
        fail(c, "bad input accepted (no error)", "", "");
        return;
    }
    if (got_lines != 1 || regexec(&line_re, got_line, 3, m, 0)) {
        fail(c, "malformed error report: %s", got_line, "");
        return;
    }
    char call[128], reason[1024];
    snprintf(call, sizeof call, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), got_line + m[1].rm_so);
    snprintf(reason, sizeof reason, "%s", got_line + m[2].rm_so);
    if (strcmp(call, f->call)) {
        fail(c, "reported as %s: %s", call, reason);
        return;
    }
    if (!regexec(&mpi_fail_re, reason, 0, NULL, 0)) {
        fail(c, "caught by MPI, not by an argument check: %s%s", reason, "");
        return;
    }
    if (c->reason[0]) {
        regex_t r;
        int bad = regcomp(&r, c->reason, REG_EXTENDED | REG_NOSUB) ||
                  regexec(&r, reason, 0, NULL, 0);
        regfree(&r);
        if (bad) {
            fail(c, "the reason does not name the problem (wanted /%s/): %s", c->reason, reason);
            return;
        }
    }
    n_err++;
}

/* ---- running ---- */
static FILE *capture;
static char capture_path[512];
static int saved_stderr;

static void run_case(const mx_case_t *c)
{
    const mx_func_t *f = &mx_funcs[c->fn];
    char extra[512];
    int out;
    int mine = f->collective || mx.me == 0;
    if (c->two && mx.np < 2) {
        n_skip_two++;
        return;
    }
    if (!mine || (mx.remote && f->collective))
        return;
    n_run++;
    printf("run %s%s\n", mx.remote ? "remote:" : "", c->name);
    memset(mx.sc, 0, sizeof mx.sc);
    mx.out_grp = NULL;
    fflush(stdout);
    if (mx.phase == MX_INIT)
        fixture_pre(c);
    else
        mx.cur_grp = mx.all, mx.cur_mh = mx.mh;
    got_line[0] = 0;
    got_lines = 0;
    got_signal = 0;
    fflush(stderr);
    rewind(capture);
    if (ftruncate(fileno(capture), 0)) {}
    dup2(fileno(capture), 2);
    memset(&mx_ret, 0, sizeof mx_ret);
    out = sigsetjmp(env, 1);
    if (out == 0) {
        armed = 1;
        alarm(MX_CASE_TIMEOUT);
        f->fn(c);
        armed = 0;
        alarm(0);
    } else {
        alarm(0);
    }
    fflush(stderr);
    dup2(saved_stderr, 2);
    size_t n = (size_t)lseek(fileno(capture), 0, SEEK_END);
    extra[0] = 0;
    if (n) {
        n = n < sizeof extra - 1 ? n : sizeof extra - 1;
        n = (size_t)pread(fileno(capture), extra, n, 0);
        extra[n] = 0;
        for (char *p = extra; *p; p++)
            if (*p == '\n')
                *p = ' ';
    }
    if (out == OUT_REUSED) { /* the call was never made: undo the fixture only */
        fixture_post(c, out);
        return;
    }
    if (mx.phase == MX_INIT && out != OUT_RETURNED)
        heal();
    if (mx.phase == MX_INIT && out != OUT_SIGNAL && out != OUT_HANG)
        fixture_post(c, out);
    judge(c, out, extra);
}

static const char *skip_list; /* --skip: ",name,name," of cases not to run */

static int skipped(const char *name)
{
    char key[256];
    if (!skip_list)
        return 0;
    snprintf(key, sizeof key, ",%s%s,", mx.remote ? "remote:" : "", name);
    return strstr(skip_list, key) != NULL;
}

static void run_phase(int phase, const char *only)
{
    mx.phase = phase;
    for (int k = 0; k < MX_NCASES; k++)
        if (mx_cases[k].phase == phase && (!only || strstr(mx_cases[k].name, only)) &&
            !skipped(mx_cases[k].name))
            run_case(&mx_cases[k]);
}

static void list(void)
{
    static const char *ph[] = {"before ARMCI_Init: ", "", "after ARMCI_Finalize: "};
    static const char *ex[] = {"error", "accepted", "documented abort"};
    for (int k = 0; k < MX_NCASES; k++) {
        const mx_case_t *c = &mx_cases[k];
        printf("%-60s %-16s %s%s%s\n", c->name, ex[c->expect], ph[c->phase],
               c->why[0] && c->expect != MX_EXPECT_ERROR ? c->why : "",
               c->two ? " (needs 2 processes)" : "");
    }
    for (size_t k = 0; k < sizeof mx_excluded / sizeof *mx_excluded; k++)
        printf("%-60s %-16s %s\n", mx_excluded[k].name, "not run", mx_excluded[k].why);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        list();
        return 0;
    }
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--only"))
            only = argv[a + 1];
        else if (!strcmp(argv[a], "--skip"))
            skip_list = argv[a + 1];
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mx.me);
    MPI_Comm_size(MPI_COMM_WORLD, &mx.np);
    if (mx.np > 8) {
        if (mx.me == 0)
            fprintf(stderr, "matrix: at most 8 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    mx.target = mx.me;
    mx.argc = argc;
    mx.argv = argv;
    mx.scale[0] = 1.0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    regcomp(&line_re, "^\\[[0-9-]+\\] ARMCI Error in ([A-Za-z_0-9]+): (.+)$", REG_EXTENDED);
    regcomp(&mpi_fail_re, "^P?MPI_[A-Za-z_]+ failed", REG_EXTENDED | REG_NOSUB);
    regcomp(&abort_re, "^\\[[0-9-]+\\] ARMCI Error: ", REG_EXTENDED | REG_NOSUB);
    /* A named file (MX_CAPTURE_DIR, default /tmp): what a case that kills
     * the process wrote is left there for the script to show. */
    const char *dir = getenv("MX_CAPTURE_DIR");
    snprintf(capture_path, sizeof capture_path, "%s/matrix-capture.%d.%d",
             dir && *dir ? dir : "/tmp", (int)getpid(), mx.me);
    capture = fopen(capture_path, "w+");
    if (!capture) {
        fprintf(stderr, "matrix: cannot create %s\n", capture_path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    saved_stderr = dup(2);
    install_handlers();
    armcii_error_set_hook(hook);

    double t0 = MPI_Wtime();
    run_phase(MX_PREINIT, only);
    PARMCI_Init();
    setup();
    run_phase(MX_INIT, only);
    if (mx.np > 1) {
        /* again, to another process (on another virtual node where there
         * are several): the collective entry points do not take part */
        mx.remote = 1;
        mx.target = (mx.me + (mx.np + 1) / 2) % mx.np;
        run_phase(MX_INIT, only);
        mx.remote = 0;
    }
    teardown();
    PARMCI_Finalize();
    run_phase(MX_POSTFINI, only);
    double t = MPI_Wtime() - t0;

    armcii_error_set_hook(NULL);
    fclose(capture);
    unlink(capture_path);
    int fails = n_fail, all;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    char sum[512];
    snprintf(sum, sizeof sum, "matrix (rank %d of %d): %d cases: %d clean errors, %d accepted, "
             "%d documented aborts, %d failures (%d skipped: need 2 processes; %d not run: "
             "destroyed handle's memory reused; %zu entry points excluded; %.2f s)\n", mx.me,
             mx.np, n_run, n_err, n_acc, n_abort, n_fail, n_skip_two, n_reused,
             sizeof mx_excluded / sizeof *mx_excluded, t);
    fputs(sum, stdout);
    /* and, for the script, in MX_CAPTURE_DIR: MPICH's hydra forwards the
     * ranks' output in pieces that can cut a line anywhere (the summary
     * once went missing in CI) */
    if (dir && *dir) {
        char path[600];
        snprintf(path, sizeof path, "%s/matrix-summary.%d", dir, mx.me);
        FILE *f = fopen(path, "w");
        if (!f || fputs(sum, f) < 0 || fclose(f))
            printf("matrix: cannot write %s\n", path);
    }
    MPI_Finalize();
    return all ? 1 : 0;
}
