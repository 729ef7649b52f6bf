libarmci_la_SOURCES += \
	src/progress/progress.h \
	src/progress/progress_core.c \
	src/progress/progress_thread.c \
	src/progress/progress_profile.c
if GHOST_PROGRESS
libarmci_la_SOURCES += \
	src/progress/ghost_pmpi.c \
	src/progress/ghost_init.c \
	src/progress/ghost_region.c
endif
EXTRA_DIST += src/progress/libarmci_ghost.map
