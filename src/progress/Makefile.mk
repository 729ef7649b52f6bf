libarmci_la_SOURCES += \
	src/progress/progress.h \
	src/progress/progress_core.c
