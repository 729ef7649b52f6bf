/*
 * Can the one-sided component this launch selects (for example
 * `--mca osc ucx`) create windows here?  Pure MPI, used by the test
 * harness (tests/ompi_only.sh, ompi_osc_usable) to tell a component that
 * exists (ompi_info lists it) from one that works on this host: Open MPI
 * 5.0's osc/ucx over a UCX with no RMA-capable transport lists itself but
 * refuses every window ("MPI_ERR_WIN: invalid window").
 * Exit 0 and "YES" when MPI_Win_allocate and MPI_Win_create both work;
 * exit 3 and "NO: <call>: <MPI's reason>" when one is refused.
 */
#include <mpi.h>
#include <stdio.h>

static int refused(int rc, const char *call)
{
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc == MPI_SUCCESS)
        return 0;
    MPI_Error_string(rc, s, &len);
    printf("NO: %s: %s\n", call, s);
    return 1;
}

int main(int argc, char **argv)
{
    static char buf[64];
    void *base = NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    /* window creation reports its errors on the communicator */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (refused(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
                "MPI_Win_allocate")) {
        MPI_Finalize();
        return 3;
    }
    MPI_Win_free(&win);
    if (refused(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win),
                "MPI_Win_create")) {
        MPI_Finalize();
        return 3;
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    printf("YES\n");
    return 0;
}
