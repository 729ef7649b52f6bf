# (area fragment; see tests/Makefile.mk) -- src/mutex: RMW and mutexes
MPI_TESTS += tests/mpi/test_rmw tests/mpi/test_mutex
tests_mpi_test_rmw_LDADD = $(TEST_LIBS)
tests_mpi_test_mutex_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/mpi/badinput_mutex
tests_mpi_badinput_mutex_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/mpi/badinput_mutex.cases
