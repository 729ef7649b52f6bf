# armci-info: installed beside the library.  It reports the library's
# internal state (quirks, windows, topology), so it links the convenience
# library statically, as the unit tests do, instead of libarmci.la.
bin_PROGRAMS += armci-info
armci_info_SOURCES = \
	src/info/info.h \
	src/info/armci_info.c \
	src/info/info_windows.c \
	src/info/info_probe.c
armci_info_LDADD = libarmci_core.la
# installed: optimised as the library is (Makefile.am, AM_LDFLAGS)
armci_info_LDFLAGS = $(LTO_FLAGS)
