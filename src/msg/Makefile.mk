libarmci_core_la_SOURCES += \
	src/msg/msg.h \
	src/msg/msg_coll.c \
	src/msg/msg_notify.c
