! Ghost build, Fortran side (tests/mpi/test_ghost_fortran.sh): MPI_Init
! from Fortran creates the ghosts, MPI_COMM_WORLD counts the users only,
! collectives and MPI-IO on it work mixed with C callers (ARMCI_Barrier
! runs MPI_Barrier on the user world from C).  Argument 1: the expected
! number of users.  Exits non-zero with a message on any wrong answer.
program ghost_fortran
  use, intrinsic :: iso_c_binding
  implicit none
  include 'mpif.h'
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
  integer :: ierr, me, np, want, s, r, fh, res
  integer :: status(MPI_STATUS_SIZE)
  character(len=32) :: arg
  character(len=64) :: fname
  call get_command_argument(1, arg)
  read (arg, *) want
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
  call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, res, ierr)
  if (res /= MPI_IDENT) call fail('MPI_Comm_compare(world, world)', res)
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
  subroutine fail(what, got)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got
    integer :: e
    print '(a,i0,a,a,a,i0)', '[', me, '] FAIL ghost_fortran: ', what, ': got ', got
    call MPI_Abort(MPI_COMM_WORLD, 1, e)
  end subroutine
end program
