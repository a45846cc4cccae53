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

# The transparency suite's programs that need a kernel feature the test
# kernels leave out (their configs are tinyconfig plus what the module
# and the VM need): seccomp filters, rseq, x86's 32-bit system call gate.
# Where the kernel lacks it a program would only print the same refusal
# traced and untraced, a pass that tests nothing: it runs where the
# kernel has it (Debian's own kernels) and is left out elsewhere.
tt_need() {
	case $1 in
	sec_*) echo CONFIG_SECCOMP_FILTER ;;
	rseq_*) echo CONFIG_RSEQ ;;
	sys_int80) [ "$ITRACE_ARCH" != x86_64 ] || echo CONFIG_IA32_EMULATION ;;
	esac
}
# every program of the suite
tt_all() {
	local f

	for f in "$top"/tests/transparency/progs/*.c; do
		f=${f##*/}
		echo "${f%.c}"
	done
}
kernel_config() {
	local kd
	if [ "$ITRACE_KVARIANT" = stock ]; then
		read -r _ _ kd < <("$top/scripts/qemu/stock-kernel.sh" "$ITRACE_KVER")
		echo "$kd/.config"
	else
		echo "$(kernel_dir)/.config"
	fi
}
# tt_fit PROG...: those whose feature this kernel has (one note line for
# the others); with --needing, only those that need one
tt_fit() {
	local cfg p sym needing='' out=() left=()
	[ "$1" != --needing ] || { needing=1; shift; }
	cfg=$(kernel_config)
	for p in "$@"; do
		sym=$(tt_need "$p")
		if [ -z "$sym" ]; then
			[ -n "$needing" ] || out+=("$p")
		elif grep -q "^$sym=y" "$cfg" 2>/dev/null; then
			out+=("$p")
		else
			left+=("$p")
		fi
	done
	[ ${#left[@]} -eq 0 ] ||
		say "transparency: left out on this kernel (no seccomp filters, rseq or ia32 gate): ${left[*]}"
	echo "${out[@]}"
}

# The debug kernels run a share (tt_share: the programs whose paths in
# the module their checkers watch best: signal delivery and sigreturn,
# fork and exec from handlers and threads, ptrace, the larx windows).
tt_share() {
	case $ITRACE_ARCH in
	ppc64le) echo "sig_fork_hdl sig_edit_ctx step_pushf atom_widths
		atom_resvbranch" ;;
	*) echo "sig_fork_hdl sig_nodefer300 sig_edit_ctx step_popf step_pushf
		step_sigret_pf thr_exec proc_vfork dbg_setregs dbg_parent_step" ;;
	esac
}
# The other kernel lines' test kernels (gen_tests below) run a share
# too (tt_gen_share): what each line's entry, signal, ptrace and exec
# code does to a program's own state: signal frames and their edits,
# sigreturn, fork, vfork and exec from handlers and threads, a
# debugger's steps and register writes, the program's own TF (x86) and
# larx windows (powerpc), the vDSO, self-modifying code.
tt_gen_share() {
	local common="sig_fork_hdl sig_nodefer300 sig_edit_ctx sig_altstack
		sig_restart sig_fpregs sig_swapctx sig_stopcont sig_vfork_hdl
		proc_vfork proc_clone3 thr_exec thr_exec_hdl thr_exitgroup
		dbg_setregs dbg_parent_step dbg_singlestep dbg_step_sys
		dbg_step_hdl sys_vdso sys_regs mem_smc time_cputimer"
	case $ITRACE_ARCH in
	ppc64le) echo "$common atom_widths atom_resvbranch atom_sigstorm" ;;
	*) echo "$common step_popf step_pushf step_sigret_pf step_tf_syscall
		step_int3_hdl dbg_sysemu" ;;
	esac
}
# tt_run_list: the programs this kernel's transparency test runs.
# ITRACE_TT_PROGS ("none": no program) overrides it (make fuzz-traced).
tt_run_list() {
	if [ -n "${ITRACE_TT_PROGS:-}" ]; then
		echo "${ITRACE_TT_PROGS/#none/}"
	elif [ "$ITRACE_KVARIANT" = debug ]; then
		tt_share
	elif [ -z "$ITRACE_KVARIANT" ] && [ "$ITRACE_KVER" != 6.1 ]; then
		tt_gen_share
	elif [ "$ITRACE_KVARIANT" = stock ]; then
		# shellcheck disable=SC2046 # one argument per program
		tt_fit --needing $(tt_all)
	else
		# shellcheck disable=SC2046 # one argument per program
		tt_fit $(tt_all)
	fi
}
# Debian's own kernel that cannot be fetched here for a reason outside
# this tree (stock-kernel.sh's status 77: the mirror failed the index
# that lists it): one SKIP line, no test
if [ "$ITRACE_KVARIANT" = stock ]; then
	why=$("$top/scripts/qemu/stock-kernel.sh" "$ITRACE_KVER")
	if [ $? -eq 77 ]; then
		echo "SKIP [$ITRACE_FLAVOUR] vm: $why"
		exit 0
	fi
