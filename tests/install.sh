#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make install` as the README gives it, for a plain kbuild build against
# a kernel tree (here the x86_64 7.3 test kernel), into a scratch
# INSTALL_MOD_PATH and DESTDIR: the module lands in
# /lib/modules/<release>/updates/ and depmod lists it; itrace-dump lands
# in /usr/local/bin and runs. (DKMS has its own test: the x86_64-7.3 and stock
# VM suites boot the module dkms built.) One PASS/FAIL line per check.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ITRACE_ARCH=x86_64 ITRACE_KVER=7.3
export ITRACE_ARCH ITRACE_KVER
. "$top/scripts/qemu/lib.sh"

kdir=$("$top/scripts/qemu/build-kernel.sh") || { echo "FAIL install: no kernel"; exit 0; }
rel=$(cat "$kdir/include/config/kernel.release")
t=$(mktemp -d "$ITRACE_CACHE/work/install.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src"
(cd "$top" && cp -r Makefile Kbuild dkms.conf kdb-itrace arch scripts tools tests "$t/src/")
rm -f "$t/src/tools/itrace-dump/itrace-dump"
if make -s -C "$t/src" install KDIR="$kdir" ARCH=x86 INSTALL_MOD_PATH="$t/root" \
	DESTDIR="$t/root" >"$t/log" 2>&1; then
	echo "PASS install: make install KDIR=<7.3 tree> INSTALL_MOD_PATH=... DESTDIR=... exits 0"
else
	echo "FAIL install: make install failed:"
	tail -5 "$t/log" | sed 's/^/    /'
	exit 0
fi
ko=$t/root/lib/modules/$rel/updates/kdb_itrace.ko
if [ -f "$ko" ] && modinfo -F name "$ko" | grep -qx kdb_itrace; then
	echo "PASS install: the module is /lib/modules/$rel/updates/kdb_itrace.ko"
else
	echo "FAIL install: no kdb_itrace module at $ko: $(cd "$t/root" && find . -name '*.ko*')"
fi
if grep -qx "updates/kdb_itrace.ko:" "$t/root/lib/modules/$rel/modules.dep" 2>/dev/null; then
	echo "PASS install: depmod lists it in modules.dep"
else
	echo "FAIL install: modules.dep does not list updates/kdb_itrace.ko"
fi
if "$t/root/usr/local/bin/itrace-dump" --help 2>&1 | grep -q '^usage: itrace-dump capture'; then
	echo "PASS install: itrace-dump is /usr/local/bin/itrace-dump and runs"
else
	echo "FAIL install: no working itrace-dump at $t/root/usr/local/bin: $(cd "$t/root" && find . -name 'itrace-dump*')"
fi
