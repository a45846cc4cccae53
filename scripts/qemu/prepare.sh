#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds everything a VM boot needs for $ITRACE_ARCH, reusing what is
# already built: the test kernel (cached), the module against it, the
# static test programs (on the debug kernel also the test-only module
# tests/kmod/itrace_canary.ko and a copy of the module signed with the
# kernel's build key) and the initramfs, all under
# build/$ITRACE_FLAVOUR/ (build/x86_64/, build/ppc64le-6.12/,
# build/x86_64-debug/, ...). With ITRACE_KVARIANT=stock the kernel is
# Debian's own (stock-kernel.sh) and the module is built against its
# headers package: by DKMS on x86_64 (dkms-build.sh; lib.sh's
# ITRACE_VIA_DKMS), by kbuild across to ppc64le.
# Progress goes to stderr, build logs to that dir's *.log; on success
# prints the initramfs path.
#
# Env: ITRACE_NO_MODULE=1  build no module and put none in the initramfs
#      (for bringing up an arch the module does not support yet); a test
#      program that does not compile for the arch is then skipped with a
#      warning instead of failing the build.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

b=$ITRACE_BUILD
mkdir -p "$b"

run() { # run NAME CMD...: quiet unless it fails
	local name=$1 log="$b/$1.log"
	shift
	if ! "$@" >"$log" 2>&1; then
		tail -20 "$log" >&2
		die "$name failed (full log: $log)"
	fi
}

no_module=0
case "${ITRACE_NO_MODULE:-0}" in
0 | "") ;;
1) no_module=1 ;;
*) die "ITRACE_NO_MODULE must be 0 or 1" ;;
esac

need_pkgs build-essential binutils "$QEMU_PKG" expect python3 libdw-dev elfutils pkg-config
# Cross toolchain and the target libc for the static test programs.
[ "$ITRACE_ARCH" != ppc64le ] ||
	need_pkgs gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
if [ "$ITRACE_KVARIANT" = stock ]; then
	read -r release _ kdir < <("$ITRACE_TOP/scripts/qemu/stock-kernel.sh" "$ITRACE_KVER") ||
		die "no stock $ITRACE_KVER kernel"
else
	kdir=$("$ITRACE_TOP/scripts/qemu/build-kernel.sh")
fi
module=()
if [ $no_module -eq 1 ]; then
	say "ITRACE_NO_MODULE=1: no module built, none in the initramfs"
else
	# Built from a copy per arch: one tree's objects must not be
	# clobbered by the other arch's build.
	say "module against $kdir"
	mkdir -p "$b/module"
	# Copy only what changed, stamped now: a copy keeping the source's
	# mtime can look older than a stale object (e.g. after a merge) and
	# kbuild would not rebuild it. Sources gone from the tree go too.
	(cd "$ITRACE_TOP" && find Kbuild kdb-itrace arch -name Kbuild -o \
		-name '*.[ch]') | while IFS= read -r f; do
		cmp -s "$ITRACE_TOP/$f" "$b/module/$f" && continue
		mkdir -p "$b/module/$(dirname "$f")"
		cp "$ITRACE_TOP/$f" "$b/module/$f"
	done
	(cd "$b/module" && find kdb-itrace arch -name '*.[ch]') | while IFS= read -r f; do
		[ -e "$ITRACE_TOP/$f" ] || rm -f "$b/module/$f" "$b/module/${f%.[ch]}.o"
	done
	run module make -C "$kdir" M="$b/module" ARCH="$KARCH" \
		CROSS_COMPILE="$KCROSS" W=1 modules
	module=(--module "$b/module/kdb_itrace.ko")
fi
# Where the module under test is the one DKMS builds (lib.sh: Debian's
# own kernels, x86_64 6.12), the W=1 build above stays: it is the
# warnings check there.
if [ "$ITRACE_VIA_DKMS" = 1 ] && [ $no_module -eq 0 ]; then
	[ -n "${release:-}" ] || release=$(cat "$kdir/include/config/kernel.release")
	ko=$("$ITRACE_TOP/scripts/qemu/dkms-build.sh" "$kdir" "$release" "$b/dkms")
	module=(--module "$ko")
