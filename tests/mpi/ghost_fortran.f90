! Ghost build, Fortran side (tests/mpi/test_ghost_fortran.sh): MPI_Init
! from Fortran creates the ghosts, and every wrapper of the Fortran list
! (src/ghost/ghost_fortran.def, version 2: all 119) called on MPI_COMM_WORLD
! sees the users only, mixed with C callers (ARMCI_Barrier runs
! MPI_Barrier on the user world from C).  Here: communicators and
! attributes, point-to-point (nonblocking, persistent, matched probes),
! some nonblocking collectives, topologies, packing, windows and MPI-IO;
! in the modules (ghost_fortran_coll.f90, ghost_fortran_more.f90): every
! collective in both forms, the neighbourhood collectives, every send mode
! and probe, intercommunicators, info, error handlers, graph topologies,
! allocated and dynamic windows.  Arguments: the expected number of users,
! the job size (users + ghosts: MPICH's Fortran PMPI_Comm_size calls the C
! MPI_Comm_size, which the ghost layer wraps, so the program cannot ask).
! Exits non-zero with a message naming the check on any wrong answer.
program ghost_fortran
  use, intrinsic :: iso_c_binding
  use ghost_fortran_base
  use ghost_fortran_coll
  use ghost_fortran_more
  implicit none
  interface
    integer(c_int) function armci_init() bind(C, name="ARMCI_Init")
      import :: c_int
    end function
    subroutine armci_barrier() bind(C, name="ARMCI_Barrier")
    end subroutine
    integer(c_int) function armci_finalize() bind(C, name="ARMCI_Finalize")
      import :: c_int
    end function
  end interface
  integer :: ierr, want, s, r, fh, job
  integer :: status(MPI_STATUS_SIZE)
  character(len=32) :: arg
  character(len=64) :: fname
  call get_command_argument(1, arg)
  read (arg, *) want
  call get_command_argument(2, arg)
  read (arg, *) job
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (np /= want) call fail('MPI_Comm_size(MPI_COMM_WORLD) counts ghosts', np)
  ierr = armci_init()
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call armci_barrier()
  call MPI_Allreduce(me, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (s /= np * (np - 1) / 2) call fail('MPI_Allreduce over the world', s)
  r = -1
  if (me == 0) r = 42
  call MPI_Bcast(r, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (r /= 42) call fail('MPI_Bcast over the world', r)
  if (me == 0) call MPI_Send(me + 7, 1, MPI_INTEGER, np - 1, 5, MPI_COMM_WORLD, ierr)
  if (me == np - 1) then
    call MPI_Recv(r, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, status, ierr)
    if (r /= 7) call fail('MPI_Send/MPI_Recv over the world', r)
  end if
  call check_comms()
  call check_p2p()
  call check_icolls()
  call check_topo()
  call check_win()
  call check_colls()
  call check_send_modes()
  call check_probes()
  call check_comm_more()
  call check_inter()
  call check_graphs()
  call check_wins()
  call get_environment_variable('GHOST_FORTRAN_FILE', fname)
  call MPI_File_open(MPI_COMM_WORLD, trim(fname), MPI_MODE_CREATE + MPI_MODE_WRONLY, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_File_open on the world', ierr)
  call MPI_File_close(fh, ierr)
  call armci_barrier()
  ierr = armci_finalize()
  call MPI_Finalize(ierr)
  if (me == 0) print '(a,i0,a)', 'PASS ghost_fortran (', np, ' users)'
contains
  ! dup, idup, split, create, names, attributes, Comm_free(world) guard
  subroutine check_comms()
    integer :: c, g, n, res, req, key, ierr, nlen
    integer :: status(MPI_STATUS_SIZE)
    logical :: flag, rflag
    integer(kind=MPI_ADDRESS_KIND) :: v, real, extra
    character(len=MPI_MAX_OBJECT_NAME) :: cname
    call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, res, ierr)
    call check(res == MPI_IDENT, 'MPI_Comm_compare(world, world)', res)
    call MPI_Comm_test_inter(MPI_COMM_WORLD, flag, ierr)
    call check(.not. flag, 'MPI_Comm_test_inter(world)', 1)
    call MPI_Comm_group(MPI_COMM_WORLD, g, ierr)
    call MPI_Group_size(g, n, ierr)
    call check(n == np, 'MPI_Comm_group size', n)
    call MPI_Comm_create(MPI_COMM_WORLD, g, c, ierr)
    call MPI_Comm_size(c, n, ierr)
    call check(n == np, 'MPI_Comm_create size', n)
    call MPI_Comm_free(c, ierr)
    call MPI_Group_free(g, ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, c, ierr)
    call MPI_Comm_compare(MPI_COMM_WORLD, c, res, ierr)
    call check(res == MPI_CONGRUENT, 'MPI_Comm_compare(world, dup)', res)
    call MPI_Comm_free(c, ierr)
    call MPI_Comm_idup(MPI_COMM_WORLD, c, req, ierr)
    call MPI_Wait(req, status, ierr)
    call MPI_Comm_size(c, n, ierr)
    call check(n == np, 'MPI_Comm_idup size', n)
    call MPI_Comm_free(c, ierr)
    call MPI_Comm_split(MPI_COMM_WORLD, 0, -me, c, ierr)
    call MPI_Comm_rank(c, n, ierr)
    call check(n == np - 1 - me, 'MPI_Comm_split rank', n)
    call MPI_Comm_free(c, ierr)
    call MPI_Comm_get_name(MPI_COMM_WORLD, cname, nlen, ierr)
    call check(cname(1:nlen) == 'MPI_COMM_WORLD', 'MPI_Comm_get_name length', nlen)
    call MPI_Comm_set_name(MPI_COMM_WORLD, 'fortran world', ierr)
    call MPI_Comm_get_name(MPI_COMM_WORLD, cname, nlen, ierr)
    call check(cname(1:nlen) == 'fortran world', 'MPI_Comm_set_name, length', nlen)
    call MPI_Comm_set_name(MPI_COMM_WORLD, 'MPI_COMM_WORLD', ierr)
    ! the application's attribute on the world
    extra = 0
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, extra, ierr)
    v = 4242
    call MPI_Comm_set_attr(MPI_COMM_WORLD, key, v, ierr)
    v = 0
    call MPI_Comm_get_attr(MPI_COMM_WORLD, key, v, flag, ierr)
    call check(flag .and. v == 4242, 'MPI_Comm_get_attr of a set attribute', int(v))
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, key, v, flag, ierr)
    call check(.not. flag, 'MPI_Comm_delete_attr left the attribute', 1)
    call MPI_Comm_free_keyval(key, ierr)
    ! predefined attributes describe the user world
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, v, flag, ierr)
    call check(flag .and. v >= 32767, 'MPI_TAG_UB', int(v))
    call PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, real, rflag, ierr)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, v, flag, ierr)
    call check(flag .eqv. rflag, 'MPI_UNIVERSE_SIZE present', int(v))
    if (flag .and. real >= job) call check(v == real - (job - np), &
                                              'MPI_UNIVERSE_SIZE (job-sized)', int(v))
    if (flag .and. real < job) call check(v == min(int(real), np), &
                                             'MPI_UNIVERSE_SIZE (oversubscribed)', int(v))
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, v, flag, ierr)
    call check(flag .and. (v == MPI_ANY_SOURCE .or. v == MPI_PROC_NULL .or. &
                           (v >= 0 .and. v < np)), 'MPI_IO', int(v))
    call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, n, flag, ierr)
    call check(flag .and. n >= 32767, 'MPI_Attr_get(MPI_TAG_UB)', n)
    ! freeing the world is an error, and the world survives it
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    c = MPI_COMM_WORLD
    call MPI_Comm_free(c, ierr)
    call check(ierr /= MPI_SUCCESS, 'MPI_Comm_free(world) succeeded', ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
    call check(n == np, 'world size after MPI_Comm_free(world)', n)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  end subroutine

  ! nonblocking, persistent, matched probes, Sendrecv_replace, pack
  subroutine check_p2p()
    integer :: l, r, v, ierr, reqs(2), msg, pos, psize, k
    integer, volatile :: rin, sout
    integer :: statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
    character(len=64) :: pbuf, rbuf
    l = mod(me + np - 1, np)
    r = mod(me + 1, np)
    call MPI_Irecv(rin, 1, MPI_INTEGER, l, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(me, 1, MPI_INTEGER, r, 1, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitall(2, reqs, statuses, ierr)
    call check(rin == l, 'MPI_Isend/MPI_Irecv', rin)
    call MPI_Recv_init(rin, 1, MPI_INTEGER, l, 2, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Send_init(sout, 1, MPI_INTEGER, r, 2, MPI_COMM_WORLD, reqs(2), ierr)
    do k = 1, 2
      sout = me * 10 + k
      call MPI_Startall(2, reqs, ierr)
      call MPI_Waitall(2, reqs, statuses, ierr)
      call check(rin == l * 10 + k, 'MPI_Send_init/MPI_Recv_init', rin)
    end do
    call MPI_Request_free(reqs(1), ierr)
    call MPI_Request_free(reqs(2), ierr)
    call MPI_Isend(me, 1, MPI_INTEGER, r, 3, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Mprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, msg, status, ierr)
    call check(status(MPI_SOURCE) == l, 'MPI_Mprobe source', status(MPI_SOURCE))
    call MPI_Mrecv(v, 1, MPI_INTEGER, msg, status, ierr)
    call MPI_Wait(reqs(2), status, ierr)
    call check(v == l, 'MPI_Mrecv', v)
    v = me
    call MPI_Sendrecv_replace(v, 1, MPI_INTEGER, r, 4, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &
                              status, ierr)
    call check(v == l .and. status(MPI_SOURCE) == l, 'MPI_Sendrecv_replace', v)
    call MPI_Pack_size(1, MPI_INTEGER, MPI_COMM_WORLD, psize, ierr)
    call check(psize >= 4 .and. psize <= 64, 'MPI_Pack_size', psize)
    pos = 0
    call MPI_Pack(me + 500, 1, MPI_INTEGER, pbuf, 64, pos, MPI_COMM_WORLD, ierr)
    call MPI_Sendrecv(pbuf, pos, MPI_PACKED, r, 5, rbuf, 64, MPI_PACKED, l, 5, &
                      MPI_COMM_WORLD, status, ierr)
    pos = 0
    call MPI_Unpack(rbuf, 64, pos, v, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(v == l + 500, 'MPI_Pack/MPI_Unpack', v)
  end subroutine

  ! nonblocking collectives in flight together
  subroutine check_icolls()
    integer :: ierr, i, reqs(5), sums(2)
    integer, volatile :: s, b
    integer, allocatable, volatile :: ag(:), at(:)
    integer, allocatable :: a(:)
    integer :: statuses(MPI_STATUS_SIZE, 5)
    allocate (ag(np), at(np), a(np))
    a = [(me * 100 + i - 1, i = 1, np)]
    b = me
    call MPI_Ibarrier(MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Iallreduce(me, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Iallgather(me, 1, MPI_INTEGER, ag, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Ialltoall(a, 1, MPI_INTEGER, at, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(4), ierr)
    call MPI_Ibcast(b, 1, MPI_INTEGER, np - 1, MPI_COMM_WORLD, reqs(5), ierr)
    call MPI_Waitall(5, reqs, statuses, ierr)
    call check(s == np * (np - 1) / 2, 'MPI_Iallreduce', s)
    call check(b == np - 1, 'MPI_Ibcast', b)
    do i = 1, np
      call check(ag(i) == i - 1, 'MPI_Iallgather element', ag(i))
      call check(at(i) == (i - 1) * 100 + me, 'MPI_Ialltoall element', at(i))
    end do
    call MPI_Reduce_scatter_block([(i - 1, i = 1, np)], sums(1), 1, MPI_INTEGER, MPI_SUM, &
                                  MPI_COMM_WORLD, ierr)
    call check(sums(1) == me * np, 'MPI_Reduce_scatter_block', sums(1))
  end subroutine

  ! cartesian topology from the world, neighborhood collectives on a ring
  subroutine check_topo()
    integer :: ierr, dims(2), coords(2), cart, ring, t, n, src, dst, nb(2), req
    logical :: periods(2)
    integer :: status(MPI_STATUS_SIZE)
    call MPI_Topo_test(MPI_COMM_WORLD, t, ierr)
    call check(t == MPI_UNDEFINED, 'MPI_Topo_test(world)', t)
    dims = 0
    periods = .false.
    call MPI_Dims_create(np, 2, dims, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
    call MPI_Comm_size(cart, n, ierr)
    call check(n == np, 'MPI_Cart_create size', n)
    call MPI_Cartdim_get(cart, n, ierr)
    call check(n == 2, 'MPI_Cartdim_get', n)
    call MPI_Cart_get(cart, 2, nb, periods, coords, ierr)
    call check(nb(1) == dims(1) .and. nb(2) == dims(2), 'MPI_Cart_get dim 1', nb(1))
    call MPI_Cart_rank(cart, coords, n, ierr)
    call check(n == me, 'MPI_Cart_rank', n)
    call MPI_Comm_free(cart, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, 1, [np], [.true.], .false., ring, ierr)
    call MPI_Cart_shift(ring, 0, 1, src, dst, ierr)
    call check(src == mod(me + np - 1, np) .and. dst == mod(me + 1, np), 'MPI_Cart_shift', src)
    call MPI_Neighbor_allgather(me, 1, MPI_INTEGER, nb, 1, MPI_INTEGER, ring, ierr)
    call check(nb(1) == src .and. nb(2) == dst, 'MPI_Neighbor_allgather', nb(1))
    nb = -1
    call MPI_Ineighbor_allgather(me, 1, MPI_INTEGER, nb, 1, MPI_INTEGER, ring, req, ierr)
    call MPI_Wait(req, status, ierr)
    call check(nb(1) == src .and. nb(2) == dst, 'MPI_Ineighbor_allgather', nb(2))
    call MPI_Comm_free(ring, ierr)
  end subroutine

  ! a window over the world has the users only
  subroutine check_win()
    integer :: ierr, win, g, n
    integer :: buf(4)
    integer(kind=MPI_ADDRESS_KIND) :: size
    size = 16
    call MPI_Win_create(buf, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_get_group(win, g, ierr)
    call MPI_Group_size(g, n, ierr)
    call check(n == np, 'MPI_Win_create group size', n)
    call MPI_Group_free(g, ierr)
    call MPI_Win_free(win, ierr)
  end subroutine
end program
