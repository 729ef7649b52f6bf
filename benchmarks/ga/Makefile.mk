# (area fragment; included from Makefile.am after benchmarks/Makefile.mk)
# GA-level benchmarks (issue 24): programs on the Global Arrays C API only,
# so the same sources build on any GA (benchmarks/ga/ga-compare.sh builds
# them on GA installs over this library and over GA's own runtimes).  Here
# they link Debian's static GA in front of libarmci.la, as tests/ga does
# (GA_LIBS, GA_CPPFLAGS and the ScaLAPACK stubs come from
# tests/ga/Makefile.mk).  With GA they are built by `make`, run at full
# size by `make bench` (benchmarks/bench.mk, GA_BENCH_LIST) and once in
# their small mode by `make check` in every transport mode
# (test_ga_bench.sh, which skips without GA).
GA_BENCH_PROGS = benchmarks/ga/ga_scf benchmarks/ga/ga_patch benchmarks/ga/ga_irreg \
	benchmarks/ga/ga_classes
GA_BENCH_COMMON = benchmarks/ga/gab.h
if GA_SCALAPACK_STUBS
GA_BENCH_COMMON += tests/ga/ga_scalapack_stub.c
endif
GA_BENCH_LIST =
if HAVE_GA
noinst_PROGRAMS += $(GA_BENCH_PROGS)
GA_BENCH_LIST += $(GA_BENCH_PROGS)
endif
MPI_SHELL_TESTS += benchmarks/ga/test_ga_bench.sh
EXTRA_DIST += benchmarks/ga/ga-compare.sh benchmarks/ga/ga-vnodes.sh benchmarks/ga/thread-perf-vnodes.sh benchmarks/ga/ga-bundle-build.sh benchmarks/ga/ga-bundle-run.sh \
	benchmarks/ga/ga-bundle-table.sh

benchmarks_ga_ga_scf_SOURCES = benchmarks/ga/ga_scf.c $(GA_BENCH_COMMON)
benchmarks_ga_ga_scf_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
benchmarks_ga_ga_scf_LDADD = $(GA_LIBS)

benchmarks_ga_ga_patch_SOURCES = benchmarks/ga/ga_patch.c $(GA_BENCH_COMMON)
benchmarks_ga_ga_patch_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
benchmarks_ga_ga_patch_LDADD = $(GA_LIBS)

benchmarks_ga_ga_irreg_SOURCES = benchmarks/ga/ga_irreg.c $(GA_BENCH_COMMON)
benchmarks_ga_ga_irreg_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
benchmarks_ga_ga_irreg_LDADD = $(GA_LIBS)

benchmarks_ga_ga_classes_SOURCES = benchmarks/ga/ga_classes.c $(GA_BENCH_COMMON)
benchmarks_ga_ga_classes_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
benchmarks_ga_ga_classes_LDADD = $(GA_LIBS)