fi

# Only those go into the initramfs (prepare.sh's ITRACE_TT_IMAGE, which
# the transparency test then runs as it is, not computed again) where
# they are a few: every program is a static binary of about 800 KB, and
# unpacking all of them is most of a debug kernel's boot (KASAN) and of
# its guest's memory. The 6.1 test kernels' images carry them all (their
# .config, which tt_fit reads, may not be built yet).
if [ -n "$ITRACE_KVARIANT" ] || [ "$ITRACE_KVER" != 6.1 ]; then
	ITRACE_TT_IMAGE=$(echo $(tt_run_list 2>/dev/null))
	export ITRACE_TT_IMAGE
fi

# ITRACE_VM_PART=moved (tests/run-all.sh): this kernel's other part is
# running meanwhile and has built everything; boot that, build nothing
# (a second prepare.sh would rewrite the files under its tests).
# The other part says so in $b/prepared (ITRACE_VM_RUN: the run's id).
if [ "${ITRACE_VM_PART:-}" = moved ]; then
	initrd=$b/initramfs.cpio.gz
	for ((i = 0; i < 360; i++)); do
		[ "$(cat "$b/prepared" 2>/dev/null)" != "${ITRACE_VM_RUN:-}" ] || break
		sleep 5
	done
	[ "$(cat "$b/prepared" 2>/dev/null)" = "${ITRACE_VM_RUN:-}" ] ||
		{ echo "FAIL vm: the other part did not build $initrd within 30 minutes"; exit 1; }
else
	rm -f "$b/prepared"
	initrd=$("$top/scripts/qemu/prepare.sh" 2> >(tee "$b/prepare.log" >&2)) || {
		echo "FAIL vm: could not build the VM (log: $b/prepare.log)"
		tail -15 "$b/prepare.log" | sed 's/^/    /'
		exit 1
	}
	echo "${ITRACE_VM_RUN:-}" >"$b/prepared"
fi

# the same with the transparency suite's programs (prepare.sh)
initrd_tt=${initrd%.cpio.gz}-tt.cpio.gz
initrd_main=$initrd

# Every PASS/FAIL line names the arch (and variant).
tag() { sed -u -E "s/^(PASS|FAIL):? /\1 [$ITRACE_FLAVOUR] /"; }

