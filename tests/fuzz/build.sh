#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds the libFuzzer targets named on the command line into
# build/fuzz/<target> (tests/fuzz/fuzz_<target>.c): Debian 12's clang 14 with
# -fsanitize=fuzzer,address,undefined, every sanitizer report fatal, and
# the host unit tests' warning flags. The code under test is compiled
# unchanged against kdb-itrace/lib/host/host_shim.h, as in
# tests/host/run.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"

# clang-14 alone leaves out the sanitizer and libFuzzer runtimes
# (libclang-rt-14-dev); llvm-14 brings llvm-symbolizer for readable
# crash stacks.
need_pkgs clang-14 libclang-rt-14-dev llvm-14

# The sources of each target besides its fuzz_<target>.c and the
# library (capfile: itrace-dump's reader).
sources() {
	case $1 in
	parse | x86_decode | ppc_class | ring | format | elfsym | cond) ;;
	capfile)	echo -D_GNU_SOURCE tools/itrace-dump/capfile.c tools/itrace-dump/obuf.c \
			tools/itrace-dump/script.c tools/itrace-dump/tree.c ;;
	*)		return 1 ;;
	esac
}

b="$top/build/fuzz"
mkdir -p "$b"
cflags=(-g -O1 -fno-omit-frame-pointer
	"-fsanitize=fuzzer,address,undefined" -fno-sanitize-recover=all
	-Wall -Wextra -Werror -Wdeclaration-after-statement
	-Wmissing-prototypes -Wstrict-prototypes -I"$top/kdb-itrace" -I"$top")
rc=0
# The code under test: the pure-C library (kdb-itrace/lib/host.mk),
# instrumented as the targets are (fuzzer-no-link: coverage without a
# second libFuzzer main)
lib="$b/lib/libitrace.a"
libflags="${cflags[*]/fuzzer,address/fuzzer-no-link,address}"
if ! make -s -f "$top/kdb-itrace/lib/host.mk" O="$b/lib" CC=clang-14 \
	CFLAGS="$libflags" >"$b/lib.build.log" 2>&1; then
	echo "fuzz: libitrace.a does not build:" >&2
	sed 's/^/    /' "$b/lib.build.log" | head -20 >&2
	exit 1
fi
for t in "$@"; do
	if ! src=$(sources "$t"); then
		echo "fuzz: unknown target '$t'" >&2
		rc=1
		continue
	fi
	# a binary left from an earlier build must not run in its place
	rm -f "$b/$t"
	# shellcheck disable=SC2086 # $src is a word list
	if ! (cd "$top" && clang-14 "${cflags[@]}" -o "$b/$t" \
		tests/fuzz/fuzz_"$t".c $src "$lib") >"$b/$t.build.log" 2>&1; then
		echo "fuzz: $t does not build:" >&2
		sed 's/^/    /' "$b/$t.build.log" | head -20 >&2
		rc=1
	fi
done
exit $rc
