/* The application's MPI_COMM_WORLD hides ghost processes: every function of
 * the PMPI layer's wrapped list (src/ghost/ghost_pmpi.c, version 1) is
 * called on MPI_COMM_WORLD and must see exactly the user processes.  The
 * expected user count comes from the real job size (PMPI_Comm_size) and the
 * documented layout: per chunk ARMCI_VIRTUAL_NODE_SIZE users + g ghosts, or
 * per (single) node all but g.  In a build without ghosts users == job. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <armci.h>
#include <armcix.h>
#include <message.h>
#include "../testutil.h"

static int me, U;

static int expected_users(void)
{
    int P;
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *gs = getenv("ARMCI_GHOSTS_PER_NODE"), *vs = getenv("ARMCI_VIRTUAL_NODE_SIZE");
    int g = gs ? atoi(gs) : 1, vn = vs ? atoi(vs) : 0;
    if (!ARMCI_GHOST_PROGRESS || g <= 0)
        return P;
    return vn > 0 ? P / (vn + g) * vn : P - g; /* tests run on one real node */
}

static void check_comms(void)
{
    int n, res, flag, *ub;
    MPI_Comm c;
    MPI_Group grp;
    MPI_Comm_group(MPI_COMM_WORLD, &grp);
    MPI_Group_size(grp, &n);
    CHECK(n == U, "Comm_group size %d != %d", n, U);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_IDENT, "Comm_compare(world, world) = %d", res);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    CHECK(flag && *ub > 0, "Comm_get_attr(TAG_UB)");
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_compare(MPI_COMM_WORLD, c, &res);
    CHECK(res == MPI_CONGRUENT, "Comm_compare(world, dup) = %d", res);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_dup size %d", n);
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -me, &c);
    MPI_Comm_rank(c, &n);
    CHECK(n == U - 1 - me, "Comm_split rank %d", n);
    MPI_Comm_free(&c);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_split_type size %d (one machine)", n);
    MPI_Comm_free(&c);
    MPI_Comm_create(MPI_COMM_WORLD, grp, &c);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_create size %d", n);
    MPI_Comm_free(&c);
    MPI_Comm_create_group(MPI_COMM_WORLD, grp, 5, &c);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_create_group size %d", n);
    MPI_Comm_free(&c);
    MPI_Group_free(&grp);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int dims[1] = {U}, per[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Cart_create size %d", n);
    MPI_Comm_free(&c);
    if (U >= 2) {
        MPI_Comm half, inter;
        int lo = me < U / 2;
        MPI_Comm_split(MPI_COMM_WORLD, lo, me, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lo ? U / 2 : 0, 9, &inter);
        MPI_Comm_remote_size(inter, &n);
        CHECK(n == (lo ? U - U / 2 : U / 2), "Intercomm_create remote size %d", n);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
}

static void check_p2p(void)
{
    int r = (me + 1) % U, l = (me + U - 1) % U, v = -1, flag = 0, cnt;
    MPI_Request q;
    MPI_Status st;
    MPI_Irecv(&v, 1, MPI_INT, l, 1, MPI_COMM_WORLD, &q);
    MPI_Send(&me, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == l, "Send/Irecv got %d", v);
    MPI_Isend(&me, 1, MPI_INT, r, 2, MPI_COMM_WORLD, &q);
    MPI_Probe(l, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == l && cnt == 1, "Probe source %d", st.MPI_SOURCE);
    MPI_Recv(&v, 1, MPI_INT, l, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == l, "Isend/Recv got %d", v);
    MPI_Issend(&me, 1, MPI_INT, r, 3, MPI_COMM_WORLD, &q);
    while (!flag)
        MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &st);
    CHECK(st.MPI_SOURCE == l, "Iprobe source %d", st.MPI_SOURCE);
    MPI_Recv(&v, 1, MPI_INT, l, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Irecv(&v, 1, MPI_INT, l, 4, MPI_COMM_WORLD, &q);
    MPI_Ssend(&me, 1, MPI_INT, r, 4, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == l, "Ssend got %d", v);
    MPI_Sendrecv(&me, 1, MPI_INT, r, 5, &v, 1, MPI_INT, l, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == l, "Sendrecv got %d", v);
    MPI_Irecv(&v, 1, MPI_INT, l, 6, MPI_COMM_WORLD, &q);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before Rsend */
    MPI_Rsend(&me, 1, MPI_INT, r, 6, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == l, "Rsend got %d", v);
    static char bbuf[1024];
    void *old;
    int osz;
    MPI_Buffer_attach(bbuf, sizeof bbuf);
    MPI_Bsend(&me, 1, MPI_INT, r, 7, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, l, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Buffer_detach(&old, &osz);
    CHECK(v == l, "Bsend got %d", v);
}

static void check_colls(void)
{
    int sum = U * (U - 1) / 2, v, *a = malloc(2 * U * sizeof(int)), *b = a + U;
    int *cnts = malloc(2 * U * sizeof(int)), *disp = cnts + U;
    for (int i = 0; i < U; i++)
        cnts[i] = 1, disp[i] = i, a[i] = me * 100 + i;
    MPI_Request q;
    MPI_Barrier(MPI_COMM_WORLD);
    v = me;
    MPI_Bcast(&v, 1, MPI_INT, U - 1, MPI_COMM_WORLD);
    CHECK(v == U - 1, "Bcast %d", v);
    v = -1;
    MPI_Reduce(&me, &v, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    CHECK(me || v == sum, "Reduce %d", v);
    MPI_Allreduce(&me, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(v == sum, "Allreduce %d", v);
    MPI_Gather(&me, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; me == 0 && i < U; i++)
        CHECK(b[i] == i, "Gather b[%d]=%d", i, b[i]);
    MPI_Gatherv(&me, 1, MPI_INT, b, cnts, disp, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; me == 0 && i < U; i++)
        CHECK(b[i] == i, "Gatherv b[%d]=%d", i, b[i]);
    MPI_Allgather(&me, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < U; i++)
        CHECK(b[i] == i, "Allgather b[%d]=%d", i, b[i]);
    MPI_Allgatherv(&me, 1, MPI_INT, b, cnts, disp, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < U; i++)
        CHECK(b[i] == i, "Allgatherv b[%d]=%d", i, b[i]);
    MPI_Scatter(a, 1, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(v == me, "Scatter %d", v);
    MPI_Scatterv(a, cnts, disp, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(v == me, "Scatterv %d", v);
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < U; i++)
        CHECK(b[i] == i * 100 + me, "Alltoall b[%d]=%d", i, b[i]);
    MPI_Alltoallv(a, cnts, disp, MPI_INT, b, cnts, disp, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < U; i++)
        CHECK(b[i] == i * 100 + me, "Alltoallv b[%d]=%d", i, b[i]);
    MPI_Scan(&me, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(v == me * (me + 1) / 2, "Scan %d", v);
    MPI_Exscan(&me, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(me == 0 || v == me * (me - 1) / 2, "Exscan %d", v);
    for (int i = 0; i < U; i++)
        a[i] = i;
    MPI_Reduce_scatter(a, &v, cnts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(v == me * U, "Reduce_scatter %d", v);
    MPI_Reduce_scatter_block(a, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(v == me * U, "Reduce_scatter_block %d", v);
    MPI_Ibarrier(MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    v = me;
    MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == 0, "Ibcast %d", v);
    MPI_Iallreduce(&me, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v == sum, "Iallreduce %d", v);
    free(a);
    free(cnts);
}

static void check_win_group(MPI_Win w, const char *what)
{
    MPI_Group g;
    int n;
    MPI_Win_get_group(w, &g);
    MPI_Group_size(g, &n);
    CHECK(n == U, "%s group size %d", what, n);
    MPI_Group_free(&g);
    MPI_Win_free(&w);
}

static void check_windows(void)
{
    MPI_Win w;
    static int buf[4];
    void *p;
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    check_win_group(w, "Win_create");
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
    check_win_group(w, "Win_allocate");
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    check_win_group(w, "Win_create_dynamic");
    /* refused by some osc components (pt2pt, ucx): then only the error code */
    if (MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w) == MPI_SUCCESS)
        check_win_group(w, "Win_allocate_shared");
}

/* MPI-IO on the world: collective over the users only (a hang otherwise,
 * bounded by the harness's time limit). */
static void check_io(void)
{
    char name[64];
    int tag = 0;
    if (me == 0)
        tag = (int)getpid();
    MPI_Bcast(&tag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "/tmp/armci_ghost_io.%d", tag);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh);
    CHECK(rc == MPI_SUCCESS, "File_open on the world failed (%d)", rc);
    if (rc != MPI_SUCCESS)
        return;
    int v = me + 100, got = -1;
    MPI_File_write_at_all(fh, (MPI_Offset)me * (MPI_Offset)sizeof v, &v, 1, MPI_INT,
                          MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_read_at_all(fh, (MPI_Offset)((me + 1) % U) * (MPI_Offset)sizeof v, &got, 1,
                         MPI_INT, MPI_STATUS_IGNORE);
    CHECK(got == (me + 1) % U + 100, "File read %d, expected %d", got, (me + 1) % U + 100);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        unlink(name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    tu_name = "test_ghost_world";
    U = expected_users();
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    CHECK(n == U, "MPI_Comm_size(MPI_COMM_WORLD) = %d, expected %d users", n, U);
    CHECK(me >= 0 && me < U, "rank %d out of [0, %d)", me, U);
    CHECK(armci_msg_nproc() == U && armci_msg_me() == me, "ARMCI sees %d/%d",
          armci_msg_me(), armci_msg_nproc());
    if (n == U) {
        check_comms();
        check_p2p();
        check_colls();
        check_windows();
        check_io();
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
