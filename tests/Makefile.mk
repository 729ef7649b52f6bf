# Tests: MPI programs run in every transport mode, unit tests without MPI.
# Each area adds to MPI_TESTS / MPI_SHELL_TESTS / UNIT_TESTS in its own
# fragment (tests/*.mk), so parallel work does not collide in one file.
MPI_TESTS = \
	tests/mpi/test_contig \
	tests/mpi/test_nb \
	tests/mpi/test_malloc \
	tests/mpi/test_msg \
	tests/mpi/test_groups \
	tests/mpi/test_groups_noncoll \
	tests/mpi/test_abi
MPI_SHELL_TESTS = tests/mpi/test_badinput.sh
UNIT_TESTS = tests/unit/test_table tests/unit/test_config
UNIT_SHELL_TESTS = tests/unit/test_readme_env.sh tests/unit/test_exports.sh
include tests/iov.mk
include tests/mutex.mk
include tests/progress.mk
include tests/ga/Makefile.mk
check_PROGRAMS += $(MPI_TESTS) $(UNIT_TESTS) tests/mpi/badinput
EXTRA_DIST += tests/run-mode.sh tests/testutil.h $(MPI_SHELL_TESTS) $(UNIT_SHELL_TESTS)

TEST_EXTENSIONS = .on .off .vn2 .pt2pt .ucx
ON_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh on
OFF_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh off
VN2_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh vn2
PT2PT_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh pt2pt
UCX_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh ucx
AM_TESTS_ENVIRONMENT = TEST_RUNNER='$(TEST_RUNNER)'; NPROCS='$(NPROCS)'; \
	TESTS_SRCDIR='$(srcdir)/tests'; TESTS_BUILDDIR='$(builddir)/tests'; \
	export TEST_RUNNER NPROCS TESTS_SRCDIR TESTS_BUILDDIR;

ALL_MPI_TESTS = $(MPI_TESTS) $(MPI_SHELL_TESTS)
MODE_TESTS = $(ALL_MPI_TESTS:=.on) $(ALL_MPI_TESTS:=.off) $(ALL_MPI_TESTS:=.vn2) \
	$(ALL_MPI_TESTS:=.pt2pt)
TESTS += $(UNIT_TESTS) $(UNIT_SHELL_TESTS) $(MODE_TESTS)
CLEANFILES += $(MODE_TESTS)

# Each "prog.MODE" test is an empty stamp naming the program and its mode.
$(MODE_TESTS):
	@$(MKDIR_P) $(@D) && : > $@

# The MPI-mode tests of one mode only, e.g. `make check-mode MODE=off`.
check-mode:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(addsuffix .$(MODE),$(ALL_MPI_TESTS))'

TEST_LIBS = libarmci.la
tests_mpi_test_contig_LDADD = $(TEST_LIBS)
tests_mpi_test_nb_LDADD = $(TEST_LIBS)
tests_mpi_test_malloc_LDADD = $(TEST_LIBS)
tests_mpi_test_msg_LDADD = $(TEST_LIBS)
tests_mpi_test_groups_LDADD = $(TEST_LIBS)
tests_mpi_test_groups_noncoll_LDADD = $(TEST_LIBS)
tests_mpi_test_abi_LDADD = $(TEST_LIBS)
tests_mpi_badinput_LDADD = $(TEST_LIBS)

tests_unit_test_table_SOURCES = tests/unit/test_table.c src/gmr/gmr_table.c
tests_unit_test_config_SOURCES = tests/unit/test_config.c src/armci/armci_config.c
# Per-target flags give the unit tests their own objects of the shared sources.
tests_unit_test_table_CFLAGS = $(AM_CFLAGS)
tests_unit_test_config_CFLAGS = $(AM_CFLAGS)
