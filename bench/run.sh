#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: the host microbenchmark (bench/host/run.sh), itrace-dump's
# symbolization rate (bench/dump.sh), then for each
# arch one VM boot on the wall clock and one under qemu -icount (guest
# instruction counts), each running every mode in the same boot
# (bench/vm.sh, bench/vm.exp), and one for the capture's drain rate
# (bench/drain.sh, bench/drain.exp); then the tables (bench/table.py) on
# stdout and in build/bench/results.md, with the machine they ran on.
# Timings only: nothing here passes or fails on a figure (only on a run
# that did not work or counted what it should not), and none of it is
# part of `make check`.
#
# Env: ITRACE_ARCHES (default "x86_64 ppc64le"), BENCH_CLOCKS (default
#      "wall icount"), BENCH_N (loop passes; default 30000 on the wall
#      clock, 10000 under icount, where runs do not vary), BENCH_RUNS
#      (default 3), BENCH_BIG, BENCH_SYS (untraced-cost workloads), and
#      what bench/vm.sh passes on (BENCH_MODES, BENCH_VDSO, ...).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

out="$top/build/bench"
mkdir -p "$out"
rm -f "$out"/*.data "$out"/*.drain "$out/host.txt" "$out/dump.md"
load() { cut -d' ' -f1-3 /proc/loadavg; }
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "qemu: $(qemu-system-x86_64 --version | head -1); $(qemu-system-ppc64 --version | head -1)"
	echo "load average at start: $(load)"
} >"$out/machine.txt"

say "host microbenchmark"
"$top/bench/host/run.sh" | tee "$out/host.txt" || die "host benchmark failed"
say "itrace-dump: symbolized records per second"
"$top/bench/dump.sh" | tee "$out/dump.md" || die "itrace-dump benchmark failed"
rc=0
for a in ${ITRACE_ARCHES:-x86_64 ppc64le}; do
	for c in ${BENCH_CLOCKS:-wall icount}; do
		n=${BENCH_N:-$([ "$c" = icount ] && echo 10000 || echo 30000)}
		say "$a, $c clock: load average $(load)"
		echo "load average before $a $c: $(load)" >>"$out/machine.txt"
		BENCH_N=$n ITRACE_ARCH=$a "$top/bench/vm.sh" "$c" || rc=1
	done
	say "$a, drain: load average $(load)"
	ITRACE_ARCH=$a "$top/bench/drain.sh" || rc=1
done
echo "load average at end: $(load)" >>"$out/machine.txt"
# table.py checks every traced run's counts against the workload's and
# prints a row that is off as INVALID (status 3): a count that is not the
# workload's is a broken measurement, not a figure, so make bench fails
python3 "$top/bench/table.py" "$out" >"$out/tables.md"
trc=$?
{
	echo "## make bench, $(date -u '+%Y-%m-%d')"
	echo
	sed 's/^/    /' "$out/machine.txt"
	echo
	cat "$out/tables.md"
	echo
	cat "$out/dump.md"
} >"$out/results.md"
cat "$out/results.md"
[ $rc -eq 0 ] || say "some VM runs failed; their rows are missing (logs in $out)"
if [ $trc -ne 0 ]; then
	say "some rows are INVALID: their counts are not the workload's (above)"
	rc=1
fi
exit $rc
