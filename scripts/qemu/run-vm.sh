#!/usr/bin/env bash
# run-vm.sh [options] [--expect SCRIPT.exp [ARGS...]]
#
# Owns booting the test VM under qemu (TCG; there is no KVM) with the
# kdb-enabled test kernel, either interactively on this terminal or under
# an expect script that drives the serial console (scripts/qemu/itrace.exp).
#
# Options:
#   --kernel PATH     kernel image (default: the one build-kernel.sh prints)
#   --initrd PATH     initramfs to boot (default: build one for this run with
#                     build-initramfs.sh, containing --module if given)
#   --module PATH.ko  module to put in the default initramfs; insmod'ed at
#                     boot (default: the first of build/<arch>[-debug]/module/
#                     kdb_itrace.ko (prepare.sh) and $ITRACE_TOP/kdb_itrace.ko
#                     that exists and is built for $ITRACE_ARCH)
#   --no-module       default initramfs without any module
#   --append "ARGS"   extra kernel command line (after the defaults, so e.g.
#                     "loglevel=7" overrides "quiet"; "kdb_itrace.P=V" is
#                     passed to insmod; "itrace.noinsmod" skips the insmod)
#   --timeout SEC     hard limit for a scripted run (default $ITRACE_TIMEOUT
#                     or 300 x $ITRACE_TIME_SCALE); the whole expect run and
#                     qemu are killed then
#   --snapshot DIR    (scripted runs, x86_64) boot from a snapshot of this very
#                     machine at its shell prompt, kept in DIR: the first
#                     run boots and saves one (ITRACE_VM_SAVE), the next
#                     load it instead of booting (ITRACE_VM_RESTORE; the
#                     debug kernel boots in about 11 s, loads in under 1);
#                     one file per machine: kernel, initramfs, command
#                     line, cpus, memory (their hash names it)
#   --expect SCRIPT [ARGS...]  run "expect -f SCRIPT ARGS" instead of an
#                     interactive console; must be the last option
#
# Env: ITRACE_KVER  6.1 (default), 5.10, 6.12 or 7.3: the kernel line
#      ITRACE_KVARIANT  debug: boot the debug kernel (KASAN, lockdep,
#                     kmemleak; see scripts/qemu/config/debug.config);
#                     stock: Debian's own kernel (no kdb; x86_64)
#      ITRACE_TIME_SCALE  multiplies every timeout (default 1, debug: 3)
#      ITRACE_SMP  number of guest cpus (default 2)
#      ITRACE_TCG_THREAD  multi (qemu's default: one host thread per guest
#                     cpu) or single (all guest cpus on one host thread);
#                     on ppc64le this trades one kdb roundup race for
#                     another, see vm__sreset_fail in itrace.exp
#      ITRACE_QEMU_ARGS  extra qemu arguments, split at spaces (make bench
#                     adds "-icount ..." for guest instruction counts)
#      ITRACE_PPC_FW  ppc64le firmware: vof (default; qemu's minimal Virtual
#                     Open Firmware, boot to shell ~1.5 s) or slof (the full
#                     SLOF, ~7 s: probes vscsi/pci/usb, formats the NVRAM)
#
# Every run gets its own directory $ITRACE_CACHE/work/runs/<stamp>-<name>-<pid>
# (symlink .../runs/latest) holding:
#   console.log  raw guest console output, written by qemu itself (so it is
#                complete even if expect dies); interactive runs too
#   expect.log   what expect saw, plus "### ..." lines for every step/send
#   qemu.pid     qemu's pid, used to make sure qemu is gone at the end
#
# Environment handed to the expect script (itrace.exp reads it):
#   ITRACE_QEMU_CMD   the qemu command line as a Tcl list (spawn {*}$cmd)
#   ITRACE_RUN_DIR, ITRACE_CONSOLE_LOG, ITRACE_EXPECT_LOG, ITRACE_QEMU_PIDFILE
#   ITRACE_LIB        path of itrace.exp, for "source $env(ITRACE_LIB)"
#   ITRACE_KDIR       kernel build dir (System.map, vmlinux, modules)
#   ITRACE_ARCH, ITRACE_TIMEOUT, ITRACE_KVARIANT, ITRACE_TIME_SCALE
#
# Kernel command line, deliberately:
#   console=$CONSOLE kgdboc=$CONSOLE  kdb shares the one serial line with
#                     the console and the shell (no second port to juggle)
#   nokaslr           (x86_64) stable kernel addresses across boots, so
#                     addresses in kdb output can be compared with System.map
#                     and between runs (today's config has no RANDOMIZE_BASE:
#                     a no-op then). ppc64 Book3S has no KASLR at all: there
#                     the word would only be handed to /init as an argument
#   panic=-1 oops=panic  an oops is a panic, and neither enters kdb: kgdb
#                     stands back from both while panic_timeout is set
#                     (kgdb_handle_exception() for any trap but SIGTRAP's,
#                     kgdb_panic()): x86 reboots at once and -no-reboot
#                     turns that into qemu exiting; pseries calls RTAS
#                     ibm,os-term and qemu exits ("OS terminated: OS
#                     panic: ..."). Either way the test sees eof, never a
#                     hang in kdb. tests/vm/oops.exp appends panic=0 (the
#                     last panic= counts): then the oops enters kdb, the
#                     banner "Entering kdb ... on processor N Oops: MSG"
#                     then "due to oops @ IP"
#   quiet             the boot log over an emulated UART costs time on every
#                     boot and is noise in the transcript; kdb output is not
#                     affected (kdb prints directly), sysrq headers still
#                     show. Use --append loglevel=7 to see the boot/printk.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0" >&2
	exit 2
}

