/*
 * Ghost backend, Fortran side: the mpif.h / `use mpi` entry points of Open
 * MPI and MPICH with gfortran's name mangling (mpi_<name>_, all arguments
 * by reference, CHARACTER lengths appended by value).  Their own bindings
 * call the C PMPI_* layer directly, so without these a Fortran program's
 * MPI_Init never created ghosts and its MPI_COMM_WORLD was the whole job.
 * Each wrapper is generated from one line of ghost_fortran.def (list
 * version 2: the Fortran bindings of ghost_pmpi.def's functions): it swaps
 * a Fortran MPI_COMM_WORLD handle for the user world's and calls
 * pmpi_<name>_, which both MPIs export.  Hand-written here, as in C:
 * init, init_thread and finalize (ghost setup and teardown), abort (the
 * whole job), comm_free (the world is never freed) and comm_get_attr /
 * attr_get (predefined attributes describe the user world).  Not covered:
 * the mpi_f08 module (its symbols are mpi_<name>_f08), other compilers'
 * manglings, and what ghost_pmpi.c leaves out in C.
 */
#include <stddef.h>
#include <stdio.h>
#include "ghost_impl.h"

#pragma GCC visibility push(default)

#define GH armcii_ghost_state
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
 * pmpi_<name>_ entry points.  Where configure found it, libarmci links it
 * and the references are strong (a weak one would not keep it loaded under
 * --as-needed); otherwise they are weak, so C programs link without it. */
#ifdef ARMCII_FORTRAN_LINKED
#define FWEAK
#define FMISSING(f) 0
#else
#define FWEAK __attribute__((weak))
#define FMISSING(f) (!(f))
#endif
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
    if (GH.ghosts_on && *(const F *)*arg == GH.fworld) {
        *user = GH.fuser;
        *arg = user;
    }
}

