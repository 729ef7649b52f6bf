# Tests: MPI programs run in every transport mode, unit tests without MPI.
# Each area adds to MPI_TESTS / MPI_SHELL_TESTS / UNIT_TESTS in its own
# fragment (tests/*.mk), so parallel work does not collide in one file.
MPI_TESTS = \
	tests/mpi/test_contig \
	tests/mpi/test_nb \
	tests/mpi/test_malloc \
	tests/mpi/test_recycle \
	tests/mpi/test_slab \
	tests/mpi/test_many_op_calls tests/mpi/test_flush_all_gets \
	tests/mpi/test_msg \
	tests/mpi/test_groups \
	tests/mpi/test_groups_noncoll \
	tests/mpi/test_groups_disjoint \
	tests/mpi/test_abi \
	tests/mpi/test_optional \
	tests/mpi/test_threads \
	tests/mpi/test_init_args
# tests/mpi/osc_usable answers whether an Open MPI osc component creates
# windows here (tests/ompi_only.sh caches it in tests/osc-usable.*).
CLEANFILES += tests/osc-usable.*
# MPI_PROBE_TESTS run the pure-MPI reproducers of the MPI bugs the library
# works around (none links libarmci): they test the MPI, so the sanitizer
# build and distcheck leave them out (RUN_MPI_PROBES=), the check stage
# runs them.  RUN_MPI_PROBES is what a make command line empties: the probe
# scripts stay in the tarball through EXTRA_DIST either way.
MPI_PROBE_TESTS = tests/mpi/test_ompi_pt2pt_getflush.sh tests/mpi/test_mpich_small_win.sh \
	tests/mpi/test_ompi_ucx_progress.sh tests/mpi/test_ompi_ucx_dynwin.sh \
	tests/mpi/test_launcher_exit0.sh tests/mpi/test_ompi_indexed_acc.sh tests/mpi/test_ompi_ucx_noise.sh tests/mpi/test_many_ops.sh \
	tests/mpi/test_mpich_flush_all.sh tests/mpi/test_mpit_thread_level.sh tests/mpi/test_rget_dtype.sh \
	tests/mpi/test_ompi_session_dir.sh tests/mpi/test_unsigned_minmax.sh
MPI_SHELL_TESTS = tests/mpi/test_badinput.sh tests/mpi/test_single.sh \
	tests/mpi/test_rma_target_progress.sh tests/mpi/test_info_probe.sh \
	tests/mpi/test_mpich_shm_rma.sh tests/mpi/test_abort_output.sh \
	tests/mpi/test_profile_classes.sh tests/mpi/test_threads_init.sh $(RUN_MPI_PROBES)
RUN_MPI_PROBES = $(MPI_PROBE_TESTS)
# which completion the MPI path's operations take between virtual nodes
MPI_SHELL_TESTS += tests/mpi/test_by_request.sh
# the node barrier's exchange among 3 nodes of unequal size (test_wait_yield)
MPI_SHELL_TESTS += tests/mpi/test_node_leaders.sh
UNIT_TESTS = tests/unit/test_table tests/unit/test_config tests/unit/test_adapt_decide \
	tests/unit/test_getpath
# SOURCE_TESTS check the source tree and its tools, not a build: the docs'
# tables against the results files and the configuration table, the
# scripts on fake inputs, generated tables against the headers.  Every
# build would run them alike, so the sanitizer, ghost and MPICH stages of
# tools/check-all.sh empty RUN_SOURCE_TESTS (as they do RUN_MPI_PROBES);
# the check stage and distcheck run them.
SOURCE_TESTS = tests/unit/test_readme_env.sh tests/unit/test_ga_runner.sh tests/unit/test_mpi_tree.sh \
	tests/unit/test_nwchem_compare.sh tests/unit/test_test_times.sh tests/unit/test_peer_tests.sh \
	tests/unit/test_spack_recipe.sh tests/unit/test_summary.sh \
	tests/unit/test_model.sh tests/unit/test_samewin.sh tests/unit/test_nwchem_bundle.sh \
	tests/unit/test_region_replay.sh
RUN_SOURCE_TESTS = $(SOURCE_TESTS)
UNIT_SHELL_TESTS = tests/unit/test_exports.sh tests/unit/test_armci_info.sh tests/unit/test_noinst_link.sh \
	$(RUN_SOURCE_TESTS)
