/* The application's MPI_COMM_WORLD hides ghost processes, data-movement
 * half (the other half: test_ghost_world.c): every point-to-point family
 * (blocking, nonblocking, persistent, probe/mprobe, Sendrecv_replace),
 * Pack/Unpack, and every blocking and nonblocking collective of the PMPI
 * layer's list (src/ghost/ghost_pmpi.def, version 2) is called on
 * MPI_COMM_WORLD; sources, values and sizes must be those of the user
 * processes only.  In a build without ghosts it checks plain MPI. */
#include <string.h>
#include <message.h>
#include "../testutil.h"
#include "ghost_world.h"

static int me, U, left, right;

typedef int send_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
static char bsend_buf[4096];

static void check_blocking_p2p(void)
{
    int v = -1, flag = 0, cnt;
    MPI_Request q;
    MPI_Status st;
    MPI_Irecv(&v, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &q);
    MPI_Send(&me, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left, "Send/Irecv got %d", v);
    MPI_Isend(&me, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &q);
    MPI_Probe(left, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == left && cnt == 1, "Probe source %d", st.MPI_SOURCE);
    MPI_Recv(&v, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left, "Isend/Recv got %d", v);
    MPI_Issend(&me, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &q);
    while (!flag)
        MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &st);
    CHECK(st.MPI_SOURCE == left, "Iprobe source %d", st.MPI_SOURCE);
    MPI_Recv(&v, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Irecv(&v, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &q);
    MPI_Ssend(&me, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left, "Ssend got %d", v);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 5, &v, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
    CHECK(v == left && st.MPI_SOURCE == left, "Sendrecv got %d", v);
    v = me;
    MPI_Sendrecv_replace(&v, 1, MPI_INT, right, 6, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &st);
    CHECK(v == left && st.MPI_SOURCE == left, "Sendrecv_replace got %d from %d", v,
          st.MPI_SOURCE);
    MPI_Irecv(&v, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &q);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before Rsend */
    MPI_Rsend(&me, 1, MPI_INT, right, 7, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left, "Rsend got %d", v);
    MPI_Bsend(&me, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == left, "Bsend got %d", v);
}

/* The nonblocking sends not covered above (Irsend, Ibsend) and persistent
 * pairs (each *_init against Recv_init), each started twice with new data.
 * Every receive is posted before the barrier, so ready sends are legal. */
