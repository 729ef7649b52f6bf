/*
 * The CPU accumulate kernels: dst += scale * src for every ARMCI_ACC_* type,
 * and dst = scale * src (staging a scaled accumulate for MPI, which only
 * sums); and the CPU read-modify-writes.  Shared by the node-local path
 * (src/gmr, src/iov, src/mutex) and the ghosts, which apply what is
 * shipped to them (src/ghost/ghost_am.c): the same atomics on both sides.
 */
#include <sched.h>
#include "common.h"
#include "common_acc.h"

/* Accumulates are memory-bound loops that -O2's very cheap vectorizer
 * leaves scalar (it will not add a remainder loop); vectorized they run at
 * copy speed, like the MPI implementation's own accumulate.  No restrict:
 * a local buffer may itself be global memory overlapping the target, so
 * the vectorizer adds its runtime alias check and keeps a scalar path. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
/* Clones picked at load time by what the CPU has.  The AVX-512 one matters:
 * Open MPI's op component uses AVX-512 where present, and with AVX2 alone our
 * node-local accumulate of 64 KiB to 512 KiB ran behind its MPI_Accumulate
 * (benchmarks/results/acc_avx512.txt). */
#define ACC_VECTORIZE                                                         \
    __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic"),     \
                   target_clones("avx512f", "avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define ACC_VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define ACC_VECTORIZE
#endif

#define SCALE_LOOP(T, OP)                                                     \
    do {                                                                      \
        const T s = *(const T *)scale;                                        \
        const T *a = src;                                                     \
        T *d = dst;                                                           \
        size_t n = bytes / sizeof(T);                                         \
        if (s == 1)                                                           \
            for (size_t i = 0; i < n; i++)                                    \
                d[i] OP a[i];                                                 \
        else                                                                  \
            for (size_t i = 0; i < n; i++)                                    \
                d[i] OP s * a[i];                                             \
    } while (0)

#define CPLX_LOOP(T, OP)                                                      \
    do {                                                                      \
        const T sr = ((const T *)scale)[0], si = ((const T *)scale)[1];       \
        const T *a = src;                                                     \
        T *d = dst;                                                           \
        size_t n = bytes / (2 * sizeof(T));                                   \
        for (size_t i = 0; i < n; i++) {                                      \
            T ar = a[2 * i], ai = a[2 * i + 1];                               \
            d[2 * i] OP sr * ar - si * ai;                                    \
            d[2 * i + 1] OP sr * ai + si * ar;                                \
        }                                                                     \
    } while (0)

ACC_VECTORIZE void armcii_acc_scale(int datatype, const void *scale, const void *src,
                          void *dst, size_t bytes)
{
    switch (datatype) {
    case ARMCI_ACC_INT: SCALE_LOOP(int, =); break;
    case ARMCI_ACC_LNG: SCALE_LOOP(long, =); break;
    case ARMCI_ACC_FLT: SCALE_LOOP(float, =); break;
    case ARMCI_ACC_DBL: SCALE_LOOP(double, =); break;
    case ARMCI_ACC_CPL: CPLX_LOOP(float, =); break;
    default: CPLX_LOOP(double, =); break;
    }
}

ACC_VECTORIZE void armcii_acc_kernel(int datatype, const void *scale, const void *src,
                           void *dst, size_t bytes)
{
    switch (datatype) {
    case ARMCI_ACC_INT: SCALE_LOOP(int, +=); break;
    case ARMCI_ACC_LNG: SCALE_LOOP(long, +=); break;
    case ARMCI_ACC_FLT: SCALE_LOOP(float, +=); break;
    case ARMCI_ACC_DBL: SCALE_LOOP(double, +=); break;
    case ARMCI_ACC_CPL: CPLX_LOOP(float, +=); break;
    default: CPLX_LOOP(double, +=); break;
    }
}

long armcii_cpu_rmw(int op, void *p, long a, long b)
{
    switch (op) {
    case ARMCI_FETCH_AND_ADD:
        return __atomic_fetch_add((int *)p, (int)a, __ATOMIC_SEQ_CST);
    case ARMCI_FETCH_AND_ADD_LONG:
        return __atomic_fetch_add((long *)p, a, __ATOMIC_SEQ_CST);
    case ARMCI_SWAP:
        return __atomic_exchange_n((int *)p, (int)a, __ATOMIC_SEQ_CST);
    case ARMCI_SWAP_LONG:
        return __atomic_exchange_n((long *)p, a, __ATOMIC_SEQ_CST);
    default: { /* ARMCII_CPU_CAS_INT */
        int expect = (int)a;
        __atomic_compare_exchange_n((int *)p, &expect, (int)b, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST);
        return expect; /* the value found */
    }
    }
}

/* Test-and-test-and-set; yields when spinning long, because ranks are often
 * oversubscribed and the holder may be descheduled. */
void armcii_spin_lock(int *l)
{
    for (int spins = 0;; spins++) {
        if (!__atomic_load_n(l, __ATOMIC_RELAXED) &&
            !__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
            return;
        if (spins > 64)
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

void armcii_spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
