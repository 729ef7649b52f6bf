# `make bench`: build and run every benchmarks/bench_* program listed in
# noinst_PROGRAMS and, with Global Arrays, the GA-level programs of
# benchmarks/ga (2 ranks on one node), saving each output under
# benchmarks/results/ in the build tree.  `make compare`: the side-by-side
# comparison with Debian's ARMCI-MPI (benchmarks/compare.sh).
# Never part of `make check`.
BENCH_RUNNER = $(TEST_RUNNER)
BENCH_NPROCS = 2
BENCH_LIST = $(filter benchmarks/bench_%,$(noinst_PROGRAMS))
BENCH_RESULTS = benchmarks/results

# The GA-level programs (benchmarks/ga/Makefile.mk; GA_BENCH_LIST is empty
# without Global Arrays) run after them, with GA_BENCH_ARGS (key=value
# sizes, see each program's header; default: the programs' own).
GA_BENCH_ARGS =

bench: $(BENCH_LIST:=$(EXEEXT)) $(GA_BENCH_LIST:=$(EXEEXT))
	@$(MKDIR_P) $(BENCH_RESULTS); \
	for p in $(BENCH_LIST); do \
	  n=`basename $$p`; echo "== $$n ($(BENCH_NPROCS) ranks)"; \
	  $(BENCH_RUNNER) $(BENCH_NPROCS) ./$$p$(EXEEXT) > $(BENCH_RESULTS)/$$n.txt 2>&1; \
	  rc=$$?; cat $(BENCH_RESULTS)/$$n.txt; \
	  test $$rc = 0 || { echo "bench: $$n failed (exit $$rc)"; exit 1; }; \
	done; \
	for p in $(GA_BENCH_LIST); do \
	  n=`basename $$p`; echo "== $$n ($(BENCH_NPROCS) ranks, Global Arrays)"; \
	  $(BENCH_RUNNER) $(BENCH_NPROCS) ./$$p$(EXEEXT) $(GA_BENCH_ARGS) > $(BENCH_RESULTS)/$$n.txt 2>&1; \
	  rc=$$?; cat $(BENCH_RESULTS)/$$n.txt; \
	  test $$rc = 0 || { echo "bench: $$n failed (exit $$rc)"; exit 1; }; \
	done

compare: libarmci.la
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  BENCH_RUNNER='$(BENCH_RUNNER)' BENCH_NPROCS='$(BENCH_NPROCS)' LTO_FLAGS='$(LTO_FLAGS)' \
	  $(SHELL) $(srcdir)/benchmarks/compare.sh $(COMPARE_ARGS)

.PHONY: bench compare