#define FW(name, n, k, h)                                                     \
    void pmpi_##name##_(A##n H##h) FWEAK;                                     \
    void mpi_##name##_(A##n H##h);                                            \
    void mpi_##name##_(A##n H##h)                                             \
    {                                                                         \
        F user;                                                               \
        if (FMISSING(pmpi_##name##_))                                                  \
            no_fortran_mpi(#name);                                            \
        swap_world(&a##k, &user);                                             \
        pmpi_##name##_(V##n HV##h);                                           \
    }
#define FW2(name, n, k1, k2, h)                                               \
    void pmpi_##name##_(A##n H##h) FWEAK;                                     \
    void mpi_##name##_(A##n H##h);                                            \
    void mpi_##name##_(A##n H##h)                                             \
    {                                                                         \
        F user1, user2;                                                       \
        if (FMISSING(pmpi_##name##_))                                                  \
            no_fortran_mpi(#name);                                            \
        swap_world(&a##k1, &user1);                                           \
        swap_world(&a##k2, &user2);                                           \
        pmpi_##name##_(V##n HV##h);                                           \
    }
#include "ghost_fortran.def"
#undef FW
#undef FW2

typedef void fgetattr_t(void *comm, void *key, void *val, void *flag, void *ierr);
void pmpi_init_(F *ierr) FWEAK;
void pmpi_init_thread_(F *required, F *provided, F *ierr) FWEAK;
void pmpi_finalize_(F *ierr) FWEAK;
void pmpi_abort_(F *comm, F *code, F *ierr) FWEAK;
void pmpi_comm_free_(F *comm, F *ierr) FWEAK;
fgetattr_t pmpi_comm_get_attr_ FWEAK;
fgetattr_t pmpi_attr_get_ FWEAK;
void mpi_init_(F *ierr);
void mpi_init_thread_(F *required, F *provided, F *ierr);
void mpi_finalize_(F *ierr);
void mpi_abort_(F *comm, F *code, F *ierr);
void mpi_comm_free_(F *comm, F *ierr);
void mpi_comm_get_attr_(F *comm, F *key, MPI_Aint *val, F *flag, F *ierr);
void mpi_attr_get_(F *comm, F *key, F *val, F *flag, F *ierr);

void mpi_init_(F *ierr)
{
    if (FMISSING(pmpi_init_))
        no_fortran_mpi("init");
    armcii_ghost_preinit();
    pmpi_init_(ierr);
    if (*ierr == MPI_SUCCESS)
        armcii_ghost_setup();
}

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
    if (FMISSING(pmpi_init_thread_))
        no_fortran_mpi("init_thread");
    armcii_ghost_preinit();
    pmpi_init_thread_(required, provided, ierr);
    if (*ierr == MPI_SUCCESS)
        armcii_ghost_setup();
}

void mpi_finalize_(F *ierr)
{
    if (FMISSING(pmpi_finalize_))
        no_fortran_mpi("finalize");
    armcii_ghost_teardown();
    pmpi_finalize_(ierr);
}

/* As in C: the whole job, ghosts included, whatever the communicator. */
void mpi_abort_(F *comm, F *code, F *ierr)
{
    F world = GH.fworld;
    if (FMISSING(pmpi_abort_))
        no_fortran_mpi("abort");
    pmpi_abort_(GH.ghosts_on ? &world : comm, code, ierr);
}

/* Freeing the world is erroneous: the C wrapper raises the error on the
 * user world instead of freeing it. */
void mpi_comm_free_(F *comm, F *ierr)
{
    if (FMISSING(pmpi_comm_free_))
        no_fortran_mpi("comm_free");
    if (GH.ghosts_on && *comm == GH.fworld) {
        MPI_Comm world = MPI_COMM_WORLD;
        *ierr = MPI_Comm_free(&world);
        return;
    }
    pmpi_comm_free_(comm, ierr);
}

/* Fortran keyvals of the predefined attributes: Open MPI uses the C values;
 * MPICH the C value + 1 (its mpif.h: MPI_TAG_UB = 1681915906, mpi.h:
 * 0x64400001 = 1681915905). */
#ifdef MPICH_VERSION
#define FKEY(k) ((F)(k) + 1)
#else
#define FKEY(k) ((F)(k))
#endif

/* 1, with its C key in *ckey, for a predefined attribute whose user-world
 * value may differ from the real world's (ghost_pmpi.c, user_view); 0 for
 * any other key. */
static int translated_key(F key, int *ckey)
{
    const int keys[] = {MPI_UNIVERSE_SIZE, MPI_IO, MPI_HOST};
    for (int i = 0; i < 3; i++)
        if (key == FKEY(keys[i])) {
            *ckey = keys[i];
            return 1;
        }
    return 0;
}

/* The application's attributes on the world live on the user world; a
 * predefined one the user world lacks (Open MPI keeps them on the real
 * world only) is read there, with the MPI's own LOGICAL flag, and a value
 * that counts or names processes is replaced by what the C layer gives
 * MPI_COMM_WORLD.  aint: the value is INTEGER(MPI_ADDRESS_KIND), else
 * INTEGER (the MPI-1 mpi_attr_get). */
static void get_attr(fgetattr_t *get, const char *name, F *comm, F *key, void *val, F *flag,
                     F *ierr, int aint)
{
    F user;
    void *c = comm;
    int ckey, cflag, *cval;
    if (!get)
        no_fortran_mpi(name);
    swap_world(&c, &user);
    get(c, key, val, flag, ierr);
    if (!GH.ghosts_on || *comm != GH.fworld || *ierr != MPI_SUCCESS)
        return;
    if (!*flag)
        get(comm, key, val, flag, ierr);
    if (*ierr != MPI_SUCCESS || !*flag || !translated_key(*key, &ckey))
        return;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, ckey, &cval, &cflag) == MPI_SUCCESS && cflag) {
        if (aint)
            *(MPI_Aint *)val = *cval;
        else
            *(F *)val = *cval;
    }
}

void mpi_comm_get_attr_(F *comm, F *key, MPI_Aint *val, F *flag, F *ierr)
{
    get_attr(pmpi_comm_get_attr_, "comm_get_attr", comm, key, val, flag, ierr, 1);
}

void mpi_attr_get_(F *comm, F *key, F *val, F *flag, F *ierr)
{
    get_attr(pmpi_attr_get_, "attr_get", comm, key, val, flag, ierr, 0);
}

#pragma GCC visibility pop