kernel=
initrd=
module=
no_module=0
append=
timeout_s=${ITRACE_TIMEOUT:-$((300 * ITRACE_TIME_SCALE))}
script=
snapdir=
script_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--initrd) [ $# -ge 2 ] || usage; initrd=$2; shift 2 ;;
	--module) [ $# -ge 2 ] || usage; module=$2; shift 2 ;;
	--no-module) no_module=1; shift ;;
	--append) [ $# -ge 2 ] || usage; append="$append $2"; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
	--snapshot) [ $# -ge 2 ] || usage; snapdir=$2; shift 2 ;;
	--expect) [ $# -ge 2 ] || usage; script=$2; shift 2
		script_args=("$@"); break ;;
	-h | --help) usage ;;
	*) echo "unknown argument $1" >&2; usage ;;
	esac
done
[[ $timeout_s =~ ^[0-9]+$ ]] || die "--timeout wants seconds"
[[ ${ITRACE_SMP:-2} =~ ^[1-4]$ ]] || die "ITRACE_SMP must be 1..4 (NR_CPUS=4)"

need_pkgs "$QEMU_PKG"
[ -z "$script" ] || need_pkgs expect coreutils

# Kernel: explicit, Debian's own (ITRACE_KVARIANT=stock), or the cached
# build (build-kernel.sh returns at once when it is already built).
if [ -n "$kernel" ]; then
	kdir=${ITRACE_KDIR:-$(dirname "$kernel")}
elif [ "$ITRACE_KVARIANT" = stock ]; then
	stock=$("$here/stock-kernel.sh" "$ITRACE_KVER") ||
		die "no stock $ITRACE_KVER kernel${stock:+: $stock}"
	read -r _ kernel kdir <<<"$stock"
else
	kdir=$("$here/build-kernel.sh")
	kernel=$kdir/$KIMAGE
fi
[ -f "$kernel" ] || die "kernel image $kernel not found"

# ko_for_arch FILE: is FILE a little-endian ELF for $ITRACE_ARCH? (The
# in-tree kdb_itrace.ko is whatever arch was built there last.)
ko_for_arch() {
	local want
	case "$ITRACE_ARCH" in
	x86_64) want=62 ;;  # EM_X86_64
	ppc64le) want=21 ;; # EM_PPC64
	esac
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		[ "$(od -An -tu1 -j5 -N1 "$1" | tr -d ' ')" = 1 ] &&
		[ "$(od -An -tu2 -j18 -N2 "$1" | tr -d ' ')" = "$want" ]
}

# One directory per run: parallel runs never share files.
name=interactive
[ -z "$script" ] || name=$(basename "$script" .exp)
runs=$ITRACE_CACHE/work/runs
rundir=$runs/$(date +%Y%m%d-%H%M%S)-$name-$$
mkdir -p "$rundir"
ln -sfn "$(basename "$rundir")" "$runs/latest"