tests_mpi_test_init_args_LDADD = $(TEST_LIBS)
# ARMCI_WAIT_YIELD: reads whether waits yielded through an internal
# counter, so it links the library's objects
MPI_TESTS += tests/mpi/test_wait_yield
tests_mpi_test_wait_yield_LDADD = libarmci_core.la
# whether MPI yields when idle: the library's reading against MPI_T's
MPI_SHELL_TESTS += tests/mpi/test_mpi_yields.sh
check_PROGRAMS += tests/mpi/mpi_yields
tests_mpi_mpi_yields_LDADD = libarmci_core.la
tests_mpi_test_threads_LDADD = $(TEST_LIBS) -lpthread
tests_mpi_test_threads_CFLAGS = $(AM_CFLAGS) -pthread
include tests/iov.mk
include tests/mutex.mk
include tests/progress.mk
include tests/fuzz.mk
include tests/stress.mk
include tests/badinput.mk
include tests/death.mk
include tests/ga/Makefile.mk
check_PROGRAMS += $(MPI_TESTS) $(UNIT_TESTS) tests/mpi/badinput \
	tests/mpi/ompi_pt2pt_getflush_repro tests/mpi/ompi_ucx_rma_progress_repro \
	tests/mpi/ompi_ucx_dynwin_repro tests/mpi/rma_target_progress_repro \
	tests/mpi/mpich_small_win_repro tests/mpi/many_ops_repro tests/mpi/exit0_repro tests/mpi/osc_usable \
	tests/mpi/mpich_shm_rma_repro tests/mpi/mpich_flush_all_repro tests/mpi/rget_dtype_repro tests/mpi/abort_output \
	tests/mpi/mpit_thread_level_repro tests/mpi/session_dir_repro tests/mpi/unsigned_minmax_repro
EXTRA_DIST += tests/README.md tests/run-mode.sh tests/test-times.sh tests/ompi_only.sh tests/build_facts.sh tests/testutil.h tests/unit/unit_check.h tests/unit/expect.sh \
	tests/mpi/repro_watchdog.h tests/mpi/test_threads_shared.h tests/check-skips.sh tests/skips.allow \
	$(MPI_SHELL_TESTS) $(MPI_PROBE_TESTS) $(UNIT_SHELL_TESTS) $(SOURCE_TESTS)

TEST_EXTENSIONS = .on .off .vn2 .pt2pt .ucx
ON_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh on
OFF_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh off
VN2_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh vn2
PT2PT_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh pt2pt
UCX_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-mode.sh ucx
AM_TESTS_ENVIRONMENT = TEST_RUNNER='$(TEST_RUNNER)'; NPROCS='$(NPROCS)'; \
	TESTS_SRCDIR='$(srcdir)/tests'; TESTS_BUILDDIR='$(builddir)/tests'; \
	TEST_VIRTUAL_NODE_SIZE='$(TEST_VIRTUAL_NODE_SIZE)'; \
	MPI_FLAVOR='$(MPI_FLAVOR)'; OMPI_OSC='$(OMPI_OSC)'; MPI_BINDIR='$(MPI_BINDIR)'; MPIFC='$(MPIFC_TESTS)'; \
	GA_STATIC='$(GA_STATIC)'; GA_EXTRA_LIBS='$(GA_EXTRA_LIBS)'; GA_CONFIG='$(GA_CONFIG)'; \
	export TEST_RUNNER NPROCS TESTS_SRCDIR TESTS_BUILDDIR TEST_VIRTUAL_NODE_SIZE \
	  MPI_FLAVOR OMPI_OSC MPI_BINDIR MPIFC GA_STATIC GA_EXTRA_LIBS GA_CONFIG;

# The shell tests first: they hold the longest runs (each many launches);
# started last, they ran alone on one of CI's two cores at the end.
ALL_MPI_TESTS = $(MPI_SHELL_TESTS) $(MPI_TESTS)
TESTS += $(UNIT_TESTS) $(UNIT_SHELL_TESTS)

# The MPI tests run once per transport mode, from check-local, through
# automake's harness with TESTS given on the sub-make's command line.  Each
# test is an empty stamp modes/MODE/<program>.MODE: the mode directory gives
# every mode its own .log/.trs (automake names them after the stem), and the
# list is built at make time because automake rewrites any program list it
# can see in TESTS (it would drop the mode suffix).  One summary per mode:
# test-suite-MODE.log.  `make check-mode MODE=off` runs one mode.
# The modes run side by side, one sub-make each under make's job limit:
# run one after the other, each mode's last tests left job slots idle
# until its slowest ended (benchmarks/results/ci_times.txt).  -k: a
# failing mode stops none of the others (make still fails); an empty
# CHECK_MODES runs no mode, not make's default goal.  MODE_TESTS_<mode>,
# where set, replaces ALL_MPI_TESTS for that mode alone (the sanitizer
# stage runs mode on's own tests beside its mode vn2).
CHECK_MODES = on off vn2 pt2pt ucx
modes/on/%.on modes/off/%.off modes/vn2/%.vn2 modes/pt2pt/%.pt2pt modes/ucx/%.ucx:
	@$(MKDIR_P) $(@D) && : > $@
check-modes: $(check_PROGRAMS)
	@$(if $(strip $(CHECK_MODES)),$(MAKE) $(AM_MAKEFLAGS) -k $(CHECK_MODES:%=check-modes-run-%),:)
