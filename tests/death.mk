# (area fragment; see tests/Makefile.mk) processes that die: a rank killed
# in communication, in a barrier, holding a mutex; a ghost killed (ghost
# build).  The script runs its scenarios in mode vn2 only (two nodes).
check_PROGRAMS += tests/mpi/death
tests_mpi_death_LDADD = $(TEST_LIBS) -lpthread
tests_mpi_death_CFLAGS = $(AM_CFLAGS) -pthread
MPI_SHELL_TESTS += tests/mpi/test_death.sh