# vmtest NAME [--append "KERNEL ARGS"] ARGS...: one test driven by
# tests/vm/NAME.exp. A test that boots the kernel's usual machine (this
# initramfs, no extra kernel arguments) runs in the batch (batch_run) or
# starts from its boot snapshot (run-vm.sh --snapshot: booted and saved
# by the first such test) unless ITRACE_VM_SNAPSHOT=0: most of a test on
# the debug kernel was its boot.
vmtest() {
	local name=$1 rc opts=()
	shift
	local out="$b/${name//\//-}.out"
	echo "# vm test: $name" >&2
	if [ "${1:-}" = --append ]; then
		opts=(--append "$2")
		shift 2
	elif [ "$initrd" = "$initrd_main" ] && batch_ok "$name"; then
		batch_run "$name" "$out" "$@"
		return
	elif [ "$initrd" = "$initrd_main" ] && [ "${ITRACE_VM_SNAPSHOT:-1}" != 0 ]; then
		opts=(--snapshot "$b/snap")
	fi
	"$top/scripts/qemu/run-vm.sh" --initrd "$initrd" ${opts[@]+"${opts[@]}"} \
		--expect "$top/tests/vm/$name.exp" "$@" >"$out" 2>&1
	rc=$?
	vm_result "$name" "$out" $rc
}
# vm_result NAME OUT RC: the test's PASS/FAIL lines, tagged; a FAIL line
# if it ended badly without one
vm_result() {
	grep -E '^(PASS|FAIL):? ' "$2" | tag
	if [ "$3" -ne 0 ] && ! grep -qE '^FAIL:? ' "$2"; then
		echo "FAIL [$ITRACE_FLAVOUR] vm $1: exit status $3 without a FAIL line ($2)"
	fi
}

