libarmci_la_SOURCES += \
	src/mutex/mutex.h \
	src/mutex/mutex_core.c
