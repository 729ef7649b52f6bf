libarmci_la_SOURCES += \
	src/armci/armci_int.h \
	src/armci/armci_config.c \
	src/armci/armci_error.c \
	src/armci/armci_init.c \
	src/armci/armci_contig.c \
	src/armci/armci_nb.c \
	src/armci/armci_sync.c \
	src/armci/armci_memory.c \
	src/armci/armci_groups.c \
	src/armci/armci_msg.c \
	src/armci/armci_domain.c \
	src/armci/armci_strided.c \
	src/armci/armci_vector.c
