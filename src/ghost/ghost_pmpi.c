/*
 * Ghost backend: the PMPI layer that hides ghosts from the application.
 *
 * Wrapped-function list, version 2 (MPI-3.1 C bindings).  Every MPI-3.1 C
 * function that takes a communicator is wrapped; a communicator equal to
 * MPI_COMM_WORLD becomes the user world at call time, every other one
 * passes through untouched.  126 functions in all:
 *   - 119 generated from the one list in ghost_pmpi.def (a communicator
 *     swap and nothing else): point-to-point (blocking, nonblocking,
 *     persistent), the probe family (Probe, Iprobe, Mprobe, Improbe), all
 *     blocking, nonblocking and neighborhood collectives, communicator
 *     queries and construction (Comm_size ... Comm_idup, Intercomm_*),
 *     names, info, attributes and error handlers, process topologies
 *     (Cart_*, Graph_*, Dist_graph_*, Topo_test), Pack/Unpack/Pack_size,
 *     window creation (Win_create/allocate/allocate_shared/create_dynamic)
 *     and MPI_File_open;
 *   - 7 hand-written below, because they need more than a swap:
 *     MPI_Init, MPI_Init_thread, MPI_Finalize (ghost setup and teardown),
 *     MPI_Abort (always the whole job, ghosts included, so an error never
 *     leaves a ghost waiting), MPI_Comm_free (freeing the world must not
 *     free the user world), MPI_Comm_get_attr and MPI_Attr_get
 *     (predefined attributes describe the user world).
 * Left out:
 *   - dynamic processes (Comm_spawn, Comm_spawn_multiple, Comm_accept,
 *     Comm_connect, Comm_join, Comm_disconnect, Comm_get_parent): a spawned
 *     or connected job would need ghosts of its own and a user view of the
 *     remote group; the library supports neither, and the codes it serves
 *     (Global Arrays, NWChem) do not use them;
 *   - MPI_Comm_c2f: the world's Fortran handle stays the real one, and the
 *     Fortran wrappers (ghost_fortran.c) swap that handle;
 *   - MPI-4 functions that MPICH 4.0 adds (large-count _c variants,
 *     persistent collectives, MPI_Isendrecv, MPI_Comm_idup_with_info, ...);
 *   - functions without a communicator need nothing (MPI_File_delete,
 *     groups, datatypes; a group taken from the world is the user group).
 * Callbacks (attribute copy/delete, error handlers) invoked for the world
 * receive the user world's handle, not MPI_COMM_WORLD.
 * tests/mpi/test_ghost_world.c calls every family on MPI_COMM_WORLD;
 * tests/unit/test_ghost_defs.sh checks the lists against the exported
 * symbols and ghost_fortran.def.
 */
#include <stdlib.h>
#include "ghost_impl.h"

/* The wrappers must be exported although the library is compiled with
 * -fvisibility=hidden: Open MPI's mpi.h declares MPI_* with default
 * visibility, MPICH's does not, so say it here for both. */
#pragma GCC visibility push(default)

#define GH armcii_ghost_state
#define W(c) (GH.ghosts_on && (c) == MPI_COMM_WORLD ? GH.user_world : (c))

/* Open MPI marks MPI_Attr_put/delete/get deprecated; older codes still call
 * them, so they are wrapped like the rest. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define CW(name, params, args)                                                \
    int MPI_##name params { return PMPI_##name args; }
#include "ghost_pmpi.def"
#undef CW

int MPI_Init(int *argc, char ***argv)
{
    armcii_ghost_preinit();
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        armcii_ghost_setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    armcii_ghost_preinit();
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

/* Freeing MPI_COMM_WORLD is erroneous, and swapping the handle would free
 * the user world under the application: raise the error on the user world,
 * whose handler is the one the application set on its world. */
int MPI_Comm_free(MPI_Comm *c)
{
    if (GH.ghosts_on && c && *c == MPI_COMM_WORLD) {
        PMPI_Comm_call_errhandler(GH.user_world, MPI_ERR_COMM);
        return MPI_ERR_COMM;
    }
    return PMPI_Comm_free(c);
}

/* A real-world rank as a user-world rank; MPI_PROC_NULL for a ghost. */
static int user_rank(int r)
{
    MPI_Group real, user;
    int u = MPI_UNDEFINED;
    PMPI_Comm_group(GH.pworld, &real);
    PMPI_Comm_group(GH.user_world, &user);
    PMPI_Group_translate_ranks(real, 1, &r, user, &u);
    PMPI_Group_free(&real);
    PMPI_Group_free(&user);
    return u == MPI_UNDEFINED ? MPI_PROC_NULL : u;
}

/* The user-world view of a predefined attribute value the MPI handed out
 * (a pointer to int); NULL when the key needs no translation.
 * MPI_UNIVERSE_SIZE counts ghosts: when it covers the whole job the user
 * world sees it less the ghosts (the user count when it equals the job);
 * when it is smaller (an oversubscribed run, fewer slots than processes)
 * it is capped at the user count.  MPI_IO and MPI_HOST on the world may be
 * real-world ranks (both MPIs here give MPI_ANY_SOURCE / MPI_PROC_NULL).
 * The value is kept in the state, as the MPI keeps its own. */
static int *user_view(MPI_Comm c, int key, const int *real)
{
    int P, U, slot, v = *real;
    if (key == MPI_UNIVERSE_SIZE) {
        PMPI_Comm_size(GH.pworld, &P);
        PMPI_Comm_size(GH.user_world, &U);
        slot = 0;
        v = v >= P ? v - (P - U) : v < U ? v : U;
    } else if ((key == MPI_IO || key == MPI_HOST) && c == MPI_COMM_WORLD && v >= 0) {
        slot = key == MPI_IO ? 1 : 2;
        v = user_rank(v);
    } else {
        return NULL;
    }
    GH.attr_view[slot] = v;
    return &GH.attr_view[slot];
}

/* The application's own attributes on the world live on the user world.
 * The predefined ones live on the real world only under Open MPI (MPICH
 * answers them on every communicator), so a key the user world lacks is
 * looked up there; a value that counts or names processes is translated. */
static int get_attr(MPI_Comm c, int key, void *val, int *flag)
{
    int rc = PMPI_Comm_get_attr(W(c), key, val, flag);
    if (!GH.ghosts_on || rc != MPI_SUCCESS)
        return rc;
    if (!*flag && c == MPI_COMM_WORLD)
        rc = PMPI_Comm_get_attr(c, key, val, flag);
    if (rc == MPI_SUCCESS && *flag &&
        (key == MPI_UNIVERSE_SIZE || key == MPI_IO || key == MPI_HOST)) {
        int *view = user_view(c, key, *(int **)val);
        if (view)
            *(int **)val = view;
    }
    return rc;
}

int MPI_Comm_get_attr(MPI_Comm c, int key, void *val, int *flag)
{
    return get_attr(c, key, val, flag);
}

/* MPI-1 name of the same call (deprecated, same C semantics). */
int MPI_Attr_get(MPI_Comm c, int key, void *val, int *flag)
{
    return get_attr(c, key, val, flag);
}

#pragma GCC diagnostic pop
#pragma GCC visibility pop
