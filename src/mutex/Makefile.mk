libarmci_core_la_SOURCES += \
	src/mutex/mutex.h \
	src/mutex/mutex_core.c \
	src/mutex/mutex_hdl.c \
	src/mutex/mutex_rmw.c
