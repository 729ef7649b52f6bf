libarmci_la_SOURCES += \
	src/iov/iov.h \
	src/iov/iov_avl.c \
	src/iov/iov_iter.c \
	src/iov/iov_strided.c \
	src/iov/iov_methods.c \
	src/iov/iov_quirks.c