if [ -z "$initrd" ]; then
	if [ -z "$module" ] && [ $no_module -eq 0 ]; then
		for m in "$ITRACE_BUILD/module/kdb_itrace.ko" \
			"$ITRACE_TOP/kdb_itrace.ko"; do
			if [ -f "$m" ] && ko_for_arch "$m"; then
				module=$m
				break
			fi
			[ ! -f "$m" ] || say "not using $m: not built for $ITRACE_ARCH"
		done
	elif [ -n "$module" ] && [ $no_module -eq 0 ]; then
		[ -f "$module" ] || die "module $module not found"
		ko_for_arch "$module" || die "module $module is not built for $ITRACE_ARCH"
	fi
	[ $no_module -eq 0 ] || module=
	say "module: ${module:-none}"
	initrd=$rundir/initramfs.cpio.gz
	ITRACE_WORK=$rundir "$here/build-initramfs.sh" "$initrd" \
		${module:+--module "$module"}
elif [ -n "$module" ]; then
	die "--module only applies to the default initramfs, not with --initrd"
fi
[ -f "$initrd" ] || die "initrd $initrd not found"

cmdline="console=$CONSOLE kgdboc=$CONSOLE"
[ "$ITRACE_ARCH" != x86_64 ] || cmdline="$cmdline nokaslr"
cmdline="$cmdline panic=-1 oops=panic quiet"
cmdline="$cmdline${append:+ ${append# }}"

# shellcheck disable=SC2054 # commas are qemu's, not array separators
case "$ITRACE_ARCH" in
# sockets=N: the kernel has no ACPI, so it learns the cpus from SeaBIOS's
# MP table, which lists one cpu per package; plain "-smp 2" is one package
# of 2 cores there and the guest would come up with a single cpu.
x86_64) machine=(-M q35 -smp "${ITRACE_SMP:-2},sockets=${ITRACE_SMP:-2},cores=1,threads=1") ;;
# ppc64le: vmlinux on pseries; hvc0 is the spapr-vty that -serial maps to.
# -smp: cores of one socket (TCG runs only 1 thread per core on pseries);
# the guest sees N cpus. cap-*: the safe defaults ask for speculation
# workarounds TCG cannot provide, which only prints 4 warnings per boot.
# x-vof=on replaces SLOF by VOF: the kernel needs nothing more from
# firmware than the client interface; its nvram partition setup then
# complains (err -28, nothing in this harness uses the nvram).
ppc64le)
	case "${ITRACE_PPC_FW:-vof}" in
	vof) fw=,x-vof=on ;;
	slof) fw= ;;
	*) die "ITRACE_PPC_FW must be vof or slof" ;;
	esac
	machine=(-M "pseries$fw,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off"
		-cpu power9 -vga none
		-smp "${ITRACE_SMP:-2},sockets=1,cores=${ITRACE_SMP:-2},threads=1") ;;
esac

accel=tcg
case "${ITRACE_TCG_THREAD:-}" in
"") ;;
single | multi) accel="tcg,thread=$ITRACE_TCG_THREAD" ;;
*) die "ITRACE_TCG_THREAD must be single or multi" ;;
esac

console_log=$rundir/console.log
pidfile=$rundir/qemu.pid
# -nographic gives no display; the explicit mux chardev replaces its implicit
# "-serial mon:stdio" only to add logfile= (the raw transcript). signal=off:
# Ctrl-C goes to the guest, as with plain -nographic. Ctrl-A x quits,
# Ctrl-A b sends a serial BREAK (a SysRq prefix for the 8250 console);
# the hvc console (ppc64le) has no BREAK: Ctrl-O is its SysRq prefix.
# Memory: 512 MiB. A debug kernel's guest with a large initramfs (the
# transparency suite's programs: about 185 MB unpacked on ppc64le, 76 MB
# compressed) gets 1 GiB: KASAN's shadow takes an eighth, and the archive
# unpacks beside its compressed copy. Not more than needed: each boot
# and each kmemleak scan there takes longer with more memory.
mem=512
if [ "$ITRACE_KVARIANT" = debug ] && [ "$(stat -c %s "$initrd")" -gt $((40 << 20)) ]; then
	mem=1024
fi
# shellcheck disable=SC2054 # commas are qemu's, not array separators
qemu_cmd=("$QEMU" "${machine[@]}" -accel "$accel" -m "$mem"
	-nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-chardev "stdio,id=con0,mux=on,signal=off,logfile=$console_log"
	-serial chardev:con0 -mon chardev=con0,mode=readline
	-pidfile "$pidfile")
# shellcheck disable=SC2206 # split into words on purpose
[ -z "${ITRACE_QEMU_ARGS:-}" ] || qemu_cmd+=($ITRACE_QEMU_ARGS)

