! Ghost build, Fortran side: modules of tests/mpi/ghost_fortran.f90's
! program (compiled before it by tests/mpi/test_ghost_fortran.sh).
! ghost_fortran_base: this user's rank, the user count, fail and check.
! ghost_fortran_coll: every collective of src/ghost/ghost_fortran.def on
! MPI_COMM_WORLD, blocking and nonblocking (gather, scatter, allgather,
! alltoall and their v/w forms, reduce, reduce_scatter, scan, exscan), with
! roots other than rank 0, receive displacements in reversed rank order and
! a sentinel after the data; the ten neighbourhood collectives, Cart_coords
! and Cart_sub on a non-periodic grid made from the world.
module ghost_fortran_base
  implicit none
  include 'mpif.h'
  integer :: me = -1, np = 0
contains
  subroutine fail(what, got)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got
    integer :: e
    print '(a,i0,a,a,a,i0)', '[', me, '] FAIL ghost_fortran: ', what, ': got ', got
    call MPI_Abort(MPI_COMM_WORLD, 1, e)
  end subroutine

  subroutine check(ok, what, got)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer, intent(in) :: got
    if (.not. ok) call fail(what, got)
  end subroutine

  ! 'MPI_Igather' when nb (the nonblocking form), else 'MPI_Gather'
  function nm(nb, base)
    logical, intent(in) :: nb
    character(len=*), intent(in) :: base
    character(len=len(base) + 5) :: nm
    if (nb) then
      nm = 'MPI_I' // achar(iachar(base(1:1)) + 32) // base(2:)
    else
      nm = 'MPI_' // base
    end if
  end function

  ! completes a nonblocking collective (MPI_REQUEST_NULL after a blocking one)
  subroutine done(req)
    integer, intent(inout) :: req
    integer :: st(MPI_STATUS_SIZE), ierr
    call MPI_Wait(req, st, ierr)
  end subroutine

  ! displacements placing rank i-1's cnt(i) elements in reversed rank order
  function rev_displs(cnt) result(d)
    integer, intent(in) :: cnt(:)
    integer :: d(size(cnt)), i
    d(size(cnt)) = 0
    do i = size(cnt) - 1, 1, -1
      d(i) = d(i + 1) + cnt(i + 1)
    end do
  end function
end module

module ghost_fortran_coll
  use ghost_fortran_base
  implicit none
