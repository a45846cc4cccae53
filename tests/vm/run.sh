#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs the VM test suite for $ITRACE_ARCH: builds (or reuses) the test
# kernel, the module, the static test programs and the initramfs, then
# boots one VM per expect script. Prints PASS/FAIL lines for
# tests/run-all.sh; a step that cannot run is one FAIL line.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"

b="$top/build/$ITRACE_ARCH"
mkdir -p "$b"

step() { # step NAME CMD...: run, FAIL line with the log tail on error
	local name=$1 log="$b/$1.log"
	shift
	if ! "$@" >"$log" 2>&1; then
		echo "FAIL vm $name (log: $log)"
		tail -15 "$log" | sed 's/^/    /'
		return 1
	fi
}

need_pkgs expect "$QEMU_PKG" build-essential binutils python3
step kernel "$top/scripts/qemu/build-kernel.sh" || exit 1
kdir=$(tail -1 "$b/kernel.log")
step module make -C "$kdir" M="$top" W=1 modules || exit 1
for p in tp_loop tp_spin; do
	step "prog-$p" $TARGET_CC -static -O1 -fno-inline -g -o "$b/$p" \
		"$top/tests/prog/$p.c" || exit 1
done
step initramfs "$top/scripts/qemu/build-initramfs.sh" "$b/initramfs.cpio.gz" \
	--module "$top/kdb_itrace.ko" --prog "$b/tp_loop" --prog "$b/tp_spin" ||
	exit 1

vmtest() { # vmtest NAME ARGS...: one VM boot driven by tests/vm/NAME.exp
	local name=$1 rc
	shift
	echo "# vm test: $name" >&2
	"$top/scripts/qemu/run-vm.sh" --initrd "$b/initramfs.cpio.gz" \
		--expect "$top/tests/vm/$name.exp" "$@" >"$b/$name.out" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL):? ' "$b/$name.out"
	if [ $rc -ne 0 ] && ! grep -qE '^FAIL:? ' "$b/$name.out"; then
		echo "FAIL vm $name: exit status $rc without a FAIL line ($b/$name.out)"
	fi
}

mkdir -p "$b/logs"
vmtest tp_loop "$b/logs"
python3 "$top/tests/vm/trace_check.py" "$b/tp_loop" 5 "$b/logs/insn.log" \
	"$b/logs/block.log"
vmtest bad_input
vmtest running "$b/tp_spin"
