/* The application's MPI_COMM_WORLD hides ghost processes, communicator
 * half (the other half: test_ghost_world_xfer.c): every communicator,
 * attribute, error-handler, topology, neighborhood-collective, window and
 * MPI-IO function of the PMPI layer's list (src/ghost/ghost_pmpi.def,
 * version 2, and the hand-written ones of ghost_pmpi.c) is called on
 * MPI_COMM_WORLD and must see exactly the user processes; predefined
 * attributes must describe the user world.  In a build without ghosts it
 * checks plain MPI. */
#include <string.h>
#include <unistd.h>
#include <message.h>
#include "../testutil.h"
#include "ghost_world.h"

static int me, U;

static void check_construction(void)
{
    int n, res, flag;
    MPI_Comm c;
    MPI_Group grp;
    MPI_Request q;
    MPI_Info info;
    MPI_Comm_group(MPI_COMM_WORLD, &grp);
    MPI_Group_size(grp, &n);
    CHECK(n == U, "Comm_group size %d != %d", n, U);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_IDENT, "Comm_compare(world, world) = %d", res);
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    CHECK(!flag, "Comm_test_inter(world) = %d", flag);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_compare(MPI_COMM_WORLD, c, &res);
    CHECK(res == MPI_CONGRUENT, "Comm_compare(world, dup) = %d", res);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_dup size %d", n);
    MPI_Comm_free(&c);
    MPI_Comm_idup(MPI_COMM_WORLD, &c, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Comm_size(c, &n);
    MPI_Comm_compare(MPI_COMM_WORLD, c, &res);
    CHECK(n == U && res == MPI_CONGRUENT, "Comm_idup size %d, compare %d", n, res);
    MPI_Comm_free(&c);
    MPI_Info_create(&info);
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    MPI_Comm_size(c, &n);
    CHECK(n == U, "Comm_dup_with_info size %d", n);
    MPI_Comm_free(&c);
    MPI_Info_free(&info);
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
}

/* Intercommunicators built with the world as the peer communicator. */
static void check_intercomm(void)
{
    MPI_Comm half, inter, merged;
    MPI_Group rg;
    int n, flag, lo = me < U / 2;
    MPI_Comm_split(MPI_COMM_WORLD, lo, me, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lo ? U / 2 : 0, 9, &inter);
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &n);
    CHECK(flag && n == (lo ? U - U / 2 : U / 2), "Intercomm_create remote size %d", n);
    MPI_Comm_remote_group(inter, &rg);
    MPI_Group_size(rg, &n);
    CHECK(n == (lo ? U - U / 2 : U / 2), "Comm_remote_group size %d", n);
    MPI_Group_free(&rg);
    MPI_Intercomm_merge(inter, !lo, &merged);
    MPI_Comm_rank(merged, &n);
    CHECK(n == me, "Intercomm_merge rank %d", n);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

static void check_names_info(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Info info, used;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(!strcmp(name, "MPI_COMM_WORLD"), "Comm_get_name(world) = '%s'", name);
    MPI_Comm_set_name(MPI_COMM_WORLD, "app world");
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(!strcmp(name, "app world") && len == 9, "Comm_set_name: got '%s'", name);
    MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    /* hints may be dropped by the MPI: only that the calls work */
    MPI_Info_create(&info);
    MPI_Info_set(info, "armci_test_hint", "1");
    CHECK(MPI_Comm_set_info(MPI_COMM_WORLD, info) == MPI_SUCCESS, "Comm_set_info");
    CHECK(MPI_Comm_get_info(MPI_COMM_WORLD, &used) == MPI_SUCCESS, "Comm_get_info");
    MPI_Info_free(&used);
    MPI_Info_free(&info);
}

/* The application's attributes on the world (set, get, copied by a dup,
 * deleted) under both the MPI-2 and the MPI-1 names. */
static void check_user_attrs(void)
{
    static int x = 42;
    int key, flag, *got;
    MPI_Comm c;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &x);
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(flag && got == &x, "Comm_get_attr after Comm_set_attr: flag %d", flag);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_attr(c, key, &got, &flag);
    CHECK(flag && got == &x, "attribute not copied by Comm_dup of the world");
    MPI_Comm_free(&c);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(!flag, "Comm_delete_attr left the attribute");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    MPI_Attr_put(MPI_COMM_WORLD, key, &x);
    MPI_Attr_get(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(flag && got == &x, "Attr_get after Attr_put: flag %d", flag);
    MPI_Attr_delete(MPI_COMM_WORLD, key);
    MPI_Attr_get(MPI_COMM_WORLD, key, &got, &flag);
    CHECK(!flag, "Attr_delete left the attribute");
#pragma GCC diagnostic pop
    MPI_Comm_free_keyval(&key);
}

