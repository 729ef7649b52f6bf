libarmci_core_la_SOURCES += \
	src/armci/armci_api.h \
	src/armci/armci_init.c \
	src/armci/armci_contig.c \
	src/armci/armci_nb.c \
	src/armci/armci_sync.c \
	src/armci/armci_memory.c \
	src/armci/armci_groups.c \
	src/armci/armci_msg.c \
	src/armci/armci_domain.c \
	src/armci/armci_strided.c \
	src/armci/armci_vector.c \
	src/armci/armci_mutex.c \
	src/armci/armci_progress.c \
	src/armci/armci_notify.c \
	src/armci/armci_stride_info.c
