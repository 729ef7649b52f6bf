/*
 * Operations shipped to ghosts as messages, applied there with the CPU.
 *
 * Why.  A ghost serving accumulates and read-modify-writes through MPI RMA
 * on its pool window leaves the arithmetic to the MPI: Open MPI's osc/rdma
 * does an accumulate from the origin, taking a lock and reading and writing
 * every block of the target through the transport (one system call per
 * block between the virtual nodes of one host), and emulates fetch-and-op
 * with messages its progress engine answers.  A ghost maps the memory of its
 * users (ghost_pool.c), so it can apply the operation itself: the origin
 * sends the packed data and the target's block structure in one message
 * (GA's runtime with a progress rank per node, MPI-PR, does the same), and
 * a fetch-and-op is one request and one reply.
 *
 * Atomicity and order.  While a region is redirected, every accumulate and
 * RMW to a target goes through the target's one ghost (gmr_ghost.c), which
 * applies messages one at a time: they are atomic with respect to each
 * other, as MPI's accumulates are.  All requests of a user travel on one
 * tag and communicator, so MPI's non-overtaking rule keeps them in the
 * order issued; a fence is a request whose reply the ghost sends after
 * everything that user sent before it.
 *
 * Local completion.  The origin's data is copied into the message, so the
 * caller's buffer is free once the send has started; a write's send is
 * left in flight (up to ARMCII_AM_PEND_MAX of them, in single-threaded
 * runs) and completed by a later write, a fence or the teardown.
 */
#include <stdlib.h>
#include <string.h>
#include "ghost_impl.h"
#include "../common/common_acc.h"
#include "../common/common_wait.h"

#define GH armcii_ghost_state

/* Reply tags: one per request, so that threads never take each other's. */
enum { AM_TAG_REPLY0 = 1000, AM_TAG_REPLIES = 16384 };

static int reply_tag(void)
{
    unsigned long n = __atomic_fetch_add(&GH.am_seq, 1, __ATOMIC_RELAXED);
    return AM_TAG_REPLY0 + (int)(n % AM_TAG_REPLIES);
}

/* ---------------------------------------------------------------- user */

void *armcii_ghost_am_msg(size_t payload, armcii_ghost_am_t **hdr)
{
    armcii_ghost_am_t *h = malloc(sizeof *h + payload);
    if (!h)
        armcii_error(armcii_current_call, "out of memory for a %zu-byte message to a ghost",
                     payload);
    memset(h, 0, sizeof *h);
    *hdr = h;
    return h + 1;
}

/* Complete the writes whose sends were left in flight, and free them. */
static void drain(void)
{
    for (int i = 0; i < GH.am_npend; i++) {
        armcii_wait(&GH.am_pend[i]);
        free(GH.am_pend_msg[i]);
    }
    GH.am_npend = 0;
    GH.am_pend_bytes = 0;
}

/* Writes are left in flight after their send starts: up to AM_PEND_BYTES
 * each to a ghost on this host, AM_PEND_REMOTE to one elsewhere, and up to
 * AM_PEND_TOTAL together.  Waiting cost a round trip through the ghost per
 * write: Open MPI 4.1's shared-memory path completed a send only once the
 * ghost had taken the message, and MPICH 4.0 completed large ones late
 * (benchmarks/results/ghost_pending.ompi.2core.txt,
 * ghost_pending_large.2core.txt).  The message is the origin's copy, so
 * nothing waits for the send but the memory it holds.  A ghost takes a
 * message in one blocking receive, and a large one on a transport that
 * moves the data only with the sender's progress (TCP between hosts, say)
 * would hold the ghost until its origin next enters MPI; between processes
 * of one host both MPIs let the receiver take it alone (measured in the
 * second file), so only there do large writes stay in flight. */
enum { AM_PEND_BYTES = 256 * 1024, AM_PEND_REMOTE = 4096, AM_PEND_TOTAL = 1024 * 1024 };

