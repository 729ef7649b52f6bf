! A Fortran Global Arrays program over this ARMCI (tests/ga/test_ga_fortran.sh):
! Debian's static GA is linked in front of this library, so every ARMCI call
! GA's Fortran API makes lands here.  Compiled with -fdefault-integer-8,
! because Debian's GA takes 8-byte Fortran integers and logicals
! (ga-config --fflags); the MPI libraries take 4-byte ones, so everything
! handed to MPI is integer(4).  Argument 1: the expected number of users
! (in the ghost build MPI_COMM_WORLD and GA count users only).  Prints
! "PASS ga_fortran (N users)" only when every check held, else each wrong
! value and exit status 1.
program ga_fortran
  implicit none
  include 'mpif.h'
#include "mafdecls.fh"
#include "global.fh"
  integer(4) :: ierr, comm, mpime, mpinp
  integer :: want, me, np, nfail, nd, ni, nj, nr, nc, i, j, p, nbr, nbc, k, v
  integer :: g_d, g_s, g_i, g_c, g_seen, g_a, g_b, g_ab
  integer :: ilo, ihi, jlo, jhi, cells, ival, ialpha, sub(1), dims(1), chunk(1)
  integer, parameter :: kinc = 16
  integer, allocatable :: map1(:), map2(:), ibuf(:, :), mine(:)
  double precision, allocatable :: dbuf(:, :), ea(:, :), eb(:, :), eab(:, :)
  double precision :: dalpha, dot
  character(len=32) :: arg

  nfail = 0
  call get_command_argument(1, arg)
  read (arg, *) want
  call MPI_Init(ierr)
  ! the parameter is integer(8) under -fdefault-integer-8: pass MPI a copy
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, mpime, ierr)
  call MPI_Comm_size(comm, mpinp, ierr)
  call ga_initialize()
  if (.not. ma_init(MT_DBL, 200000, 200000)) call ga_error('ma_init failed', 0)
  me = ga_nodeid()
  np = ga_nnodes()
  call checki('MPI_Comm_size(MPI_COMM_WORLD) = expected users', int(mpinp), want)
  call checki('ga_nodeid() = Fortran MPI_Comm_rank', me, int(mpime))
  call checki('ga_nnodes() = Fortran MPI_Comm_size', np, int(mpinp))

  ! ga_fill, then ga_put of patches spanning owners, read back whole
  nd = 2 * np + 3
  allocate (dbuf(nd + 3, nd))
  if (.not. ga_create(MT_DBL, nd, nd, 'fill-put', 0, 0, g_d)) call ga_error('create g_d', 0)
  call ga_fill(g_d, 1.5d0)
  call ga_sync()
  do j = 1, nd
    do i = 1, 2
      dbuf(i, j) = (2 * me + i) * 1000 + j
    end do
  end do
  call ga_put(g_d, 2 * me + 1, 2 * me + 2, 1, nd, dbuf, nd + 3)
  call ga_sync()
  dbuf = -7
  call ga_get(g_d, 1, nd, 1, nd, dbuf, nd + 3)
  do j = 1, nd
    do i = 1, nd
      if (i <= 2 * np) then
        call checkd('ga_put row, read back by ga_get', dbuf(i, j), dble(i * 1000 + j))
      else
        call checkd('ga_fill value, read back by ga_get', dbuf(i, j), 1.5d0)
      end if
    end do
  end do
  ! a patch inside the array whose leading dimension exceeds its height
  dbuf = -7
  call ga_get(g_d, 2, nd - 1, 3, nd - 1, dbuf, nd + 3)
  call checkd('ga_get inner patch (2,3)', dbuf(1, 1), 2003d0)
  call checkd('ga_get inner patch last row', dbuf(2 * np - 1, 1), dble(2 * np * 1000 + 3))
  call checkd('ga_get inner patch fill row', dbuf(nd - 2, nd - 3), 1.5d0)
  call checkd('ga_get left the rows below the patch alone', dbuf(nd - 1, 1), -7d0)

  ! ga_acc from every process into one patch: 3 rounds of (me+1)*(i+10j)*2
  if (.not. ga_create(MT_DBL, nd, nd, 'acc', 0, 0, g_s)) call ga_error('create g_s', 0)
  call ga_zero(g_s)
  do j = 1, 5
    do i = 1, 4
      dbuf(i, j) = (me + 1) * (i + 10 * j)
    end do
  end do
  dalpha = 2
  do k = 1, 3
    call ga_acc(g_s, 2, 5, 2, 6, dbuf, nd + 3, dalpha)
  end do
  call ga_sync()
  call ga_get(g_s, 1, nd, 1, nd, dbuf, nd + 3)
  do j = 1, nd
    do i = 1, nd
      v = 0
      if (i >= 2 .and. i <= 5 .and. j >= 2 .and. j <= 6) v = 3 * np * (np + 1) * ((i - 1) + 10 * (j - 1))
      call checkd('ga_acc sum over all processes', dbuf(i, j), dble(v))
    end do
  end do

  ! integer array, irregular distribution: row blocks of 1, 2, 3, ... rows,
  ! and two column blocks (3 and 4 columns) when the process count is even
  nbc = 1
  if (mod(np, 2) == 0) nbc = 2
  nbr = np / nbc
  allocate (map1(nbr), map2(nbc))
  do i = 1, nbr
    map1(i) = 1 + (i - 1) * i / 2
  end do
  map2(1) = 1
  if (nbc == 2) map2(2) = 4
  nr = nbr * (nbr + 1) / 2
  nc = 7
  if (.not. ga_create_irreg(MT_INT, nr, nc, 'irreg', map1, nbr, map2, nbc, g_i)) &
    call ga_error('create g_i', 0)
  cells = 0
  do p = 0, np - 1
    call ga_distribution(g_i, p, ilo, ihi, jlo, jhi)
    if (.not. (any(map1 == ilo) .and. any(map2 == jlo))) &
      call checki('irregular block starts at a map entry', ilo * 100 + jlo, -1)
    ! block i of the rows has i rows
    call checki('irregular block height', ihi - ilo + 1, minloc(abs(map1 - ilo), 1))
    cells = cells + (ihi - ilo + 1) * (jhi - jlo + 1)
  end do
  call checki('irregular blocks cover the array', cells, nr * nc)
  ival = 5
  call ga_fill(g_i, ival)
  allocate (ibuf(nr, nc))
  ibuf = 1
  ialpha = me + 1
  call ga_sync()
  call ga_acc(g_i, 1, nr, 1, nc, ibuf, nr, ialpha)
  call ga_sync()
  ibuf = 0
  call ga_get(g_i, 1, nr, 1, nc, ibuf, nr)
  do j = 1, nc
    do i = 1, nr
      call checki('integer ga_acc over the irregular array', ibuf(i, j), 5 + np * (np + 1) / 2)
    end do
  end do

  ! nga_read_inc: counter 1 hands out 0, 1, 2, ... once each (marked in
  ! g_seen), counter 2 steps by me+1
  dims(1) = 2
  chunk(1) = -1
  if (.not. nga_create(MT_INT, 1, dims, 'counters', chunk, g_c)) call ga_error('create g_c', 0)
  if (.not. ga_create(MT_INT, np * kinc, 1, 'seen', 0, 0, g_seen)) call ga_error('create g_seen', 0)
  call ga_zero(g_c)
  call ga_zero(g_seen)
  call ga_sync()
  allocate (mine(kinc))
  ival = 1
  do k = 1, kinc
    sub(1) = 1
    mine(k) = nga_read_inc(g_c, sub, 1)
    sub(1) = 2
    v = nga_read_inc(g_c, sub, me + 1)
    if (k > 1 .and. mine(k) <= mine(k - 1)) &
      call checki('nga_read_inc values rise for one caller', mine(k), mine(k - 1) + 1)
    if (mine(k) < 0 .or. mine(k) >= np * kinc) then
      call checki('nga_read_inc value in range', mine(k), -1)
    else
      call ga_acc(g_seen, mine(k) + 1, mine(k) + 1, 1, 1, ival, 1, ival)
    end if
  end do
  call ga_sync()
  deallocate (ibuf)
  allocate (ibuf(np * kinc, 1))
  call ga_get(g_seen, 1, np * kinc, 1, 1, ibuf, np * kinc)
  do i = 1, np * kinc
    call checki('each nga_read_inc value handed out once', ibuf(i, 1), 1)
  end do
  sub(1) = 1
  dims(1) = 2
  call nga_get(g_c, sub, dims, ibuf, chunk)
  call checki('counter 1 after every increment', ibuf(1, 1), np * kinc)
  call checki('counter 2 after every increment', ibuf(2, 1), kinc * np * (np + 1) / 2)

  ! ga_dgemm and ga_ddot on small matrices with integer entries (exact)
  ni = 5
  nj = 6
  allocate (ea(ni, nj), eb(nj, ni), eab(ni, ni))
  do j = 1, nj
    do i = 1, ni
      ea(i, j) = i + j
      eb(j, i) = i - 2 * j
    end do
  end do
  eab = matmul(ea, eb)
  if (.not. ga_create(MT_DBL, ni, nj, 'a', 0, 0, g_a)) call ga_error('create g_a', 0)
  if (.not. ga_create(MT_DBL, nj, ni, 'b', 0, 0, g_b)) call ga_error('create g_b', 0)
  if (.not. ga_create(MT_DBL, ni, ni, 'ab', 0, 0, g_ab)) call ga_error('create g_ab', 0)
  if (me == np - 1) call ga_put(g_a, 1, ni, 1, nj, ea, ni)
  if (me == 0) call ga_put(g_b, 1, nj, 1, ni, eb, nj)
  call ga_fill(g_ab, 9d0)
  call ga_sync()
  call ga_dgemm('n', 'n', ni, ni, nj, 1d0, g_a, g_b, 0d0, g_ab)
  dbuf = 0
  call ga_get(g_ab, 1, ni, 1, ni, dbuf, nd + 3)
  do j = 1, ni
    do i = 1, ni
      call checkd('ga_dgemm A*B', dbuf(i, j), eab(i, j))
    end do
  end do
  dot = ga_ddot(g_a, g_a)
  call checkd('ga_ddot(A, A)', dot, sum(ea * ea))

  call destroy(g_ab)
  call destroy(g_b)
  call destroy(g_a)
  call destroy(g_seen)
  call destroy(g_c)
  call destroy(g_i)
  call destroy(g_s)
  call destroy(g_d)
  ! the verdict is printed before anyone can exit: the launcher kills the
  ! job as soon as one process exits with status 1
  call ga_igop(1, nfail, 1, '+')
  if (me == 0 .and. nfail /= 0) print '(a,i0,a)', 'FAIL ga_fortran: ', nfail, ' wrong values'
  if (me == 0 .and. nfail == 0) print '(a,i0,a)', 'PASS ga_fortran (', np, ' users)'
  flush (6)
  call ga_sync()
  call ga_terminate()
  call MPI_Finalize(ierr)
  if (nfail /= 0) stop 1

