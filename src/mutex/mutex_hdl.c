/*
 * Mutex sets (ARMCIX handles; the world set of ARMCI_Create_mutexes is one
 * of them): the MCS-style queue lock described in mutex.h.
 *
 * Why MCS over the classic waiter byte vector: the vector needs an atomic
 * "set my byte and read all bytes", i.e. an exclusive MPI_Win_lock on the
 * host, which Open MPI's osc/rdma acquires by retrying remote atomics (network
 * spinning) and osc/pt2pt by queueing at the target (needs its progress), and
 * it cannot share a window with the lock_all epoch every region keeps.  The
 * queue needs one MPI_Fetch_and_op (lock) and one MPI_Compare_and_swap
 * (unlock) on the tail word, which lives in an ordinary GMR region: the
 * node-local CPU-atomic path, the window choice per transport and the
 * ghost-progress redirection all come for free.
 *
 * Messages on the set's private communicator (a dup of the group's), each
 * tagged with the mutex (tag_notify, tag_handoff): NOTIFY (0 bytes), successor ->
 * predecessor, sent right after the swap; HANDOFF (0 bytes), holder ->
 * successor.  Per-mutex tags make both unambiguous without a stash even when
 * one process waits in, or releases, several queues at once (threads).
 *
 * Threads (ARMCI_Init_thread(MPI_THREAD_MULTIPLE)): the queue has one entry
 * per process, so threads of one process first take a process-local lock of
 * the mutex (local[]), and held[] names the owning thread (a token), which
 * keeps "mutexes are not reentrant" and "unlock by the holder" per thread.
 * Ownership: count/first/abs_to_grp/tail are written at create only;
 * held[]/nheld are written by the owning thread under local[]; the handle
 * list (armcii_mutex_state.handles) changes only in collective calls.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "mutex.h"
#include "../common/common_wait.h"

struct armcix_mutex_hdl_s {
    MPI_Comm comm;          /* private: NOTIFY and HANDOFF messages */
    int rank, size;         /* in comm */
    int *count;             /* mutexes hosted per group rank */
    int *first;             /* per group rank: index of its mutex 0 in held */
    int *held;              /* per mutex: token of the holding thread, 0: free */
    int nheld;
    pthread_mutex_t *local; /* per mutex, threaded runs only */
    int *abs_to_grp;        /* absolute -> group rank (-1), NULL: identity */
    armcii_gmr_t *gmr;      /* tail words: count[r] ints on each r */
    void **tail;            /* per group rank: its tail array */
    struct armcix_mutex_hdl_s *prev, *next; /* armcii_mutex_state.handles */
};

/* The calling thread's token (1, 2, ...): identifies holders in held[]. */
static int my_token(void)
{
    static int next_token;
    static __thread int token;
    if (ARMCII_UNLIKELY(!token))
        token = __atomic_add_fetch(&next_token, 1, __ATOMIC_RELAXED);
    return token;
}

static int tag_notify(int idx) { return 2 * idx + 1; }
static int tag_handoff(int idx) { return 2 * idx + 2; }

static void set_link(struct armcix_mutex_hdl_s *h)
{
    h->prev = NULL;
    h->next = armcii_mutex_state.handles;
    if (h->next)
        h->next->prev = h;
    armcii_mutex_state.handles = h;
}

static void set_unlink(struct armcix_mutex_hdl_s *h)
{
    if (h->prev) h->prev->next = h->next;
    else armcii_mutex_state.handles = h->next;
    if (h->next) h->next->prev = h->prev;
}

