/*
 * libarmci demonstration: a dynamic task pool over a distributed matrix.
 * Every process owns a block of rows of A; workers take tasks (row blocks)
 * from a shared counter with ARMCI_Rmw, fetch the rows with ARMCI_GetS from
 * whichever process owns them, compute row sums, and accumulate them into
 * a result vector on process 0 with ARMCI_AccS.  The result is verified.
 */
#include <stdio.h>
#include <stdlib.h>
#include <armci.h>

#define ROWS_PER_PROC 64
#define COLS 48
#define TASK_ROWS 8

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int rows = ROWS_PER_PROC * np, ntasks = rows / TASK_ROWS;

    void **a = malloc(np * sizeof(void *)), **res = malloc(np * sizeof(void *));
    void **cnt = malloc(np * sizeof(void *));
    ARMCI_Malloc(a, ROWS_PER_PROC * COLS * sizeof(double));
    ARMCI_Malloc(res, me == 0 ? rows * sizeof(double) : 0);
    ARMCI_Malloc(cnt, me == 0 ? sizeof(long) : 0);
    double *mine = a[me];
    for (int i = 0; i < ROWS_PER_PROC; i++)
        for (int j = 0; j < COLS; j++)
            mine[i * COLS + j] = (me * ROWS_PER_PROC + i) * 0.5 + j;
    if (me == 0) {
        for (int i = 0; i < rows; i++)
            ((double *)res[0])[i] = 0;
        *(long *)cnt[0] = 0;
    }
    ARMCI_Barrier();

    double t0 = MPI_Wtime(), buf[TASK_ROWS * COLS], sums[TASK_ROWS], one = 1.0;
    int done = 0;
    for (;;) {
        long task;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &task, cnt[0], 1, 0);
        if (task >= ntasks)
            break;
        int row = (int)task * TASK_ROWS, owner = row / ROWS_PER_PROC;
        int lrow = row % ROWS_PER_PROC;
        /* a strided get: TASK_ROWS rows of COLS doubles */
        int stride = COLS * sizeof(double), count[2] = {COLS * sizeof(double), TASK_ROWS};
        ARMCI_GetS((double *)a[owner] + lrow * COLS, &stride, buf, &stride, count, 1, owner);
        for (int i = 0; i < TASK_ROWS; i++) {
            sums[i] = 0;
            for (int j = 0; j < COLS; j++)
                sums[i] += buf[i * COLS + j];
        }
        ARMCI_Acc(ARMCI_ACC_DBL, &one, sums, (double *)res[0] + row, sizeof sums, 0);
        done++;
    }
    ARMCI_Barrier();
    double t = MPI_Wtime() - t0;

    int errors = 0;
    if (me == 0) {
        for (int r = 0; r < rows; r++) {
            double expect = COLS * (r * 0.5) + COLS * (COLS - 1) / 2.0;
            if (((double *)res[0])[r] != expect) {
                if (errors++ < 5)
                    printf("row %d: %g expected %g\n", r, ((double *)res[0])[r], expect);
            }
        }
    }
    int tasks_total = done;
    MPI_Allreduce(MPI_IN_PLACE, &tasks_total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(&errors, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("libarmci demo: %d processes, %d tasks (%d done here), %.3f ms, %s\n", np,
               tasks_total, done, t * 1e3, errors || tasks_total != ntasks ? "WRONG RESULT" : "result verified");
    ARMCI_Free(a[me]);
    ARMCI_Free(res[me]);
    ARMCI_Free(cnt[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return errors || tasks_total != ntasks;
}
