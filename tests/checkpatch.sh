#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Style gate for the kernel-side sources: checkpatch.pl --strict from the
# test kernel's own source tree (one PASS/FAIL per file), and a W=1 and
# sparse (C=2) build of the module that must print no warning.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

need_pkgs sparse
kdir=$("$top/scripts/qemu/build-kernel.sh") || { echo "FAIL style: no kernel"; exit 1; }
src=$(kernel_src_dir)
cd "$top" || exit 1
for f in kdb-itrace/*.[ch] arch/*/*.[ch]; do
	[ -e "$f" ] || continue
	if o=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$f" 2>&1) && ! grep -q ': \(ERROR\|WARNING\|CHECK\):' <<<"$o"; then
		echo "PASS checkpatch --strict $f"
	else
		echo "FAIL checkpatch --strict $f"
		grep ': \(ERROR\|WARNING\|CHECK\):' <<<"$o" | head -5 | sed 's/^/    /'
	fi
done

# Force a rebuild of our objects so every warning shows again.
build_clean() { # build_clean NAME MAKEARGS...
	local name=$1 log
	shift
	make -C "$kdir" M="$top" clean >/dev/null 2>&1
	log=$(make -C "$kdir" M="$top" "$@" modules 2>&1)
	if [ $? -eq 0 ] && ! grep -qiE 'warning|error' <<<"$log"; then
		echo "PASS module builds clean with $name"
	else
		echo "FAIL module builds clean with $name"
		grep -iE 'warning|error' <<<"$log" | head -10 | sed 's/^/    /'
	fi
}
build_clean "W=1" W=1
build_clean "W=1 C=2 (sparse)" W=1 C=2