contains
  subroutine check_colls()
    integer :: k
    do k = 0, 1
      call rooted(k == 1)
      call vforms(k == 1)
      call alltoalls(k == 1)
      call reductions(k == 1)
    end do
    call check_neighbors()
  end subroutine

  ! Gather to the last user, Scatter from it, Allgather (blocking only:
  ! test_ghost_fortran's main program runs MPI_Iallgather)
  subroutine rooted(nb)
    logical, intent(in) :: nb
    integer :: ierr, req, i, root, x
    integer, volatile :: v
    integer, allocatable, volatile :: g(:)
    integer, allocatable :: a(:)
    allocate (g(np), a(np))
    root = np - 1
    req = MPI_REQUEST_NULL
    g = -1
    x = me * 3 + 1
    if (nb) then
      call MPI_Igather(x, 1, MPI_INTEGER, g, 1, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Gather(x, 1, MPI_INTEGER, g, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    do i = 1, np
      if (me == root) call check(g(i) == (i - 1) * 3 + 1, trim(nm(nb, 'Gather')) // ' element', g(i))
      if (me /= root) call check(g(i) == -1, trim(nm(nb, 'Gather')) // ' wrote a non-root', g(i))
    end do
    a = [((i - 1) * 7 + 2, i = 1, np)]
    v = -1
    if (nb) then
      call MPI_Iscatter(a, 1, MPI_INTEGER, v, 1, MPI_INTEGER, root, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Scatter(a, 1, MPI_INTEGER, v, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    call check(v == me * 7 + 2, trim(nm(nb, 'Scatter')), v)
    if (nb) return
    g = -1
    call MPI_Allgather(x, 1, MPI_INTEGER, g, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    do i = 1, np
      call check(g(i) == (i - 1) * 3 + 1, 'MPI_Allgather element', g(i))
    end do
  end subroutine

  ! Gatherv (root: the last user), Scatterv (root: user 1 mod np),
  ! Allgatherv: rank r's block is r+1 elements r*100+k, placed in reversed
  ! rank order; the element after the last block stays untouched
  subroutine vforms(nb)
    logical, intent(in) :: nb
    integer :: ierr, req, i, k, total, root
    integer :: cnt(np), dsp(np), mine(np)
    integer, allocatable, volatile :: buf(:)
    integer, allocatable :: sb(:)
    integer, volatile :: rv(np + 1)
    cnt = [(i, i = 1, np)]
    dsp = rev_displs(cnt)
    total = sum(cnt)
    allocate (buf(total + 1), sb(total))
    mine = [(me * 100 + k, k = 1, np)]
    req = MPI_REQUEST_NULL
    root = np - 1
    buf = -1
    if (nb) then
      call MPI_Igatherv(mine, me + 1, MPI_INTEGER, buf, cnt, dsp, MPI_INTEGER, root, &
                        MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Gatherv(mine, me + 1, MPI_INTEGER, buf, cnt, dsp, MPI_INTEGER, root, &
                       MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    if (me == root) call check_blocks(buf, trim(nm(nb, 'Gatherv')))
    buf = -1
    if (nb) then
      call MPI_Iallgatherv(mine, me + 1, MPI_INTEGER, buf, cnt, dsp, MPI_INTEGER, &
                           MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Allgatherv(mine, me + 1, MPI_INTEGER, buf, cnt, dsp, MPI_INTEGER, &
                          MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    call check_blocks(buf, trim(nm(nb, 'Allgatherv')))
    root = mod(1, np)
    do i = 1, np
      sb(dsp(i) + 1:dsp(i) + cnt(i)) = [((i - 1) * 100 + k, k = 1, cnt(i))]
    end do
    rv = -1
    if (nb) then
      call MPI_Iscatterv(sb, cnt, dsp, MPI_INTEGER, rv, me + 1, MPI_INTEGER, root, &
                         MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Scatterv(sb, cnt, dsp, MPI_INTEGER, rv, me + 1, MPI_INTEGER, root, &
                        MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    do k = 1, me + 1
      call check(rv(k) == me * 100 + k, trim(nm(nb, 'Scatterv')) // ' element', rv(k))
    end do
    call check(rv(me + 2) == -1, trim(nm(nb, 'Scatterv')) // ' wrote past the count', rv(me + 2))
  contains
    subroutine check_blocks(b, what)
      integer, intent(in) :: b(:)
      character(len=*), intent(in) :: what
      integer :: i, k
      do i = 1, np
        do k = 1, cnt(i)
          call check(b(dsp(i) + k) == (i - 1) * 100 + k, what // ' element', b(dsp(i) + k))
        end do
      end do
      call check(b(total + 1) == -1, what // ' wrote past the blocks', b(total + 1))
    end subroutine
  end subroutine

  ! Alltoall (blocking; the main program runs MPI_Ialltoall), Alltoallv
  ! (rank s sends each rank d s+1 elements s*10000+d*100+k, received in
  ! reversed rank order) and Alltoallw (one element each, byte
  ! displacements, reversed)
  subroutine alltoalls(nb)
    logical, intent(in) :: nb
    integer :: ierr, req, i, k, total, isz
    integer :: scnt(np), sdsp(np), rcnt(np), rdsp(np), types(np), sb(np * np)
    integer, allocatable, volatile :: buf(:)
    isz = storage_size(0) / 8
    types = MPI_INTEGER
    req = MPI_REQUEST_NULL
    rcnt = [(i, i = 1, np)]
    rdsp = rev_displs(rcnt)
    total = sum(rcnt)
    allocate (buf(total + 1))
    if (.not. nb) then
      sb(1:np) = [(me * 100 + i - 1, i = 1, np)]
      buf = -1
      call MPI_Alltoall(sb, 1, MPI_INTEGER, buf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
      do i = 1, np
        call check(buf(i) == (i - 1) * 100 + me, 'MPI_Alltoall element', buf(i))
      end do
    end if
    scnt = me + 1
    sdsp = [((i - 1) * (me + 1), i = 1, np)]
    do i = 1, np
      sb(sdsp(i) + 1:sdsp(i) + me + 1) = [(me * 10000 + (i - 1) * 100 + k, k = 1, me + 1)]
    end do
    buf = -1
    if (nb) then
      call MPI_Ialltoallv(sb, scnt, sdsp, MPI_INTEGER, buf, rcnt, rdsp, MPI_INTEGER, &
                          MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Alltoallv(sb, scnt, sdsp, MPI_INTEGER, buf, rcnt, rdsp, MPI_INTEGER, &
                         MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    do i = 1, np
      do k = 1, rcnt(i)
        call check(buf(rdsp(i) + k) == (i - 1) * 10000 + me * 100 + k, &
                   trim(nm(nb, 'Alltoallv')) // ' element', buf(rdsp(i) + k))
      end do
    end do
    call check(buf(total + 1) == -1, trim(nm(nb, 'Alltoallv')) // ' wrote past', buf(total + 1))
    scnt = 1
    rcnt = 1
    sb(1:np) = [(me * 100 + i - 1, i = 1, np)]
    sdsp = [((i - 1) * isz, i = 1, np)]
    rdsp = [((np - i) * isz, i = 1, np)]
    buf = -1
    if (nb) then
      call MPI_Ialltoallw(sb, scnt, sdsp, types, buf, rcnt, rdsp, types, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Alltoallw(sb, scnt, sdsp, types, buf, rcnt, rdsp, types, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    do i = 1, np
      call check(buf(np - i + 1) == (i - 1) * 100 + me, trim(nm(nb, 'Alltoallw')) // ' element', &
                 buf(np - i + 1))
    end do
    call check(buf(np + 1) == -1, trim(nm(nb, 'Alltoallw')) // ' wrote past', buf(np + 1))
  end subroutine

  ! Reduce to user np/2, Reduce_scatter (rank r gets r+1 sums),
  ! Reduce_scatter_block, Scan, Exscan: sums of rank-valued data
  subroutine reductions(nb)
    logical, intent(in) :: nb
    integer :: ierr, req, i, k, root, total, off
    integer :: x(2), cnt(np), sb(np * (np + 1) / 2)
    integer, volatile :: rv(np + 1), s
    req = MPI_REQUEST_NULL
    root = np / 2
    x = [me + 1, me * me]
    rv = -1
    if (nb) then
      call MPI_Ireduce(x, rv, 2, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Reduce(x, rv, 2, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    if (me == root) then
      call check(rv(1) == np * (np + 1) / 2, trim(nm(nb, 'Reduce')) // ' sum', rv(1))
      call check(rv(2) == (np - 1) * np * (2 * np - 1) / 6, trim(nm(nb, 'Reduce')) // ' squares', rv(2))
    end if
    cnt = [(i, i = 1, np)]
    total = sum(cnt)
    sb = [(me + k, k = 1, total)]
    rv = -1
    if (nb) then
      call MPI_Ireduce_scatter(sb, rv, cnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Reduce_scatter(sb, rv, cnt, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    off = me * (me + 1) / 2
    do k = 1, me + 1
      call check(rv(k) == np * (np - 1) / 2 + np * (off + k), &
                 trim(nm(nb, 'Reduce_scatter')) // ' element', rv(k))
    end do
    call check(rv(me + 2) == -1, trim(nm(nb, 'Reduce_scatter')) // ' wrote past', rv(me + 2))
    if (nb) then
      s = -1
      call MPI_Ireduce_scatter_block(sb, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
      call done(req)
      call check(s == np * (np - 1) / 2 + np * (me + 1), 'MPI_Ireduce_scatter_block', s)
    end if
    s = -1
    if (nb) then
      call MPI_Iscan(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Scan(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    call check(s == (me + 1) * (me + 2) / 2, trim(nm(nb, 'Scan')), s)
    s = -1
    if (nb) then
      call MPI_Iexscan(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    else
      call MPI_Exscan(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
    call done(req)
    if (me > 0) call check(s == me * (me + 1) / 2, trim(nm(nb, 'Exscan')), s)
  end subroutine

  ! a non-periodic grid from the world, row-major: 2-D (dims(1) x dims(2))
  ! for 4 users or more, else 1-D (Open MPI 4.1's Fortran
  ! MPI_Neighbor_alltoallw converts as many datatypes as the communicator
  ! has processes, not neighbours, and crashes when the neighbours are
  ! more).  The neighbours (dim 1 -, +, dim 2 -, +) are user ranks or
  ! MPI_PROC_NULL, whose slots stay -1; every neighbourhood collective in
  ! both forms
  subroutine check_neighbors()
    integer :: ierr, nd, deg, dims(2), c(2), grid, row, n, i, k, isz, req
    integer :: nbr(4), want(4), cnt(4), sdsp(4), rdsp(4), types(4), sb(8)
    integer(kind=MPI_ADDRESS_KIND) :: sdspb(4), rdspb(4)
    integer, volatile :: rb(9)
    integer, allocatable :: ranks(:)
    logical :: nb
    isz = storage_size(0) / 8
    nd = merge(2, 1, np >= 4)
    deg = 2 * nd
    dims = [0, 1]
    call MPI_Dims_create(np, nd, dims, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, nd, dims, [.false., .false.], .false., grid, ierr)
    c = 0
    call MPI_Cart_coords(grid, me, nd, c, ierr)
    call check(c(1) == me / dims(2) .and. c(2) == mod(me, dims(2)), 'MPI_Cart_coords row', c(1))
    want = MPI_PROC_NULL
    if (c(1) > 0) want(1) = me - dims(2)
    if (c(1) < dims(1) - 1) want(2) = me + dims(2)
    if (c(2) > 0) want(3) = me - 1
    if (c(2) < dims(2) - 1) want(4) = me + 1
    do i = 1, nd
      call MPI_Cart_shift(grid, i - 1, 1, nbr(2 * i - 1), nbr(2 * i), ierr)
    end do
    do k = 1, deg
      call check(nbr(k) == want(k), 'MPI_Cart_shift neighbour on the grid', nbr(k))
    end do
    ! the line along the last dimension through this user: its users, in order
    call MPI_Cart_sub(grid, [(i == nd, i = 1, nd)], row, ierr)
    call MPI_Comm_size(row, n, ierr)
    call check(n == dims(nd), 'MPI_Cart_sub size', n)
    allocate (ranks(n))
    call MPI_Allgather(me, 1, MPI_INTEGER, ranks, 1, MPI_INTEGER, row, ierr)
    do i = 1, n
      call check(ranks(i) == me - c(nd) + i - 1, 'MPI_Cart_sub member', ranks(i))
    end do
    call MPI_Comm_free(row, ierr)
    cnt = 1
    types = MPI_INTEGER
    sdsp = [(k - 1, k = 1, 4)]
    rdsp = [(deg - k, k = 1, 4)]
    sdspb = sdsp * isz
    rdspb = rdsp * isz
    do i = 0, 1
      nb = i == 1
      req = MPI_REQUEST_NULL
      ! allgather: each slot the neighbour's rank
      rb = -1
      if (nb) then
        call MPI_Ineighbor_allgather(me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, grid, req, ierr)
      else
        call MPI_Neighbor_allgather(me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, grid, ierr)
      end if
      call done(req)
      do k = 1, deg
        call slot(k, rb(k), nbr(k), nm(nb, 'Neighbor_allgather'))
      end do
      ! allgatherv: two elements each, slots in reversed order
      sb(1:2) = [me, me + 50]
      rb = -1
      if (nb) then
        call MPI_Ineighbor_allgatherv(sb, 2, MPI_INTEGER, rb, 2 * cnt, 2 * rdsp, MPI_INTEGER, &
                                      grid, req, ierr)
      else
        call MPI_Neighbor_allgatherv(sb, 2, MPI_INTEGER, rb, 2 * cnt, 2 * rdsp, MPI_INTEGER, &
                                     grid, ierr)
      end if
      call done(req)
      do k = 1, deg
        call slot(k, rb(2 * rdsp(k) + 1), nbr(k), nm(nb, 'Neighbor_allgatherv'))
        call slot(k, rb(2 * rdsp(k) + 2), nbr(k) + 50, nm(nb, 'Neighbor_allgatherv'))
      end do
      ! alltoall: block k goes to neighbour k, which receives it from the
      ! opposite side: slot k holds nbr(k)*10 + partner(k)
      sb(1:4) = [(me * 10 + k, k = 1, 4)]
      rb = -1
      if (nb) then
        call MPI_Ineighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, grid, req, ierr)
      else
        call MPI_Neighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, grid, ierr)
      end if
      call done(req)
      do k = 1, deg
        call slot(k, rb(k), nbr(k) * 10 + partner(k), nm(nb, 'Neighbor_alltoall'))
      end do
      ! v and w forms: received in reversed order
      rb = -1
      if (nb) then
        call MPI_Ineighbor_alltoallv(sb, cnt, sdsp, MPI_INTEGER, rb, cnt, rdsp, MPI_INTEGER, &
                                     grid, req, ierr)
      else
        call MPI_Neighbor_alltoallv(sb, cnt, sdsp, MPI_INTEGER, rb, cnt, rdsp, MPI_INTEGER, &
                                    grid, ierr)
      end if
      call done(req)
      do k = 1, deg
        call slot(k, rb(rdsp(k) + 1), nbr(k) * 10 + partner(k), nm(nb, 'Neighbor_alltoallv'))
      end do
      rb = -1
      if (nb) then
        call MPI_Ineighbor_alltoallw(sb, cnt, sdspb, types, rb, cnt, rdspb, types, grid, req, ierr)
      else
        call MPI_Neighbor_alltoallw(sb, cnt, sdspb, types, rb, cnt, rdspb, types, grid, ierr)
      end if
      call done(req)
      do k = 1, deg
        call slot(k, rb(rdsp(k) + 1), nbr(k) * 10 + partner(k), nm(nb, 'Neighbor_alltoallw'))
      end do
      call check(rb(deg + 1) == -1, trim(nm(nb, 'Neighbor_alltoallw')) // ' wrote past', rb(deg + 1))
    end do
    call MPI_Comm_free(grid, ierr)
  contains
    integer function partner(k)
      integer, intent(in) :: k
      partner = merge(k + 1, k - 1, mod(k, 2) == 1)
    end function
    ! neighbour k's slot holds want; MPI_PROC_NULL's stays -1
    subroutine slot(k, got, want, what)
      integer, intent(in) :: k, got, want
      character(len=*), intent(in) :: what
      if (nbr(k) == MPI_PROC_NULL) then
        call check(got == -1, trim(what) // ' wrote a MPI_PROC_NULL slot', got)
      else
        call check(got == want, trim(what) // ' slot', got)
      end if
    end subroutine
  end subroutine
end module
