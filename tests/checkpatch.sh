#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Style gate for the kernel-side sources (the module and the test-only
# tests/kmod/): checkpatch.pl --strict from the test kernel's own source
# tree (one PASS/FAIL per file), and W=1 and sparse (C=2) builds of the
# module for every arch in $ITRACE_ARCHES that must print no warning.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

need_pkgs sparse
ITRACE_ARCHES=${ITRACE_ARCHES:-x86_64 ppc64le}
"$top/scripts/qemu/build-kernel.sh" >/dev/null || { echo "FAIL style: no kernel"; exit 1; }
src=$(kernel_src_dir)
cd "$top" || exit 1
for f in kdb-itrace/*.[ch] arch/*/*.[ch] tests/kmod/*.[ch]; do
	[ -e "$f" ] || continue
	if o=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$f" 2>&1) && ! grep -q ': \(ERROR\|WARNING\|CHECK\):' <<<"$o"; then
		echo "PASS checkpatch --strict $f"
	else
		echo "FAIL checkpatch --strict $f"
		grep ': \(ERROR\|WARNING\|CHECK\):' <<<"$o" | head -5 | sed 's/^/    /'
	fi
done

# Build a fresh copy of the sources per arch so every warning shows again
# and the arches do not clobber each other's objects.
build_clean() { # build_clean ARCH NAME MAKEARGS...
	local arch=$1 name=$2 kdir d log
	shift 2
	kdir=$(ITRACE_ARCH=$arch "$top/scripts/qemu/build-kernel.sh") ||
		{ echo "FAIL [$arch] module builds clean with $name: no kernel"; return; }
	d="$top/build/$arch${ITRACE_KVARIANT:+-$ITRACE_KVARIANT}/style"
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$top" && find Kbuild kdb-itrace arch -name Kbuild -o -name '*.[ch]' |
		cpio -pdm --quiet "$d")
	log=$(ITRACE_ARCH=$arch; . "$top/scripts/qemu/lib.sh"
	      make -C "$kdir" M="$d" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
		"$@" modules 2>&1)
	if [ $? -eq 0 ] && ! grep -qiE 'warning|error' <<<"$log"; then
		echo "PASS [$arch] module builds clean with $name"
	else
		echo "FAIL [$arch] module builds clean with $name"
		grep -iE 'warning|error' <<<"$log" | head -10 | sed 's/^/    /'
	fi
}
for arch in $ITRACE_ARCHES; do
	build_clean "$arch" "W=1" W=1
	build_clean "$arch" "W=1 C=2 (sparse)" W=1 C=2
done