# The batch (tests/vm/batch.exp): the tests of one kernel that boot its
# usual machine run one after the other in one VM, which resets between
# them what a test may leave behind; kmemleak scans once, at its end. A
# test's failure ends that VM, and the next test starts another. Not in
# a batch (batch_ok): the tests that change what a reset cannot restore
# (kernel lockdown, kdb's cmd_enable, xmon's kgdboc, the canaries'
# deliberate bugs), the harness's own smoke test (it times the boot and
# checks the power-off). The batch VM waits while a test outside it runs
# in its own.
# ITRACE_VM_BATCH: "debug" (the default) batches on the debug kernels
# only, 1 on every kernel, 0 on none. The debug kernels gain (kmemleak
# once, ppc64le-debug's 15-25 s boots once); on the others their boots
# are cheap (a snapshot on x86_64, ~3.5 s on ppc64le), and in one CI run
# batched the ppc64le lane took 200 s longer, a cause not found (a test
# did not slow down from one to the next in a batch).
batch_ok() {
	case ${ITRACE_VM_BATCH:-debug} in
	0) return 1 ;;
	debug) [ "$ITRACE_KVARIANT" = debug ] || return 1 ;;
	esac
	case $1 in
	lockdown | lockdown_boot | cmd_enable | debug_canary | xmon | xmon_ro) return 1 ;;
	smoke/smoke) return 1 ;; # the harness's own test: boots and powers off
	esac
}
batch_pid=
batch_seq=0
batch_log=
# batch_run NAME OUT ARGS...: NAME's test in the batch VM (one started if
# none runs), its part of the batch's output in OUT; waits for its end
# within ITRACE_TIMEOUT (default 300 s, scaled) as a test alone does.
batch_run() {
	local name=$1 out=$2 secs t0 rc=0
	shift 2
	if [ -z "$batch_pid" ] || ! kill -0 "$batch_pid" 2>/dev/null; then
		batch_start
	fi
	batch_seq=$((batch_seq + 1))
	printf '%s\n' "$batch_seq $name $*" >&7
	secs=${ITRACE_TIMEOUT:-$((300 * ITRACE_TIME_SCALE))}
	t0=$SECONDS
	while ! grep -q "^BATCH-END $batch_seq " "$batch_log"; do
		if ! kill -0 "$batch_pid" 2>/dev/null; then
			# a test that exits ends its batch: its lines say how
			wait "$batch_pid"
			rc=$?
			break
		fi
		if [ $((SECONDS - t0)) -gt "$secs" ]; then
			echo "FAIL: $name: did not end within ${secs}s in the batch ($batch_log)" >>"$batch_log"
			batch_kill
			rc=124
			break
		fi
		sleep 0.2
	done
	sed -n "/^BATCH-START $batch_seq /,/^BATCH-END $batch_seq /p" "$batch_log" >"$out"
	[ $rc -eq 0 ] || sed -n "/^BATCH-START $batch_seq /,\$p" "$batch_log" >"$out"
	vm_result "$name" "$out" $rc
}
batch_start() {
	local req=$b/$batch_tag.req
	batch_log=$b/$batch_tag-$((++batch_runs)).log
	rm -f "$req"
	mkfifo "$req"
	# opened read-write: never blocks, and never SIGPIPEs if the VM dies
	exec 7<>"$req"
	local snap=()
	[ "${ITRACE_VM_SNAPSHOT:-1}" = 0 ] || snap=(--snapshot "$b/snap")
	ITRACE_TIMEOUT=$((86400 * ITRACE_TIME_SCALE)) "$top/scripts/qemu/run-vm.sh" \
		--initrd "$initrd_main" ${snap[@]+"${snap[@]}"} \
		--expect "$top/tests/vm/batch.exp" "$req" >"$batch_log" 2>&1 &
	batch_pid=$!
}
batch_runs=0
# the two parts of a kernel's tests (ITRACE_VM_PART) share $b
batch_tag=batch${ITRACE_VM_PART:+-$ITRACE_VM_PART}
rm -f "$b/$batch_tag"-*.log "$b/$batch_tag-end.out"
# batch_kill: a batch that went wrong (its run-vm.sh kills qemu)
batch_kill() {
	[ -n "$batch_pid" ] || return 0
	kill "$batch_pid" 2>/dev/null
	wait "$batch_pid" 2>/dev/null
	batch_pid=
	exec 7>&-
}
# batch_end: the last test has run; kmemleak and the power-off's lines
batch_end() {
	local rc
	[ -n "$batch_pid" ] || return 0
	if kill -0 "$batch_pid" 2>/dev/null; then
		echo end >&7
		wait "$batch_pid"
		rc=$?
		awk '/^BATCH-END /{tail=""; next} {tail=tail $0 "\n"} END {printf "%s", tail}' \
			"$batch_log" >"$b/$batch_tag-end.out"
		vm_result "batch's end" "$b/$batch_tag-end.out" $rc
	fi
	batch_pid=
	exec 7>&-
}
trap batch_end EXIT
trap 'batch_kill; exit 130' INT TERM HUP

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
# want_61 NAME: want, but on the 6.1 kernels only unless named: the tests
# of what no kernel version shapes (the parser and its one-line errors,
# the kinds filter, the escaping of names, the ring's overflow counts,
# debugfs commands refused while kdb holds a slot: the same module code
# on every kernel, through no API that differs). CI's budget.
want_61() { want "$1" && { [ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ]; }; }
only="$*"
# The debug kernels run 5 (x86_64) and 10 (ppc64le) times slower than
# the plain ones under TCG: the whole suite on both, side by side, took
# 31 minutes, more than CI's budget leaves them. Unless tests are named,
# each runs the tests whose code its checkers (KASAN, lockdep, kmemleak,
# DEBUG_ATOMIC_SLEEP) watch best. ppc64le-debug: POWER's own code (the
# trap decoding, the larx..stcx. emulation and its task_work fault-in),
# the life cycle, signals and unload. x86_64-debug: every test that runs
# module code the others do not, less what is policy or another
# subsystem's work (smoke, kdb_ss, filter, hwbp, cmd_enable, the
# run-time lockdown test, and ptrace and kprobe, whose traps are the
# debugger's and the kprobe's own: all run on the plain kernels), plus
# the load under boot-time lockdown, which needs these kernels' sha256.
if [ -z "$only" ] && [ "$ITRACE_KVARIANT" = debug ]; then
	case $ITRACE_ARCH in
	ppc64le) only="debug_canary tp_loop lifecycle signals exit_unload uprobe_resv atomic
		transparency" ;;
	*) only="debug_canary tp_loop running overflow lifecycle follow
		comm late freeze signals exit_unload races debugfs debugfs_stream debugfs_kdb atomic
		trigger tf_self transparency capture"
		# ITRACE_VM_PART=moved: these instead, run by tests/run-all.sh
		# at the end of the other lane (with one vCPU) so that the two
		# debug lanes end together: tests with no task spinning beside
		# the shell, which one vCPU would slow down (trigger's on/off
		# loop took 78 s there instead of 31)
		moved="sym bigsym bad_input uprobe lockdown_boot"
		case ${ITRACE_VM_PART:-all} in
		all) only+=" $moved" ;;
		moved) only=$moved ;;
		esac ;;
	esac
	only=$(echo $only)
