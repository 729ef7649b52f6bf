if GHOST_PROGRESS
libarmci_core_la_SOURCES += \
	src/ghost/ghost.h \
	src/ghost/ghost_init.c \
	src/ghost/ghost_pmpi.c
endif
