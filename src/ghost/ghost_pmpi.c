/*
 * Ghost backend: the PMPI layer that hides ghosts from the application.
 *
 * Wrapped-function list, version 1.  Every function below that takes a
 * communicator replaces MPI_COMM_WORLD by the user world at call time
 * (other communicators pass through untouched):
 *   init/finalize: MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort
 *   communicators: MPI_Comm_rank, MPI_Comm_size, MPI_Comm_group,
 *     MPI_Comm_compare, MPI_Comm_get_attr, MPI_Comm_dup, MPI_Comm_split,
 *     MPI_Comm_split_type, MPI_Comm_create, MPI_Comm_create_group,
 *     MPI_Comm_set_errhandler, MPI_Cart_create, MPI_Intercomm_create
 *   point-to-point: MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Bsend, MPI_Isend,
 *     MPI_Issend, MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Probe, MPI_Iprobe
 *   collectives: MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 *     MPI_Gather, MPI_Gatherv, MPI_Allgather, MPI_Allgatherv, MPI_Scatter,
 *     MPI_Scatterv, MPI_Alltoall, MPI_Alltoallv, MPI_Scan, MPI_Exscan,
 *     MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Ibarrier, MPI_Ibcast,
 *     MPI_Iallreduce
 *   windows: MPI_Win_create, MPI_Win_allocate, MPI_Win_allocate_shared,
 *     MPI_Win_create_dynamic
 *   I/O: MPI_File_open
 * Not covered: any other C function called with MPI_COMM_WORLD (it sees
 * ghosts).  Fortran callers (mpif.h, `use mpi`) go through
 * ghost_fortran.c, generated from the list in ghost_fortran.def.
 * tests/mpi/test_ghost_world.c calls each wrapped function on
 * MPI_COMM_WORLD.  MPI_Abort on any communicator aborts the whole job
 * (ghosts included), so an error never leaves a ghost waiting.
 */
#include <stdlib.h>
#include "ghost.h"

/* The wrappers must be exported although the library is compiled with
 * -fvisibility=hidden: Open MPI's mpi.h declares MPI_* with default
 * visibility, MPICH's does not, so say it here for both. */
#pragma GCC visibility push(default)

#define PS armcii_ghost_state
#define W(c) (PS.ghosts_on && (c) == MPI_COMM_WORLD ? PS.user_world : (c))

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        armcii_ghost_setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        armcii_ghost_setup();
    return rc;
}

int MPI_Finalize(void)
{
    armcii_ghost_teardown();
    return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int code)
{
    (void)comm;
    return PMPI_Abort(MPI_COMM_WORLD, code);
}

int MPI_Comm_rank(MPI_Comm c, int *r) { return PMPI_Comm_rank(W(c), r); }
int MPI_Comm_size(MPI_Comm c, int *s) { return PMPI_Comm_size(W(c), s); }
int MPI_Comm_group(MPI_Comm c, MPI_Group *g) { return PMPI_Comm_group(W(c), g); }
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *res)
{
    return PMPI_Comm_compare(W(a), W(b), res);
}
/* Predefined attributes (MPI_TAG_UB, MPI_UNIVERSE_SIZE, ...) live on the
 * real world only: fall back to it when the user world has no value. */
int MPI_Comm_get_attr(MPI_Comm c, int key, void *val, int *flag)
{
    int rc = PMPI_Comm_get_attr(W(c), key, val, flag);
    if (rc == MPI_SUCCESS && !*flag && c == MPI_COMM_WORLD && PS.ghosts_on)
        rc = PMPI_Comm_get_attr(c, key, val, flag);
    return rc;
}
int MPI_Comm_dup(MPI_Comm c, MPI_Comm *n) { return PMPI_Comm_dup(W(c), n); }
int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *n)
{
    return PMPI_Comm_split(W(c), color, key, n);
}
int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *n)
{
    return PMPI_Comm_split_type(W(c), type, key, info, n);
}
int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *n) { return PMPI_Comm_create(W(c), g, n); }
int MPI_Comm_create_group(MPI_Comm c, MPI_Group g, int tag, MPI_Comm *n)
{
    return PMPI_Comm_create_group(W(c), g, tag, n);
}
int MPI_Comm_set_errhandler(MPI_Comm c, MPI_Errhandler e)
{
    return PMPI_Comm_set_errhandler(W(c), e);
}
int MPI_Cart_create(MPI_Comm c, int nd, const int dims[], const int periods[], int reorder,
                    MPI_Comm *n)
{
    return PMPI_Cart_create(W(c), nd, dims, periods, reorder, n);
}
int MPI_Intercomm_create(MPI_Comm local, int lleader, MPI_Comm peer, int rleader, int tag,
                         MPI_Comm *n)
{
    return PMPI_Intercomm_create(W(local), lleader, W(peer), rleader, tag, n);
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c)
{
    return PMPI_Send(b, n, t, d, tag, W(c));
}
int MPI_Ssend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c)
{
    return PMPI_Ssend(b, n, t, d, tag, W(c));
}
int MPI_Rsend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c)
{
    return PMPI_Rsend(b, n, t, d, tag, W(c));
}
int MPI_Bsend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c)
{
    return PMPI_Bsend(b, n, t, d, tag, W(c));
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request *r)
{
    return PMPI_Isend(b, n, t, d, tag, W(c), r);
}
int MPI_Issend(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request *r)
{
    return PMPI_Issend(b, n, t, d, tag, W(c), r);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status *st)
{
    return PMPI_Recv(b, n, t, s, tag, W(c), st);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Request *r)
{
    return PMPI_Irecv(b, n, t, s, tag, W(c), r);
}
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int d, int stag, void *rb, int rn,
                 MPI_Datatype rt, int s, int rtag, MPI_Comm c, MPI_Status *status)
{
    return PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, W(c), status);
}
int MPI_Probe(int s, int tag, MPI_Comm c, MPI_Status *st) { return PMPI_Probe(s, tag, W(c), st); }
int MPI_Iprobe(int s, int tag, MPI_Comm c, int *f, MPI_Status *st)
{
    return PMPI_Iprobe(s, tag, W(c), f, st);
}

