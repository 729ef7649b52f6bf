# (area fragment; see tests/Makefile.mk)
