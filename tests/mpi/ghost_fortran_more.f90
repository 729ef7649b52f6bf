! Ghost build, Fortran side: module of tests/mpi/ghost_fortran.f90's
! program (compiled before it by tests/mpi/test_ghost_fortran.sh), the rest
! of src/ghost/ghost_fortran.def on MPI_COMM_WORLD: every send mode
! (blocking, nonblocking, persistent) and probe, communicator construction
! (with info, by type, by group), info, MPI-1 attributes, error handlers,
! intercommunicators whose peer is the world, Cart_map / Graph_map, graph
! and distributed-graph topologies, and windows by allocation (private,
! shared) and dynamic.  Ranks given to MPI are user ranks; sources, sizes,
! neighbours and the data received must be the users'.
module ghost_fortran_more
  use, intrinsic :: iso_c_binding
  use ghost_fortran_base
  implicit none
  integer :: seen_code = -1, seen_size = -1
contains
  ! every send mode around the ring (to r, from l), each receive posted
  ! from MPI_ANY_SOURCE before a barrier (so ready sends are legal)
  subroutine check_send_modes()
    character(len=16), parameter :: names(9) = [character(len=16) :: 'MPI_Ssend', &
      'MPI_Rsend', 'MPI_Bsend', 'MPI_Issend', 'MPI_Irsend', 'MPI_Ibsend', &
      'MPI_Ssend_init', 'MPI_Rsend_init', 'MPI_Bsend_init']
    integer :: ierr, req, sreq, m, l, r, tag, x, bsize, bbuf(512)
    integer, volatile :: got
    integer :: st(MPI_STATUS_SIZE)
    l = mod(me + np - 1, np)
    r = mod(me + 1, np)
    bsize = size(bbuf) * storage_size(0) / 8
    call MPI_Buffer_attach(bbuf, bsize, ierr)
    do m = 1, 9
      tag = 20 + m
      x = me * 100 + m
      got = -1
      call MPI_Irecv(got, 1, MPI_INTEGER, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, req, ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      sreq = MPI_REQUEST_NULL
      select case (m)
      case (1)
        call MPI_Ssend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, ierr)
      case (2)
        call MPI_Rsend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, ierr)
      case (3)
        call MPI_Bsend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, ierr)
      case (4)
        call MPI_Issend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      case (5)
        call MPI_Irsend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      case (6)
        call MPI_Ibsend(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      case (7)
        call MPI_Ssend_init(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      case (8)
        call MPI_Rsend_init(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      case (9)
        call MPI_Bsend_init(x, 1, MPI_INTEGER, r, tag, MPI_COMM_WORLD, sreq, ierr)
      end select
      if (m >= 7) call MPI_Start(sreq, ierr)
      call MPI_Wait(sreq, st, ierr)
      if (m >= 7) call MPI_Request_free(sreq, ierr)
      call MPI_Wait(req, st, ierr)
      call check(got == l * 100 + m, trim(names(m)) // ' data', got)
      call check(st(MPI_SOURCE) == l, trim(names(m)) // ' source', st(MPI_SOURCE))
    end do
    call MPI_Buffer_detach(bbuf, bsize, ierr)
  end subroutine

  ! Probe (any source), Iprobe (the left user by rank), Improbe + Mrecv
  subroutine check_probes()
    integer :: ierr, l, r, t, n, v, x, sreq, msg
    integer :: st(MPI_STATUS_SIZE)
    logical :: flag
    l = mod(me + np - 1, np)
    r = mod(me + 1, np)
    do t = 1, 3
      x = me * 100 + 40 + t
      call MPI_Isend(x, 1, MPI_INTEGER, r, 40 + t, MPI_COMM_WORLD, sreq, ierr)
      v = -1
      select case (t)
      case (1)
        call MPI_Probe(MPI_ANY_SOURCE, 41, MPI_COMM_WORLD, st, ierr)
        call check(st(MPI_SOURCE) == l, 'MPI_Probe source', st(MPI_SOURCE))
        call MPI_Get_count(st, MPI_INTEGER, n, ierr)
        call check(n == 1, 'MPI_Probe count', n)
        call MPI_Recv(v, 1, MPI_INTEGER, st(MPI_SOURCE), 41, MPI_COMM_WORLD, st, ierr)
      case (2)
        flag = .false.
        do while (.not. flag)
          call MPI_Iprobe(l, 42, MPI_COMM_WORLD, flag, st, ierr)
        end do
        call check(st(MPI_SOURCE) == l, 'MPI_Iprobe source', st(MPI_SOURCE))
        call MPI_Recv(v, 1, MPI_INTEGER, l, 42, MPI_COMM_WORLD, st, ierr)
      case (3)
        flag = .false.
        do while (.not. flag)
          call MPI_Improbe(MPI_ANY_SOURCE, 43, MPI_COMM_WORLD, flag, msg, st, ierr)
        end do
        call check(st(MPI_SOURCE) == l, 'MPI_Improbe source', st(MPI_SOURCE))
        call MPI_Mrecv(v, 1, MPI_INTEGER, msg, st, ierr)
      end select
      call check(v == l * 100 + 40 + t, 'message received after the probe', v)
      call MPI_Wait(sreq, st, ierr)
    end do
    call MPI_Iprobe(MPI_ANY_SOURCE, 44, MPI_COMM_WORLD, flag, st, ierr)
    call check(.not. flag, 'MPI_Iprobe found an unsent message', 1)
  end subroutine

  ! Comm_dup_with_info, Comm_set_info / Comm_get_info, Comm_split_type,
  ! Comm_create_group, Attr_put / Attr_delete, Comm_get_errhandler and
  ! Comm_call_errhandler on the world
  subroutine check_comm_more()
    integer :: ierr, info, used, c, n, res, i, wg, g, key, v, eh, got, ne
    integer, allocatable :: ids(:), out(:)
    logical :: flag
    integer(kind=MPI_ADDRESS_KIND) :: extra
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'mpi_assert_no_any_tag', 'false', ierr)
    call MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, c, ierr)
    call MPI_Comm_compare(MPI_COMM_WORLD, c, res, ierr)
    call check(res == MPI_CONGRUENT, 'MPI_Comm_dup_with_info compare', res)
    call MPI_Comm_rank(c, n, ierr)
    call check(n == me, 'MPI_Comm_dup_with_info rank', n)
    call MPI_Comm_free(c, ierr)
    call MPI_Comm_set_info(MPI_COMM_WORLD, info, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Comm_set_info(world)', ierr)
    call MPI_Comm_get_info(MPI_COMM_WORLD, used, ierr)
    call check(ierr == MPI_SUCCESS .and. used /= MPI_INFO_NULL, 'MPI_Comm_get_info(world)', ierr)
    call MPI_Info_free(used, ierr)
    call MPI_Info_free(info, ierr)
    ! one machine (as test_ghost_world): the users, each where its rank says
    call MPI_Comm_group(MPI_COMM_WORLD, wg, ierr)
    call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, c, ierr)
    call MPI_Comm_size(c, n, ierr)
    call check(n == np, 'MPI_Comm_split_type size (one machine)', n)
    call MPI_Comm_group(c, g, ierr)
    allocate (ids(np), out(np))
    ids = [(i, i = 0, np - 1)]
    call MPI_Group_translate_ranks(g, np, ids, wg, out, ierr)
    do i = 1, np
      call check(out(i) == i - 1, 'MPI_Comm_split_type member', out(i))
    end do
    call MPI_Group_free(g, ierr)
    call MPI_Comm_free(c, ierr)
    ! the even users alone
    ne = (np + 1) / 2
    call MPI_Group_incl(wg, ne, [(2 * i, i = 0, ne - 1)], g, ierr)
    if (mod(me, 2) == 0) then
      call MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, c, ierr)
      call MPI_Comm_size(c, n, ierr)
      call check(n == ne, 'MPI_Comm_create_group size', n)
      call MPI_Comm_rank(c, n, ierr)
      call check(n == me / 2, 'MPI_Comm_create_group rank', n)
      call MPI_Comm_free(c, ierr)
    end if
    call MPI_Group_free(g, ierr)
    call MPI_Group_free(wg, ierr)
    ! MPI-1 attribute calls
    extra = 0
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
    v = 77 + me
    call MPI_Attr_put(MPI_COMM_WORLD, key, v, ierr)
    v = 0
    call MPI_Attr_get(MPI_COMM_WORLD, key, v, flag, ierr)
    call check(flag .and. v == 77 + me, 'MPI_Attr_put then MPI_Attr_get', v)
    call MPI_Attr_delete(MPI_COMM_WORLD, key, ierr)
    call MPI_Attr_get(MPI_COMM_WORLD, key, v, flag, ierr)
    call check(.not. flag, 'MPI_Attr_delete left the attribute', v)
    call MPI_Comm_free_keyval(key, ierr)
    ! the application's handler on the world: set, read back, called with
    ! a communicator of the users
    call MPI_Comm_create_errhandler(on_error, eh, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh, ierr)
    call MPI_Comm_get_errhandler(MPI_COMM_WORLD, got, ierr)
    call check(got == eh, 'MPI_Comm_get_errhandler(world)', got)
    call MPI_Errhandler_free(got, ierr)
    call MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER, ierr)
    call check(seen_code == MPI_ERR_OTHER, 'MPI_Comm_call_errhandler(world): handler code', seen_code)
    call check(seen_size == np, 'MPI_Comm_call_errhandler(world): handler comm size', seen_size)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
    call MPI_Errhandler_free(eh, ierr)
  end subroutine

  subroutine on_error(comm, code)
    integer :: comm, code, ierr
    seen_code = code
    call MPI_Comm_size(comm, seen_size, ierr)
  end subroutine

  ! even and odd users joined by MPI_Intercomm_create (peer: the world,
  ! remote leader: user 0 or 1), then merged, odd users high
  subroutine check_inter()
    integer :: ierr, color, half, inter, merged, n, nrem, rg, wg, i, s, res, want
    integer, allocatable :: ids(:), out(:)
    logical :: flag
    color = mod(me, 2)
    call MPI_Comm_split(MPI_COMM_WORLD, color, me, half, ierr)
    call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 99, inter, ierr)
    call MPI_Comm_test_inter(inter, flag, ierr)
    call check(flag, 'MPI_Intercomm_create: not an intercommunicator', 0)
    nrem = merge(np / 2, (np + 1) / 2, color == 0)
    call MPI_Comm_remote_size(inter, n, ierr)
    call check(n == nrem, 'MPI_Comm_remote_size', n)
    call MPI_Comm_remote_group(inter, rg, ierr)
    call MPI_Comm_group(MPI_COMM_WORLD, wg, ierr)
    allocate (ids(nrem), out(nrem))
    ids = [(i, i = 0, nrem - 1)]
    call MPI_Group_translate_ranks(rg, nrem, ids, wg, out, ierr)
    do i = 1, nrem
      call check(out(i) == 1 - color + 2 * (i - 1), 'MPI_Comm_remote_group member', out(i))
    end do
    call MPI_Group_free(rg, ierr)
    call MPI_Group_free(wg, ierr)
    call MPI_Allreduce(me, s, 1, MPI_INTEGER, MPI_SUM, inter, ierr)
    call check(s == sum([(1 - color + 2 * i, i = 0, nrem - 1)]), 'MPI_Allreduce across the intercomm', s)
    call MPI_Intercomm_merge(inter, color == 1, merged, ierr)
    call MPI_Comm_rank(merged, n, ierr)
    want = me / 2 + color * ((np + 1) / 2)
    call check(n == want, 'MPI_Intercomm_merge rank', n)
    call MPI_Comm_compare(merged, MPI_COMM_WORLD, res, ierr)
    call check(res == merge(MPI_CONGRUENT, MPI_SIMILAR, np <= 2), 'MPI_Intercomm_merge compare', res)
    call MPI_Comm_free(merged, ierr)
    call MPI_Comm_free(inter, ierr)
    call MPI_Comm_free(half, ierr)
  end subroutine

  ! Cart_map and Graph_map on the world, graph and distributed-graph
  ! topologies made from it (the ring: l -> me -> r)
  subroutine check_graphs()
    integer :: ierr, i, l, r, n, ne, t, g, indeg, outdeg, src(1), dst(1), sw(1), dw(1), nb(2)
    integer :: index(np), edges(2 * np), idx2(np), edg2(2 * np), dsrc(np), ddeg(np), ddst(np), dwt(np)
    logical :: weighted
    l = mod(me + np - 1, np)
    r = mod(me + 1, np)
    call MPI_Cart_map(MPI_COMM_WORLD, 1, [np], [.false.], n, ierr)
    call check_perm(n, 'MPI_Cart_map')
    index = [(2 * i, i = 1, np)]
    edges = [(mod(i / 2 + np - 1 + 2 * mod(i, 2), np), i = 0, 2 * np - 1)]
    call MPI_Graph_map(MPI_COMM_WORLD, np, index, edges, n, ierr)
    call check_perm(n, 'MPI_Graph_map')
    call MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, .false., g, ierr)
    call MPI_Topo_test(g, t, ierr)
    call check(t == MPI_GRAPH, 'MPI_Graph_create topology', t)
    call MPI_Graphdims_get(g, n, ne, ierr)
    call check(n == np .and. ne == 2 * np, 'MPI_Graphdims_get nodes', n)
    call MPI_Graph_get(g, np, 2 * np, idx2, edg2, ierr)
    call check(all(idx2 == index) .and. all(edg2 == edges), 'MPI_Graph_get', idx2(1))
    call MPI_Graph_neighbors_count(g, me, n, ierr)
    call check(n == 2, 'MPI_Graph_neighbors_count', n)
    call MPI_Graph_neighbors(g, me, 2, nb, ierr)
    call check(nb(1) == l .and. nb(2) == r, 'MPI_Graph_neighbors', nb(1))
    nb = -1
    call MPI_Neighbor_allgather(me, 1, MPI_INTEGER, nb, 1, MPI_INTEGER, g, ierr)
    call check(nb(1) == l .and. nb(2) == r, 'MPI_Neighbor_allgather on the graph', nb(1))
    call MPI_Comm_free(g, ierr)
    ! adjacent: each user names its own edges, weight 10*from+1
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [l], [l * 10 + 1], 1, [r], [me * 10 + 1], &
                                        MPI_INFO_NULL, .false., g, ierr)
    call dist_graph_checks(g, 'MPI_Dist_graph_create_adjacent')
    ! general: user 0 names every edge of the ring
    n = 0
    if (me == 0) then
      n = np
      dsrc = [(i, i = 0, np - 1)]
      ddeg = 1
      ddst = [(mod(i + 1, np), i = 0, np - 1)]
      dwt = [(i * 10 + 1, i = 0, np - 1)]
    end if
    call MPI_Dist_graph_create(MPI_COMM_WORLD, n, dsrc, ddeg, ddst, dwt, MPI_INFO_NULL, .false., g, ierr)
    call dist_graph_checks(g, 'MPI_Dist_graph_create')
  contains
    ! newrank from a map of np nodes: every user has one, all different
    subroutine check_perm(newrank, what)
      integer, intent(in) :: newrank
      character(len=*), intent(in) :: what
      integer :: got(np), i
      call MPI_Allgather(newrank, 1, MPI_INTEGER, got, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
      call check(newrank >= 0 .and. newrank < np, what // ' rank', newrank)
      do i = 1, np
        call check(count(got == got(i)) == 1, what // ' gave two users one rank', got(i))
      end do
    end subroutine
    subroutine dist_graph_checks(d, what)
      integer, intent(inout) :: d
      character(len=*), intent(in) :: what
      integer :: v
      call MPI_Topo_test(d, t, ierr)
      call check(t == MPI_DIST_GRAPH, what // ' topology', t)
      call MPI_Dist_graph_neighbors_count(d, indeg, outdeg, weighted, ierr)
      call check(indeg == 1 .and. outdeg == 1 .and. weighted, &
                 what // ': MPI_Dist_graph_neighbors_count in-degree', indeg)
      call MPI_Dist_graph_neighbors(d, 1, src, sw, 1, dst, dw, ierr)
      call check(src(1) == l .and. sw(1) == l * 10 + 1, what // ': MPI_Dist_graph_neighbors source', src(1))
      call check(dst(1) == r .and. dw(1) == me * 10 + 1, what // ': MPI_Dist_graph_neighbors destination', &
                 dst(1))
      v = -1
      call MPI_Neighbor_alltoall(me * 10, 1, MPI_INTEGER, v, 1, MPI_INTEGER, d, ierr)
      call check(v == l * 10, what // ': MPI_Neighbor_alltoall data', v)
      call MPI_Comm_free(d, ierr)
    end subroutine
  end subroutine

  ! Win_allocate (puts around the ring), Win_allocate_shared (the right
  ! user's segment read directly), Win_create_dynamic (puts to attached
  ! memory at addresses the users exchanged)
  subroutine check_wins()
    integer :: ierr, win, isz, l, r, g, n, qdisp, x
    integer(kind=MPI_ADDRESS_KIND) :: wsize, base, qsize, disp, addrs(np)
    integer, pointer, volatile :: wb(:), qb(:)
    integer, volatile, target :: dbuf(4)
    type(c_ptr) :: p
    l = mod(me + np - 1, np)
    r = mod(me + 1, np)
    isz = storage_size(0) / 8
    wsize = 4 * isz
    disp = 0
    call MPI_Win_allocate(wsize, isz, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
    call win_users(win, 'MPI_Win_allocate')
    call c_f_pointer(transfer(base, p), wb, [4])
    wb = -1
    call MPI_Win_fence(0, win, ierr)
    x = me * 10 + 1
    call MPI_Put(x, 1, MPI_INTEGER, r, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call check(wb(1) == l * 10 + 1 .and. wb(2) == -1, 'MPI_Win_allocate: put from the left user', wb(1))
    call MPI_Win_free(win, ierr)
    ! an osc without shared-memory windows (Open MPI's pt2pt or ucx alone,
    ! the test's modes pt2pt and ucx) refuses them: the wrapper still ran
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Win_allocate_shared(wsize, isz, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, x)
    if (ierr /= MPI_SUCCESS) then
      if (me == 0) print '(a)', 'ghost_fortran: MPI_Win_allocate_shared refused by this MPI''s osc (no shared windows); skipped'
    else
      call win_users(win, 'MPI_Win_allocate_shared')
      call c_f_pointer(transfer(base, p), wb, [4])
      call MPI_Win_lock_all(0, win, ierr)
      wb(1) = me * 10 + 2
      call MPI_Win_sync(win, ierr)
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      call MPI_Win_sync(win, ierr)
      call MPI_Win_shared_query(win, r, qsize, qdisp, base, ierr)
      call check(qsize == wsize .and. qdisp == isz, 'MPI_Win_shared_query size', int(qsize))
      call c_f_pointer(transfer(base, p), qb, [4])
      call check(qb(1) == r * 10 + 2, 'MPI_Win_allocate_shared: the right user''s segment', qb(1))
      call MPI_Win_unlock_all(win, ierr)
      call MPI_Win_free(win, ierr)
    end if
    call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call win_users(win, 'MPI_Win_create_dynamic')
    dbuf = -1
    call MPI_Win_attach(win, dbuf, wsize, ierr)
    call MPI_Get_address(dbuf, base, ierr)
    call MPI_Allgather(base, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD, ierr)
    call MPI_Win_fence(0, win, ierr)
    x = me * 10 + 3
    call MPI_Put(x, 1, MPI_INTEGER, r, addrs(r + 1), 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call check(dbuf(1) == l * 10 + 3, 'MPI_Win_create_dynamic: put from the left user', dbuf(1))
    call MPI_Win_detach(win, dbuf, ierr)
    call MPI_Win_free(win, ierr)
  contains
    subroutine win_users(w, what)
      integer, intent(in) :: w
      character(len=*), intent(in) :: what
      call MPI_Win_get_group(w, g, ierr)
      call MPI_Group_size(g, n, ierr)
      call check(n == np, what // ' group size', n)
      call MPI_Group_free(g, ierr)
    end subroutine
  end subroutine
end module