int MPI_Barrier(MPI_Comm c) { return PMPI_Barrier(W(c)); }
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    return PMPI_Bcast(b, n, t, root, W(c));
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    return PMPI_Reduce(s, r, n, t, op, root, W(c));
}
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return PMPI_Allreduce(s, r, n, t, op, W(c));
}
int MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
               int root, MPI_Comm c)
{
    return PMPI_Gather(sb, sn, st, rb, rn, rt, root, W(c));
}
int MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int rn[],
                const int displs[], MPI_Datatype rt, int root, MPI_Comm c)
{
    return PMPI_Gatherv(sb, sn, st, rb, rn, displs, rt, root, W(c));
}
int MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                  MPI_Comm c)
{
    return PMPI_Allgather(sb, sn, st, rb, rn, rt, W(c));
}
int MPI_Allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int rn[],
                   const int displs[], MPI_Datatype rt, MPI_Comm c)
{
    return PMPI_Allgatherv(sb, sn, st, rb, rn, displs, rt, W(c));
}
int MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                int root, MPI_Comm c)
{
    return PMPI_Scatter(sb, sn, st, rb, rn, rt, root, W(c));
}
int MPI_Scatterv(const void *sb, const int sn[], const int displs[], MPI_Datatype st, void *rb,
                 int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    return PMPI_Scatterv(sb, sn, displs, st, rb, rn, rt, root, W(c));
}
int MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                 MPI_Comm c)
{
    return PMPI_Alltoall(sb, sn, st, rb, rn, rt, W(c));
}
int MPI_Alltoallv(const void *sb, const int sn[], const int sd[], MPI_Datatype st, void *rb,
                  const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    return PMPI_Alltoallv(sb, sn, sd, st, rb, rn, rd, rt, W(c));
}
int MPI_Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return PMPI_Scan(s, r, n, t, op, W(c));
}
int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    return PMPI_Exscan(s, r, n, t, op, W(c));
}
int MPI_Reduce_scatter(const void *s, void *r, const int rn[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    return PMPI_Reduce_scatter(s, r, rn, t, op, W(c));
}
int MPI_Reduce_scatter_block(const void *s, void *r, int rn, MPI_Datatype t, MPI_Op op,
                             MPI_Comm c)
{
    return PMPI_Reduce_scatter_block(s, r, rn, t, op, W(c));
}
int MPI_Ibarrier(MPI_Comm c, MPI_Request *r) { return PMPI_Ibarrier(W(c), r); }
int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r)
{
    return PMPI_Ibcast(b, n, t, root, W(c), r);
}
int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request *req)
{
    return PMPI_Iallreduce(s, r, n, t, op, W(c), req);
}

int MPI_Win_create(void *b, MPI_Aint size, int du, MPI_Info info, MPI_Comm c, MPI_Win *w)
{
    return PMPI_Win_create(b, size, du, info, W(c), w);
}
int MPI_Win_allocate(MPI_Aint size, int du, MPI_Info info, MPI_Comm c, void *b, MPI_Win *w)
{
    return PMPI_Win_allocate(size, du, info, W(c), b, w);
}
int MPI_Win_allocate_shared(MPI_Aint size, int du, MPI_Info info, MPI_Comm c, void *b,
                            MPI_Win *w)
{
    return PMPI_Win_allocate_shared(size, du, info, W(c), b, w);
}
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm c, MPI_Win *w)
{
    return PMPI_Win_create_dynamic(info, W(c), w);
}

int MPI_File_open(MPI_Comm c, const char *name, int amode, MPI_Info info, MPI_File *fh)
{
    return PMPI_File_open(W(c), name, amode, info, fh);
}

#pragma GCC visibility pop