static void check_nonblocking_p2p(void)
{
    send_fn *isend[] = {MPI_Irsend, MPI_Ibsend};
    send_fn *init[] = {MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init};
    const char *iname[] = {"Irsend", "Ibsend"};
    const char *pname[] = {"Send_init", "Ssend_init", "Rsend_init", "Bsend_init"};
    int out, in = -1;
    MPI_Request q[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc flags MPICH's (MPI_Status *)1 */
    for (int k = 0; k < 2; k++) {
        MPI_Irecv(&in, 1, MPI_INT, left, 20 + k, MPI_COMM_WORLD, &q[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        out = me * 10 + k;
        isend[k](&out, 1, MPI_INT, right, 20 + k, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, st);
        CHECK(in == left * 10 + k, "%s got %d", iname[k], in);
    }
    for (int k = 0; k < 4; k++) {
        MPI_Recv_init(&in, 1, MPI_INT, left, 30 + k, MPI_COMM_WORLD, &q[0]);
        init[k](&out, 1, MPI_INT, right, 30 + k, MPI_COMM_WORLD, &q[1]);
        for (int it = 0; it < 2; it++) {
            MPI_Start(&q[0]);
            MPI_Barrier(MPI_COMM_WORLD);
            out = me * 100 + k * 10 + it;
            MPI_Start(&q[1]);
            MPI_Waitall(2, q, st);
            CHECK(in == left * 100 + k * 10 + it, "%s/Recv_init round %d got %d", pname[k], it,
                  in);
        }
        MPI_Request_free(&q[0]);
        MPI_Request_free(&q[1]);
    }
}

/* Matched probes: the message's source is a user rank, and the message
 * handle receives exactly that message. */
static void check_mprobe(void)
{
    int v = -1, flag = 0;
    MPI_Request q, rq;
    MPI_Message msg;
    MPI_Status st;
    MPI_Isend(&me, 1, MPI_INT, right, 40, MPI_COMM_WORLD, &q);
    MPI_Mprobe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &msg, &st);
    CHECK(st.MPI_SOURCE == left, "Mprobe source %d", st.MPI_SOURCE);
    MPI_Mrecv(&v, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left, "Mrecv got %d", v);
    int w = me + 1000;
    MPI_Isend(&w, 1, MPI_INT, right, 41, MPI_COMM_WORLD, &q);
    while (!flag)
        MPI_Improbe(MPI_ANY_SOURCE, 41, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(st.MPI_SOURCE == left, "Improbe source %d", st.MPI_SOURCE);
    MPI_Imrecv(&v, 1, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == left + 1000, "Imrecv got %d", v);
}

static void check_pack(void)
{
    int in[2] = {me, me + 1000}, out[2] = {-1, -1}, size, pos = 0;
    char buf[256], rbuf[256];
    MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &size);
    CHECK(size >= (int)sizeof in && size <= (int)sizeof buf, "Pack_size %d", size);
    MPI_Pack(in, 2, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
    MPI_Sendrecv(buf, pos, MPI_PACKED, right, 50, rbuf, sizeof rbuf, MPI_PACKED, left, 50,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pos = 0;
    MPI_Unpack(rbuf, sizeof rbuf, &pos, out, 2, MPI_INT, MPI_COMM_WORLD);
    CHECK(out[0] == left && out[1] == left + 1000, "Unpack got %d %d", out[0], out[1]);
}

/* Receive buffers of the collectives, U ints each. */
enum { R_GATHER, R_GATHERV, R_ALLGATHER, R_ALLGATHERV, R_ALLTOALL, R_ALLTOALLV, R_ALLTOALLW,
       R_NUM };

/* Every rank sends a[i] = me * 100 + i (block i to rank i); each result is
 * checked against what the user ranks alone give. */
static void check_results(int *r, const int *one, const char *how)
{
    int sum = U * (U - 1) / 2;
    for (int i = 0; i < U; i++) {
        CHECK(me || r[R_GATHER * U + i] == i, "%sgather [%d]=%d", how, i, r[R_GATHER * U + i]);
        CHECK(me || r[R_GATHERV * U + i] == i, "%sgatherv [%d]", how, i);
        CHECK(r[R_ALLGATHER * U + i] == i, "%sallgather [%d]", how, i);
        CHECK(r[R_ALLGATHERV * U + i] == i, "%sallgatherv [%d]", how, i);
        CHECK(r[R_ALLTOALL * U + i] == i * 100 + me, "%salltoall [%d]", how, i);
        CHECK(r[R_ALLTOALLV * U + i] == i * 100 + me, "%salltoallv [%d]", how, i);
        CHECK(r[R_ALLTOALLW * U + i] == i * 100 + me, "%salltoallw [%d]", how, i);
    }
    /* one[]: scatter, scatterv, reduce, allreduce, reduce_scatter,
     * reduce_scatter_block, scan, exscan, bcast */
    CHECK(one[0] == me && one[1] == me, "%sscatter(v) %d %d", how, one[0], one[1]);
    CHECK(me || one[2] == sum, "%sreduce %d", how, one[2]);
    CHECK(one[3] == sum, "%sallreduce %d", how, one[3]);
    CHECK(one[4] == me * U && one[5] == me * U, "%sreduce_scatter(_block) %d %d", how, one[4],
          one[5]);
    CHECK(one[6] == me * (me + 1) / 2, "%sscan %d", how, one[6]);
    CHECK(me == 0 || one[7] == me * (me - 1) / 2, "%sexscan %d", how, one[7]);
    CHECK(one[8] == U - 1, "%sbcast %d", how, one[8]);
}

typedef struct {
    int *a, *idx, *cnt, *disp, *bdisp;
    MPI_Datatype *types;
} coll_args_t;

static void blocking_colls(const coll_args_t *x, int *r, int *one)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Barrier(w);
    MPI_Gather(&me, 1, MPI_INT, r + R_GATHER * U, 1, MPI_INT, 0, w);
    MPI_Gatherv(&me, 1, MPI_INT, r + R_GATHERV * U, x->cnt, x->disp, MPI_INT, 0, w);
    MPI_Allgather(&me, 1, MPI_INT, r + R_ALLGATHER * U, 1, MPI_INT, w);
    MPI_Allgatherv(&me, 1, MPI_INT, r + R_ALLGATHERV * U, x->cnt, x->disp, MPI_INT, w);
    MPI_Alltoall(x->a, 1, MPI_INT, r + R_ALLTOALL * U, 1, MPI_INT, w);
    MPI_Alltoallv(x->a, x->cnt, x->disp, MPI_INT, r + R_ALLTOALLV * U, x->cnt, x->disp, MPI_INT,
                  w);
    MPI_Alltoallw(x->a, x->cnt, x->bdisp, x->types, r + R_ALLTOALLW * U, x->cnt, x->bdisp,
                  x->types, w);
    MPI_Scatter(x->idx, 1, MPI_INT, &one[0], 1, MPI_INT, 0, w);
    MPI_Scatterv(x->idx, x->cnt, x->disp, MPI_INT, &one[1], 1, MPI_INT, 0, w);
    MPI_Reduce(&me, &one[2], 1, MPI_INT, MPI_SUM, 0, w);
    MPI_Allreduce(&me, &one[3], 1, MPI_INT, MPI_SUM, w);
    MPI_Reduce_scatter(x->idx, &one[4], x->cnt, MPI_INT, MPI_SUM, w);
    MPI_Reduce_scatter_block(x->idx, &one[5], 1, MPI_INT, MPI_SUM, w);
    MPI_Scan(&me, &one[6], 1, MPI_INT, MPI_SUM, w);
    MPI_Exscan(&me, &one[7], 1, MPI_INT, MPI_SUM, w);
    one[8] = me;
    MPI_Bcast(&one[8], 1, MPI_INT, U - 1, w);
}

/* All nonblocking collectives in flight together, then one Waitall. */
static void nonblocking_colls(const coll_args_t *x, int *r, int *one)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request q[17];
    MPI_Status st[17];
    int n = 0;
    MPI_Ibarrier(w, &q[n++]);
    MPI_Igather(&me, 1, MPI_INT, r + R_GATHER * U, 1, MPI_INT, 0, w, &q[n++]);
    MPI_Igatherv(&me, 1, MPI_INT, r + R_GATHERV * U, x->cnt, x->disp, MPI_INT, 0, w, &q[n++]);
    MPI_Iallgather(&me, 1, MPI_INT, r + R_ALLGATHER * U, 1, MPI_INT, w, &q[n++]);
    MPI_Iallgatherv(&me, 1, MPI_INT, r + R_ALLGATHERV * U, x->cnt, x->disp, MPI_INT, w,
                    &q[n++]);
    MPI_Ialltoall(x->a, 1, MPI_INT, r + R_ALLTOALL * U, 1, MPI_INT, w, &q[n++]);
    MPI_Ialltoallv(x->a, x->cnt, x->disp, MPI_INT, r + R_ALLTOALLV * U, x->cnt, x->disp,
                   MPI_INT, w, &q[n++]);
    MPI_Ialltoallw(x->a, x->cnt, x->bdisp, x->types, r + R_ALLTOALLW * U, x->cnt, x->bdisp,
                   x->types, w, &q[n++]);
    MPI_Iscatter(x->idx, 1, MPI_INT, &one[0], 1, MPI_INT, 0, w, &q[n++]);
    MPI_Iscatterv(x->idx, x->cnt, x->disp, MPI_INT, &one[1], 1, MPI_INT, 0, w, &q[n++]);
    MPI_Ireduce(&me, &one[2], 1, MPI_INT, MPI_SUM, 0, w, &q[n++]);
    MPI_Iallreduce(&me, &one[3], 1, MPI_INT, MPI_SUM, w, &q[n++]);
    MPI_Ireduce_scatter(x->idx, &one[4], x->cnt, MPI_INT, MPI_SUM, w, &q[n++]);
    MPI_Ireduce_scatter_block(x->idx, &one[5], 1, MPI_INT, MPI_SUM, w, &q[n++]);
    MPI_Iscan(&me, &one[6], 1, MPI_INT, MPI_SUM, w, &q[n++]);
    MPI_Iexscan(&me, &one[7], 1, MPI_INT, MPI_SUM, w, &q[n++]);
    one[8] = me;
    MPI_Ibcast(&one[8], 1, MPI_INT, U - 1, w, &q[n++]);
    MPI_Waitall(n, q, st);
}

static void check_colls(void)
{
    int *buf = malloc((size_t)(5 + R_NUM) * (size_t)U * sizeof(int)), one[9];
    MPI_Datatype *types = malloc((size_t)U * sizeof(MPI_Datatype));
    coll_args_t x = {buf, buf + U, buf + 2 * U, buf + 3 * U, buf + 4 * U, types};
    int *r = buf + 5 * U;
    for (int i = 0; i < U; i++) {
        x.a[i] = me * 100 + i;
        x.idx[i] = i;
        x.cnt[i] = 1;
        x.disp[i] = i;
        x.bdisp[i] = i * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    for (int pass = 0; pass < 2; pass++) {
        memset(r, 0xff, (size_t)R_NUM * (size_t)U * sizeof(int));
        memset(one, 0xff, sizeof one);
        if (pass == 0)
            blocking_colls(&x, r, one);
        else
            nonblocking_colls(&x, r, one);
        check_results(r, one, pass ? "I" : "");
    }
    free(types);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_world_xfer";
    U = expected_users();
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    CHECK(n == U, "MPI_Comm_size(MPI_COMM_WORLD) = %d, expected %d users", n, U);
    if (n == U) {
        void *old;
        int osz;
        left = (me + U - 1) % U;
        right = (me + 1) % U;
        MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
        check_blocking_p2p();
        check_nonblocking_p2p();
        MPI_Buffer_detach(&old, &osz);
        check_mprobe();
        check_pack();
        check_colls();
    }
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
