# (area fragment; see tests/Makefile.mk) progress engine tests
MPI_TESTS += tests/mpi/test_progress_thread tests/mpi/test_progress_profile
tests_mpi_test_progress_thread_LDADD = $(TEST_LIBS)
# links the library's objects: it asks for its region's window component
tests_mpi_test_progress_profile_LDADD = libarmci_core.la
MPI_TESTS += tests/mpi/test_ghost_world tests/mpi/test_ghost_world_xfer tests/mpi/test_ghost_acc
tests_mpi_test_ghost_world_LDADD = $(TEST_LIBS)
tests_mpi_test_ghost_world_xfer_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/mpi/ghost_world.h tests/mpi/region_pattern.h tests/mpi/adapt_check.h \
	tests/mpi/ghost_setting.h
# the wrapper lists agree with each other, the docs and the exported symbols
UNIT_SHELL_TESTS += tests/unit/test_ghost_defs.sh
# links the library's objects: it reads the internal redirection counter
tests_mpi_test_ghost_acc_LDADD = libarmci_core.la
# ghost build: accumulates and RMW applied by ghosts from messages (and
# through MPI RMA with ARMCI_GHOST_AM=off), the node-local path into pools
MPI_TESTS += tests/mpi/test_ghost_am
tests_mpi_test_ghost_am_LDADD = libarmci_core.la
MPI_TESTS += tests/mpi/test_ghost_regions
tests_mpi_test_ghost_regions_LDADD = libarmci_core.la
# more than 32 pools, freed-slice reuse, the full-pool fallback
MPI_TESTS += tests/mpi/test_ghost_pools
tests_mpi_test_ghost_pools_LDADD = libarmci_core.la
# ghost build: ARMCI_GHOST_ASYNC's default (automatic on a crowded host
# under an MPI that spins) and the environment's precedence over it
MPI_TESTS += tests/mpi/test_ghost_default
tests_mpi_test_ghost_default_LDADD = libarmci_core.la
# ghost build: ARMCI_GHOST_PUTGET's default (ON), its agreement (off if any
# process asks), and where puts and gets go with each value
MPI_TESTS += tests/mpi/test_ghost_putget
tests_mpi_test_ghost_putget_LDADD = libarmci_core.la
# ghost build: a user that dies without MPI_Finalize takes the job down
check_PROGRAMS += tests/mpi/ghost_userdeath
tests_mpi_ghost_userdeath_LDADD = $(TEST_LIBS)
MPI_SHELL_TESTS += tests/mpi/test_ghost_userdeath.sh
# ghost build: Fortran callers see the user world (compiled by the script)
MPI_SHELL_TESTS += tests/mpi/test_ghost_fortran.sh
EXTRA_DIST += tests/mpi/ghost_fortran.f90 tests/mpi/ghost_fortran_coll.f90 \
	tests/mpi/ghost_fortran_more.f90
# ghost build: an idle ghost naps (its CPU time while users sleep)
if GHOST_PROGRESS
MPI_TESTS += tests/mpi/test_ghost_idle
endif
tests_mpi_test_ghost_idle_LDADD = libarmci_core.la
# switching redirection (ARMCIX_Async_phase 1/0/-1, automatic decisions at
# barriers) while accumulates and fetch-and-adds flow; reads the current
# setting through an internal function, so it links the library's objects
MPI_TESTS += tests/mpi/test_adapt_switch
tests_mpi_test_adapt_switch_LDADD = libarmci_core.la
# switching inside a phase, without barriers (the ghosts' rounds under
# ARMCI_GHOST_ASYNC=AUTO, which the test sets), under load and a pool's
# creation; links the library's objects for the current setting
MPI_TESTS += tests/mpi/test_adapt_inphase
tests_mpi_test_adapt_inphase_LDADD = libarmci_core.la
# threaded runs have no automatic mode: ARMCI_GHOST_ASYNC=AUTO is one
# setting for the run (off on a crowded host), and ARMCIX_Async_phase(-1)
# returns to it; links the library's objects for the setting and counters
MPI_TESTS += tests/mpi/test_adapt_threaded
tests_mpi_test_adapt_threaded_LDADD = libarmci_core.la
# ghost build: a switch to "on" committed while the targets' users are
# parked in a barrier; their ghosts serve at once (side-by-side ratio)
if GHOST_PROGRESS
MPI_TESTS += tests/mpi/test_adapt_parked
endif
tests_mpi_test_adapt_parked_LDADD = libarmci_core.la
# ghost build: proposals that origins blocked in ARMCI_Lock cannot
# acknowledge back off; counts, not times
if GHOST_PROGRESS
MPI_TESTS += tests/mpi/test_adapt_drops
endif
tests_mpi_test_adapt_drops_LDADD = libarmci_core.la
