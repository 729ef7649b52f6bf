libarmci_core_la_SOURCES += \
	src/common/common.h \
	src/common/common_acc.h \
	src/common/common_config.h \
	src/common/common_group.h \
	src/common/common_host.h \
	src/common/common_node.h \
	src/common/common_quirks.h \
	src/common/common_topo.h \
	src/common/common_wait.h \
	src/common/common_config.def \
	src/common/common_config.c \
	src/common/common_acc.c \
	src/common/common_error.c \
	src/common/common_death.c \
	src/common/common_init.c \
	src/common/common_quirks.c \
	src/common/common_topo.c \
	src/common/common_wait.c \
	src/common/common_node.c \
	src/common/common_group.c