fi

# The test kernels of the other lines (5.10, 6.12, 7.3): unless tests
# are named, those whose module code differs from one line to the next
# or meets code each line reworks; the 6.1 kernels run every test. The
# module's kernel-API differences are all behind kdb-itrace/wrap.mk's
# wrappers, and these tests run each wrapper: kdb's registration (every
# kdb test, smoke first), the exit tracepoint (lifecycle), the ptrace
# freeze (ptrace), the uprobe consumer and vma lookup (trigger), the mm
# flags (uprobe), the MSR accessors (every x86 load), POWER's return
# registers (tp_loop; atomic and uprobe_resv for the larx emulation);
# and the paths each line reworks: signal frames and sigreturn
# (signals), fork, exec and exit (lifecycle), debugfs, and the
# transparency share (tt_gen_share). Left out there: the parser, kinds,
# names, ring and symbol tests (sym, bigsym, bad_input, overflow,
# filter, names, dump, trig_threads: the same module code on every
# line, through no API that differs), and what is another subsystem's
# behaviour the module only coexists with (running, kdb_ss, tf_self,
# follow, comm, exit_unload, kprobe, hwbp, debugfs_stream, debugfs_kdb,
# capture, cmd_enable, lockdown, xmon): named, each runs anywhere.
if [ -z "$only" ] && [ -z "$ITRACE_KVARIANT" ] && [ "$ITRACE_KVER" != 6.1 ]; then
	only="smoke tp_loop lifecycle signals ptrace trigger uprobe debugfs
		transparency"
	[ "$ITRACE_ARCH" != ppc64le ] || only+=" atomic uprobe_resv"
	only=$(echo $only)
fi

