#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/host/run_x86_objdump.sh - checks arch/x86/lib/insn_decode.c against
# objdump over real code: every instruction of busybox-static and of glibc's
# libc.a (with its hand-written AVX2/AVX-512 string functions), plus
# busybox's .text read as 32-bit code and two seeded synthetic streams of
# odd encodings, then times the decoder over busybox's .text.
#
# Prints one "x86-decode: INPUT: ..." line per input and exits non-zero on
# any length or class mismatch. Build products go to tests/host/build/.
# Usage: tests/host/run_x86_objdump.sh [-v]  (-v: list up to 200 mismatches
# per input instead of 10)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$HERE/build
BUSYBOX=/bin/busybox
LIBC_A=/usr/lib/x86_64-linux-gnu/libc.a
CFLAGS="-I$ROOT/kdb-itrace -I$ROOT -O2 -Wall -Wextra -Wdeclaration-after-statement -Wmissing-prototypes
	-Wstrict-prototypes -Werror"
SHOW=10
[ "${1:-}" = "-v" ] && SHOW=200

die() { echo "FAIL host x86_objdump: $*"; exit 2; }

install_pkg() {
	echo "x86-decode: installing $1"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "$1" >/dev/null ||
		{ apt-get update -q >/dev/null ||
		    echo "x86-decode: apt-get update reported errors; going on" >&2
		  apt-get install -y -q "$1" >/dev/null; } ||
		die "cannot install $1"
}

# Install a Debian package if the file we need from it is missing.
need() {
	[ -e "$1" ] || install_pkg "$2"
	[ -e "$1" ] || die "$2 did not provide $1"
}

need /usr/bin/objdump binutils
need /usr/bin/gcc gcc
need /usr/bin/python3 python3
need "$LIBC_A" libc6-dev
# The dynamically linked busybox package also ships /bin/busybox; the
# static one, with libc inside, is the workout (and replaces the other).
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null |
	grep -q 'ok installed' || install_pkg busybox-static
need "$BUSYBOX" busybox-static

mkdir -p "$BUILD" || die "cannot create $BUILD"
# the pure-C library (kdb-itrace/lib/host.mk), position-independent: the
# whole of it in the shared object that the checker loads
LIB="$BUILD/lib-pic/libitrace.a"
make -s -f "$ROOT/kdb-itrace/lib/host.mk" O="$BUILD/lib-pic" CC=gcc \
	CFLAGS="$(echo $CFLAGS) -fPIC" || die "build of $LIB failed"
# shellcheck disable=SC2086
gcc $CFLAGS -fPIC -shared -o "$BUILD/libx86decode.so" \
	-Wl,--whole-archive "$LIB" -Wl,--no-whole-archive ||
	die "build of libx86decode.so failed"
# shellcheck disable=SC2086
gcc $CFLAGS -o "$BUILD/x86_decode_tool" "$HERE/x86_decode_tool.c" "$LIB" ||
	die "build of x86_decode_tool failed"
objcopy -O binary --only-section=.text "$BUSYBOX" "$BUILD/busybox.text" ||
	die "objcopy of $BUSYBOX failed"

pass=0
fail=0
check() {
	if python3 "$HERE/x86_objdump_check.py" --lib "$BUILD/libx86decode.so" \
			--show "$SHOW" "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
}

check --name busybox --raw-text "$BUILD/busybox.text" "$BUSYBOX"
check --name libc.a "$LIBC_A"
check --name busybox-as-i386 --mode 32 --binary "$BUILD/busybox.text"
check --name synth64 --synth 1:1000000 "$BUILD/synth64.bin"
check --name synth32 --mode 32 --synth 2:1000000 "$BUILD/synth32.bin"

"$BUILD/x86_decode_tool" bench "$BUILD/busybox.text" 20 || fail=$((fail + 1))

echo "x86-decode objdump: $pass passed, $fail failed"
# tests/host/run.sh and tests/run-all.sh look for lines starting FAIL.
[ "$fail" -eq 0 ] || echo "FAIL host x86_objdump: $fail input(s) disagree with objdump"
[ "$fail" -eq 0 ]