void armcii_ghost_am_post(int ghost, armcii_ghost_am_t *h, size_t payload)
{
    MPI_Request req;
    if (sizeof *h + payload > (size_t)0x7fffffff)
        armcii_error(armcii_current_call, "a transfer of %zu bytes is too large for one "
                     "message to a ghost", payload);
    ARMCII_MPI(PMPI_Isend(h, (int)(sizeof *h + payload), MPI_BYTE, ghost, ARMCII_AM_TAG,
                          GH.am_comm, &req));
    __atomic_add_fetch(&GH.am_sent, 1, __ATOMIC_RELAXED);
    size_t bytes = sizeof *h + payload;
    if (!armcii_state.threaded && bytes <= (GH.am_local[ghost] ? AM_PEND_BYTES : AM_PEND_REMOTE)) {
        /* counted now: MPI matches one process's messages to a ghost in
         * the order sent, so a later fence's request comes after this */
        __atomic_add_fetch(&GH.am_posted[ghost], 1, __ATOMIC_RELEASE);
        if (GH.am_npend == ARMCII_AM_PEND_MAX || GH.am_pend_bytes + bytes > AM_PEND_TOTAL)
            drain();
        GH.am_pend[GH.am_npend] = req;
        GH.am_pend_msg[GH.am_npend++] = h;
        GH.am_pend_bytes += bytes;
        return;
    }
    armcii_wait(&req);
    free(h);
    /* counted once sent: a fence that another thread reads the count for
     * later asks after it */
    __atomic_add_fetch(&GH.am_posted[ghost], 1, __ATOMIC_RELEASE);
}

/* One request with a reply of `bytes` bytes into out (RMW: the old value,
 * fence: nothing, get: the data): the receive is posted first, so the
 * ghost's reply never waits for it. */
static void request(int ghost, armcii_ghost_am_t *h, size_t payload, void *out, size_t bytes)
{
    MPI_Request req[2];
    long none;
    if (bytes > (size_t)0x7fffffff || payload > (size_t)0x7fffffff - sizeof *h)
        armcii_error(armcii_current_call, "a get of %zu bytes is too large for one message "
                     "from a ghost", bytes);
    h->tag = reply_tag();
    ARMCII_MPI(PMPI_Irecv(out ? out : &none, out ? (int)bytes : 1,
                          out ? MPI_BYTE : MPI_LONG, ghost, h->tag, GH.am_comm, &req[0]));
    ARMCII_MPI(PMPI_Isend(h, (int)(sizeof *h + payload), MPI_BYTE, ghost, ARMCII_AM_TAG,
                          GH.am_comm, &req[1]));
    armcii_wait(&req[1]);
    armcii_wait(&req[0]);
}

void armcii_ghost_am_get(int ghost, armcii_ghost_am_t *h, size_t payload, void *dst,
                         size_t bytes)
{
    h->kind = ARMCII_AM_GET;
    request(ghost, h, payload, dst, bytes);
    free(h);
    __atomic_add_fetch(&GH.am_sent, 1, __ATOMIC_RELAXED);
}

long armcii_ghost_am_rmw(int ghost, int pool, MPI_Aint disp, int op, long a, long b)
{
    armcii_ghost_am_t h;
    memset(&h, 0, sizeof h);
    h.kind = ARMCII_AM_RMW;
    h.datatype = op;
    h.pool = pool;
    h.disp = disp;
    h.operand[0] = a;
    h.operand[1] = b;
    long old;
    request(ghost, &h, 0, &old, sizeof old);
    __atomic_add_fetch(&GH.am_sent, 1, __ATOMIC_RELAXED);
    return old;
}

/* Threads: a fence reads how many writes were sent to the ghost, and
 * records that many as applied once its reply is in; a thread whose write
 * a fence in flight may not cover sees a smaller record and asks itself. */