mkdir -p "$b/logs"
# xmon, POWER's console monitor: the front-end from its `p` calls (a boot
# with xmon=rw), tp_loop's logs read there checked like tp_loop's; and
# xmon as distributions boot it, read-only. On the 6.1 kernels unless
# named: xmon.c has no version difference (the style check builds it for
# every line; it runs when asked: passed on 6.12 stock and test alike).
xmon_tests() {
	[ "$ITRACE_ARCH" = ppc64le ] || return 0
	[ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ] || return 0
	if want xmon; then
		rm -f "$b"/logs/xmon-*
		vmtest xmon --append xmon=rw "$b/logs"
		python3 "$top/tests/vm/trace_check.py" "$b/tp_loop" 5 \
			"$b/logs/xmon-insn.log" "$b/logs/xmon-block.log" |
			sed 's/^PASS /PASS xmon: /;s/^FAIL /FAIL xmon: /' | tag
	fi
	! want xmon_ro || vmtest xmon_ro
}
# itrace-dump: a capture taken in the guest (tests/vm/dump.exp), read on
# this host by the full build (tools/itrace-dump) and checked against the
# binaries (tests/vm/dump_check.py; logs: dump/). On the 6.1 test
# kernels unless named (it is userspace over the debugfs files, whose
# every kernel difference debugfs_stream and capture cover; about 100 s
# a kernel, which the CI budget has no room for twice more).
dump_test() {
	want dump || return 0
	[ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ] || return 0
	rm -rf "$b/logs/dump"
	mkdir -p "$b/logs/dump"
	vmtest dump "$b/logs/dump"
	[ -s "$b/logs/dump/capture" ] || return 0
	if ! make -s -C "$top/tools/itrace-dump" >"$b/logs/dump/make.log" 2>&1; then
		echo "FAIL dump: tools/itrace-dump does not build ($b/logs/dump/make.log)" | tag
		return 0
	fi
	# a real viewer loads the JSON (once: on the x86_64 test kernel)
	local viewer=()
	if [ "$ITRACE_FLAVOUR" = x86_64 ]; then
		if html=$("$top/tests/vm/speedscope.sh" 2>"$b/logs/dump/viewer.log"); then
			viewer=(--viewer "$html")
		else
			echo "FAIL dump: viewer: no speedscope ($b/logs/dump/viewer.log)" | tag
		fi
	fi
	python3 "$top/tests/vm/dump_check.py" ${viewer[@]+"${viewer[@]}"} \
		"$top/tools/itrace-dump/itrace-dump" "$b" "$b/logs/dump/capture" \
		"$b/logs/dump/capture.txt" |
		sed 's/^PASS /PASS dump: /;s/^FAIL /FAIL dump: /' | tag
}
# Debian's own kernel (no kdb, module from DKMS): what works there is the
# debugfs front-end, and the same lockdown behaviour; on ppc64le xmon;
# and the transparency programs the test kernels cannot run (on the 6.1
# ones unless named: CI's budget).
if [ "$ITRACE_KVARIANT" = stock ]; then
	want debugfs && vmtest debugfs
	want debugfs_stream && vmtest debugfs_stream
	want capture && vmtest capture "$b"
	want lockdown && vmtest lockdown
	# break without kdb (no kgdboc there): the freeze stands
	if want freeze && { [ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ]; }; then
		vmtest freeze "$b/tp_crash"
	fi
	xmon_tests
	if want transparency && { [ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ]; }; then
		tt=${ITRACE_TT_IMAGE-$(tt_run_list)}
		# shellcheck disable=SC2086 # one argument per program
		ITRACE_TIMEOUT=$((900 * ITRACE_TIME_SCALE)) initrd=$initrd_tt \
			vmtest transparency $tt
	fi
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
	for m in insn block; do
		python3 "$top/tests/vm/sym_check.py" tp_loop="$b/tp_loop" \
			"$b/lib" "$b/logs/$m.maps" "$b/logs/$m.log" \
			"$b/logs/$m.sym" |
			sed "s/^PASS /PASS tp_loop $m names: /;s/^FAIL /FAIL tp_loop $m names: /" | tag
	done
fi
# Function names, call tree, shadow stack and registers of a dynamic PIE
# with its libc and loader, in both modes (logs: sym-MODE.*).
if want sym; then
	for m in insn block; do
		rm -rf "$b/logs/sym-$m"
		mkdir -p "$b/logs/sym-$m"
		vmtest sym "$b/logs/sym-$m" $m
		l="$b/logs/sym-$m/$m"
		{
			python3 "$top/tests/vm/sym_check.py" --status "$l.status" \
				tp_calls="$b/tp_calls" "$b/lib" "$l.maps" "$l.log" \
				"$l.sym"
			python3 "$top/tests/vm/calls_check.py" "$ITRACE_ARCH" \
				tp_calls="$b/tp_calls" "$b/lib" "$l.maps" "$l.log" \
				"$l.calls" "$l.stack"
			python3 "$top/tests/vm/top_check.py" \
				tp_calls="$b/tp_calls" "$b/lib" "$l.maps" "$l.log" \
				"$l.top"
		} | sed "s/^PASS /PASS sym $m: /;s/^FAIL /FAIL sym $m: /" | tag
	done
