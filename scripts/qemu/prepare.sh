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
# prints the initramfs path; beside it initramfs-tt.cpio.gz, the same
# with the transparency suite's programs.
#
# Env: ITRACE_TT_IMAGE="NAME..."  only these transparency programs in the
#      initramfs (set, even empty: that list; unset: all of them)
#      ITRACE_NO_MODULE=1  build no module and put none in the initramfs
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

need_pkgs build-essential binutils "$QEMU_PKG" expect python3 libdw-dev libcapstone-dev elfutils debuginfod gdb gdb-multiarch pkg-config
# Cross toolchain and the target libc for the static test programs.
[ "$ITRACE_ARCH" != ppc64le ] ||
	need_pkgs gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
if [ "$ITRACE_KVARIANT" = stock ]; then
	stock=$("$ITRACE_TOP/scripts/qemu/stock-kernel.sh" "$ITRACE_KVER") ||
		die "no stock $ITRACE_KVER kernel${stock:+: $stock}"
	read -r release _ kdir <<<"$stock"
else
	kdir=$("$ITRACE_TOP/scripts/qemu/build-kernel.sh")
fi
module=()
if [ $no_module -eq 1 ]; then
	say "ITRACE_NO_MODULE=1: no module built, none in the initramfs"
elif [ "$ITRACE_VIA_DKMS" = 1 ]; then
	# The module under test is the one DKMS builds, as a user installs
	# it (lib.sh: Debian's own amd64 kernels, x86_64 7.3). No kbuild
	# build beside it: the style group's W=1 builds are the warnings
	# check for these kernels too (tests/checkpatch.sh).
	[ -n "${release:-}" ] || release=$(cat "$kdir/include/config/kernel.release")
	# (Debian's own 5.10 and 7.3: in a root of their release, lib.sh's
	# in_kernel_root, whose compiler their headers name)
	ko=$(in_kernel_root "$ITRACE_TOP/scripts/qemu/dkms-build.sh" \
		"$(kernel_root_path "$kdir")" "$release" "$b/dkms")
	module=(--module "$ko")
else
	# Built from a copy per arch: one tree's objects must not be
	# clobbered by the other arch's build.
	say "module against $kdir"
	mkdir -p "$b/module"
	# Copy only what changed, stamped now: a copy keeping the source's
	# mtime can look older than a stale object (e.g. after a merge) and
	# kbuild would not rebuild it. Sources gone from the tree go too.
	(cd "$ITRACE_TOP" && find Kbuild kdb-itrace arch -name Kbuild -o \
		-name '*.[ch]' -o -name '*.mk') | while IFS= read -r f; do
		cmp -s "$ITRACE_TOP/$f" "$b/module/$f" && continue
		mkdir -p "$b/module/$(dirname "$f")"
		cp "$ITRACE_TOP/$f" "$b/module/$f"
	done
	(cd "$b/module" && find kdb-itrace arch -name '*.[ch]' -o -name '*.mk') |
	while IFS= read -r f; do
		[ -e "$ITRACE_TOP/$f" ] || rm -f "$b/module/$f" "$b/module/${f%.[ch]}.o"
	done
	# the debug kernels' module holds race windows open on request
	# (kdb-itrace/core/testhook.h; tests/vm/races.exp)
	hooks=()
	[ "$ITRACE_KVARIANT" != debug ] || hooks=(ITRACE_TEST_HOOKS=1)
	run module in_kernel_root make -C "$(kernel_root_path "$kdir")" \
		M="$b/module" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" W=1 \
		$(kbuild_pahole "$kdir") \
		${hooks[@]+"${hooks[@]}"} modules
	module=(--module "$b/module/kdb_itrace.ko")
