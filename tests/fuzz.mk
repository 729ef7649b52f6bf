# (area fragment; see tests/Makefile.mk) libFuzzer harnesses of the pure-C
# code that validates input: configuration parser, strided and vector
# descriptor checks (with the strided geometry) and the translation table.
# `make fuzz` builds them with clang (-fsanitize=fuzzer,address,undefined)
# and runs each for FUZZ_SECONDS over a copy of its seed corpus
# (tests/fuzz/corpus/<harness>/); it fails on any crash, sanitizer report or
# violated invariant, and skips with a message (exit 0) where clang's
# libFuzzer is missing.  Work files: fuzz/ in the build directory.
FUZZ_SECONDS ?= 20
FUZZ_CLANG ?= clang
FUZZ_HARNESSES = config iov table
fuzz:
	@FUZZ_CLANG='$(FUZZ_CLANG)' FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	  FUZZ_HARNESSES='$(FUZZ_HARNESSES)' CC='$(CC)' \
	  FUZZ_CPPFLAGS='$(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS)' \
	  $(SHELL) $(srcdir)/tests/fuzz/run.sh $(srcdir) fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz
.PHONY: fuzz clean-fuzz
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/fuzz_input.h tests/fuzz/fuzz_stubs.c \
	tests/fuzz/fuzz_config.c tests/fuzz/fuzz_iov.c tests/fuzz/fuzz_table.c tests/fuzz/corpus
