#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds everything a VM boot needs for $ITRACE_ARCH, reusing what is
# already built: the test kernel (cached), the module against it, the
# static test programs and the initramfs, all under build/$ITRACE_ARCH/.
# Progress goes to stderr, build logs to build/$ITRACE_ARCH/*.log; on
# success prints the initramfs path.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

b="$ITRACE_TOP/build/$ITRACE_ARCH"
mkdir -p "$b"

run() { # run NAME CMD...: quiet unless it fails
	local name=$1 log="$b/$1.log"
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -20 "$log" >&2
		die "$name failed (full log: $log)"
	fi
}

need_pkgs build-essential binutils "$QEMU_PKG" expect python3
kdir=$("$ITRACE_TOP/scripts/qemu/build-kernel.sh")
say "module against $kdir"
run module make -C "$kdir" M="$ITRACE_TOP" W=1 modules
progs=()
for p in tp_loop tp_spin; do
	run "prog-$p" $TARGET_CC -static -O1 -fno-inline -g -o "$b/$p" \
		"$ITRACE_TOP/tests/prog/$p.c"
	progs+=(--prog "$b/$p")
done
run initramfs "$ITRACE_TOP/scripts/qemu/build-initramfs.sh" \
	"$b/initramfs.cpio.gz" --module "$ITRACE_TOP/kdb_itrace.ko" "${progs[@]}"
echo "$b/initramfs.cpio.gz"
