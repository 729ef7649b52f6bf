/* The optional functions Global Arrays' configure probes for, checked as a
 * classic ARMCI program uses them: armci_msg_init starts MPI (the program
 * never calls MPI_Init) and armci_msg_finalize ends ARMCI and MPI;
 * armci_notify/armci_notify_wait pass strided data around a ring in
 * order (the data a notification follows must be there when it arrives);
 * armci_group_comm gives each group's communicator (MPI_COMM_NULL outside). */
#include <string.h>
#include <armci.h>
#include <message.h>
#include "../testutil.h"

#define ROWS 6
#define COLS 5
#define ROUNDS 20

static int me, np;

/* Ring: rank 0 puts a strided block to its left neighbour and notifies it;
 * every other rank waits for its right neighbour's notification, checks
 * the block that came with it, forwards it left and notifies. */
static void ring(void)
{
    void **buf = malloc(np * sizeof(void *));
    ARMCI_Malloc(buf, ROUNDS * ROWS * COLS * sizeof(double));
    memset(buf[me], 0, ROUNDS * ROWS * COLS * sizeof(double));
    double src[ROWS * COLS];
    int left = (me + np - 1) % np, right = (me + 1) % np;
    int stride[1] = {COLS * sizeof(double)}, count[2] = {3 * sizeof(double), ROWS};
    ARMCI_Barrier();
    for (int r = 0; r < ROUNDS; r++) {
        double *slab = (double *)buf[me] + r * ROWS * COLS;
        void *from = src;
        if (me == 0) {
            for (int i = 0; i < ROWS * COLS; i++)
                src[i] = r * 1000 + i;
        } else {
            int v = -1, n = armci_notify_wait(right, &v);
            CHECK(n == r + 1 && v == r + 1, "round %d: notify_wait from %d returned %d/%d",
                  r, right, n, v);
            for (int i = 0; i < ROWS; i++)
                for (int j = 0; j < 3; j++)
                    CHECK(slab[i * COLS + j] == r * 1000 + i * COLS + j,
                          "round %d: [%d][%d] = %g before forwarding", r, i, j,
                          slab[i * COLS + j]);
            from = slab;
        }
        ARMCI_PutS(from, stride, (double *)buf[left] + r * ROWS * COLS, stride, count, 1,
                   left);
        int sent = armci_notify(left);
        CHECK(sent == r + 1, "round %d: armci_notify returned %d", r, sent);
        if (me == 0) {
            int v = -1;
            armci_notify_wait(right, &v);
            CHECK(v == r + 1, "round %d: rank 0 got count %d back", r, v);
            for (int i = 0; i < ROWS; i++)
                for (int j = 0; j < 3; j++)
                    CHECK(slab[i * COLS + j] == src[i * COLS + j],
                          "round %d: the ring returned [%d][%d] = %g", r, i, j,
                          slab[i * COLS + j]);
        }
    }
    ARMCI_Barrier();
    ARMCI_Free(buf[me]);
    free(buf);
}

static void group_comms(void)
{
    ARMCI_Group world, evens;
    ARMCI_Group_get_world(&world);
    MPI_Comm wc = armci_group_comm(&world);
    int n = -1, r = -1;
    CHECK(wc != MPI_COMM_NULL, "world group has no communicator");
    if (wc != MPI_COMM_NULL) {
        MPI_Comm_size(wc, &n);
        MPI_Comm_rank(wc, &r);
        CHECK(n == np && r == me, "world communicator: rank %d of %d, expected %d of %d", r,
              n, me, np);
    }
    int ne = (np + 1) / 2, *list = malloc(ne * sizeof(int));
    for (int i = 0; i < ne; i++)
        list[i] = 2 * i;
    ARMCI_Group_create(ne, list, &evens);
    MPI_Comm ec = armci_group_comm(&evens);
    if (me % 2) {
        CHECK(ec == MPI_COMM_NULL, "odd rank got a communicator for the even group");
    } else {
        CHECK(ec != MPI_COMM_NULL, "even rank has no communicator for its group");
        if (ec != MPI_COMM_NULL) {
            int sum = 0, one = 1;
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ec);
            CHECK(sum == ne, "allreduce over the even group gave %d, expected %d", sum, ne);
        }
    }
    ARMCI_Group_free(&evens);
    free(list);
}

int main(int argc, char **argv)
{
    int inited = 0;
    armci_msg_init(&argc, &argv);
    MPI_Initialized(&inited);
    ARMCI_Init_args(&argc, &argv);
    tu_name = "test_optional";
    me = armci_msg_me();
    np = armci_msg_nproc();
    CHECK(inited, "armci_msg_init did not initialize MPI");
    ring();
    group_comms();
    int rc = tu_finish();
    /* no ARMCI_Finalize: armci_msg_finalize must end ARMCI, then MPI */
    armci_msg_finalize();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
        fprintf(stderr, "[%d] test_optional: MPI is not finalized after armci_msg_finalize\n",
                me);
        rc = 1;
    }
    return rc;
}
