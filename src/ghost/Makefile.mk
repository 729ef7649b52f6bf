if GHOST_PROGRESS
libarmci_core_la_SOURCES += \
	src/ghost/ghost.h \
	src/ghost/ghost_impl.h \
	src/ghost/ghost_init.c \
	src/ghost/ghost_pool.c \
	src/ghost/ghost_am.c \
	src/ghost/ghost_pmpi.c \
	src/ghost/ghost_fortran.c
endif
EXTRA_DIST += src/ghost/ghost_pmpi.def src/ghost/ghost_fortran.def
