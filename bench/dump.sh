#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# itrace-dump's speed (issue: at least 1 million symbolized records a
# second on one core): a capture of 2 million made-up records of
# tp_calls (a PIE built here) and libc, 8000 distinct addresses
# (bench/dump_capture.py), read by `itrace-dump script` with names from
# elfutils, pinned to one core, under farm-bench (median of 5 runs);
# beside it, eu-addr2line -f naming the same distinct addresses (one
# process, all of them on its command line), per address. perf script
# is not beside it: this machine has no branch-recording PMU to make a
# comparable perf.data. Prints a markdown table; timings only.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"
need_pkgs libdw-dev elfutils binutils
out="$top/build/bench/dump"
N=${BENCH_DUMP_N:-2000000}
A=${BENCH_DUMP_ADDRS:-8000}
mkdir -p "$out"
make -s -C "$top/tools/itrace-dump" || die "tools/itrace-dump does not build"
make -s -f "$top/scripts/qemu/progs.mk" O="$out" TOP="$top" CC=gcc "$out/tp_calls" ||
	die "tp_calls does not build"
python3 "$top/bench/dump_capture.py" "$out/tp_calls" "$N" "$A" "$out/capture" \
	2>"$out/distinct" || die "no capture"
# the capture names the binary at its path here: no --symfs needed
tool="$top/tools/itrace-dump/itrace-dump"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	"$tool" script -o /dev/null "$out/capture" >"$out/script.txt" 2>&1 ||
	die "farm-bench script failed: $(cat "$out/script.txt")"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	"$tool" script -F +srcline -o /dev/null "$out/capture" >"$out/srcline.txt" 2>&1 ||
	die "farm-bench script -F +srcline failed"
# eu-addr2line: the capture's distinct addresses, in the files' own terms
awk '/^[0-9]/ { print $5; print $6 }' "$out/capture" | sort -u >"$out/addrs"
pid=$(awk '/^task/ { print $2; exit }' "$out/capture")
# (a maps file for -M: an inode per file, as /proc gives them)
awk '/^map/ { if (!($7 in ino)) ino[$7] = ++n
	print $3, $4, $5, "00:01", ino[$7], $7 }' "$out/capture" >"$out/maps"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	sh -c "exec xargs eu-addr2line -f -M $out/maps <$out/addrs >/dev/null" \
	>"$out/addr2line.txt" 2>&1 || die "farm-bench eu-addr2line failed"
median() { sed -n "s/^A wall s *[0-9.]* *\([0-9.]*\) .*/\1/p" "$1" | head -1; }
s=$(median "$out/script.txt")
l=$(median "$out/srcline.txt")
e=$(median "$out/addr2line.txt")
n=$(wc -l <"$out/addrs")
echo "| itrace-dump, $N records ($n distinct addresses, pid $pid) | wall s (median of 5) | rate |"
echo "| --- | ---: | ---: |"
awk -v s="$s" -v l="$l" -v e="$e" -v N="$N" -v n="$n" 'BEGIN {
	printf "| script | %s | %.2f M records/s |\n", s, N / s / 1e6
	printf "| script -F +srcline | %s | %.2f M records/s |\n", l, N / l / 1e6
	printf "| eu-addr2line -f, the %d distinct addresses | %s | %.1f us/address |\n", n, e, e / n * 1e6
}'
