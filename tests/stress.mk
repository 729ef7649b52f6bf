# (area fragment; see tests/Makefile.mk) randomized stress test with a
# reference model.  `make check` runs a short stream (STRESS_OPS default,
# 3000 operations per rank) in every mode; `make stress` runs at least
# STRESS_TOTAL_OPS operations over all ranks in the modes STRESS_MODES.
MPI_TESTS += tests/mpi/test_stress
tests_mpi_test_stress_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/mpi/test_stress_more.h tests/mpi/test_stress_gen.h tests/mpi/test_stress_check.h

STRESS_TOTAL_OPS = 1000000
STRESS_MODES = on off
STRESS_SEED = 20240601
STRESS_TIMEOUT = 3600
stress: tests/mpi/test_stress$(EXEEXT)
	@fail=0; for m in $(STRESS_MODES); do \
	  echo "== stress, mode $$m ($(NPROCS) ranks, $(STRESS_TOTAL_OPS) operations, seed $(STRESS_SEED))"; \
	  start=`date +%s`; \
	  TEST_RUNNER='$(TEST_RUNNER)' NPROCS='$(NPROCS)' MPI_FLAVOR='$(MPI_FLAVOR)' \
	  OMPI_OSC='$(OMPI_OSC)' STRESS_TOTAL_OPS='$(STRESS_TOTAL_OPS)' \
	  STRESS_SEED='$(STRESS_SEED)' TEST_TIMEOUT='$(STRESS_TIMEOUT)' \
	  $(SHELL) $(srcdir)/tests/run-mode.sh $$m tests/mpi/test_stress.$$m || fail=1; \
	  echo "== mode $$m: `expr \`date +%s\` - $$start` s"; \
	done; exit $$fail
.PHONY: stress