/* Gather the per-process counts and build the absolute -> group map. */
static void setup_maps(const char *call, struct armcix_mutex_hdl_s *h, int count,
                       int identity)
{
    int n = armcii_state.nproc;
    h->count = malloc((size_t)h->size * sizeof(int));
    h->first = malloc(((size_t)h->size + 1) * sizeof(int));
    h->tail = malloc((size_t)h->size * sizeof(void *));
    if (!h->count || !h->first || !h->tail)
        armcii_error(call, "out of memory");
    armcii_allgather(&count, 1, MPI_INT, h->count, h->comm);
    long total = 0;
    for (int r = 0; r < h->size; r++) {
        h->first[r] = (int)total;
        total += h->count[r];
    }
    if (total == 0)
        armcii_error(call, "no process of the group asked for a mutex (every count is 0)");
    if (total > 0x7fffffffL)
        armcii_error(call, "%ld mutexes in one set are too many", total);
    h->first[h->size] = (int)total;
    int *ub, flag;
    /* predefined attribute: guaranteed on MPI_COMM_WORLD, not on dups */
    ARMCII_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    if (flag && total > (*ub - 2) / 2)
        armcii_error(call, "%ld mutexes in one set exceed this MPI's tag range (MPI_TAG_UB "
                     "%d allows %d: two tags per mutex)", total, *ub, (*ub - 2) / 2);
    h->held = calloc((size_t)total, sizeof(int));
    if (!h->held)
        armcii_error(call, "out of memory");
    if (armcii_state.threaded) {
        h->local = malloc((size_t)total * sizeof(pthread_mutex_t));
        if (!h->local)
            armcii_error(call, "out of memory");
        for (long i = 0; i < total; i++)
            pthread_mutex_init(&h->local[i], NULL);
    }
    if (identity)
        return;
    int *g2a = malloc((size_t)h->size * sizeof(int));
    h->abs_to_grp = malloc((size_t)n * sizeof(int));
    if (!g2a || !h->abs_to_grp)
        armcii_error(call, "out of memory");
    armcii_allgather(&armcii_state.rank, 1, MPI_INT, g2a, h->comm);
    for (int p = 0; p < n; p++)
        h->abs_to_grp[p] = -1;
    for (int r = 0; r < h->size; r++)
        h->abs_to_grp[g2a[r]] = r;
    free(g2a);
}

struct armcix_mutex_hdl_s *armcii_mutex_create(const char *call, int count, MPI_Comm comm,
                                               int identity)
{
    if (count < 0)
        armcii_error(call, "negative mutex count %d", count);
    struct armcix_mutex_hdl_s *h = calloc(1, sizeof *h);
    if (!h)
        armcii_error(call, "out of memory");
    armcii_comm_dup(comm, &h->comm);
    ARMCII_MPI(MPI_Comm_rank(h->comm, &h->rank));
    ARMCII_MPI(MPI_Comm_size(h->comm, &h->size));
    setup_maps(call, h, count, identity);
    h->gmr = armcii_gmr_create(call, h->comm, (size_t)count * sizeof(int), h->tail);
    if (count) {
        /* All free; published by the sync + barrier before anyone locks. */
        memset(h->tail[h->rank], 0, (size_t)count * sizeof(int));
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    ARMCII_MPI(MPI_Win_sync(armcii_gmr_window(h->gmr)));
    armcii_barrier(h->comm);
    set_link(h);
    return h;
}

void armcii_mutex_destroy(const char *call, struct armcix_mutex_hdl_s *h, int force)
{
    if (!force && h->nheld) {
        for (int r = 0; r < h->size; r++)
            for (int m = 0; m < h->count[r]; m++)
                if (h->held[h->first[r] + m])
                    armcii_error(call, "mutex %d of process %d is still locked by the "
                                 "caller", m, armcii_gmr_abs(h->gmr, r));
    }
    set_unlink(h);
    int mine = h->count[h->rank] > 0;
    armcii_gmr_destroy(call, h->comm, mine ? h->tail[h->rank] : NULL);
    ARMCII_MPI(MPI_Comm_free(&h->comm));
    free(h->count);
    free(h->held);
    free(h->abs_to_grp);
    free(h->tail);
    if (h->local)
        for (int i = 0; i < h->first[h->size]; i++)
            pthread_mutex_destroy(&h->local[i]);
    free(h->local);
    free(h->first);
    free(h);
}

/* Validate (m, abs), translate the tail word; returns the held[] index. */
static int locate(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs,
                  armcii_target_t *t, int *host)
{
    if (ARMCII_UNLIKELY(!h))
        armcii_error(call, "mutex set is NULL (no mutexes created)");
    armcii_check_proc(call, abs);
    int r = h->abs_to_grp ? h->abs_to_grp[abs] : abs;
    if (ARMCII_UNLIKELY(r < 0))
        armcii_error(call, "process %d is not a member of the mutex set's group", abs);
    if (ARMCII_UNLIKELY(m < 0 || m >= h->count[r]))
        armcii_error(call, "mutex %d out of range: process %d hosts %d mutex(es)", m, abs,
                     h->count[r]);
    armcii_gmr_xlate(call, (int *)h->tail[r] + m, sizeof(int), abs, ARMCII_OP_RMW, t);
    *host = r;
    return h->first[r] + m;
}

static void check_not_held(const char *call, struct armcix_mutex_hdl_s *h, int idx, int m,
                           int abs)
{
    if (ARMCII_UNLIKELY(__atomic_load_n(&h->held[idx], __ATOMIC_RELAXED) == my_token()))
        armcii_error(call, "mutex %d of process %d is already held by the caller "
                     "(mutexes are not reentrant)", m, abs);
}

static void set_held(struct armcix_mutex_hdl_s *h, int idx, int token)
{
    __atomic_store_n(&h->held[idx], token, __ATOMIC_RELAXED);
    __atomic_add_fetch(&h->nheld, token ? 1 : -1, __ATOMIC_RELAXED);
}

void armcii_mutex_lock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs)
{
    armcii_target_t t;
    int host, idx = locate(call, h, m, abs, &t, &host);
    check_not_held(call, h, idx, m, abs);
    if (h->local)
        pthread_mutex_lock(&h->local[idx]);
    int prev = armcii_mutex_swap_int(&t, h->rank + 1);
    if (prev) {
        MPI_Request rq;
        ARMCII_MPI(MPI_Isend(NULL, 0, MPI_BYTE, prev - 1, tag_notify(idx), h->comm, &rq));
        /* The holder may be computing on the core this waiter would spin on. */
        armcii_recv(NULL, 0, MPI_BYTE, prev - 1, tag_handoff(idx), h->comm, MPI_STATUS_IGNORE);
        /* prev received the NOTIFY before it handed off: completes at once. */
        ARMCII_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    set_held(h, idx, my_token());
}

int armcii_mutex_trylock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs)
{
    armcii_target_t t;
    int host, idx = locate(call, h, m, abs, &t, &host);
    check_not_held(call, h, idx, m, abs);
    if (h->local && pthread_mutex_trylock(&h->local[idx]))
        return 1; /* another thread of this process holds or awaits it */
    if (armcii_mutex_cas_int(&t, 0, h->rank + 1) != 0) {
        if (h->local)
            pthread_mutex_unlock(&h->local[idx]);
        return 1;
    }
    set_held(h, idx, my_token());
    return 0;
}