int armcii_ghost_am_fence(int ghost)
{
    int lo = ghost < 0 ? 0 : ghost, hi = ghost < 0 ? GH.am_nranks : ghost + 1, asked = 0;
    drain();
    for (int g = lo; g < hi; g++) {
        unsigned long n = __atomic_load_n(&GH.am_posted[g], __ATOMIC_ACQUIRE);
        unsigned long done = __atomic_load_n(&GH.am_applied[g], __ATOMIC_ACQUIRE);
        if (done >= n)
            continue;
        armcii_ghost_am_t h;
        memset(&h, 0, sizeof h);
        h.kind = ARMCII_AM_FENCE;
        request(g, &h, 0, NULL, 0);
        asked++;
        while (done < n && !__atomic_compare_exchange_n(&GH.am_applied[g], &done, n, 1,
                                                        __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
            ;
    }
    return asked;
}

unsigned long armcii_ghost_am_count(void)
{
    return __atomic_load_n(&GH.am_sent, __ATOMIC_RELAXED);
}

/* --------------------------------------------------------------- ghost */

/* My mapping of [disp, disp + len) of pool `pool`, or an error: a message
 * outside the pool is a library bug, never user input (gmr checked that). */
static char *at(int src, int pool, int64_t disp, int64_t len)
{
    if (pool < 0 || pool >= GH.npools || disp < 0 || len < 0 ||
        (uint64_t)disp + (uint64_t)len > (uint64_t)GH.pool[pool].part * (uint64_t)GH.bound_users)
        armcii_error("ARMCI ghost", "a message from process %d names bytes [%lld, +%lld) of "
                     "pool %d, outside what this ghost maps", src, (long long)disp,
                     (long long)len, pool);
    return GH.pool[pool].base + disp;
}

/* Walk the target's blocks in ARMCI's pack order (level 1 fastest),
 * moving `payload` bytes between them and data: accumulate or put into the
 * target, or (GET) pack the target into data. */
/* The accumulate lock of the partition holding pool displacement disp
 * (users of the node apply accumulates to it with the CPU too). */
static int *partition_lock(int pool, int64_t disp)
{
    size_t part = GH.pool[pool].part;
    return (int *)(GH.pool[pool].base + (size_t)disp / part * part);
}

/* One block: accumulate or put data into the target, or (GET) copy it out. */
static inline void move(const armcii_ghost_am_t *h, char *target, char *data, size_t n)
{
    if (h->kind == ARMCII_AM_ACC)
        armcii_acc_kernel(h->datatype, h->scale, data, target, n);
    else if (h->kind == ARMCII_AM_PUT)
        memcpy(target, data, n);
    else
        memcpy(data, target, n);
}

/* A vector transfer (levels -1): count[1] blocks of count[0] bytes at the
 * displacements disp[] (in the pool), data in their order. */
static void walk_indexed(int src, const armcii_ghost_am_t *h, const int64_t *disp, char *data,
                         size_t payload)
{
    int64_t block = h->count[0], n = h->count[1];
    if (block <= 0 || n <= 0 || (uint64_t)block * (uint64_t)n != payload)
        armcii_error("ARMCI ghost", "malformed vector message from process %d", src);
    /* one target process: its slices share their partition's lock */
    at(src, h->pool, disp[0], block); /* checks the pool before the lock is looked up */
    int *lock = h->kind == ARMCII_AM_ACC ? partition_lock(h->pool, disp[0]) : NULL;
    if (lock)
        armcii_spin_lock(lock);
    for (int64_t k = 0; k < n; k++)
        move(h, at(src, h->pool, disp[k], block), data + k * block, (size_t)block);
    if (lock)
        armcii_spin_unlock(lock);
}

static void walk(int src, const armcii_ghost_am_t *h, char *data, size_t payload)
{
    int lv = h->levels;
    int64_t block = h->count[0], nblk = 1, lo = 0, hi = block;
    if (lv < 0 || lv > ARMCII_AM_MAX_LEVELS || block <= 0)
        armcii_error("ARMCI ghost", "malformed message from process %d", src);
    for (int k = 1; k <= lv; k++) {
        if (h->count[k] <= 0)
            armcii_error("ARMCI ghost", "malformed message from process %d", src);
        int64_t span = (int64_t)(h->count[k] - 1) * h->stride[k - 1];
        nblk *= h->count[k];
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    if ((uint64_t)nblk * (uint64_t)block != payload)
        armcii_error("ARMCI ghost", "a message from process %d carries %zu bytes for %lld "
                     "blocks of %lld", src, payload, (long long)nblk, (long long)block);
    char *base = at(src, h->pool, h->disp + lo, hi - lo) - lo;
    int *lock = h->kind == ARMCII_AM_ACC ? partition_lock(h->pool, h->disp) : NULL;
    int idx[ARMCII_AM_MAX_LEVELS + 1] = {0};
    int64_t off = 0;
    if (lock)
        armcii_spin_lock(lock);
    for (int64_t b = 0; b < nblk; b++) {
        move(h, base + off, data + b * block, (size_t)block);
        for (int k = 1; k <= lv; k++) { /* odometer: the next block's offset */
            off += h->stride[k - 1];
            if (++idx[k] < h->count[k])
                break;
            off -= (int64_t)h->count[k] * h->stride[k - 1];
            idx[k] = 0;
        }
    }
    if (lock)
        armcii_spin_unlock(lock);
}

/* The bytes a get asks for: the product of its counts. */
static size_t get_bytes(int src, const armcii_ghost_am_t *h)
{
    uint64_t n = h->count[0] > 0 ? (uint64_t)h->count[0] : 0;
    if (h->levels < 0)
        n *= h->count[1] > 0 ? (uint64_t)h->count[1] : 0;
    for (int k = 1; k <= h->levels && k <= ARMCII_AM_MAX_LEVELS; k++)
        n *= h->count[k] > 0 ? (uint64_t)h->count[k] : 0;
    if (n == 0 || n > (uint64_t)0x7fffffff)
        armcii_error("ARMCI ghost", "malformed get from process %d", src);
    return (size_t)n;
}

/* A request's transfer: strided (levels >= 0; data follows the header) or
 * vector (levels -1; the displacements follow the header, then the data).
 * out: a get's reply buffer (the data part of the request is empty). */
static void apply(int src, const armcii_ghost_am_t *h, char *rest, size_t rest_len, char *out)
{
    if (h->levels >= 0) {
        walk(src, h, out ? out : rest, out ? get_bytes(src, h) : rest_len);
        return;
    }
    size_t nd = h->count[1] > 0 ? (size_t)h->count[1] * sizeof(int64_t) : 0;
    if (nd > rest_len)
        armcii_error("ARMCI ghost", "malformed vector message from process %d", src);
    walk_indexed(src, h, (const int64_t *)rest, out ? out : rest + nd,
                 out ? get_bytes(src, h) : rest_len - nd);
}

/* A reply buffer of at least n bytes (the ghost serves one request at a time). */
static char *reply_buf(size_t n)
{
    if (n > GH.am_rcap) {
        free(GH.am_rbuf);
        GH.am_rcap = n > 2 * GH.am_rcap ? n : 2 * GH.am_rcap;
        GH.am_rbuf = malloc(GH.am_rcap);
        if (!GH.am_rbuf)
            armcii_error("ARMCI ghost", "out of memory for a %zu-byte reply", n);
    }
    return GH.am_rbuf;
}

static long apply_rmw(int src, const armcii_ghost_am_t *h)
{
    int op = h->datatype;
    if (op != ARMCI_FETCH_AND_ADD && op != ARMCI_FETCH_AND_ADD_LONG && op != ARMCI_SWAP &&
        op != ARMCI_SWAP_LONG && op != ARMCII_CPU_CAS_INT)
        armcii_error("ARMCI ghost", "unknown read-modify-write %d from process %d", op, src);
    char *p = at(src, h->pool, h->disp, (int64_t)armcii_rmw_word(op));
    return armcii_cpu_rmw(op, p, h->operand[0], h->operand[1]);
}

int armcii_ghost_am_poll(void)
{
    int served = 0;
    for (;;) {
        int flag, len;
        MPI_Message msg;
        MPI_Status st;
        ARMCII_MPI(PMPI_Improbe(MPI_ANY_SOURCE, ARMCII_AM_TAG, GH.am_comm, &flag, &msg, &st));
        if (!flag)
            return served;
        ARMCII_MPI(PMPI_Get_count(&st, MPI_BYTE, &len));
        if ((size_t)len > GH.am_cap) {
            free(GH.am_buf);
            GH.am_cap = (size_t)len > 2 * GH.am_cap ? (size_t)len : 2 * GH.am_cap;
            GH.am_buf = malloc(GH.am_cap);
            if (!GH.am_buf)
                armcii_error("ARMCI ghost", "out of memory for a %d-byte message", len);
        }
        ARMCII_MPI(PMPI_Mrecv(GH.am_buf, len, MPI_BYTE, &msg, &st));
        const armcii_ghost_am_t *h = GH.am_buf;
        int src = st.MPI_SOURCE;
        if ((size_t)len < sizeof *h)
            armcii_error("ARMCI ghost", "short message (%d bytes) from process %d", len, src);
        long reply = 0;
        switch (h->kind) {
        case ARMCII_AM_ACC:
        case ARMCII_AM_PUT:
            apply(src, h, (char *)(h + 1), (size_t)len - sizeof *h, 0);
            break;
        case ARMCII_AM_GET: {
            /* the user posted its receive before asking: a large reply's
             * rendezvous completes at once */
            size_t n = get_bytes(src, h);
            char *out = reply_buf(n);
            apply(src, h, (char *)(h + 1), (size_t)len - sizeof *h, out);
            ARMCII_MPI(PMPI_Send(out, (int)n, MPI_BYTE, src, h->tag, GH.am_comm));
            break;
        }
        case ARMCII_AM_RMW:
        case ARMCII_AM_FENCE: /* a small reply, which MPI buffers */
            if (h->kind == ARMCII_AM_RMW)
                reply = apply_rmw(src, h);
            ARMCII_MPI(PMPI_Send(&reply, 1, MPI_LONG, src, h->tag, GH.am_comm));
            break;
        default:
            armcii_error("ARMCI ghost", "unknown message kind %d from process %d", h->kind, src);
        }
        served++;
    }
}

/* ------------------------------------------------------------ both sides */

void armcii_ghost_am_setup(void)
{
    ARMCII_MPI(PMPI_Comm_dup(GH.pworld, &GH.am_comm));
    ARMCII_MPI(PMPI_Comm_size(GH.pworld, &GH.am_nranks));
    GH.am_posted = calloc((size_t)GH.am_nranks, sizeof *GH.am_posted);
    GH.am_applied = calloc((size_t)GH.am_nranks, sizeof *GH.am_applied);
    GH.am_local = calloc((size_t)GH.am_nranks, 1); /* filled by place(), ghost_init.c */
    if (!GH.am_posted || !GH.am_applied || !GH.am_local)
        armcii_error("MPI_Init (ghost layout)", "out of memory");
}

void armcii_ghost_am_free(void)
{
    drain();
    ARMCII_MPI(PMPI_Comm_free(&GH.am_comm));
    free(GH.am_posted);
    free(GH.am_applied);
    free(GH.am_local);
    GH.am_local = NULL;
    free(GH.am_buf);
    free(GH.am_rbuf);
    GH.am_posted = GH.am_applied = NULL;
    GH.am_buf = GH.am_rbuf = NULL;
    GH.am_cap = GH.am_rcap = 0;
}
