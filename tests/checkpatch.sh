#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Style gate for the kernel-side sources (the module and the test-only
# tests/kmod/): the layers and include rules (scripts/check-layers.py),
# checkpatch.pl --strict from the test kernel's own source
# tree (one PASS/FAIL per file), and a W=1 build of the module for every
# arch in $ITRACE_ARCHES and test-kernel line in ITRACE_KVERS (default
# "6.1 5.10 7.3", as make check's VM lanes; 6.12 is the stock headers'),
# with sparse (C=2) on the first line's, plus W=1
# against Debian's stock headers of the lines in ITRACE_STOCK_KVERS
# (default "6.1 6.12"), that must print no warning.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

need_pkgs sparse
ITRACE_ARCHES=${ITRACE_ARCHES:-x86_64 ppc64le}
"$top/scripts/qemu/build-kernel.sh" >/dev/null || { echo "FAIL style: no kernel"; exit 1; }
src=$(kernel_src_dir)
cd "$top" || exit 1
# the layers and their include rules (scripts/layers.conf), first: no
# kernel needed
python3 "$top/scripts/check-layers.py"
# (not kdb-itrace/lib/host/: userspace stand-ins for kernel headers).
# Two files at a time (the machine's cores: this group runs before the
# VM lanes); each file's lines are printed in one write.
checkpatch_one() { # checkpatch_one FILE
	local f=$1 o
	if o=$("$src/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f "$f" 2>&1) && ! grep -q ': \(ERROR\|WARNING\|CHECK\):' <<<"$o"; then
		echo "PASS checkpatch --strict $f"
	else
		printf '%s\n' "FAIL checkpatch --strict $f" \
			"$(grep ': \(ERROR\|WARNING\|CHECK\):' <<<"$o" | head -5 | sed 's/^/    /')"
	fi
}
export -f checkpatch_one
export src
for f in kdb-itrace/*.[ch] kdb-itrace/{lib,core,exec}/*.[ch] \
	kdb-itrace/frontend/*/*.[ch] arch/*/*.[ch] arch/*/lib/*.[ch] \
	tests/kmod/*.[ch]; do
	[ ! -e "$f" ] || printf '%s\0' "$f"
# shellcheck disable=SC2016 # $1 is the inner shell's
done | xargs -0 -r -n 1 -P 2 bash -c 'checkpatch_one "$1"' _

# Build a fresh copy of the sources per kernel so every warning shows
# again and the builds do not clobber each other's objects. Every kernel
# the suite has: the test kernels of both lines (kdb, mainline exports),
# and Debian's own 6.1 and 6.12 headers (no kdb; IBT on amd64 6.12).
# Status 77: Debian's kernel cannot be fetched here (stock-kernel.sh),
# one SKIP line.
build_clean() { # build_clean ARCH KVER|stock-KVER NAME MAKEARGS...
	local arch=$1 kver=$2 name=$3 kdir d log tag=$1 stock
	shift 3
	[ "$kver" = 6.1 ] || tag+=-$kver
	case $kver in
	stock-*)
		stock=$(ITRACE_ARCH=$arch "$top/scripts/qemu/stock-kernel.sh" "${kver#stock-}")
		if [ $? -eq 77 ]; then
			echo "SKIP [$tag] module builds clean with $name: $stock"
			return 77
		fi
		read -r _ _ kdir <<<"$stock" ;;
	*)
		kdir=$(ITRACE_ARCH=$arch ITRACE_KVER=$kver \
			"$top/scripts/qemu/build-kernel.sh") ;;
	esac
	[ -n "$kdir" ] ||
		{ echo "FAIL [$tag] module builds clean with $name: no kernel"; return; }
	d="$top/build/style/$tag"
	rm -rf "$d"
	mkdir -p "$d"
	(cd "$top" && find Kbuild kdb-itrace arch -name Kbuild -o -name '*.[ch]' -o -name '*.mk' |
		cpio -pdm --quiet "$d")
	# -j2: the fuzz group runs beside this one, and stops before it
	log=$(ITRACE_ARCH=$arch; . "$top/scripts/qemu/lib.sh"
	      make -j2 -C "$kdir" M="$d" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
		$(kbuild_pahole "$kdir") \
		"$@" modules 2>&1)
	local rc=$? ksrc theirs note=
	# A warning located in the kernel's own source tree is the kernel's
	# (5.10's <linux/mmzone.h> under gcc 12's W=1): counted in the PASS
	# line, not ours to fix. Ours are in $d, or modpost's. The source
	# tree: what the build dir's Makefile includes (or the dir itself).
	ksrc=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$kdir/Makefile" | head -1)
	[ -n "$ksrc" ] || ksrc=$kdir
	theirs=$(grep -cF -e "$ksrc/" <<<"$(grep -E ': warning:' <<<"$log")")
	log=$(grep -vF -e "$ksrc/" <<<"$log")
	[ "$theirs" -eq 0 ] ||
		note=" ($theirs warnings in the kernel's own headers, not counted)"
	if [ $rc -eq 0 ] && ! grep -qiE 'warning|error' <<<"$log"; then
		echo "PASS [$tag] module builds clean with $name$note"
	else
		echo "FAIL [$tag] module builds clean with $name"
		grep -iE 'warning|error' <<<"$log" | head -10 | sed 's/^/    /'
	fi
	[ $rc -ne 0 ] || probes_check "$arch" "${kver#stock-}" "$tag" "$d"
}
# probes_check ARCH LINE TAG DIR: the kernel-API macros wrap.mk set for
# this build (read from its compile command) are the ones that line's
# headers call for: a probe that stops matching (a header reworded)
# would build the other variant, which for some (the exit tracepoint's
# prototype) compiles without a word.
probes_check() {
	local arch=$1 line=$2 tag=$3 d=$4 want got
	case $line in
	5.10) want="" ;;
	6.1) want="ITRACE_HAVE_VMA_LOOKUP ITRACE_KDB_TAB ITRACE_PTRACE_FROZEN" ;;
	6.12) want="ITRACE_HAVE_VMA_LOOKUP ITRACE_KDB_TAB ITRACE_PTRACE_FROZEN
		ITRACE_UPROBE_HANDLE" ;;
	7.3) want="ITRACE_HAVE_VMA_LOOKUP ITRACE_KDB_TAB ITRACE_MM_FLAGS_T
		ITRACE_PTRACE_FROZEN ITRACE_TP_EXIT_GROUP ITRACE_UPROBE_DATA
		ITRACE_UPROBE_HANDLE"
		[ "$arch" != x86_64 ] || want+=" ITRACE_X86_MSRQ" ;;
	*) echo "FAIL [$tag] wrap.mk probes: no expectation for line $line"; return ;;
	esac
	[ "$arch" != ppc64le ] || [ "$line" = 5.10 ] || want+=" ITRACE_PPC_SET_RETURN"
	want=$(tr -s ' \t\n' '\n' <<<"$want" | sed '/^$/d' | sort | tr '\n' ' ')
	got=$(grep -oE -- "-DITRACE_[A-Z0-9_]+" "$d/kdb-itrace/.main.o.cmd" 2>/dev/null |
		sed 's/^-D//' | grep -xF -f <(grep -oE 'ITRACE_[A-Z0-9_]+' "$top/kdb-itrace/wrap.mk") |
		sort -u | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		echo "PASS [$tag] wrap.mk probes set what $line's headers call for: ${got:-none}"
	else
		echo "FAIL [$tag] wrap.mk probes: set '${got% }', want '${want% }'"
	fi
}
# builds_for ARCH: its kernels one after the other. The two arches
# build side by side (their lines kept apart, printed in order): a
# module build alone keeps two cores busy only while it compiles.
builds_for() {
	local arch=$1 first kver ko
	# one build does both: C=2 runs sparse beside each W=1 compile;
	# with the test hooks, so that their file is checked too. Sparse
	# on the first kernel line only: it checks our annotations (__user,
	# __rcu, __percpu), which no kernel version changes, and it is most
	# of this group's time (CI's budget).
	first=1
	for kver in ${ITRACE_KVERS:-6.1 5.10 7.3}; do
		if [ -n "$first" ]; then
			build_clean "$arch" "$kver" "W=1 C=2 (sparse, test hooks in)" W=1 C=2 \
				ITRACE_TEST_HOOKS=1
		else
			build_clean "$arch" "$kver" "W=1 (test hooks in)" W=1 \
				ITRACE_TEST_HOOKS=1
		fi
		first=
	done
	for kver in ${ITRACE_STOCK_KVERS:-6.1 6.12}; do
		build_clean "$arch" "stock-$kver" "W=1" W=1 || [ $? -ne 77 ] || continue
		# kdb is optional on purpose: none of its glue where it is absent
		ko=$top/build/style/$arch-stock-$kver/kdb_itrace.ko
		if [ -f "$ko" ] && ! nm "$ko" | grep -qE 'kdb_(printf|register)|itrace_kdb'; then
			echo "PASS [$arch-stock-$kver] no kdb glue in the module (kernel without CONFIG_KGDB_KDB)"
		else
			echo "FAIL [$arch-stock-$kver] kdb glue in a module for a kernel without kdb: $(nm "$ko" 2>&1 | grep -E 'kdb' | head -3)"
		fi
	done
}
mkdir -p "$top/build/style"
pids=()
for arch in $ITRACE_ARCHES; do
	builds_for "$arch" >"$top/build/style/builds-$arch.log" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
for arch in $ITRACE_ARCHES; do
	cat "$top/build/style/builds-$arch.log"
done
