#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vm.sh wall|icount - one arch's part of `make bench`: builds the module
# (prepare.sh, as the VM tests do), the workload and the ptrace stepper,
# an initramfs holding just those, and boots one VM that runs
# bench/vm.exp. With icount, qemu runs with -icount shift=0: the guest's
# clock then advances 1 ns per guest instruction, so every "ns" the
# guest measures is an exact count of guest instructions (user and
# kernel), free of host noise. The BENCH lines go to
# build/bench/FLAVOUR-CLOCK.data (FLAVOUR: the arch, plus the kernel line
# and variant when not the default, e.g. x86_64-debug with
# ITRACE_KVARIANT=debug), the whole transcript next to it.
#
# Env: BENCH_N (loop passes per run), BENCH_RUNS (runs per mode, >= 3),
#      BENCH_BIG (passes of the untraced-cost loop), BENCH_SYS (passes of
#      the untraced-cost system-call loop), BENCH_COST_RUNS, BENCH_MODES
#      and BENCH_VDSO (bench/vm.exp), BENCH_APPEND (kernel command line,
#      e.g. kdb_itrace.log_records=N), ITRACE_SMP (guest cpus, default 1:
#      see below).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

clock=${1:-wall}
case $clock in
wall) ;;
# sleep=off: an idle guest jumps to its next timer at once instead of
# waiting for the host's clock (with sleep=on, one x86 run stopped dead,
# idle, at the fork of a background job)
icount) export ITRACE_QEMU_ARGS="-icount shift=0,sleep=off" ;;
*) die "usage: bench/vm.sh wall|icount" ;;
esac
n=${BENCH_N:-30000}
runs=${BENCH_RUNS:-3}
big=${BENCH_BIG:-100000000}
sysm=${BENCH_SYS:-5000}
[ "$runs" -ge 3 ] || die "BENCH_RUNS must be at least 3 (the table shows medians)"

out="$top/build/bench"
# prepare.sh's build dir for this kernel (lib.sh), module included
b="$ITRACE_BUILD/bench"
mkdir -p "$out" "$b"

# prepare.sh builds the module and the test programs (tp_ptrace, the
# debugger the ptrace rows time, among them: scripts/qemu/progs.mk)
"$top/scripts/qemu/prepare.sh" >/dev/null || die "prepare.sh failed"
$TARGET_CC -static -O1 -g -Wall -I "$top/tools/include" -o "$b/tp_bench" \
	"$top/bench/tp_bench.c" >"$b/tp_bench.log" 2>&1 ||
	die "tp_bench does not build: $b/tp_bench.log"
"$top/scripts/qemu/build-initramfs.sh" "$b/initramfs.cpio.gz" \
	--module "$ITRACE_BUILD/module/kdb_itrace.ko" \
	--prog "$b/tp_bench" --prog "$ITRACE_BUILD/tp_ptrace" || die "initramfs failed"

# One guest cpu on both arches: the tracer and the tracee of the ptrace
# runs then share it as the itrace runs share it with nobody, no shell
# or expect activity lands on another cpu during a timed window, and a
# busy host has only one TCG thread to schedule. (ppc64le's VM tests
# boot one cpu anyway, see tests/vm/run.sh.)
export ITRACE_SMP=${ITRACE_SMP:-1}
# x86_64: the kernel has no ACPI, hence no HPET or PM timer to check the
# TSC against, and falls back to jiffies (4 ms steps). qemu's TSC follows
# the host's clock: trust it.
append=
[ "$ITRACE_ARCH" != x86_64 ] || append=tsc=reliable
# e.g. BENCH_APPEND=kdb_itrace.log_records=1048576
append="$append ${BENCH_APPEND:-}"
timeout_s=$((600 + runs * 900))
say "bench $ITRACE_FLAVOUR ($clock): N=$n runs=$runs, untraced cost: loop $big, sys $sysm"
rc=1
for try in 1 2 3; do
	"$top/scripts/qemu/run-vm.sh" --initrd "$b/initramfs.cpio.gz" \
		--timeout "$timeout_s" --append "$append" \
		--expect "$top/bench/vm.exp" "$n" "$runs" "$big" "$sysm" \
		>"$out/$ITRACE_FLAVOUR-$clock.out" 2>&1
	rc=$?
	grep -q '^FAIL: clocksource' "$out/$ITRACE_FLAVOUR-$clock.out" || break
	say "bench $ITRACE_FLAVOUR ($clock): no TSC clocksource (boot $try), booting again"
done
grep '^BENCH ' "$out/$ITRACE_FLAVOUR-$clock.out" >"$out/$ITRACE_FLAVOUR-$clock.data"
grep -E '^(FAIL|PASS)' "$out/$ITRACE_FLAVOUR-$clock.out" >&2
[ $rc -eq 0 ] || say "bench $ITRACE_FLAVOUR ($clock): VM run failed (rc $rc): $out/$ITRACE_FLAVOUR-$clock.out"
exit $rc
