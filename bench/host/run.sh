#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The host half of `make bench`, no VM: bench_record.c built from the
# module's own sources with kernel-like code generation, over the .text
# of the workload program built for each arch: ns per record (best of 5
# timed runs of BENCH_HOST_RECORDS records) and instructions per record
# (callgrind, counting only the record loop). Prints one line per arch
# and case:  HOST <arch> <hot|cold|nolog> ns <N> insns <N>
# With --build-only it builds all that and stops (the host tests run it:
# `make bench` is not in `make check`, its builds are).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"

need_pkgs build-essential gcc-powerpc64le-linux-gnu \
	libc6-dev-ppc64el-cross binutils-powerpc64le-linux-gnu
b="$top/build/bench/host"
mkdir -p "$b"
records=${BENCH_HOST_RECORDS:-20000000}

# -fno-stack-protector etc.: the test kernels' configuration has no stack
# protector and no CET, so neither does this code there
# (the pure-C library, kdb-itrace/lib/host.mk, with the same flags)
flags="-O2 -g -fno-stack-protector -fcf-protection=none -fno-pie
	-Wall -Wextra -Werror -Wdeclaration-after-statement
	-Wmissing-prototypes -Wstrict-prototypes -I$top/kdb-itrace -I$top"
# shellcheck disable=SC2086 # $flags is a word list
if ! { make -s -f "$top/kdb-itrace/lib/host.mk" O="$b/lib" CC=gcc \
	CFLAGS="$(echo $flags)" &&
	gcc $flags -no-pie -o "$b/bench_record" "$top/bench/host/bench_record.c" \
	"$b/lib/libitrace.a"; } >"$b/build.log" 2>&1; then
	cat "$b/build.log" >&2
	die "bench_record does not build"
fi

# The text: glibc's static code plus the workload, as compilers make it.
if ! { gcc -static -O1 -I "$top/tools/include" -o "$b/tp_bench.x86" \
	"$top/bench/tp_bench.c" &&
	objcopy -O binary --only-section=.text "$b/tp_bench.x86" "$b/x86.text" &&
	powerpc64le-linux-gnu-gcc -static -O1 -I "$top/tools/include" -o "$b/tp_bench.ppc" \
		"$top/bench/tp_bench.c" &&
	powerpc64le-linux-gnu-objcopy -O binary --only-section=.text \
		"$b/tp_bench.ppc" "$b/ppc.text"; }; then
	die "no workload text"
fi
[ "${1:-}" != --build-only ] || exit 0
need_pkgs valgrind

for arch in x86 ppc; do
	for c in hot cold nolog; do
		ns=$("$b/bench_record" $arch "$b/$arch.text" $c "$records" 5 |
			sed -n 's/.*ns\/record \([0-9.]*\).*/\1/p')
		ir=$(valgrind --tool=callgrind --toggle-collect="run_$arch" \
			--callgrind-out-file="$b/callgrind.$arch.$c" \
			"$b/bench_record" $arch "$b/$arch.text" $c 1000000 1 2>&1 |
			sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,)
		if [ -z "$ns" ] || [ -z "$ir" ]; then
			die "bench_record $arch $c failed"
		fi
		echo "HOST $arch $c ns $ns insns $(awk -v i="$ir" 'BEGIN { printf "%.1f", i / 1000000 }')"
	done
done
