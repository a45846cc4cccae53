#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs the VM test suite for $ITRACE_ARCH (or only the tests named as
# arguments) on the test kernel, or with ITRACE_KVARIANT=debug on the debug
# kernel: prepare.sh builds or reuses the kernel, module, programs and
# initramfs, then one VM boots per expect script. Prints PASS/FAIL lines
# naming arch and variant for tests/run-all.sh; a step that cannot run is
# one FAIL line.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"

b=$ITRACE_BUILD
mkdir -p "$b"

initrd=$("$top/scripts/qemu/prepare.sh" 2> >(tee "$b/prepare.log" >&2)) || {
	echo "FAIL vm: could not build the VM (log: $b/prepare.log)"
	tail -15 "$b/prepare.log" | sed 's/^/    /'
	exit 1
}

# Every PASS/FAIL line names the arch (and variant).
tag() { sed -u -E "s/^(PASS|FAIL):? /\1 [$ITRACE_FLAVOUR] /"; }

vmtest() { # vmtest NAME ARGS...: one VM boot driven by tests/vm/NAME.exp
	local name=$1 rc
	shift
	local out="$b/${name//\//-}.out"
	echo "# vm test: $name" >&2
	"$top/scripts/qemu/run-vm.sh" --initrd "$initrd" \
		--expect "$top/tests/vm/$name.exp" "$@" >"$out" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL):? ' "$out" | tag
	if [ $rc -ne 0 ] && ! grep -qE '^FAIL:? ' "$out"; then
		echo "FAIL [$ITRACE_FLAVOUR] vm $name: exit status $rc without a FAIL line ($out)"
	fi
}

# pseries under TCG: kdb stops the other cpus with a system-reset NMI,
# and when one lands in an interrupt entry or exit (MSR[RI]=0) the kernel
# dies ("Unrecoverable System Reset"): in about one of 20 to 170 entries
# with the other cpu idle, nearly always with it taking exceptions at a
# high rate, traced or not (a plain `yes > /dev/null` does it). qemu's
# single-threaded TCG avoids the idle case but hung the console now and
# then. So the ppc64le VM tests boot one cpu (multi-cpu logging is covered
# on x86_64); `make vm ARCH=ppc64le` keeps two.
[ "$ITRACE_ARCH" != ppc64le ] || export ITRACE_SMP=1

want() { [ -z "$only" ] || [[ " $only " == *" $1 "* ]]; }
only="$*"
# The ppc64le debug kernel runs 10 times slower than the plain one under
# TCG (the whole suite: about 31 minutes), more than CI's budget leaves
# it. Unless tests are named, it runs the ones whose code is POWER's own
# or whose races its checkers watch best: the arch's trap decoding, the
# larx..stcx. emulation and its task_work fault-in, the life cycle,
# signals, unload, and debugfs racing kdb. The arch-neutral core runs
# the whole suite on x86_64-debug.
if [ -z "$only" ] && [ "$ITRACE_KVARIANT" = debug ] && [ "$ITRACE_ARCH" = ppc64le ]; then
	only="debug_canary tp_loop lifecycle signals exit_unload uprobe_resv atomic debugfs_kdb"
fi

mkdir -p "$b/logs"
# Debian's own kernel (no kdb, module from DKMS): what works there is the
# debugfs front-end, and the same lockdown behaviour.
if [ "$ITRACE_KVARIANT" = stock ]; then
	want debugfs && vmtest debugfs
	want debugfs_stream && vmtest debugfs_stream
	want lockdown && vmtest lockdown
	exit 0
fi
want smoke && vmtest smoke/smoke
# the debug kernel's checkers must see a deliberate bug of each kind
[ "$ITRACE_KVARIANT" != debug ] || { want debug_canary && vmtest debug_canary; }
if want tp_loop; then
	rm -f "$b/logs/insn.log" "$b/logs/block.log"
	vmtest tp_loop "$b/logs"
	python3 "$top/tests/vm/trace_check.py" "$b/tp_loop" 5 \
		"$b/logs/insn.log" "$b/logs/block.log" | tag
fi
want bad_input && vmtest bad_input
want running && vmtest running "$b/tp_spin"
want overflow && vmtest overflow
want kdb_ss && vmtest kdb_ss "$b/tp_spin"
want lifecycle && vmtest lifecycle
want follow && vmtest follow "$b/tp_follow"
want signals && vmtest signals "$b/tp_life"
want exit_unload && vmtest exit_unload
want filter && vmtest filter "$b/tp_loop"
want uprobe && vmtest uprobe "$b/tp_loop"
# larx..stcx. windows (and their emulation) exist on powerpc only
[ "$ITRACE_ARCH" != ppc64le ] || {
	want uprobe_resv && vmtest uprobe_resv "$b/tp_atomic"
}
want ptrace && vmtest ptrace
want kprobe && vmtest kprobe "$b/tp_syscall"
# Hardware breakpoints. ppc64le: none to be had. POWER9 keeps its DAWR
# off (perf_event_open: ENODEV), qemu 7.2's pseries refuses to turn it on
# (dawr_enable_dangerous: ENODEV: no H_SET_MODE for DAWR0) and perf
# breakpoints on powerpc are data-only (execute: EOPNOTSUPP).
# x86_64: an execute breakpoint. A write watchpoint (tp_watch w) hit by a
# single-stepped instruction makes qemu 7.2's TCG raise a second #DB in
# kernel mode at the #DB entry, which hangs the guest even when only
# ptrace steps (tp_ptrace bench step tp_watch w ..., module not loaded);
# real hardware reports both in one #DB (tp_watch w is kept for that).
if [ "$ITRACE_ARCH" = x86_64 ] && want hwbp; then
	rm -f "$b/logs/hwbp-insn.log"
	vmtest hwbp "$b/tp_watch" "$b/logs" x
	python3 "$top/tests/vm/trace_check.py" --chain "$b/tp_watch" \
		"$b/logs/hwbp-insn.log" |
		sed 's/^PASS /PASS hwbp insn: /;s/^FAIL /FAIL hwbp insn: /' | tag
fi
want debugfs && vmtest debugfs
want debugfs_stream && vmtest debugfs_stream
want debugfs_kdb && vmtest debugfs_kdb
want cmd_enable && vmtest cmd_enable
want lockdown && vmtest lockdown
if want atomic; then
	rm -f "$b/logs/atomic-insn.log"
	vmtest atomic "$b/logs"
	python3 "$top/tests/vm/trace_check.py" --chain "$b/tp_atomic" \
		"$b/logs/atomic-insn.log" |
		sed 's/^PASS /PASS atomic insn: /;s/^FAIL /FAIL atomic insn: /' | tag
fi
