# SPDX-License-Identifier: GPL-2.0
# kdb-itrace top-level wrapper. The module itself is built by Kbuild.
#
#   make                 module for the project's own test kernel, and
#                        tools/itrace-dump (needs libdw-dev and
#                        libcapstone-dev) and
#                        tools/itrace (the shell's itrace command)
#   make tools           the two tools alone
#   make KDIR=/path      module for your kernel's build dir
#                        (pass ARCH=/CROSS_COMPILE= as for that kernel)
#   make install         build and install for the running kernel (or
#                        KDIR=...): modules_install into
#                        /lib/modules/<release>/updates, then depmod
#                        (INSTALL_MOD_PATH=DIR: under DIR instead); and
#                        itrace-dump into $(DESTDIR)$(PREFIX)/bin and
#                        itrace into $(DESTDIR)$(PREFIX)/sbin
#                        (PREFIX=/usr/local)
#   make dkms-install    sources to /usr/src/kdb-itrace-<version>, then
#                        dkms add, build and install for the running
#                        kernel and every later one (dkms.conf)
#   make dkms-remove     dkms remove --all, and the /usr/src copy
#   make vm              boot the plugin in a VM at a kdb-ready shell
#   make vm ARCH=ppc64le the same on POWER9 (pseries, qemu TCG)
#   make check           every test, both arches, the 5.10, 6.1 and 7.3
#                        test kernels and Debian's stock 6.1 and 6.12
#                        ones; ends with "N passed, N failed" (SKIP
#                        lines, counted apart: what the machine cannot
#                        fetch, tests/run-all.sh)
#   make bench           timings: host per-record cost, then per arch
#                        untraced / ptrace / itrace in one VM boot
#                        (docs/BENCH.md; never part of make check)
#   make fuzz-traced     the traced-program fuzzer (tests/transparency/
#                        fuzz) in the test VM over many seeds:
#                        ITRACE_TT_SEEDS (default 1..200), untraced and
#                        traced in every mode each; ARCH=ppc64le as for vm
#   make fuzz            libFuzzer runs of the parser, decoders, ring,
#                        formatter, ELF reader and condition compiler
#                        (ITRACE_FUZZ_SECS=60: 5 minutes of fuzzing,
#                        ITRACE_FUZZ_JOBS at a time, default the cores)
#   make check-debug     the VM tests, both arches, on the debug kernels
#                        (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak;
#                        scripts/qemu/config/*debug.config): any report
#                        fails; ends with "N passed, N failed" (ppc64le:
#                        a subset; docs/DEVELOPING.md)
#   make checkpatch      the style group: the layers (below),
#                        checkpatch.pl --strict, W=1 and sparse builds
#   make check-layers    the folders' layers and include rules
#                        (scripts/check-layers.py, scripts/layers.conf)
#   make sparse          the module built with C=1 (sparse)
#   make clean
#
# ITRACE_ARCH=x86_64 (default) selects the test kernel and VM arch;
# ITRACE_KVARIANT=debug selects the debug kernel (e.g. for make vm).

# ARCH=ppc64le selects the POWER test kernel and VM (kbuild's own ARCH
# is then set for the sub-make).
ITRACE_ARCH ?= $(if $(filter ppc64le,$(ARCH)),ppc64le,x86_64)
export ITRACE_ARCH
Q := scripts/qemu

# install, dkms-*: the running kernel unless KDIR is given
INSTALL_KDIR = $(if $(KDIR),$(KDIR),/lib/modules/$(shell uname -r)/build)
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
DKMS_SRC := /usr/src/kdb-itrace-$(DKMS_VERSION)

ifeq ($(KDIR),)
KDIR_CMD = $$($(Q)/build-kernel.sh)
ifeq ($(ITRACE_ARCH),ppc64le)
KARGS := ARCH=powerpc CROSS_COMPILE=powerpc64le-linux-gnu-
else
KARGS := ARCH=x86
endif
else
KDIR_CMD = $(KDIR)
endif

ITRACE_FUZZ_SECS ?= 60

.PHONY: all module tools install dkms-install dkms-remove vm check check-debug check-host check-vm bench fuzz fuzz-traced checkpatch check-layers sparse clean

all: module tools

tools:
	@$(MAKE) -C tools/itrace-dump
	@$(MAKE) -C tools/itrace

module:
	@kdir=$(KDIR_CMD) && $(MAKE) -C "$$kdir" M=$(CURDIR) $(KARGS) \
		$$(bash -c '. $(Q)/lib.sh && kbuild_pahole "$$1"' _ "$$kdir") W=1 modules

install:
	$(MAKE) -C "$(INSTALL_KDIR)" M=$(CURDIR) modules
	$(MAKE) -C "$(INSTALL_KDIR)" M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b "$(INSTALL_MOD_PATH)") \
		"$$(cat "$(INSTALL_KDIR)/include/config/kernel.release")"
	$(MAKE) -C tools/itrace-dump install
	$(MAKE) -C tools/itrace install

dkms-install:
	rm -rf "$(DKMS_SRC)"
	mkdir -p "$(DKMS_SRC)"
	cp -r Kbuild dkms.conf kdb-itrace arch "$(DKMS_SRC)/"
	dkms add -m kdb-itrace -v $(DKMS_VERSION)
	dkms build -m kdb-itrace -v $(DKMS_VERSION)
	dkms install -m kdb-itrace -v $(DKMS_VERSION)

dkms-remove:
	dkms remove -m kdb-itrace -v $(DKMS_VERSION) --all
	rm -rf "$(DKMS_SRC)"

vm:
	@$(Q)/vm.sh

check:
	@tests/run-all.sh

check-debug:
	@ITRACE_KVARIANT=debug tests/run-all.sh

check-host:
	@tests/run-all.sh host

check-vm:
	@tests/run-all.sh vm

bench:
	@bench/run.sh

fuzz:
	@ITRACE_FUZZ_SECS=$(ITRACE_FUZZ_SECS) tests/run-all.sh fuzz

fuzz-traced:
	@ITRACE_TT_PROGS=none ITRACE_TT_SEEDS="$${ITRACE_TT_SEEDS:-$$(seq -s ' ' 1 200)}" \
		tests/vm/run.sh transparency

checkpatch:
	@tests/checkpatch.sh

check-layers:
	@scripts/check-layers.py

sparse:
	@kdir=$(KDIR_CMD) && $(MAKE) -C "$$kdir" M=$(CURDIR) $(KARGS) W=1 C=2 modules

clean:
	@kdir=$$(ls -d $${ITRACE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/kdb-itrace}/kernel/$(ITRACE_ARCH)-[0-9]* 2>/dev/null | head -1); \
	if [ -n "$$kdir" ]; then $(MAKE) -C "$$kdir" M=$(CURDIR) clean; fi
	rm -rf tests/host/build build
	$(MAKE) -C tools/itrace-dump clean
	$(MAKE) -C tools/itrace clean