# --snapshot: the machine is what the hash covers (the files by size and
# time, qemu by its binary); a state saved from any other machine would
# not load, or load wrong. Old states of this DIR (older than the kernel
# or the initramfs they were saved from) go when a new one is saved.
# Not on ppc64le: qemu 7.2 under TCG restores a pseries guest's
# timebase from the host's clock (hw/ppc/ppc.c, timebase_post_load, made
# for KVM), and a restored guest never answered its console again.
unset ITRACE_VM_SAVE ITRACE_VM_RESTORE
if [ -n "$snapdir" ] && [ -n "$script" ] && [ "$ITRACE_ARCH" = x86_64 ]; then
	key=$(printf '%s\n' "$(stat -L -c '%n %s %Y' "$(command -v "$QEMU")" "$kernel" "$initrd")" \
		"${machine[*]}" "$accel" "$mem" "$cmdline" "${ITRACE_QEMU_ARGS:-}" |
		sha256sum | cut -c1-16)
	snap=$(mkdir -p "$snapdir" && cd "$snapdir" && pwd)/$key.state
	if [ -f "$snap" ]; then
		export ITRACE_VM_RESTORE=$snap
		qemu_cmd+=(-incoming "exec:cat $snap")
	else
		find "$snapdir" -maxdepth 1 -name '*.state*' ! -newer "$initrd" -delete
		find "$snapdir" -maxdepth 1 -name '*.state*' ! -newer "$kernel" -delete
		export ITRACE_VM_SAVE=$snap
	fi
	export ITRACE_QMP=$rundir/qmp.sock
	qemu_cmd+=(-qmp "unix:$ITRACE_QMP,server=on,wait=off")
fi

if [ -z "$script" ]; then
	case "$CONSOLE" in
	hvc*) sysrq_keys="Ctrl-O then g" ;;
	*) sysrq_keys="Ctrl-A b then g" ;;
	esac
	printf '%s\n' "[itrace] kdb: run 'echo g > /proc/sysrq-trigger' at vm# (or $sysrq_keys); leave kdb with 'go'. Quit: 'reboot -f' or Ctrl-A x. Log: $console_log" >&2
	exec "${qemu_cmd[@]}"
fi

[ -f "$script" ] || die "expect script $script not found"

# The qemu argv as a Tcl list: bare words where safe, else {braced}.
tcl_list=
for a in "${qemu_cmd[@]}"; do
	if [[ $a =~ ^[A-Za-z0-9_./:,=+@%-]+$ ]]; then
		tcl_list+="$a "
	elif [[ $a == *[\{\}\\]* ]]; then
		die "argument not representable for expect: $a"
	else
		tcl_list+="{$a} "
	fi
done

kill_qemu() {
	local pid
	pid=$(cat "$pidfile" 2>/dev/null) || return 0
	# Only our qemu: the pid must still run with this run's pidfile.
	if [ -n "$pid" ] && tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" |
		grep -qF -- "$pidfile"; then
		kill "$pid" 2>/dev/null || true
		sleep 1
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$pidfile"
}
trap kill_qemu EXIT
trap 'kill_qemu; exit 130' INT TERM HUP

export ITRACE_QEMU_CMD=${tcl_list% }
export ITRACE_RUN_DIR=$rundir ITRACE_CONSOLE_LOG=$console_log
export ITRACE_EXPECT_LOG=$rundir/expect.log ITRACE_QEMU_PIDFILE=$pidfile
export ITRACE_LIB=$here/itrace.exp ITRACE_KDIR=$kdir
export ITRACE_ARCH ITRACE_TIMEOUT=$timeout_s

say "run dir $rundir (timeout ${timeout_s}s)"
start=$(date +%s)
rc=0
# --foreground: expect stays in the terminal's process group (it may look
# at the tty); qemu is not timeout's child then, kill_qemu takes care of it.
timeout --foreground --kill-after=10 "$timeout_s" \
	expect -f "$script" ${script_args[@]+"${script_args[@]}"} || rc=$?
kill_qemu
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	say "TIMEOUT: $script killed after ${timeout_s}s"
fi
if [ $rc -ne 0 ]; then
	say "last console lines:"
	# Escape sequences stripped: SeaBIOS's ESC c would reset the terminal.
	tail -n 25 "$console_log" 2>/dev/null | tr -d '\r' |
		sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b.//g' |
		awk '{ print "  | " $0 }' >&2 || true
fi
say "$(basename "$script") rc=$rc in $(($(date +%s) - start))s; console log: $console_log"
exit $rc
