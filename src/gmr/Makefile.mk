libarmci_la_SOURCES += \
	src/gmr/gmr.h \
	src/gmr/gmr_table.c \
	src/gmr/gmr_region.c \
	src/gmr/gmr_xlate.c \
	src/gmr/gmr_ops.c \
	src/gmr/gmr_acc.c
