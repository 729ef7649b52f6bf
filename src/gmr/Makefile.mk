libarmci_core_la_SOURCES += \
	src/gmr/gmr.h \
	src/gmr/gmr_impl.h \
	src/gmr/gmr_table.c \
	src/gmr/gmr_region.c \
	src/gmr/gmr_recycle.c \
	src/gmr/gmr_slab.c \
	src/gmr/gmr_slices.c \
	src/gmr/gmr_comm.c \
	src/gmr/gmr_xlate.c \
	src/gmr/gmr_class.c \
	src/gmr/gmr_ops.c \
	src/gmr/gmr_xfer.c \
	src/gmr/gmr_acc.c \
	src/gmr/gmr_cset.c \
	src/gmr/gmr_local.c \
	src/gmr/gmr_yield.c \
	src/gmr/gmr_getpath.c
if GHOST_PROGRESS
libarmci_core_la_SOURCES += src/gmr/gmr_ghost.c src/gmr/gmr_ghost_msg.c
endif
