#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# itrace-dump's speed (issue 24: at least 3 million symbolized records a
# second on one core): a capture of 2 million made-up records of
# tp_calls (a PIE built here) and libc, 8000 distinct addresses
# (bench/dump_capture.py), as `itrace-dump capture` writes it (version
# 3, binary blocks) and as older ones were (version 1, text), read by
# `itrace-dump script` with names from elfutils, pinned to one core,
# under farm-bench (median of 5 runs); beside it, eu-addr2line -f naming
# the same distinct addresses (one process, all of them on its command
# line), per address, and perf script naming the samples of a perf.data
# of 2 million page faults (bench/faults.c: this machine has no
# branch-recording PMU, so a sample holds one address where a record
# holds two). Prints a markdown table; timings only.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"
need_pkgs libdw-dev elfutils binutils linux-perf
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
	"$tool" script -o /dev/null "$out/capture.v3" >"$out/script.txt" 2>&1 ||
	die "farm-bench script failed: $(cat "$out/script.txt")"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	"$tool" script -o /dev/null "$out/capture" >"$out/script1.txt" 2>&1 ||
	die "farm-bench script (version 1) failed: $(cat "$out/script1.txt")"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	"$tool" script -F +srcline -o /dev/null "$out/capture.v3" >"$out/srcline.txt" 2>&1 ||
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
# perf script: a perf.data of N page-fault samples
gcc -O1 -o "$out/faults" "$top/bench/faults.c" || die "bench/faults.c does not build"
perf record -q -e page-faults -c 1 -o "$out/perf.data" "$out/faults" "$N" \
	>"$out/perf-record.txt" 2>&1 || die "perf record failed: $(cat "$out/perf-record.txt")"
farm-bench -n 5 --pin 0 --timeout 600 -- \
	sh -c "exec perf script -i $out/perf.data -F comm,tid,ip,sym,dso >/dev/null 2>&1" \
	>"$out/perf.txt" 2>&1 || die "farm-bench perf script failed"
median() { sed -n "s/^A wall s *[0-9.]* *\([0-9.]*\) .*/\1/p" "$1" | head -1; }
s=$(median "$out/script.txt")
s1=$(median "$out/script1.txt")
p=$(median "$out/perf.txt")
l=$(median "$out/srcline.txt")
e=$(median "$out/addr2line.txt")
n=$(wc -l <"$out/addrs")
echo "| itrace-dump, $N records ($n distinct addresses, pid $pid) | wall s (median of 5) | rate |"
echo "| --- | ---: | ---: |"
awk -v s="$s" -v s1="$s1" -v l="$l" -v e="$e" -v p="$p" -v N="$N" -v n="$n" 'BEGIN {
	printf "| script (capture version 3, binary) | %s | %.2f M records/s |\n", s, N / s / 1e6
	printf "| script (version 1, text) | %s | %.2f M records/s |\n", s1, N / s1 / 1e6
	printf "| script -F +srcline (version 3) | %s | %.2f M records/s |\n", l, N / l / 1e6
	printf "| eu-addr2line -f, the %d distinct addresses | %s | %.1f us/address |\n", n, e, e / n * 1e6
	printf "| perf script -F comm,tid,ip,sym,dso, %d page-fault samples (one address each) | %s | %.2f M samples/s |\n", N, p, N / p / 1e6
}'