fi
# the live shadow stack: tp_deep's frames after its records were
# overwritten, checked against the binary (logs: shadow/)
if want shadow; then
	rm -rf "$b/logs/shadow"
	mkdir -p "$b/logs/shadow"
	vmtest shadow "$b/logs/shadow"
	# MODE DEPTH [--child]: tp_deep's stack, or its followed child's
	for m in "insn 300" "block 20" "block 20 --child"; do
		set -- $m
		f=$b/logs/shadow/$1${3:+-child}.stack
		if [ -s "$f" ]; then
			python3 "$top/tests/vm/stack_check.py" ${3:-} "$1" "$2" \
				"$b/tp_deep" "$f"
		else
			echo "FAIL $1${3:+ child}: the VM test saved no stack"
		fi
	done | sed "s/^PASS /PASS shadow: /;s/^FAIL /FAIL shadow: /" | tag
fi
# `func`: tp_trig traced whole, then only inside target (logs: trig-*)
if want trigger; then
	rm -f "$b"/logs/trig-*.log
	vmtest trigger "$b/logs"
	t=0x$("${ITRACE_TOOLS}nm" "$b/tp_trig" | awk '$3 == "target" { print $1 }')
	{
		python3 "$top/tests/vm/trig_check.py" "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-func.log"
		python3 "$top/tests/vm/trig_check.py" --block "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-block.log"
		python3 "$top/tests/vm/trig_check.py" "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-func2.log"
		python3 "$top/tests/vm/trig_check.py" --pick 1,2 "count 2" "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-count.log"
		python3 "$top/tests/vm/trig_check.py" --pick 2 "if arg0 eq 5" "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-if.log"
		python3 "$top/tests/vm/trig_check.py" --pick 2 "debugfs: if arg0>=5" "$t" 4 \
			"$b/logs/trig-full.log" "$b/logs/trig-if2.log"
		h=0x$("${ITRACE_TOOLS}nm" "$b/tp_trig" | awk '$3 == "helper" { print $1 }')
		for f in startstop startstop2; do
			python3 "$top/tests/vm/trig_check.py" --stop "$h" "$t" 12 \
				"$b/logs/trig-full.log" "$b/logs/trig-$f.log"
		done
	} | sed 's/^PASS /PASS trigger: /;s/^FAIL /FAIL trigger: /' | tag
fi
want_61 bad_input && vmtest bad_input
want running && vmtest running "$b/tp_spin"
want_61 overflow && vmtest overflow
want kdb_ss && vmtest kdb_ss "$b/tp_spin"
want lifecycle && vmtest lifecycle
want trig_threads && vmtest trig_threads
# bigsym: image.c has no version difference; on the 6.1 kernels (and
# x86_64-debug's KASAN and lockdep) unless named
if want bigsym && { [ "$ITRACE_KVER" = 6.1 ] || [ -n "$only" ]; }; then
	vmtest bigsym
fi
# x86 only: POWER user code cannot set or clear MSR_SE itself
[ "$ITRACE_ARCH" != x86_64 ] || { want tf_self && vmtest tf_self "$b/tp_tf"; }
# ITRACE_TT_PROGS ("none": no program) and ITRACE_TT_SEEDS override the
# programs and the seeds (make fuzz-traced).
if want transparency; then
	tt=${ITRACE_TT_IMAGE-$(tt_run_list)}
	seeds=
	if [ -n "${ITRACE_TT_SEEDS:-}" ]; then
		seeds=$ITRACE_TT_SEEDS
	elif [ "$ITRACE_KVER" = 6.1 ] && [ "$ITRACE_KVARIANT" != debug ]; then
		seeds=$(grep -v '^#' "$top/tests/transparency/fuzz/seeds" | tr '\n' ' ')
	fi
	# longer than the others' 300 s: ppc64le's suite alone takes ~150 s
	n=$(echo $seeds | wc -w)
	# shellcheck disable=SC2086 # one argument per program
	ITRACE_TIMEOUT=$(((900 + 60 * n) * ITRACE_TIME_SCALE)) initrd=$initrd_tt \
		vmtest transparency --seeds "$seeds" $tt
