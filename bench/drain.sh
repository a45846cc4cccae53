#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# drain.sh - one arch's drain rows of `make bench`: how fast `itrace-dump
# capture` drains the binary stream (debugfs records) against how fast a
# CPU-bound loop logs, in insn and block mode (bench/drain.exp), on the
# wall clock: the VM the tests boot (2 CPUs on x86_64, one on ppc64le,
# as tests/vm/run.sh has it), the module, tp_spin, itrace and the
# capture-only itrace-dump in its initramfs. BENCH lines go to
# build/bench/FLAVOUR.drain for bench/table.py, the transcript beside.
#
# Env: BENCH_DRAIN_SECS (each capture's length, default 5), BENCH_RUNS
#      (runs per mode, default 3).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/qemu/lib.sh"

secs=${BENCH_DRAIN_SECS:-5}
runs=${BENCH_RUNS:-3}
out="$top/build/bench"
b="$ITRACE_BUILD/bench-drain"
mkdir -p "$out" "$b"
# prepare.sh builds the module and the guest's programs (progs.mk)
"$top/scripts/qemu/prepare.sh" >/dev/null || die "prepare.sh failed"
"$top/scripts/qemu/build-initramfs.sh" "$b/initramfs.cpio.gz" \
	--module "$ITRACE_BUILD/module/kdb_itrace.ko" \
	--prog "$ITRACE_BUILD/tp_spin" --prog "$ITRACE_BUILD/itrace" \
	--prog "$ITRACE_BUILD/itrace-dump" || die "initramfs failed"
# ppc64le's VM boots one CPU (tests/vm/run.sh says why)
[ "$ITRACE_ARCH" != ppc64le ] || export ITRACE_SMP=1
say "bench $ITRACE_FLAVOUR (drain): $runs runs a mode, $secs s each"
"$top/scripts/qemu/run-vm.sh" --initrd "$b/initramfs.cpio.gz" \
	--timeout $((300 + runs * 2 * (secs + 60))) \
	--expect "$top/bench/drain.exp" "$secs" "$runs" \
	>"$out/$ITRACE_FLAVOUR-drain.out" 2>&1
rc=$?
grep '^BENCH ' "$out/$ITRACE_FLAVOUR-drain.out" >"$out/$ITRACE_FLAVOUR.drain"
grep -E '^(FAIL|PASS)' "$out/$ITRACE_FLAVOUR-drain.out" >&2
[ $rc -eq 0 ] || say "bench $ITRACE_FLAVOUR (drain): VM run failed (rc $rc): $out/$ITRACE_FLAVOUR-drain.out"
exit $rc