void armcii_mutex_unlock(const char *call, struct armcix_mutex_hdl_s *h, int m, int abs)
{
    armcii_target_t t;
    int host, idx = locate(call, h, m, abs, &t, &host);
    if (ARMCII_UNLIKELY(__atomic_load_n(&h->held[idx], __ATOMIC_RELAXED) != my_token()))
        armcii_error(call, "mutex %d of process %d is not held by the caller", m, abs);
    set_held(h, idx, 0);
    if (armcii_mutex_cas_int(&t, h->rank + 1, 0) != h->rank + 1) {
        /* The process that swapped in after me sent (or is about to send)
         * its NOTIFY right after its swap. */
        MPI_Status st;
        armcii_recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, tag_notify(idx), h->comm, &st);
        ARMCII_MPI(MPI_Send(NULL, 0, MPI_BYTE, st.MPI_SOURCE, tag_handoff(idx), h->comm));
    }
    if (h->local)
        pthread_mutex_unlock(&h->local[idx]);
}

struct armcix_mutex_hdl_s *armcii_mutex_check_hdl(const char *call, struct armcix_mutex_hdl_s *hdl)
{
    for (struct armcix_mutex_hdl_s *h = armcii_mutex_state.handles; h; h = h->next)
        if (h == hdl && h != armcii_mutex_state.world)
            return h;
    armcii_error(call, "%p is not a live mutex handle", (void *)hdl);
}

int armcii_mutex_destroy_all(const char *call)
{
    int n = 0;
    while (armcii_mutex_state.handles) {
        struct armcix_mutex_hdl_s *oldest = armcii_mutex_state.handles;
        while (oldest->next)
            oldest = oldest->next;
        armcii_mutex_destroy(call, oldest, 1);
        n++;
    }
    return n;
}
