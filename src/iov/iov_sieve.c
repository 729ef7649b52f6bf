/*
 * Sieved gets (ARMCI_IOV_SIEVE).  A strided or vector get whose blocks
 * crowd one slice of a target on the MPI path reads the byte range that
 * covers them with one contiguous get and copies the blocks out of it.
 *
 * Why: the MPIs measured move each block of a datatype or vector get as a
 * transfer of its own (Open MPI 4.1's osc rdma: one btl get per block, a
 * system call each between the processes of one host), while one transfer
 * of the range costs one overhead plus the bytes between the blocks.  The
 * sieve reads the range only where those bytes stay under ARMCI_IOV_SIEVE
 * per block and the range under ARMCII_SIEVE_MAX_BYTES, the temporary
 * buffer's bound.  The default sits well below the crossing point measured
 * on the 2-core host, since a network's was not measured (figures:
 * docs/performance.md, "Gathers and other crowded gets on the MPI path").
 *
 * Reading bytes nobody asked for changes nothing at the target.  Another
 * process may write them meanwhile; in MPI's unified memory model that
 * leaves only the values read undefined, and they are thrown away.  Windows
 * of the separate model (where such a read is erroneous) are never sieved.
 * Puts and accumulates are never sieved: writing the gaps back would undo
 * others' concurrent updates.
 */
#include <stdlib.h>
#include <string.h>
#include "iov.h"
#include "../common/common_quirks.h"

/* Largest range read in one sieved get (the temporary buffer). */
#define ARMCII_SIEVE_MAX_BYTES ((size_t)4 << 20)

/* 1 when a get of nseg blocks of `bytes` covering span bytes is one the
 * sieve takes, wherever its target is.  Blocks may overlap (span below
 * the payload): nothing lies between them then. */
static int crowded(const armcii_iov_op_t *op, long nseg, int bytes, size_t span)
{
    long gap = armcii_state.cfg.iov_sieve;
    size_t payload = (size_t)nseg * (size_t)bytes;
    return op->kind == ARMCII_IOV_GET && gap > 0 && nseg >= 2 &&
           span <= ARMCII_SIEVE_MAX_BYTES &&
           (span <= payload || span - payload <= (size_t)nseg * (size_t)gap);
}

int armcii_iov_sieve_ok(const armcii_iov_op_t *op, const armcii_target_t *t, long nseg,
                        int bytes, size_t span)
{
    return crowded(op, nseg, bytes, span) && !t->direct && !t->am && armcii_win_unified(t->win);
}

/* Read span bytes at t into a new buffer; complete before returning. */
static char *read_range(const armcii_iov_op_t *op, const armcii_target_t *t, size_t span)
{
    static const armcii_gmr_cmpl_t now = {1, NULL};
    char *buf = malloc(span);
    if (!buf)
        armcii_error(op->call, "out of memory for a sieved get of %zu bytes", span);
    armcii_gmr_get(t, buf, (int)span, MPI_BYTE, (int)span, MPI_BYTE);
    armcii_gmr_complete(&now, t);
    return buf;
}

int armcii_iov_sieve_vector(const armcii_iov_op_t *op, armcii_iov_seq_t *seq)
{
    if (op->kind != ARMCII_IOV_GET || armcii_state.cfg.iov_sieve <= 0 || seq->n < 2)
        return 0;
    /* The covering range first, from the addresses alone: a vector too
     * sparse to sieve costs one pass and no translation. */
    char *l, *r;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r)) {
        if ((uintptr_t)r < lo)
            lo = (uintptr_t)r;
        if ((uintptr_t)r + (size_t)seq->bytes > hi)
            hi = (uintptr_t)r + (size_t)seq->bytes;
    }
    size_t span = hi - lo, payload = (size_t)seq->n * (size_t)seq->bytes;
    if (!crowded(op, seq->n, seq->bytes, span))
        return 0;
    /* One translation of the range: inside one slice, so is every segment
     * (if not, the method that runs instead translates and reports them). */
    armcii_target_t t;
    armcii_opclass_t cls = ARMCII_OP_NONCONTIG;
    if (armcii_iov_xlate(op, (void *)lo, span, 0, &t))
        return 0;
    if (!armcii_iov_sieve_ok(op, &t, seq->n, seq->bytes, span)) {
        armcii_gmr_uncount(cls, t.abs, span); /* the method counts the segments */
        return 0;
    }
    armcii_gmr_count_payload(cls, span, payload);
    armcii_log(3, "%s: sieved get, %ld segments of %d bytes from %d in %zu bytes", op->call,
               seq->n, seq->bytes, op->proc, span);
    char *buf = read_range(op, &t, span);
    armcii_iov_seq_rewind(seq);
    while (armcii_iov_seq_next(seq, &l, &r))
        memcpy(l, buf + ((uintptr_t)r - lo), (size_t)seq->bytes);
    free(buf);
    return 1;
}

void armcii_iov_sieve_strided(const armcii_iov_op_t *op, char *loc, const int lstride[],
                              const armcii_target_t *t, const int rstride[], const int count[],
                              int levels, long nseg, ptrdiff_t lo, ptrdiff_t hi)
{
    armcii_log(3, "%s: sieved strided get, %ld blocks of %d bytes from %d in %zu bytes",
               op->call, nseg, count[0], op->proc, (size_t)(hi - lo));
    char *buf = read_range(op, t, (size_t)(hi - lo)); /* t describes rem + lo */
    armcii_iov_iter_t it;
    ptrdiff_t lof, rof;
    armcii_iov_iter_init(&it, levels, count, lstride, rstride);
    while (armcii_iov_iter_next(&it, &lof, &rof))
        memcpy(loc + lof, buf + (rof - lo), (size_t)count[0]);
    free(buf);
}
