#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the pure-C parts, built with the kernel's warning
# flags: parser, condition compiler, ring, formatter, output sinks, x86
# decoder, ppc classifier; then the decoder and the classifier against
# objdump over real code. Prints PASS/FAIL lines for tests/run-all.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"

need_pkgs build-essential binutils busybox-static gcc-powerpc64le-linux-gnu libdw-dev libcapstone-dev \
	libc6-dev-ppc64el-cross
b="$top/tests/host/build"
mkdir -p "$b"
cflags=(-O2 -g -Wall -Wextra -Werror -Wdeclaration-after-statement
	-Wmissing-prototypes -Wstrict-prototypes -I"$top/kdb-itrace" -I"$top")
# the pure-C library (kdb-itrace/lib/sources.mk), built once with these
# flags; each test links what it uses
lib="$b/lib/libitrace.a"
if ! make -s -f "$top/kdb-itrace/lib/host.mk" O="$b/lib" CC=gcc \
	CFLAGS="${cflags[*]}" >"$b/lib.build.log" 2>&1; then
	echo "FAIL host libitrace.a: does not build"
	sed 's/^/    /' "$b/lib.build.log" | head -20
fi

unit() { # unit NAME SOURCES...: build (with the library) and run one test
	local name=$1
	shift
	if ! gcc "${cflags[@]}" -o "$b/$name" "$@" "$lib" >"$b/$name.build.log" 2>&1; then
		echo "FAIL host $name: does not build"
		sed 's/^/    /' "$b/$name.build.log" | head -20
		return
	fi
	local out rc
	out=$("$b/$name" 2>&1)
	rc=$?
	echo "$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL' <<<"$out"; then
		echo "FAIL host $name: exit status $rc"
	fi
}

unit test_parse "$top/tests/host/test_parse.c"
unit test_cond "$top/tests/host/test_cond.c"
unit test_ring "$top/tests/host/test_ring.c"
unit test_format "$top/tests/host/test_format.c"
unit test_out "$top/tests/host/test_out.c"
unit test_calls "$top/tests/host/test_calls.c"
unit test_shadow "$top/tests/host/test_shadow.c"
unit test_codememo "$top/tests/host/test_codememo.c"
unit test_xmon_words "$top/tests/host/test_xmon_words.c"
# The decoder tests print summaries; turn them into PASS/FAIL lines.
summaries() {
	awk '
	/^x86-decode unit: [0-9]+ passed, 0 failed$/ {
		print "PASS x86-decode unit tests (" $3 " checks)"; next }
	/^x86-decode unit:/ { print "FAIL " $0; next }
	/^x86-decode: [^ ]+: [0-9]+ insns compared, 0 length mismatches, 0 class mismatches/ {
		print "PASS x86-decode agrees with objdump on " $2 " " $3 " instructions"; next }
	/^x86-decode: [^ ]+: [0-9]+ insns compared/ { print "FAIL " $0; next }
	/^ppc-class unit: [0-9]+ passed, 0 failed$/ { next }	# has PASS lines
	/^ppc-class unit:/ { print "FAIL " $0; next }
	/^ppc-class: [^ ]+: [0-9]+ insns compared, 0 kind mismatches, 0 field mismatches/ {
		print "PASS ppc-class agrees with objdump on " $2 " " $3 " instructions"; next }
	/^ppc-class: [^ ]+: [0-9]+ insns compared/ { print "FAIL " $0; next }
	{ print }'
}
unit test_x86_block_scan "$top/tests/host/test_x86_block_scan.c"
unit test_x86_step "$top/tests/host/test_x86_step.c"
unit test_x86_decode "$top/tests/host/test_x86_decode.c" | summaries
"$top/tests/host/run_x86_objdump.sh" | summaries
unit test_ppc_step "$top/tests/host/test_ppc_step.c"
unit test_ppc_class "$top/tests/host/test_ppc_class.c" | summaries
"$top/tests/host/run_ppc_objdump.sh" | summaries

