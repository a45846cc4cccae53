#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compare-outputs.sh COMMIT: for a change that should not change what the
# module prints (code moved, headers split), the debugfs, kdb and xmon
# answers of this tree's module and COMMIT's, byte for byte, on the test
# kernel of $ITRACE_ARCH (default x86_64: debugfs and kdb; ppc64le:
# debugfs and xmon, booted with xmon=rw, which takes kdb's break-in; the
# kdb front-end has no arch code). Not part of
# make check: a developer's tool, run before and after such a change.
#
# One VM boot (tests/vm/outputs.exp) runs the same session three times:
# this tree's module, COMMIT's, this tree's again. The first and third
# must match (the session is deterministic, or the comparison says
# nothing); then the first and second. Transcripts and diffs are kept in
# build/$ITRACE_FLAVOUR/outputs/. Also prints the machine code comparison
# of the two modules (scripts/compare-code.py), which does not change the
# exit status: 0 when both transcript comparisons match. Test kernels
# only: with DKMS (lib.sh's ITRACE_VIA_DKMS) the module in the initramfs
# is not the one built here.
set -euo pipefail
. "$(dirname "$0")/qemu/lib.sh"

[ $# -eq 1 ] || die "usage: $0 COMMIT (the module to compare this tree's with)"
rev=$(git -C "$ITRACE_TOP" rev-parse --verify "$1^{commit}") ||
	die "$1: no such commit"
[ "$ITRACE_VIA_DKMS" = 0 ] && [ "${ITRACE_NO_MODULE:-0}" = 0 ] ||
	die "a kbuild-built module only (not DKMS, not ITRACE_NO_MODULE=1)"
# the debug kernels' module has its test hooks built in (prepare.sh)
hooks=()
[ "$ITRACE_KVARIANT" != debug ] || hooks=(ITRACE_TEST_HOOKS=1)
initrd=$("$ITRACE_TOP/scripts/qemu/prepare.sh")
kdir=$("$ITRACE_TOP/scripts/qemu/build-kernel.sh")
b=$ITRACE_BUILD
out=$b/outputs
rm -rf "$out"
mkdir -p "$out/old-src" "$out/stage/lib/modules/old"

# COMMIT's module, built as prepare.sh builds this tree's
say "module of ${rev:0:12} against $kdir"
git -C "$ITRACE_TOP" archive "$rev" Kbuild kdb-itrace arch | tar -x -C "$out/old-src"
make -C "$kdir" M="$out/old-src" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" W=1 \
	$(kbuild_pahole "$kdir") \
	${hooks[@]+"${hooks[@]}"} modules >"$out/old-build.log" 2>&1 ||
	die "the module of ${rev:0:12} did not build (log: $out/old-build.log)"
cp "$out/old-src/kdb_itrace.ko" "$out/stage/lib/modules/old/"
# appended to the initramfs: the kernel unpacks both into one root
(cd "$out/stage" && find lib | LC_ALL=C sort |
	cpio --create --format=newc --owner=0:0 --reproducible --quiet) |
	gzip -n >"$out/old.cpio.gz"
cat "$initrd" "$out/old.cpio.gz" >"$out/initramfs.cpio.gz"

new=/lib/modules/kdb_itrace.ko
# xmon's `p` calls functions only when it may write (xmon=rw)
append=()
[ "$ITRACE_ARCH" != ppc64le ] || append=(--append xmon=rw)
say "one boot, three sessions: this tree, ${rev:0:12}, this tree"
"$ITRACE_TOP/scripts/qemu/run-vm.sh" --initrd "$out/initramfs.cpio.gz" \
	${append[@]+"${append[@]}"} --expect "$ITRACE_TOP/tests/vm/outputs.exp" "$out" \
	"new=$new" "old=/lib/modules/old/kdb_itrace.ko" "again=$new" \
	>"$out/vm.log" 2>&1 || { tail -20 "$out/vm.log" >&2; die "VM run failed (log: $out/vm.log)"; }

rc=0
if diff -u "$out/new.txt" "$out/again.txt" >"$out/control.diff"; then
	say "control: this tree's module twice, $(wc -l <"$out/new.txt") lines, identical"
else
	say "control differs: the session is not deterministic ($out/control.diff)"
	rc=1
fi
if cmp -s "$out/new.txt" "$out/old.txt"; then
	say "this tree and ${rev:0:12}: byte-identical ($(wc -c <"$out/new.txt") bytes)"
else
	diff -u "$out/old.txt" "$out/new.txt" >"$out/outputs.diff" || true
	say "this tree and ${rev:0:12} differ: $out/outputs.diff"
	head -40 "$out/outputs.diff" >&2
	rc=1
fi
"$ITRACE_TOP/scripts/compare-code.py" --objdump "${KCROSS}objdump" \
	"$out/old-src/kdb_itrace.ko" "$b/module/kdb_itrace.ko" || true
exit $rc
