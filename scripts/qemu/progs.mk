# SPDX-License-Identifier: GPL-2.0
# The guest's user programs for one arch, which no kernel shapes: built
# once into O= (build/progs-ARCH/) and shared by every kernel of that
# arch (test, 6.12, stock, debug), rebuilt only when a source, a header
# it includes (-MMD) or this file changes. prepare.sh runs it with -j2
# under a lock and links the results into each kernel's build dir.
#   make -f progs.mk O=DIR TOP=CHECKOUT CC=TARGET-gcc [-k] [TARGETS]
# Targets: tp (tests/prog's static test programs), tp_calls (the
# dynamically linked PIE ones: tp_calls, tp_dlopen), tt (the transparency suite and its
# fuzzer), dump (itrace-dump's capture half). Default: all four.
# list-tp prints tp's names.

TP := tp_loop tp_spin tp_atomic tp_life tp_follow tp_ptrace tp_watch \
	tp_syscall tp_trig tp_trig_thr tp_tf tp_bigsym tp_cred tp_name tp_deep \
	tp_late tp_crash tp_values
TT := $(notdir $(basename $(wildcard $(TOP)/tests/transparency/progs/*.c)))
# raw_syscall.h, shared with the bench
INC := -I $(TOP)/tools/include
TTI := -I $(TOP)/tests/transparency $(INC)
# this file is in every rule's prerequisites: a changed flag rebuilds
MK := $(lastword $(MAKEFILE_LIST))

.PHONY: all tp tp_calls tt dump list-tp FORCE
all: tp tp_calls tt dump
# the static test programs' names, for prepare.sh (one list)
list-tp:
	@echo $(TP)
tp: $(addprefix $(O)/,$(TP))
tp_calls: $(O)/tp_calls $(O)/tp_dlopen
tt: $(addprefix $(O)/tt/,$(TT)) $(O)/tt_fuzz
dump: $(O)/itrace-dump $(O)/itrace

# -fno-inline: the VM tests find their functions' calls in the log
$(O)/tp_%: $(TOP)/tests/prog/tp_%.c $(MK)
	$(CC) -static -O1 -fno-inline -g $(INC) -MMD -MP -MF $@.d -o $@ $<

$(O)/tp_calls: $(TOP)/tests/prog/tp_calls.c $(MK)
	$(CC) -O1 -fno-inline -g -fPIE -pie $(INC) -MMD -MP -MF $@.d -o $@ $<

$(O)/tp_dlopen: $(TOP)/tests/prog/tp_dlopen.c $(MK)
	$(CC) -O1 -fno-inline -g -fPIE -pie $(INC) -MMD -MP -MF $@.d -o $@ $<

$(O)/tt/%: $(TOP)/tests/transparency/progs/%.c $(MK) | $(O)/tt
	$(CC) -static -O1 -g -pthread -Wall -Wextra -Werror $(TTI) -MMD -MP -MF $@.d -o $@ $<

$(O)/tt_fuzz: $(TOP)/tests/transparency/fuzz/tt_fuzz.c $(MK)
	$(CC) -static -O1 -g -pthread -Wall -Wextra -Werror $(TTI) -MMD -MP -MF $@.d -o $@ $<

# static, without elfutils (tools/itrace-dump/Makefile's capture-only:
# capture and text), with the pure-C library for this arch (lib/host.mk,
# its own objects in $(O)/lib); its headers listed, not generated
DUMP := main.c capfile.c drain.c text.c
$(O)/lib/libitrace.a: FORCE
	@$(MAKE) -s -f $(TOP)/kdb-itrace/lib/host.mk O=$(O)/lib CC="$(CC)" \
		AR="$(patsubst %gcc,%ar,$(CC))" CFLAGS=-O2

$(O)/itrace-dump: $(addprefix $(TOP)/tools/itrace-dump/,$(DUMP)) \
		$(wildcard $(TOP)/tools/itrace-dump/*.h $(TOP)/kdb-itrace/lib/*.h) \
		$(O)/lib/libitrace.a $(MK)
	$(CC) -static -O2 -D_GNU_SOURCE -DITRACE_DUMP_CAPTURE_ONLY \
		-I $(TOP)/kdb-itrace -o $@ $(filter %.c %.a,$^)

# the shell's itrace command (tools/itrace), static
$(O)/itrace: $(TOP)/tools/itrace/itrace.c $(MK)
	$(CC) -static -O2 -Wall -Wextra -Werror -o $@ $<

$(O)/tt:
	mkdir -p $@

# a failed compile leaves no stale binary behind
.DELETE_ON_ERROR:
-include $(wildcard $(O)/*.d $(O)/tt/*.d)
