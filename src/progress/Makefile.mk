libarmci_core_la_SOURCES += \
	src/progress/progress.h \
	src/progress/progress_impl.h \
	src/progress/progress_core.c \
	src/progress/progress_thread.c \
	src/progress/progress_profile.c \
	src/progress/progress_adapt.c \
	src/progress/progress_round.c
