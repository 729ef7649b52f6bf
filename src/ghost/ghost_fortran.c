/*
 * Ghost backend, Fortran side: the mpif.h / `use mpi` entry points of Open
 * MPI and MPICH with gfortran's name mangling (mpi_<name>_, all arguments
 * by reference, CHARACTER lengths appended by value).  Their own bindings
 * call the C PMPI_* layer directly, so without these a Fortran program's
 * MPI_Init never created ghosts and its MPI_COMM_WORLD was the whole job.
 * Each wrapper is generated from one line of ghost_fortran.def: it swaps a
 * Fortran MPI_COMM_WORLD handle for the user world's and calls
 * pmpi_<name>_, which both MPIs export.  Init, init_thread and finalize
 * run the ghost setup and teardown as the C wrappers (ghost_pmpi.c) do.
 */
#include <stddef.h>
#include <stdio.h>
#include "ghost.h"

#pragma GCC visibility push(default)

#define PS armcii_ghost_state
typedef MPI_Fint F;

/* Argument lists of n pointer arguments, declared (A) and passed (V). */
#define A1 void *a1
#define A2 A1, void *a2
#define A3 A2, void *a3
#define A4 A3, void *a4
#define A5 A4, void *a5
#define A6 A5, void *a6
#define A7 A6, void *a7
#define A8 A7, void *a8
#define A9 A8, void *a9
#define A10 A9, void *a10
#define A11 A10, void *a11
#define A12 A11, void *a12
#define A13 A12, void *a13
#define V1 a1
#define V2 V1, a2
#define V3 V2, a3
#define V4 V3, a4
#define V5 V4, a5
#define V6 V5, a6
#define V7 V6, a7
#define V8 V7, a8
#define V9 V8, a9
#define V10 V9, a10
#define V11 V10, a11
#define V12 V11, a12
#define V13 V12, a13
/* gfortran's hidden CHARACTER lengths */
#define H0
#define H1 , size_t l1
#define HV0
#define HV1 , l1

/* The MPI's Fortran library (libmpi_mpifh, libmpichfort) defines the
 * pmpi_<name>_ entry points; libarmci does not link it (C programs never
 * call these wrappers), so the references are weak: a Fortran program has
 * that library loaded and they resolve to it. */
static void no_fortran_mpi(const char *name)
{
    fprintf(stderr, "ARMCI Error in mpi_%s_ (ghost layer): the MPI's Fortran library "
            "(pmpi_%s_) is not loaded\n", name, name);
    PMPI_Abort(MPI_COMM_WORLD, 1);
}

/* *arg points at a communicator handle: the world's becomes the user
 * world's (kept in *user for the call). */
static void swap_world(void **arg, F *user)
{
    if (PS.ghosts_on && *(const F *)*arg == PS.fworld) {
        *user = PS.fuser;
        *arg = user;
    }
}

#define FW(name, n, k, h)                                                     \
    void pmpi_##name##_(A##n H##h) __attribute__((weak));                     \
    void mpi_##name##_(A##n H##h);                                            \
    void mpi_##name##_(A##n H##h)                                             \
    {                                                                         \
        F user;                                                               \
        if (!pmpi_##name##_)                                                  \
            no_fortran_mpi(#name);                                            \
        swap_world(&a##k, &user);                                             \
        pmpi_##name##_(V##n HV##h);                                           \
    }
#include "ghost_fortran.def"
#undef FW

void pmpi_init_(F *ierr) __attribute__((weak));
void pmpi_init_thread_(F *required, F *provided, F *ierr) __attribute__((weak));
void pmpi_finalize_(F *ierr) __attribute__((weak));
void pmpi_comm_compare_(F *a, F *b, F *result, F *ierr) __attribute__((weak));
void mpi_init_(F *ierr);
void mpi_init_thread_(F *required, F *provided, F *ierr);
void mpi_finalize_(F *ierr);
void mpi_comm_compare_(F *a, F *b, F *result, F *ierr);

void mpi_init_(F *ierr)
{
    if (!pmpi_init_)
        no_fortran_mpi("init");
    pmpi_init_(ierr);
    if (*ierr == MPI_SUCCESS)
        armcii_ghost_setup();
}

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
    if (!pmpi_init_thread_)
        no_fortran_mpi("init_thread");
    pmpi_init_thread_(required, provided, ierr);
    if (*ierr == MPI_SUCCESS)
        armcii_ghost_setup();
}

void mpi_finalize_(F *ierr)
{
    if (!pmpi_finalize_)
        no_fortran_mpi("finalize");
    armcii_ghost_teardown();
    pmpi_finalize_(ierr);
}

/* Two communicators: both may be the world. */
void mpi_comm_compare_(F *a, F *b, F *result, F *ierr)
{
    F ua, ub;
    void *pa = a, *pb = b;
    if (!pmpi_comm_compare_)
        no_fortran_mpi("comm_compare");
    swap_world(&pa, &ua);
    swap_world(&pb, &ub);
    pmpi_comm_compare_(pa, pb, result, ierr);
}

#pragma GCC visibility pop
