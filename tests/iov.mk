# Noncontiguous engine: strided and vector transfers, every
# method through tests/mpi/test_iov_methods.sh, the conflict tree and the
# strided iterator as unit tests, and the Open MPI indexed-accumulate probe.
MPI_TESTS += tests/mpi/test_strided tests/mpi/test_vector tests/mpi/test_sieve
MPI_SHELL_TESTS += tests/mpi/test_iov_methods.sh
UNIT_TESTS += tests/unit/test_avl tests/unit/test_strided_iter
check_PROGRAMS += tests/mpi/ompi_indexed_acc_repro
tests_mpi_test_strided_LDADD = $(TEST_LIBS)
tests_mpi_test_vector_LDADD = $(TEST_LIBS)
tests_mpi_test_sieve_LDADD = $(TEST_LIBS)
tests_unit_test_avl_LDADD = libarmci_core.la
tests_unit_test_strided_iter_LDADD = libarmci_core.la
check_PROGRAMS += tests/mpi/badinput_iov
tests_mpi_badinput_iov_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/mpi/badinput_iov.cases tests/mpi/ompi_indexed_acc_repro.c
# the classic stride iterator (iterator.h)
UNIT_TESTS += tests/unit/test_stride_info
tests_unit_test_stride_info_LDADD = libarmci_core.la
# bad input of the remaining families (tests/mpi/badinput_misc.cases)
check_PROGRAMS += tests/mpi/badinput_misc
tests_mpi_badinput_misc_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/mpi/badinput_misc.cases
