# SPDX-License-Identifier: GPL-2.0
# The pure-C library for userspace, from the one list (sources.mk):
#
#   make -f kdb-itrace/lib/host.mk O=DIR [CC=gcc] [CFLAGS=...]
#
# builds DIR/libitrace.a from every source of the list, both arches'
# decoders included, with CFLAGS (each user its own: warnings as errors,
# sanitizers, -fPIC); programs link it and take only the members they
# use. Sources include each other from the root kdb-itrace/, and
# lib/compat.h takes lib/host/host_shim.h in place of <linux/*>.
# Objects are rebuilt when a source, a header (-MMD) or CFLAGS change.
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)
include $(TOP)/kdb-itrace/lib/sources.mk

ifeq ($(O),)
$(error O=DIR: where to build libitrace.a)
endif

SRCS := $(patsubst %,kdb-itrace/lib/%.c,$(itrace_lib) $(itrace_lib_xmon)) \
	$(patsubst %,arch/x86/lib/%.c,$(itrace_lib_x86)) \
	$(patsubst %,arch/powerpc/lib/%.c,$(itrace_lib_powerpc))
OBJS := $(patsubst %.c,$(O)/%.o,$(SRCS))

$(O)/libitrace.a: $(OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# a change of flags rebuilds everything
$(O)/cflags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS)' >$@

$(O)/%.o: $(TOP)/%.c $(O)/cflags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(TOP)/kdb-itrace -MMD -MP -c -o $@ $<

FORCE:
.PHONY: FORCE
-include $(OBJS:.o=.d)
