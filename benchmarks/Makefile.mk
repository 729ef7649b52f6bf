# bench_async (progress engine): one op against a target computing T ms
noinst_PROGRAMS += benchmarks/bench_async
benchmarks_bench_async_LDADD = libarmci.la
# bench_malloc: ARMCI_Malloc + ARMCI_Free of one region, other regions alive
noinst_PROGRAMS += benchmarks/bench_malloc
benchmarks_bench_malloc_SOURCES = benchmarks/bench_malloc.c benchmarks/bench_common.h
benchmarks_bench_malloc_LDADD = libarmci.la

# The suite (contig, rmw, mutex, GA kernel): built by `make`, run by
# `make bench` (benchmarks/bench.mk), compared with another ARMCI by
# benchmarks/compare.sh.
BENCH_SUITE_CPPFLAGS = $(AM_CPPFLAGS)
noinst_PROGRAMS += benchmarks/bench_contig
benchmarks_bench_contig_SOURCES = benchmarks/bench_contig.c benchmarks/bench_common.h
benchmarks_bench_contig_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_contig_LDADD = libarmci.la
EXTRA_DIST += benchmarks/compare.sh benchmarks/bench.mk
# bench_strided: strided bandwidth per method vs raw MPI datatypes
noinst_PROGRAMS += benchmarks/bench_strided
benchmarks_bench_strided_LDADD = libarmci.la
noinst_PROGRAMS += benchmarks/bench_rmw benchmarks/bench_mutex benchmarks/bench_gakernel
benchmarks_bench_rmw_SOURCES = benchmarks/bench_rmw.c benchmarks/bench_common.h
benchmarks_bench_rmw_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_rmw_LDADD = libarmci.la
benchmarks_bench_mutex_SOURCES = benchmarks/bench_mutex.c benchmarks/bench_common.h
benchmarks_bench_mutex_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_mutex_LDADD = libarmci.la
benchmarks_bench_gakernel_SOURCES = benchmarks/bench_gakernel.c benchmarks/bench_common.h
benchmarks_bench_gakernel_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_gakernel_LDADD = libarmci.la
# bench_barrier: ARMCI_Barrier and armci_msg_barrier against MPI_Barrier
# and the Ibarrier-and-yield wait the library used before its node barrier
noinst_PROGRAMS += benchmarks/bench_barrier
benchmarks_bench_barrier_SOURCES = benchmarks/bench_barrier.c benchmarks/bench_common.h
benchmarks_bench_barrier_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_barrier_LDADD = libarmci.la
# bench_fop_forms: the raw MPI forms of a fetch-and-add (pure MPI), behind
# ARMCII_QUIRK_BY_REQUEST
noinst_PROGRAMS += benchmarks/bench_fop_forms
benchmarks_bench_fop_forms_SOURCES = benchmarks/bench_fop_forms.c benchmarks/bench_common.h
# bench_rma_forms: the same for put, get and accumulate (ARMCII_QUIRK_BY_REQUEST)
noinst_PROGRAMS += benchmarks/bench_rma_forms
benchmarks_bench_rma_forms_SOURCES = benchmarks/bench_rma_forms.c benchmarks/bench_common.h
# bench_patchget: every rank's strided patch gets, the library against the
# raw MPI forms (derived type, per row, MPI_NO_OP get-accumulate)
noinst_PROGRAMS += benchmarks/bench_patchget
benchmarks_bench_patchget_SOURCES = benchmarks/bench_patchget.c benchmarks/bench_common.h
benchmarks_bench_patchget_CPPFLAGS = $(BENCH_SUITE_CPPFLAGS)
benchmarks_bench_patchget_LDADD = libarmci.la
# bench_samewin: ARMCI_Put/Get vs raw MPI_Put/Get on the region's own
# window.  It reads the window through the internal translation, so it links
# the convenience library (hidden symbols resolve in a static link), with
# the library's own link-time optimisation so it times the same code as
# libarmci.so.
noinst_PROGRAMS += benchmarks/bench_samewin
benchmarks_bench_samewin_SOURCES = benchmarks/bench_samewin.c benchmarks/bench_common.h
benchmarks_bench_samewin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gmr
benchmarks_bench_samewin_LDFLAGS = $(LTO_FLAGS) $(NOINST_LDFLAGS)
benchmarks_bench_samewin_LDADD = libarmci_core.la
# bench_multiphase: phases alternating computation-heavy and
# communication-heavy patterns, ghost redirection off / on / user-guided /
# automatic (issue 13).  It prints the redirection setting at every step,
# read through an internal function, so it links the convenience library
# like bench_samewin.
noinst_PROGRAMS += benchmarks/bench_multiphase
benchmarks_bench_multiphase_LDFLAGS = $(LTO_FLAGS) $(NOINST_LDFLAGS)
benchmarks_bench_multiphase_LDADD = libarmci_core.la
EXTRA_DIST += benchmarks/async.sh benchmarks/pin.sh benchmarks/multiphase.sh benchmarks/getpath.sh benchmarks/idle_ghosts.sh benchmarks/advisor_validate.sh \
	benchmarks/mpi-bundle.sh benchmarks/mpis.sh benchmarks/model.py benchmarks/summary.sh benchmarks/samewin.sh \
	benchmarks/wait_spin.sh benchmarks/region_replay.py
# The results docs/performance.md's summary table is made from
# (tests/unit/test_summary.sh checks the table against them in any tree).
EXTRA_DIST += benchmarks/results/nwchem_vnodes.ompi.2core.txt benchmarks/results/ga_vnodes.ompi.2core.txt \
	benchmarks/results/ga_vnodes.mpich.2core.txt benchmarks/results/nwchem_ghosts.ompi.16core.txt \
	benchmarks/results/nwchem_tce_vnodes.ompi.2core.txt benchmarks/results/nwchem_tce_vnodes.mpich.2core.txt \
	benchmarks/results/nwchem_vnodes.mpich.2core.txt
