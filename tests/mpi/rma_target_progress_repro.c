/*
 * Minimal pure-MPI probe (no ARMCI): does an MPI_Put + MPI_Win_flush to a
 * target that makes no MPI calls complete?  MPI allows either answer.
 * Measured: Open MPI 4.1 (osc rdma/sm) completes at once; osc pt2pt and
 * Debian's MPICH 4.0 (ch4:ucx), even on MPI_Win_allocate_shared windows,
 * wait until the target calls MPI.  This is why a target that polls an
 * ARMCI_Put_flag flag must call ARMCIX_Progress there (docs/mpi-notes.md, Known
 * limitations), and what ghost processes are for.
 *
 * usage: rma_target_progress_repro [shared|allocate]; rank 1 spins on
 * memory for SPIN seconds without MPI calls.  Prints whether the put
 * arrived while it spun; exits 1 only if the put never arrives at all.
 *
 * usage: rma_target_progress_repro shared|allocate|create|memfd CLASS...
 * (CLASS: put get acc fop strided; create = MPI_Win_create over memory of
 * MPI_Win_allocate_shared on MPI_COMM_SELF, armci-info --probe's window
 * when every process is a node; memfd = MPI_Win_create over a memfd
 * mapping, the memory of the ghost build's pools): per class, rank 1
 * computes CSPIN seconds outside MPI and records on CLOCK_MONOTONIC (one
 * clock for the processes of a host) when it started and stopped; rank 0
 * issues one operation of the class + MPI_Win_flush once rank 1 computes.  A completion before
 * rank 1 stopped proves the class needs no target progress ("no"); one
 * after it is "yes" only if the class never completed earlier in CTRIES
 * tries (a descheduled origin is late too).  A try whose operation was
 * issued before rank 1 began computing does not count.  Prints
 * "verdict CLASS yes|no" per class on rank 0 (tests/mpi/test_info_probe.sh
 * compares them with armci-info --probe); exit 4 when a class got no valid
 * try.
 * Measured with memfd, Debian Open MPI 4.1.4 + UCX 1.13.1, osc ucx, one
 * host: put, get and strided put wait for the target too, where they do
 * not on MPI_Win_allocate windows.  UCX's shared-memory transports reach
 * only memory UCX allocated itself (ucx's rma lanes: sysv, posix; no cma),
 * so every operation on other memory is emulated by the target.  That is
 * what the ghost build's direct path pays under osc ucx between virtual
 * nodes (docs/benchmarks.md, "Ghosts with nothing to do").
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#include <mpi.h>

#define SPIN 2.0
/* 64 bytes: MPICH 4.0.2 loses puts into smaller MPI_Win_allocate windows
 * (tests/mpi/mpich_small_win_repro.c), a different matter. */
#define WINBYTES 64
#define CSPIN 0.25
#define CTRIES 2
#define CBYTES 512
#define CFOP_DISP 256

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void issue(const char *cls, MPI_Win win, MPI_Datatype vec)
{
    double buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    long one = 1, old = 0;
    if (!strcmp(cls, "put"))
        MPI_Put(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, win);
    else if (!strcmp(cls, "get"))
        MPI_Get(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, win);
    else if (!strcmp(cls, "acc"))
        MPI_Accumulate(buf, 8, MPI_DOUBLE, 1, 0, 8, MPI_DOUBLE, MPI_SUM, win);
    else if (!strcmp(cls, "fop"))
        MPI_Fetch_and_op(&one, &old, MPI_LONG, 1, CFOP_DISP, MPI_SUM, win);
    else
        MPI_Put(buf, 8, MPI_DOUBLE, 1, 0, 1, vec, win);
    MPI_Win_flush(1, win);
}

/* The per-class verdicts (second usage). */
static int classes(const char *kind, int ncls, char **cls)
{
    int me, bad = 0;
    void *base = NULL; /* clang does not know MPI_Abort ends the memfd branch */
    MPI_Win win, shm = MPI_WIN_NULL;
    MPI_Datatype vec;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (!strcmp(kind, "shared")) {
        MPI_Win_allocate_shared(CBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else if (!strcmp(kind, "create")) {
        MPI_Win_allocate_shared(CBYTES, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &shm);
        MPI_Win_create(base, CBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else if (!strcmp(kind, "memfd")) {
        int fd = memfd_create("rma-probe", 0);
        if (fd < 0 || ftruncate(fd, CBYTES) != 0 ||
            (base = mmap(NULL, CBYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
            printf("memfd: no memory file here\n");
            MPI_Abort(MPI_COMM_WORLD, 4);
        }
        close(fd);
        MPI_Win_create(base, CBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(CBYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    }
    memset(base, 0, CBYTES);
    MPI_Type_vector(8, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Win_lock_all(0, win);
    if (me == 0) /* untimed: connections and lazy locks while rank 1 is in MPI */
        for (int c = 0; c < ncls; c++)
            issue(cls[c], win, vec);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int c = 0; c < ncls; c++) {
        int no = 0, yes = 0;
        for (int t = 0; t < CTRIES && !no; t++) {
            double v[2];
            MPI_Barrier(MPI_COMM_WORLD);
            if (me == 1) {
                volatile double x = 0;
                v[0] = mono();
                while (mono() - v[0] < CSPIN)
                    x += 1;
                (void)x;
                v[1] = mono();
                MPI_Send(v, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            } else if (me == 0) {
                struct timespec nap = {0, (long)(CSPIN * 2e8)}; /* a fifth of the spin */
                nanosleep(&nap, NULL);
                double ti = mono();
                issue(cls[c], win, vec);
                double td = mono();
                MPI_Recv(v, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (ti >= v[0]) { /* rank 1 was computing when it was issued */
                    no += td < v[1];
                    yes += td >= v[1];
                }
            }
            MPI_Bcast(&no, 1, MPI_INT, 0, MPI_COMM_WORLD); /* one answer ends the tries */
        }
        if (me == 0) {
            if (no || yes)
                printf("verdict %s %s\n", cls[c], no ? "no" : "yes");
            else {
                printf("verdict %s unknown (no try was issued while the target computed)\n",
                       cls[c]);
                bad = 4;
            }
        }
    }
    MPI_Win_unlock_all(win);
    MPI_Type_free(&vec);
    MPI_Win_free(&win);
    if (shm != MPI_WIN_NULL)
        MPI_Win_free(&shm);
    if (!strcmp(kind, "memfd"))
        munmap(base, CBYTES);
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}

int main(int argc, char **argv)
{
    int me, np, *base, bad = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc > 2) {
        bad = np >= 2 ? classes(argv[1], argc - 2, argv + 2) : 4;
        MPI_Finalize();
        return bad;
    }
    int shared = argc > 1 && !strcmp(argv[1], "shared");
    if (shared)
        MPI_Win_allocate_shared(WINBYTES, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                &win);
    else
        MPI_Win_allocate(WINBYTES, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock_all(0, win);
    *base = 0;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0 && np > 1) {
        int x = 42;
        double t0 = MPI_Wtime();
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
        printf("%s window: put+flush to a busy target took %.3f s\n",
               shared ? "shared" : "allocate", MPI_Wtime() - t0);
    } else if (me == 1) {
        volatile int *f = base;
        double t0 = MPI_Wtime();
        while (*f != 42 && MPI_Wtime() - t0 < SPIN)
            ;
        printf("target: the put %s while it made no MPI calls\n",
               *f == 42 ? "ARRIVED" : "did NOT arrive (needs target progress)");
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Win_sync(win);
    if (me == 1 && *base != 42) {
        printf("target: the put never arrived (value %d)\n", *base);
        bad = 1;
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return bad;
}