fi
want follow && vmtest follow "$b/tp_follow"
want comm && vmtest comm "$b/tp_follow"
# names taken without exec, mappings made after arming (tp_late)
want late && vmtest late "$b/tp_late"
# the flight recorder: keep, freeze at a crash, break into kdb (tp_crash)
want freeze && vmtest freeze "$b/tp_crash"
# values in records: arguments, returns, system calls, times (tp_values),
# and itrace-dump's views of them in a capture, read on this host
values_test() {
	want values || return 0
	rm -rf "$b/logs/values"
	mkdir -p "$b/logs/values"
	vmtest values "$b/tp_values" "$b/logs/values"
	[ -s "$b/logs/values/capture" ] || return 0
	if ! make -s -C "$top/tools/itrace-dump" >"$b/logs/values/make.log" 2>&1; then
		echo "FAIL values: tools/itrace-dump does not build ($b/logs/values/make.log)" | tag
		return 0
	fi
	python3 "$top/tests/vm/values_check.py" "$top/tools/itrace-dump/itrace-dump" \
		"$b/tp_values" "$b/logs/values/capture" "$b/logs/values/out" | tag
}
values_test
# the shell's itrace command (tools/itrace): the same on every kernel
want_61 shell && vmtest shell
# log -i: the trap path's code memo, both arches' fetch (x86 decode,
# POWER classify); no kernel version shapes it
want_61 insn_bytes && vmtest insn_bytes "$b/tp_loop"
# a kernel oops in a traced task's system call, read at kdb's prompt
# (panic=0: kgdb stops at an oops only without a panic timeout)
want_61 oops && vmtest oops --append panic=0 "$b/tp_crash"
want signals && vmtest signals "$b/tp_life"
want exit_unload && vmtest exit_unload
# Three races held open by the debug kernels' module (its test hooks).
# init_on_free=1: a freed name reads as zeros. KASAN cannot see that read
# (strscpy() reads a word at a time with load_unaligned_zeropad(), which
# it does not check), so the name test looks at what was copied.
[ "$ITRACE_KVARIANT" != debug ] || {
	want races && vmtest races --append init_on_free=1
}
want_61 filter && vmtest filter "$b/tp_loop"
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
want_61 debugfs_kdb && vmtest debugfs_kdb
want capture && vmtest capture "$b"
# a comm and a file name holding a newline and ESC: '?' on the console,
# escaped in maps, never a raw control byte
want_61 names && vmtest names
dump_test
want cmd_enable && vmtest cmd_enable
want lockdown && vmtest lockdown
# Only the debug kernels load a signed module (sha256: debug.config).
[ "$ITRACE_KVARIANT" != debug ] || {
	want lockdown_boot &&
		vmtest lockdown_boot --append "lockdown=integrity itrace.noinsmod"
}
if want atomic; then
	rm -f "$b/logs/atomic-insn.log" "$b/logs/atomic-sizes-insn.log"
	vmtest atomic "$b/logs"
	python3 "$top/tests/vm/trace_check.py" --chain "$b/tp_atomic" \
		"$b/logs/atomic-insn.log" |
		sed 's/^PASS /PASS atomic insn: /;s/^FAIL /FAIL atomic insn: /' | tag
	# the end of the larx sizes run (powerpc), emulated windows and all
	[ ! -e "$b/logs/atomic-sizes-insn.log" ] ||
		python3 "$top/tests/vm/trace_check.py" --chain "$b/tp_atomic" \
			"$b/logs/atomic-sizes-insn.log" |
		sed 's/^PASS /PASS atomic sizes insn: /;s/^FAIL /FAIL atomic sizes insn: /' | tag
fi
xmon_tests
