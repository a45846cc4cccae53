#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks the POWER instruction classifier (arch/powerpc/lib/insn_class.c)
# against powerpc64le-linux-gnu-objdump over real code: every instruction
# of Debian's ppc64el busybox-static and of glibc's ppc64el libc.a (with
# its POWER9/POWER10 string functions), plus a seeded synthetic stream of
# branch, trap, sc, rfid, larx/stcx. and prefixed encodings; then times the
# classifier over busybox's .text.
#
# Prints one "ppc-class: INPUT: ..." line per input and exits non-zero on
# any kind or field mismatch. Fetches what it needs (the ppc64el busybox
# package into tests/host/build/, the cross binutils and libc with
# apt-get) when missing. Build products go to tests/host/build/.
# Usage: tests/host/run_ppc_objdump.sh [-v]  (-v: list up to 200 mismatches
# per input instead of 10, and count the compared instructions by kind)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
BB_DIR=$BUILD/busybox-ppc64el
BUSYBOX=$BB_DIR/bin/busybox
LIBC_A=/usr/powerpc64le-linux-gnu/lib/libc.a
OBJDUMP=/usr/bin/powerpc64le-linux-gnu-objdump
OBJCOPY=/usr/bin/powerpc64le-linux-gnu-objcopy
CFLAGS="-I$ROOT/kdb-itrace -I$ROOT -O2 -Wall -Wextra -Wdeclaration-after-statement -Wmissing-prototypes
	-Wstrict-prototypes -Werror"
SHOW=10
STATS=
[ "${1:-}" = "-v" ] && SHOW=200 && STATS=--stats

die() { echo "FAIL host ppc_objdump: $*"; exit 2; }

export DEBIAN_FRONTEND=noninteractive

apt_update() {
	echo "ppc-class: apt-get update"
	# one index failing (a mirror mid-sync) is no reason to stop: the
	# install that follows says whether a package is really missing
	apt-get update -q >/dev/null ||
		echo "ppc-class: apt-get update reported errors; going on" >&2
}

install_pkg() {
	echo "ppc-class: installing $1"
	apt-get install -y -q "$1" >/dev/null ||
		{ apt_update && apt-get install -y -q "$1" >/dev/null; } ||
		die "cannot install $1"
}

# Install a Debian package if the file we need from it is missing.
need() {
	[ -e "$1" ] || install_pkg "$2"
	[ -e "$1" ] || die "$2 did not provide $1"
}

need "$OBJDUMP" binutils-powerpc64le-linux-gnu
need "$OBJCOPY" binutils-powerpc64le-linux-gnu
need /usr/bin/gcc gcc
need /usr/bin/python3 python3
need "$LIBC_A" libc6-dev-ppc64el-cross

# The ppc64el busybox-static package is only unpacked, never installed:
# it is a foreign-architecture binary that we read, not run.
mkdir -p "$BUILD" || die "cannot create $BUILD"
if [ ! -e "$BUSYBOX" ]; then
	if ! dpkg --print-foreign-architectures | grep -qx ppc64el; then
		echo "ppc-class: dpkg --add-architecture ppc64el"
		dpkg --add-architecture ppc64el ||
			die "cannot add the ppc64el architecture"
		apt_update
	fi
	rm -rf "$BUILD/deb"
	mkdir -p "$BUILD/deb" || die "cannot create $BUILD/deb"
	echo "ppc-class: apt-get download busybox-static:ppc64el"
	# The sandbox user _apt may not write in the build tree; root may.
	get() {
		(cd "$BUILD/deb" && apt-get download -q -o APT::Sandbox::User=root \
			busybox-static:ppc64el >/dev/null)
	}
	get || { apt_update && get; } ||
		die "cannot download busybox-static:ppc64el"
	deb=$(find "$BUILD/deb" -name 'busybox-static_*_ppc64el.deb' | head -1)
	[ -n "$deb" ] || die "no busybox-static ppc64el package downloaded"
	echo "ppc-class: dpkg-deb -x $(basename "$deb") $BB_DIR"
	rm -rf "$BB_DIR"
	dpkg-deb -x "$deb" "$BB_DIR" || die "cannot unpack $deb"
	[ -e "$BUSYBOX" ] || die "$deb did not provide bin/busybox"
fi

# the pure-C library (kdb-itrace/lib/host.mk), position-independent: the
# whole of it in the shared object that the checker loads
LIB="$BUILD/lib-pic/libitrace.a"
make -s -f "$ROOT/kdb-itrace/lib/host.mk" O="$BUILD/lib-pic" CC=gcc \
	CFLAGS="$(echo $CFLAGS) -fPIC" || die "build of $LIB failed"
# shellcheck disable=SC2086
gcc $CFLAGS -fPIC -shared -o "$BUILD/libppcclass.so" \
	-Wl,--whole-archive "$LIB" -Wl,--no-whole-archive ||
	die "build of libppcclass.so failed"
# shellcheck disable=SC2086
gcc $CFLAGS -o "$BUILD/ppc_class_tool" "$HERE/ppc_class_tool.c" "$LIB" ||
	die "build of ppc_class_tool failed"
"$OBJCOPY" -O binary --only-section=.text "$BUSYBOX" "$BUILD/busybox-ppc64el.text" ||
	die "objcopy of $BUSYBOX failed"

pass=0
fail=0
check() {
	# shellcheck disable=SC2086
	if python3 "$HERE/ppc_objdump_check.py" --lib "$BUILD/libppcclass.so" \
			--show "$SHOW" $STATS "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
}

check --name busybox --raw-text "$BUILD/busybox-ppc64el.text" "$BUSYBOX"
check --name libc.a "$LIBC_A"
check --name synth --synth 1:400000 "$BUILD/ppc_synth.bin"

"$BUILD/ppc_class_tool" bench "$BUILD/busybox-ppc64el.text" 50 ||
	fail=$((fail + 1))

echo "ppc-class objdump: $pass passed, $fail failed"
# tests/host/run.sh and tests/run-all.sh look for lines starting FAIL.
[ "$fail" -eq 0 ] || echo "FAIL host ppc_objdump: $fail input(s) disagree with objdump"
[ "$fail" -eq 0 ]
