# SPDX-License-Identifier: GPL-2.0
# kdb-itrace top-level wrapper. The module itself is built by Kbuild.
#
#   make                 module for the project's own test kernel
#   make KDIR=/path      module for your kdb-enabled kernel build dir
#   make vm              boot the plugin in a VM at a kdb-ready shell
#   make check           every test; ends with "N passed, N failed"
#   make checkpatch      scripts/checkpatch.pl --strict on our sources
#   make sparse          the module built with C=1 (sparse)
#   make clean
#
# ITRACE_ARCH=x86_64 (default) selects the test kernel and VM arch.

ITRACE_ARCH ?= x86_64
export ITRACE_ARCH
Q := scripts/qemu

ifeq ($(KDIR),)
KDIR_CMD = $$($(Q)/build-kernel.sh)
else
KDIR_CMD = $(KDIR)
endif

.PHONY: all module vm check check-host check-vm checkpatch sparse clean

all: module

module:
	@kdir=$(KDIR_CMD) && $(MAKE) -C "$$kdir" M=$(CURDIR) W=1 modules

vm:
	@$(Q)/vm.sh

check:
	@tests/run-all.sh

check-host:
	@tests/run-all.sh host

check-vm:
	@tests/run-all.sh vm

checkpatch:
	@tests/checkpatch.sh

sparse:
	@kdir=$(KDIR_CMD) && $(MAKE) -C "$$kdir" M=$(CURDIR) W=1 C=2 modules

clean:
	@kdir=$$(ls -d $${ITRACE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/kdb-itrace}/kernel/$(ITRACE_ARCH)-* 2>/dev/null | head -1); \
	if [ -n "$$kdir" ]; then $(MAKE) -C "$$kdir" M=$(CURDIR) clean; fi
	rm -rf tests/host/build build
