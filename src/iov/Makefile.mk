libarmci_core_la_SOURCES += \
	src/iov/iov.h \
	src/iov/iov_avl.c \
	src/iov/iov_iter.c \
	src/iov/iov_check.c \
	src/iov/iov_strided.c \
	src/iov/iov_methods.c \
	src/iov/iov_sieve.c
