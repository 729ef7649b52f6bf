/*
 * Helpers shared by the Global Arrays test programs: start-up and shut-down
 * (MPI, GA over this libarmci, MA), a type-generic element accessor so one
 * check covers every GA element type, and small index utilities.
 */
#ifndef ARMCI_GA_UTIL_H
#define ARMCI_GA_UTIL_H
#include <string.h>
#include <ga.h>
#include <macdecls.h>
#include "../testutil.h"

/* Every element type of the C interface. */
static const int gt_types[] = {C_INT, C_LONG, C_DBL, C_FLOAT, C_DCPL, C_SCPL, C_LONGLONG};
#define GT_NTYPES ((int)(sizeof gt_types / sizeof gt_types[0]))

/* One element as a complex number; real types ignore the imaginary part. */
typedef struct {
    double re, im;
} gt_val;

static int gt_me, gt_np;

/* MPI first, then GA (which initialises ARMCI), then MA for GA's scratch. */
static inline void gt_init(int *argc, char ***argv, const char *name)
{
    MPI_Init(argc, argv);
    GA_Initialize();
    if (!MA_init(C_DBL, 1 << 18, 1 << 20))
        GA_Error("MA_init failed", 1);
    gt_me = GA_Nodeid();
    gt_np = GA_Nnodes();
    tu_name = name;
}

/* Agree on the verdict, shut GA and MPI down, return the exit code. */
static inline int gt_finish(void)
{
    int rc;
    GA_Sync();
    rc = tu_finish();
    GA_Terminate();
    MPI_Finalize();
    return rc;
}

static inline const char *gt_name(int type)
{
    switch (type) {
    case C_INT: return "C_INT";
    case C_LONG: return "C_LONG";
    case C_DBL: return "C_DBL";
    case C_FLOAT: return "C_FLOAT";
    case C_DCPL: return "C_DCPL";
    case C_SCPL: return "C_SCPL";
    case C_LONGLONG: return "C_LONGLONG";
    }
    return "?";
}

static inline size_t gt_size(int type)
{
    switch (type) {
    case C_INT: return sizeof(int);
    case C_LONG: return sizeof(long);
    case C_DBL: return sizeof(double);
    case C_FLOAT: return sizeof(float);
    case C_DCPL: return sizeof(DoubleComplex);
    case C_SCPL: return sizeof(SingleComplex);
    case C_LONGLONG: return sizeof(long long);
    }
    return 0;
}

static inline int gt_is_complex(int type)
{
    return type == C_DCPL || type == C_SCPL;
}

/* buf[idx] = re + i*im, converted to the element type. */
static inline void gt_store(int type, void *buf, long idx, double re, double im)
{
    switch (type) {
    case C_INT: ((int *)buf)[idx] = (int)re; break;
    case C_LONG: ((long *)buf)[idx] = (long)re; break;
    case C_DBL: ((double *)buf)[idx] = re; break;
    case C_FLOAT: ((float *)buf)[idx] = (float)re; break;
    case C_LONGLONG: ((long long *)buf)[idx] = (long long)re; break;
    case C_DCPL:
        ((DoubleComplex *)buf)[idx].real = re;
        ((DoubleComplex *)buf)[idx].imag = im;
        break;
    case C_SCPL:
        ((SingleComplex *)buf)[idx].real = (float)re;
        ((SingleComplex *)buf)[idx].imag = (float)im;
        break;
    }
}

static inline gt_val gt_load(int type, const void *buf, long idx)
{
    gt_val v = {0, 0};
    switch (type) {
    case C_INT: v.re = ((const int *)buf)[idx]; break;
    case C_LONG: v.re = (double)((const long *)buf)[idx]; break;
    case C_DBL: v.re = ((const double *)buf)[idx]; break;
    case C_FLOAT: v.re = ((const float *)buf)[idx]; break;
    case C_LONGLONG: v.re = (double)((const long long *)buf)[idx]; break;
    case C_DCPL:
        v.re = ((const DoubleComplex *)buf)[idx].real;
        v.im = ((const DoubleComplex *)buf)[idx].imag;
        break;
    case C_SCPL:
        v.re = ((const SingleComplex *)buf)[idx].real;
        v.im = ((const SingleComplex *)buf)[idx].imag;
        break;
    }
    return v;
}

/* A scalar of the element type (for alpha, fill values, scale factors). */
static inline void gt_scalar(int type, void *out, double re, double im)
{
    gt_store(type, out, 0, re, gt_is_complex(type) ? im : 0.0);
}

static inline gt_val gt_mul(gt_val a, gt_val b)
{
    gt_val r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

/* All test values are small integers, exact in every type. */
static inline int gt_eq(gt_val a, gt_val b)
{
    return a.re == b.re && a.im == b.im;
}

/* The most square px x py grid with px * py == n and px <= py. */
static inline void gt_grid(int n, int *px, int *py)
{
    int d;
    *px = 1;
    for (d = 1; d * d <= n; d++)
        if (n % d == 0)
            *px = d;
    *py = n / *px;
}

/* Does point (i, j) lie in the 2-D box lo..hi (inclusive)? */
static inline int gt_inside(const int lo[2], const int hi[2], int i, int j)
{
    return i >= lo[0] && i <= hi[0] && j >= lo[1] && j <= hi[1];
}
#endif