fi
# The test kernels' test-only modules (tests/kmod): a debugfs write that
# oopses (tests/vm/oops.exp), and for the debug kernels' checkers a
# canary (tests/vm/debug_canary.exp). Not for Debian's own kernels (no
# kdb there to stop at the oops).
if [ "$ITRACE_KVARIANT" != stock ]; then
	rm -rf "$b/kmod"
	mkdir -p "$b/kmod"
	cp "$ITRACE_TOP"/tests/kmod/Kbuild "$ITRACE_TOP"/tests/kmod/*.c "$b/kmod/"
	run kmod make -C "$kdir" M="$b/kmod" ARCH="$KARCH" $(kbuild_pahole "$kdir") \
		CROSS_COMPILE="$KCROSS" W=1 modules
	module+=(--kmod "$b/kmod/itrace_oops.ko")
fi
if [ "$ITRACE_KVARIANT" = debug ]; then
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
# The user programs no kernel shapes (progs.mk): built once per arch into
# build/progs-ARCH/, shared by all its kernels (a lock: the lanes of
# tests/run-all.sh can meet there), and linked into this kernel's dir,
# where the tests and the host-side checkers look for them.
pdir=$ITRACE_TOP/build/progs-$ITRACE_ARCH
mkdir -p "$pdir"
keep=()
[ $no_module -eq 0 ] || keep=(-k)
say "test programs (shared by every $ITRACE_ARCH kernel): $pdir"
if ! (flock 9 && make -j2 ${keep[@]+"${keep[@]}"} -f "$ITRACE_TOP/scripts/qemu/progs.mk" \
	O="$pdir" TOP="$ITRACE_TOP" CC="$TARGET_CC") >"$b/progs.log" 2>&1 9>"$pdir/.lock"; then
	# with ITRACE_NO_MODULE=1 what did not build is left out below
	if [ $no_module -eq 0 ]; then
		tail -20 "$b/progs.log" >&2
		die "test programs failed (full log: $b/progs.log)"
	fi
fi
progs=()
for p in $(make -s -f "$ITRACE_TOP/scripts/qemu/progs.mk" TOP="$ITRACE_TOP" list-tp); do
	rm -f "$b/$p"
	if [ ! -f "$pdir/$p" ]; then
		# only with ITRACE_NO_MODULE=1 (make -k): a program that
		# does not build for a new arch yet is left out
		say "warning: tests/prog/$p.c does not build for $ITRACE_ARCH, left out (ITRACE_NO_MODULE=1; log: $b/progs.log)"
		continue
	fi
	ln -f "$pdir/$p" "$b/$p"
	progs+=(--prog "$b/$p")
done
# The transparency suite (tests/transparency/): its programs, each named
# by its file (the name tt-run arms it by), the traced-program fuzzer,
# tt-run (the guest half) and its exceptions. They are ~120 MB of static
# binaries: not in the initramfs every boot unpacks (that cost every VM
# test 4 s of boot on the test kernels, 10 s on the debug ones), but in
# an archive of their own appended to it for the boots that run them
# (initramfs-tt.cpio.gz: transparency.exp, make vm). The kernel unpacks
# concatenated archives one after the other into the same root.
rm -rf "$b/tt"
mkdir -p "$b/tt"
tt=()
for c in "$ITRACE_TOP"/tests/transparency/progs/*.c; do
	[ -e "$c" ] || continue
	p=$(basename "$c" .c)
	[ -f "$pdir/tt/$p" ] || die "tests/transparency/progs/$p.c did not build (log: $b/progs.log)"
	ln -f "$pdir/tt/$p" "$b/tt/$p"
	# ITRACE_TT_IMAGE (tests/vm/run.sh): only those in the archive
	[ -z "${ITRACE_TT_IMAGE+set}" ] || [[ " $ITRACE_TT_IMAGE " == *" $p "* ]] ||
		continue
	tt+=("$p")
done
ln -f "$pdir/tt_fuzz" "$b/tt_fuzz"
# tt_archive OUT NAME...: those programs, tt_fuzz, tt-run and its
# exceptions in /bin of an initramfs archive (newc, gzip)
tt_archive() {
	local out=$1 stage=$1.stage p
	shift
	rm -rf "$stage"
	mkdir -p "$stage/bin"
	for p in "$@"; do
		ln -f "$b/tt/$p" "$stage/bin/$p"
	done
	ln -f "$b/tt_fuzz" "$stage/bin/tt_fuzz"
	install -m 0755 "$ITRACE_TOP/tests/transparency/tt-run.sh" "$stage/bin/tt-run"
	install -m 0644 "$ITRACE_TOP/tests/transparency/exceptions" "$stage/bin/tt-exceptions"
	(cd "$stage" && find bin -type f | LC_ALL=C sort |
		cpio --create --format=newc --owner=0:0 --reproducible --quiet) |
		gzip -n -6 >"$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$stage"
}
cp "$ITRACE_TOP/tests/transparency/tt-run.sh" "$b/tt/tt-run"
cp "$ITRACE_TOP/tests/transparency/exceptions" "$b/tt/tt-exceptions"
if [ -n "${ITRACE_TT_IMAGE+set}" ]; then
	# a few: this kernel's own, made each time
	tt_archive "$b/tt.cpio.gz" ${tt[@]+"${tt[@]}"}
	ttarc=$b/tt.cpio.gz
else
	# all of them: once per arch, again only when one of them or the
	# list changed (its key: the names and tt-run's and the
	# exceptions' sums)
	ttarc=$pdir/tt.cpio.gz
	key=$({ echo "${tt[*]}"; cat "$ITRACE_TOP/tests/transparency/tt-run.sh" \
		"$ITRACE_TOP/tests/transparency/exceptions"; } | sha256sum)
	(
		flock 9
		if [ "$(cat "$ttarc.key" 2>/dev/null)" != "$key" ] ||
			[ -n "$(find "$pdir/tt" "$pdir/tt_fuzz" -newer "$ttarc" -print -quit 2>&1)" ]; then
			say "transparency programs' archive: $ttarc"
			tt_archive "$ttarc" "${tt[@]}" && echo "$key" >"$ttarc.key"
		fi
	) 9>"$pdir/.lock"
fi
[ -s "$ttarc" ] || die "no transparency archive $ttarc"
# itrace-dump's `capture`, the part that runs on the traced machine
ln -f "$pdir/itrace-dump" "$b/itrace-dump"
progs+=(--prog "$b/itrace-dump")
# the shell's itrace command (tools/itrace)
ln -f "$pdir/itrace" "$b/itrace"
progs+=(--prog "$b/itrace")
# The dynamically linked PIE test programs, and what they need at run
# time: the loader at the path tp_calls' PT_INTERP names and every
# DT_NEEDED library in the guest's library directory, and libm.so.6,
# which tp_dlopen loads with dlopen(); all from the target's libc on
# this host; copies in $b/lib/ for the host-side checkers
# (tests/vm/sym_check.py).
rm -rf "$b/lib"
mkdir -p "$b/lib"
libs=()
p=tp_calls
for d in tp_calls tp_dlopen; do
	ln -f "$pdir/$d" "$b/$d"
	progs+=(--prog "$b/$d")
done
interp=$(readelf -lW "$b/$p" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
[ -n "$interp" ] || die "$b/$p: no program interpreter"
libs+=(--lib "$TARGET_LIBS/$(basename "$interp")=$interp")
cp -L "$TARGET_LIBS/$(basename "$interp")" "$b/lib/"
for l in $(readelf -dW "$b/$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p') libm.so.6; do
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
cat "$b/initramfs.cpio.gz" "$ttarc" >"$b/initramfs-tt.cpio.gz.tmp"
mv "$b/initramfs-tt.cpio.gz.tmp" "$b/initramfs-tt.cpio.gz"
echo "$b/initramfs.cpio.gz"