/* Predefined attributes: what the real world says, seen from the users.
 * The universe size is the real one less the ghosts when it covers the
 * job, at most the user count when smaller; ranks are user ranks. */
static void check_predefined_attrs(void)
{
    int *v, *real, flag, rflag, P;
    PMPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
    CHECK(flag && *v >= 32767, "Comm_get_attr(TAG_UB)");
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &real, &rflag);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
    CHECK(flag == rflag, "UNIVERSE_SIZE flag %d, real %d", flag, rflag);
    if (flag && rflag) {
        int want = *real >= P ? *real - (P - U) : *real < U ? *real : U;
        CHECK(*v == want, "UNIVERSE_SIZE %d (real %d, %d of %d users): want %d", *v, *real, U,
              P, want);
        CHECK(*real < P || *v >= U, "UNIVERSE_SIZE %d < %d users", *v, U);
    }
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &real, &rflag);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag);
    CHECK(flag == rflag && (!flag || *v == *real), "APPNUM");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
    CHECK(flag, "WTIME_IS_GLOBAL missing");
    int keys[2] = {MPI_IO, MPI_HOST};
    for (int k = 0; k < 2; k++) {
        MPI_Comm_get_attr(MPI_COMM_WORLD, keys[k], &v, &flag);
        CHECK(flag && (*v == MPI_ANY_SOURCE || *v == MPI_PROC_NULL || (*v >= 0 && *v < U)),
              "%s = %d", k ? "MPI_HOST" : "MPI_IO", flag ? *v : -99);
    }
}

static int eh_calls, eh_code, eh_size;
static void count_error(MPI_Comm *c, int *code, ...)
{
    eh_calls++;
    eh_code = *code;
    MPI_Comm_size(*c, &eh_size);
}

/* The application's error handler on the world: set, read back, invoked
 * (on the user world, so it sees U processes), and raised by an attempt
 * to free the world, which must leave the world usable. */
static void check_errhandlers(void)
{
    MPI_Errhandler eh, got;
    int n;
    MPI_Comm_create_errhandler(count_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    CHECK(got == eh, "Comm_get_errhandler: not the handler set");
    MPI_Errhandler_free(&got);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    CHECK(eh_calls == 1 && eh_code == MPI_ERR_OTHER && eh_size == U,
          "Comm_call_errhandler: %d calls, code %d, size %d", eh_calls, eh_code, eh_size);
    if (ghosts_in_run()) {
        MPI_Comm w = MPI_COMM_WORLD;
        int rc = MPI_Comm_free(&w);
        CHECK(rc != MPI_SUCCESS && eh_calls == 2 && eh_code == MPI_ERR_COMM,
              "Comm_free(world): rc %d, %d handler calls", rc, eh_calls);
    }
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n == U, "world size %d after Comm_free(world)", n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
}

/* Cartesian topology from the world: dims over the users, ranks kept. */
static void check_cart(void)
{
    int dims[2] = {0, 0}, per[2] = {0, 0}, got[2], gper[2], coords[2], n, r, src, dst;
    MPI_Comm cart, sub;
    MPI_Topo_test(MPI_COMM_WORLD, &n);
    CHECK(n == MPI_UNDEFINED, "Topo_test(world) = %d", n);
    MPI_Dims_create(U, 2, dims);
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, per, &r);
    CHECK(r >= 0 && r < U, "Cart_map rank %d", r);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    MPI_Comm_size(cart, &n);
    CHECK(n == U, "Cart_create size %d", n);
    MPI_Topo_test(cart, &n);
    MPI_Cartdim_get(cart, &r);
    CHECK(n == MPI_CART && r == 2, "Topo_test(cart) %d, Cartdim_get %d", n, r);
    MPI_Cart_get(cart, 2, got, gper, coords);
    CHECK(got[0] == dims[0] && got[1] == dims[1] && got[0] * got[1] == U, "Cart_get dims %dx%d",
          got[0], got[1]);
    MPI_Cart_rank(cart, coords, &r);
    CHECK(r == me, "Cart_rank %d", r);
    MPI_Cart_coords(cart, me, 2, got);
    CHECK(got[0] == coords[0] && got[1] == coords[1], "Cart_coords");
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    CHECK(dst == (coords[1] + 1 < dims[1] ? me + 1 : MPI_PROC_NULL) &&
              src == (coords[1] > 0 ? me - 1 : MPI_PROC_NULL),
          "Cart_shift %d %d", src, dst);
    int remain[2] = {0, 1};
    MPI_Cart_sub(cart, remain, &sub);
    MPI_Comm_size(sub, &n);
    CHECK(n == dims[1], "Cart_sub size %d", n);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cart);
}

