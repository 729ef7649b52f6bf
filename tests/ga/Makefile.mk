# (area fragment; see tests/Makefile.mk) -- Global Arrays over this ARMCI.
# Debian's static GA (libga-openmpi.a) is linked in front of libarmci.la, so
# every ARMCI call GA makes resolves to this library, never to Debian's
# libarmci.  Added to MPI_TESTS, the programs run in every transport mode.
GA_LIBS = $(GA_STATIC) libarmci.la $(GA_EXTRA_LIBS)
GA_COMMON = tests/ga/ga_util.h
if GA_SCALAPACK_STUBS
GA_COMMON += tests/ga/ga_scalapack_stub.c
endif
EXTRA_DIST += tests/ga/README-GA.md tests/ga/ga_scalapack_stub.c tests/ga/ga_fortran.F90

# The Fortran GA program is built by its shell test with the MPI's Fortran
# wrapper (configure looks for no Fortran compiler); it skips without GA.
MPI_SHELL_TESTS += tests/ga/test_ga_fortran.sh

if HAVE_GA
MPI_TESTS += \
	tests/ga/ga_types \
	tests/ga/ga_atomic \
	tests/ga/ga_nb \
	tests/ga/ga_dgemm \
	tests/ga/ga_ghosts \
	tests/ga/ga_groups
endif

tests_ga_ga_types_SOURCES = tests/ga/ga_types.c $(GA_COMMON)
tests_ga_ga_types_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_types_LDADD = $(GA_LIBS)

tests_ga_ga_atomic_SOURCES = tests/ga/ga_atomic.c $(GA_COMMON)
tests_ga_ga_atomic_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_atomic_LDADD = $(GA_LIBS)

tests_ga_ga_nb_SOURCES = tests/ga/ga_nb.c $(GA_COMMON)
tests_ga_ga_nb_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_nb_LDADD = $(GA_LIBS)

tests_ga_ga_dgemm_SOURCES = tests/ga/ga_dgemm.c $(GA_COMMON)
tests_ga_ga_dgemm_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_dgemm_LDADD = $(GA_LIBS)

tests_ga_ga_ghosts_SOURCES = tests/ga/ga_ghosts.c $(GA_COMMON)
tests_ga_ga_ghosts_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_ghosts_LDADD = $(GA_LIBS)

tests_ga_ga_groups_SOURCES = tests/ga/ga_groups.c $(GA_COMMON)
tests_ga_ga_groups_CPPFLAGS = $(AM_CPPFLAGS) $(GA_CPPFLAGS)
tests_ga_ga_groups_LDADD = $(GA_LIBS)
