/* Bad strided/vector input must end in ARMCI_Error naming the call and the
 * reason.  argv[1] names the case (tests/mpi/badinput_iov.cases, run by
 * test_badinput.sh); rank 0 makes the bad call, the others wait. */
#include <stdio.h>
#include <string.h>
#include <armci.h>

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    void *ptr[64];
    ARMCI_Malloc(ptr, 256);
    ARMCI_Barrier();
    if (me == 0 && argc > 1) {
        const char *c = argv[1];
        double loc[64];
        int s[2] = {16, 64}, cnt[3] = {8, 2, 2}, cneg[3] = {8, -1, 2}, codd[2] = {12, 2};
        double one = 1.0;
        void *sp[2] = {loc, loc + 4}, *dp[2] = {ptr[0], (char *)ptr[0] + 10000};
        armci_giov_t v = {sp, dp, 8, 2}, vneg = {sp, dp, -8, 2}, vnull = {NULL, dp, 8, 2};
        if (!strcmp(c, "puts_levels"))
            ARMCI_PutS(loc, s, ptr[0], s, cnt, -1, 0);
        else if (!strcmp(c, "gets_negative_count"))
            ARMCI_GetS(ptr[0], s, loc, s, cneg, 2, 0);
        else if (!strcmp(c, "puts_null_stride"))
            ARMCI_PutS(loc, NULL, ptr[0], s, cnt, 2, 0);
        else if (!strcmp(c, "accs_bad_bytes"))
            ARMCI_AccS(ARMCI_ACC_DBL, &one, loc, s, ptr[0], s, codd, 1, 0);
        else if (!strcmp(c, "puts_past_end"))
            ARMCI_PutS(loc, s, (char *)ptr[0] + 250, s, cnt, 2, 0);
        else if (!strcmp(c, "putv_unknown_addr"))
            ARMCI_PutV(&v, 1, 0);
        else if (!strcmp(c, "getv_negative"))
            ARMCI_GetV(&vneg, 1, 0);
        else if (!strcmp(c, "accv_null_array"))
            ARMCI_AccV(ARMCI_ACC_DBL, &one, &vnull, 1, 0);
        else if (!strcmp(c, "nbputs_proc"))
            ARMCI_NbPutS(loc, s, ptr[0], s, cnt, 2, np, NULL);
        else
            printf("unknown case %s\n", c);
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