/* A ring as a graph topology over the world. */
static void check_graph(void)
{
    int *index = malloc(6 * (size_t)U * sizeof(int)), *edges = index + U, *gi = edges + 2 * U;
    int nn, ne, r, nb[2], l = (me + U - 1) % U, rt = (me + 1) % U;
    MPI_Comm g;
    for (int i = 0; i < U; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + U - 1) % U;
        edges[2 * i + 1] = (i + 1) % U;
    }
    MPI_Graph_map(MPI_COMM_WORLD, U, index, edges, &r);
    CHECK(r >= 0 && r < U, "Graph_map rank %d", r);
    MPI_Graph_create(MPI_COMM_WORLD, U, index, edges, 0, &g);
    MPI_Topo_test(g, &r);
    MPI_Graphdims_get(g, &nn, &ne);
    CHECK(r == MPI_GRAPH && nn == U && ne == 2 * U, "Graphdims_get %d %d", nn, ne);
    MPI_Graph_neighbors_count(g, me, &r);
    MPI_Graph_neighbors(g, me, 2, nb);
    CHECK(r == 2 && nb[0] == l && nb[1] == rt, "Graph_neighbors %d: %d %d", r, nb[0], nb[1]);
    MPI_Graph_get(g, U, 2 * U, gi, gi + U);
    CHECK(!memcmp(gi, index, (size_t)U * sizeof(int)) &&
              !memcmp(gi + U, edges, 2 * (size_t)U * sizeof(int)),
          "Graph_get");
    MPI_Comm_free(&g);
    free(index);
}

/* Distributed graphs (ring to the right) and neighborhood collectives on
 * topologies built from the world: values come from user neighbours. */
static void check_neighbors(void)
{
    int l = (me + U - 1) % U, rt = (me + 1) % U, v[2], snd[2] = {me * 10, me * 10 + 1};
    int in, out, wt, src, dst, sw, dw, one = 1, dims[1] = {U}, per[1] = {1};
    MPI_Comm dg, dga, ring;
    MPI_Request q;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &l, &one, 1, &rt, &one, MPI_INFO_NULL, 0,
                                   &dga);
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &one, &rt, &one, MPI_INFO_NULL, 0, &dg);
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &wt);
    MPI_Dist_graph_neighbors(dg, 1, &src, &sw, 1, &dst, &dw);
    CHECK(in == 1 && out == 1 && wt && src == l && dst == rt && sw == 1 && dw == 1,
          "Dist_graph_neighbors %d %d: %d %d", in, out, src, dst);
    v[0] = -1;
    MPI_Neighbor_allgather(&me, 1, MPI_INT, v, 1, MPI_INT, dga);
    CHECK(v[0] == l, "Neighbor_allgather (dist graph) got %d", v[0]);
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    MPI_Neighbor_allgather(&me, 1, MPI_INT, v, 1, MPI_INT, ring);
    CHECK(v[0] == l && v[1] == rt, "Neighbor_allgather got %d %d", v[0], v[1]);
    MPI_Neighbor_alltoall(snd, 1, MPI_INT, v, 1, MPI_INT, ring);
    CHECK(v[0] == l * 10 + 1 && v[1] == rt * 10, "Neighbor_alltoall got %d %d", v[0], v[1]);
    v[0] = v[1] = -1;
    MPI_Ineighbor_allgather(&me, 1, MPI_INT, v, 1, MPI_INT, ring, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v[0] == l && v[1] == rt, "Ineighbor_allgather got %d %d", v[0], v[1]);
    MPI_Ineighbor_alltoall(snd, 1, MPI_INT, v, 1, MPI_INT, dg, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(v[0] == l * 10, "Ineighbor_alltoall (dist graph) got %d", v[0]);
    MPI_Comm_free(&ring);
    MPI_Comm_free(&dg);
    MPI_Comm_free(&dga);
}

static void nbr_expect(const char *what, int nonblocking, const int *got, const int *want,
                       const int *nb)
{
    for (int i = 0; i < 4; i++)
        CHECK(got[i] == want[i], "%s%s on a 2-D grid: slot %d (neighbour %d) got %d, want %d",
              nonblocking ? "I" : "", what, i, nb[i], got[i], want[i]);
}

/* All ten neighborhood collectives on a non-periodic 2-D grid built from
 * the world (missing neighbours are MPI_PROC_NULL: their slots keep -7):
 * the neighbours Cart_shift names are the user ranks the grid's row-major
 * layout gives, and every slot holds that neighbour's data (allgather: its
 * rank; alltoall: what it sent towards this process); the v and w forms
 * receive in reversed displacement order. */