# The ELF symbol reader: unit tests on images built byte by byte, then
# against nm over real binaries of both arches (after the line above
# fetched the ppc64el libc and busybox): the C libraries and loaders
# (.dynsym), busybox (stripped: no table), tp_loop static and, on
# x86_64, as a dynamic PIE (.symtab).
unit test_elfsym "$top/tests/host/test_elfsym.c"
elfsym_nm() {
	local ppcbb="$b/busybox-ppc64el/bin/busybox" x
	if ! gcc "${cflags[@]}" -o "$b/elfsym_tool" "$top/tests/host/elfsym_tool.c" \
		"$lib" >"$b/elfsym_tool.build.log" 2>&1; then
		echo "FAIL host elfsym_tool: does not build"
		return
	fi
	for x in "-static -o $b/tp_loop.static" "-fPIE -pie -o $b/tp_loop.pie" \
		"-static -Wl,--build-id=none -o $b/tp_loop.noid"; do
		# shellcheck disable=SC2086 # options and output as words
		gcc -O1 -fno-inline -g -I "$top/tools/include" $x "$top/tests/prog/tp_loop.c" ||
			echo "FAIL host elfsym: tp_loop $x does not build"
	done
	powerpc64le-linux-gnu-gcc -O1 -fno-inline -g -static -I "$top/tools/include" \
		-o "$b/tp_loop.ppc64le" "$top/tests/prog/tp_loop.c" ||
		echo "FAIL host elfsym: tp_loop for ppc64le does not build"
	python3 "$top/tests/host/elfsym_nm.py" "$b/elfsym_tool" nm \
		/lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
		/bin/busybox "$b/tp_loop.static" "$b/tp_loop.pie" "$b/tp_loop.noid"
	python3 "$top/tests/host/elfsym_nm.py" "$b/elfsym_tool" \
		powerpc64le-linux-gnu-nm /usr/powerpc64le-linux-gnu/lib/libc.so.6 \
		/usr/powerpc64le-linux-gnu/lib/ld64.so.2 "$ppcbb" "$b/tp_loop.ppc64le"
}
elfsym_nm

# The layer checker (scripts/check-layers.py, run on the tree by the
# style group) on a small tree that breaks each of its rules: it must
# find exactly those breaks (tests/host/layers/expected.txt)
layers_selftest() {
	local d="$top/tests/host/layers" got
	got=$(python3 "$top/scripts/check-layers.py" --root "$d" \
		--conf "$top/scripts/layers.conf" | grep '^FAIL')
	if [ "$got" = "$(cat "$d/expected.txt")" ]; then
		echo "PASS host check-layers: finds the $(grep -c . "$d/expected.txt") breaks of tests/host/layers, no other"
	else
		echo "FAIL host check-layers: on tests/host/layers, against expected.txt:"
		diff <(echo "$got") "$d/expected.txt" | sed 's/^/    /' | head -20
	fi
}
layers_selftest

# `make bench` is not part of make check; its host half's builds are
# (the record bench over the library, the workload for both arches)
if log=$("$top/bench/host/run.sh" --build-only 2>&1); then
	echo "PASS host bench: bench_record and tp_bench (x86_64, ppc64le) build"
else
	echo "FAIL host bench: bench/host/run.sh --build-only: $(tail -3 <<<"$log")"
fi

# itrace-dump (tools/itrace-dump) with the same warnings, as errors: bad
# captures and command lines (tests/host/test_dump.py)
dump_input() {
	local src
	read -ra src < <(make -s -C "$top/tools/itrace-dump" list-src)
	if ! (cd "$top/tools/itrace-dump" && gcc "${cflags[@]}" -D_GNU_SOURCE \
		-o "$b/itrace-dump" "${src[@]}" "$lib" -ldw -lelf -lcapstone) >"$b/itrace-dump.build.log" 2>&1; then
		echo "FAIL host itrace-dump: does not build"
		sed 's/^/    /' "$b/itrace-dump.build.log" | head -20
		return
	fi
	python3 "$top/tests/host/test_dump.py" "$b/itrace-dump" \
		"$top/tests/fuzz/corpus/capfile/small"
}
dump_input