check-modes-run-%:
	@stamps=; for t in $(or $(MODE_TESTS_$*),$(ALL_MPI_TESTS)); do stamps="$$stamps modes/$*/$$t.$*"; done; \
	echo "== MPI tests, mode $* ($(NPROCS) ranks)"; \
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS="$$stamps" TEST_SUITE_LOG=test-suite-$*.log
check-local: check-modes
# Builds every test program without running one: the MPICH stages of
# tools/check-all.sh run their tests one job at a time but build in
# parallel first (benchmarks/results/ci_times.txt).
check-programs: $(check_PROGRAMS)
check-mode:
	$(MAKE) $(AM_MAKEFLAGS) check-modes CHECK_MODES='$(MODE)'
# The ghost-progress build (configure --enable-ghost-progress), run by
# tools/check-all.sh: 6 ranks on virtual nodes of 2 users in every mode, so
# each virtual node carries 1 ghost (2 nodes x (2 users + 1 ghost)) and
# operations between the nodes reach ghosts; modes: node-local path on and
# off, and the osc components whose accumulates need target progress.
# The method matrix and MPI-bug probes of the other shell tests do not
# depend on the build flavour; the bad-input aborts (abort paths with
# ghosts), the Fortran programs (world hiding from Fortran, GA's
# Fortran API over the ghost build) and threads after ARMCI_Init (GA's
# OpenMP programs crashed MPICH's ghost build) do.
GHOST_NPROCS = 6
GHOST_MODES = vn2 off pt2pt ucx
check-ghost:
	$(MAKE) $(AM_MAKEFLAGS) check NPROCS=$(GHOST_NPROCS) CHECK_MODES='$(GHOST_MODES)' \
	  TEST_VIRTUAL_NODE_SIZE=2 \
	  MPI_SHELL_TESTS="tests/mpi/test_badinput.sh tests/mpi/test_abort_output.sh tests/mpi/test_ghost_userdeath.sh benchmarks/ga/test_ga_bench.sh \
	    tests/mpi/test_ghost_fortran.sh tests/ga/test_ga_fortran.sh tests/mpi/test_death.sh \
	    tests/mpi/test_threads_init.sh tests/mpi/test_by_request.sh"
# The ghost build under MPICH, in CI (tools/check-all.sh): the ghost tests
# (memory pools, world hiding in C and Fortran, redirection, switching
# under load, Fortran GA, processes that die) in mode vn2 only, to keep
# CI's time.
GHOST_SMOKE_TESTS = tests/mpi/test_ghost_acc tests/mpi/test_ghost_am tests/mpi/test_ghost_regions tests/mpi/test_ghost_pools \
	tests/mpi/test_ghost_world tests/mpi/test_ghost_world_xfer tests/mpi/test_adapt_switch tests/mpi/test_adapt_inphase tests/mpi/test_adapt_threaded \
	tests/mpi/test_ghost_idle tests/mpi/test_ghost_default tests/mpi/test_ghost_putget \
	tests/mpi/test_ghost_fortran.sh tests/ga/test_ga_fortran.sh tests/mpi/test_death.sh
check-ghost-smoke: $(check_PROGRAMS)
	$(MAKE) $(AM_MAKEFLAGS) check-modes NPROCS=$(GHOST_NPROCS) CHECK_MODES=vn2 \
	  TEST_VIRTUAL_NODE_SIZE=2 ALL_MPI_TESTS='$(GHOST_SMOKE_TESTS)'
clean-local: clean-modes
clean-modes:
	rm -rf modes test-suite-*.log
.PHONY: check-modes check-programs check-mode check-ghost check-ghost-smoke clean-modes

TEST_LIBS = libarmci.la
tests_mpi_test_contig_LDADD = $(TEST_LIBS)
tests_mpi_test_nb_LDADD = $(TEST_LIBS)
tests_mpi_test_malloc_LDADD = $(TEST_LIBS)
tests_mpi_test_recycle_LDADD = $(TEST_LIBS)
# (test_slab counts what went to ghosts: armcii_gmr_redirected)
tests_mpi_test_slab_LDADD = libarmci_core.la
tests_mpi_test_many_op_calls_LDADD = $(TEST_LIBS)
tests_mpi_test_flush_all_gets_LDADD = $(TEST_LIBS)
tests_mpi_test_msg_LDADD = $(TEST_LIBS)
tests_mpi_test_groups_LDADD = $(TEST_LIBS)
tests_mpi_test_groups_noncoll_LDADD = $(TEST_LIBS)
tests_mpi_test_groups_disjoint_LDADD = $(TEST_LIBS)
tests_mpi_test_abi_LDADD = $(TEST_LIBS)
tests_mpi_test_optional_LDADD = $(TEST_LIBS)
tests_mpi_badinput_LDADD = $(TEST_LIBS)
tests_mpi_abort_output_LDADD = $(TEST_LIBS)

# Unit tests call internal functions: they link the convenience library
# (hidden symbols resolve in a static link); none of them calls MPI.
tests_unit_test_table_LDADD = libarmci_core.la
tests_unit_test_config_LDADD = libarmci_core.la
tests_unit_test_adapt_decide_LDADD = libarmci_core.la
tests_unit_test_getpath_LDADD = libarmci_core.la