static void check_neighbor_colls(void)
{
    int dims[2] = {0, 0}, per[2] = {0, 0}, nb[4], exp[4], got[4], snd[4];
    int wag[4], wagr[4], wa2a[4], wa2ar[4], one[4] = {1, 1, 1, 1}, d[4] = {0, 1, 2, 3};
    int dr[4] = {3, 2, 1, 0};
    MPI_Aint bd[4] = {0, 4, 8, 12}, bdr[4] = {12, 8, 4, 0};
    MPI_Datatype ty[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    MPI_Comm cart;
    MPI_Dims_create(U, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    int c0 = me / dims[1], c1 = me % dims[1];
    exp[0] = c0 > 0 ? me - dims[1] : MPI_PROC_NULL;
    exp[1] = c0 < dims[0] - 1 ? me + dims[1] : MPI_PROC_NULL;
    exp[2] = c1 > 0 ? me - 1 : MPI_PROC_NULL;
    exp[3] = c1 < dims[1] - 1 ? me + 1 : MPI_PROC_NULL;
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    for (int i = 0; i < 4; i++) {
        CHECK(nb[i] == exp[i], "Cart_shift on a %dx%d grid: neighbour %d is %d, want %d",
              dims[0], dims[1], i, nb[i], exp[i]);
        snd[i] = me * 100 + i;
        wag[i] = nb[i] == MPI_PROC_NULL ? -7 : nb[i];
        wa2a[i] = nb[i] == MPI_PROC_NULL ? -7 : nb[i] * 100 + (i ^ 1);
        wagr[3 - i] = wag[i], wa2ar[3 - i] = wa2a[i];
    }
    for (int k = 0; k < 2; k++) {
        MPI_Request q = MPI_REQUEST_NULL;
#define NBR(what, want, blocking, nonblocking)                                               \
    do {                                                                                     \
        for (int i = 0; i < 4; i++)                                                          \
            got[i] = -7;                                                                     \
        if (k) {                                                                             \
            nonblocking;                                                                     \
            MPI_Wait(&q, MPI_STATUS_IGNORE);                                                 \
        } else                                                                               \
            blocking;                                                                        \
        nbr_expect(what, k, got, want, nb);                                                  \
    } while (0)
        NBR("Neighbor_allgather", wag,
            MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, cart),
            MPI_Ineighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, cart, &q));
        NBR("Neighbor_allgatherv", wagr,
            MPI_Neighbor_allgatherv(&me, 1, MPI_INT, got, one, dr, MPI_INT, cart),
            MPI_Ineighbor_allgatherv(&me, 1, MPI_INT, got, one, dr, MPI_INT, cart, &q));
        NBR("Neighbor_alltoall", wa2a,
            MPI_Neighbor_alltoall(snd, 1, MPI_INT, got, 1, MPI_INT, cart),
            MPI_Ineighbor_alltoall(snd, 1, MPI_INT, got, 1, MPI_INT, cart, &q));
        NBR("Neighbor_alltoallv", wa2ar,
            MPI_Neighbor_alltoallv(snd, one, d, MPI_INT, got, one, dr, MPI_INT, cart),
            MPI_Ineighbor_alltoallv(snd, one, d, MPI_INT, got, one, dr, MPI_INT, cart, &q));
        NBR("Neighbor_alltoallw", wa2ar,
            MPI_Neighbor_alltoallw(snd, one, bd, ty, got, one, bdr, ty, cart),
            MPI_Ineighbor_alltoallw(snd, one, bd, ty, got, one, bdr, ty, cart, &q));
#undef NBR
    }
    MPI_Comm_free(&cart);
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
 * bounded by the harness's time limit); MPI_File_delete takes no
 * communicator and needs no wrapper. */
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
    if (me == 0) {
        rc = MPI_File_delete(name, MPI_INFO_NULL);
        CHECK(rc == MPI_SUCCESS && access(name, F_OK) != 0, "File_delete (%d)", rc);
    }
}

/* An application's exit handler must never run in a ghost (it ran none of
 * the application's code), while MPI's own handlers must (MPICH 4.3 sends
 * PMI_Finalize from one; without it hydra kills the job).  Registered
 * before MPI_Init, it runs in a ghost only if the ghost's exit runs the
 * application's handlers: there MPI_Init never returned, and the process
 * exits 3, which fails the launch. */
static volatile int init_returned;
static void app_exit_handler(void)
{
    if (!init_returned) {
        fprintf(stderr, "FAIL: the application's exit handler ran in a ghost\n");
        _exit(3);
    }
}

int main(int argc, char **argv)
{
    atexit(app_exit_handler);
    MPI_Init(&argc, &argv);
    init_returned = 1;
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
        check_construction();
        if (U >= 2)
            check_intercomm();
        check_names_info();
        check_user_attrs();
        check_predefined_attrs();
        check_errhandlers(); /* leaves MPI_ERRORS_RETURN on the world */
        check_cart();
        check_graph();
        check_neighbors();
        check_neighbor_colls();
        check_windows();
        check_io();
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    ARMCI_Finalize();
    int rc = tu_finish();
    MPI_Finalize();
    return rc;
}