fi
# The debug kernel's checkers get a canary (tests/vm/debug_canary.exp).
if [ "$ITRACE_KVARIANT" = debug ]; then
	rm -rf "$b/kmod"
	mkdir -p "$b/kmod"
	cp "$ITRACE_TOP"/tests/kmod/Kbuild "$ITRACE_TOP"/tests/kmod/*.c "$b/kmod/"
	run kmod make -C "$kdir" M="$b/kmod" ARCH="$KARCH" \
		CROSS_COMPILE="$KCROSS" W=1 modules
	module+=(--kmod "$b/kmod/itrace_canary.ko")
	# and a copy of the module signed with the kernel's build key, the
	# one module a kernel booted with lockdown=integrity loads
	# (tests/vm/lockdown_boot.exp)
	if [ $no_module -eq 0 ]; then
		cp "$b/module/kdb_itrace.ko" "$b/kmod/kdb_itrace_signed.ko"
		run sign-file "$kdir/scripts/sign-file" \
			"$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")" \
			"$kdir/certs/signing_key.pem" "$kdir/certs/signing_key.x509" \
			"$b/kmod/kdb_itrace_signed.ko"
		module+=(--kmod "$b/kmod/kdb_itrace_signed.ko")
	fi
fi
progs=()
for p in tp_loop tp_spin tp_atomic tp_life tp_follow tp_ptrace tp_watch tp_syscall tp_trig \
	tp_trig_thr tp_tf tp_bigsym tp_cred tp_name; do
	if [ $no_module -eq 1 ]; then
		rm -f "$b/$p"
		if ! $TARGET_CC -static -O1 -fno-inline -g -o "$b/$p" \
			"$ITRACE_TOP/tests/prog/$p.c" >"$b/prog-$p.log" 2>&1; then
			say "warning: tests/prog/$p.c does not build for $ITRACE_ARCH, left out (ITRACE_NO_MODULE=1; log: $b/prog-$p.log)"
			continue
		fi
	else
		run "prog-$p" $TARGET_CC -static -O1 -fno-inline -g -o "$b/$p" \
			"$ITRACE_TOP/tests/prog/$p.c"
	fi
	progs+=(--prog "$b/$p")
done
# The transparency suite (tests/transparency/): its programs, each named
# by its file (the name tt-run arms it by), and tt-run, its guest half.
mkdir -p "$b/tt"
for c in "$ITRACE_TOP"/tests/transparency/progs/*.c; do
	[ -e "$c" ] || continue
	p=$(basename "$c" .c)
	run "tt-$p" $TARGET_CC -static -O1 -g -pthread -Wall -Wextra -Werror \
		-I "$ITRACE_TOP/tests/transparency" -o "$b/tt/$p" "$c"
	progs+=(--prog "$b/tt/$p")
done
# the traced-program fuzzer, outside tt/: tt-run gives it a seed
run tt_fuzz $TARGET_CC -static -O1 -g -pthread -Wall -Wextra -Werror \
	-I "$ITRACE_TOP/tests/transparency" -o "$b/tt_fuzz" \
	"$ITRACE_TOP/tests/transparency/fuzz/tt_fuzz.c"
progs+=(--prog "$b/tt_fuzz")
cp "$ITRACE_TOP/tests/transparency/tt-run.sh" "$b/tt/tt-run"
cp "$ITRACE_TOP/tests/transparency/exceptions" "$b/tt/tt-exceptions"
progs+=(--prog "$b/tt/tt-run" --prog "$b/tt/tt-exceptions")
# itrace-dump's `capture`, the part that runs on the traced machine:
# static, without elfutils (tools/itrace-dump/Makefile's capture-only)
run itrace-dump $TARGET_CC -static -O2 -D_GNU_SOURCE -DITRACE_DUMP_CAPTURE_ONLY \
	-o "$b/itrace-dump" "$ITRACE_TOP/tools/itrace-dump/main.c" \
	"$ITRACE_TOP/tools/itrace-dump/drain.c"
progs+=(--prog "$b/itrace-dump")
# The dynamically linked PIE test program, and what it needs at run
# time: its loader at the path its PT_INTERP names and every DT_NEEDED
# library in the guest's library directory, all from the target's libc
# on this host; copies in $b/lib/ for the host-side checkers
# (tests/vm/sym_check.py).
rm -rf "$b/lib"
mkdir -p "$b/lib"
libs=()
p=tp_calls
run "prog-$p" $TARGET_CC -O1 -fno-inline -g -fPIE -pie -o "$b/$p" \
	"$ITRACE_TOP/tests/prog/$p.c"
progs+=(--prog "$b/$p")
interp=$(readelf -lW "$b/$p" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
[ -n "$interp" ] || die "$b/$p: no program interpreter"
libs+=(--lib "$TARGET_LIBS/$(basename "$interp")=$interp")
cp -L "$TARGET_LIBS/$(basename "$interp")" "$b/lib/"
for l in $(readelf -dW "$b/$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
	libs+=(--lib "$TARGET_LIBS/$l=$GUEST_LIBDIR/$l")
	cp -L "$TARGET_LIBS/$l" "$b/lib/"
done
# The kernel's vDSO image as the guest has it mapped, for the same
# checkers, which name its functions "[vdso]:function" as the log does:
# x86 embeds the stripped vdso64.so (arch/x86/entry/vdso/vdso2c), powerpc
# vdso64.so.dbg as it is (vdso64_wrapper.S). Only kernels built here
# have one.
vdso=$(find "$kdir/arch" -name vdso64.so 2>/dev/null | head -n 1)
[ -n "$vdso" ] || vdso=$(find "$kdir/arch" -name vdso64.so.dbg 2>/dev/null | head -n 1)
[ -z "$vdso" ] || cp "$vdso" "$b/lib/[vdso]"
run initramfs "$ITRACE_TOP/scripts/qemu/build-initramfs.sh" \
	"$b/initramfs.cpio.gz" ${module[@]+"${module[@]}"} ${progs[@]+"${progs[@]}"} \
	"${libs[@]}"
echo "$b/initramfs.cpio.gz"