contains

  ! one call per array: a chain of .and. may skip the collective calls
  subroutine destroy(g)
    integer, intent(in) :: g
    if (.not. ga_destroy(g)) call checki('ga_destroy returned .false. for handle', g, 0)
  end subroutine

  ! Every wrong value is counted; each process lists the first 3 of a run
  ! of failures of one check, so a broken operation does not hide the rest.
  logical function report(what)
    character(len=*), intent(in) :: what
    character(len=80), save :: last = ''
    integer, save :: run = 0
    nfail = nfail + 1
    if (what /= last) run = 0
    last = what
    run = run + 1
    report = run <= 3
  end function

  subroutine checki(what, got, expect)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got, expect
    if (got == expect) return
    if (report(what)) print '(a,i0,4a,i0,a,i0)', '[', me, '] FAIL ga_fortran: ', what, &
      ': ', 'got ', got, ', expected ', expect
    flush (6)
  end subroutine

  subroutine checkd(what, got, expect)
    character(len=*), intent(in) :: what
    double precision, intent(in) :: got, expect
    if (got == expect) return
    if (report(what)) print '(a,i0,4a,g0,a,g0)', '[', me, '] FAIL ga_fortran: ', what, &
      ': ', 'got ', got, ', expected ', expect
    flush (6)
  end subroutine
end program
