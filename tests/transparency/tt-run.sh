#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tt-run [-t SECS] [-x EXCEPTIONS] [-a ARGS] PROG...: the transparency
# suite's guest half (busybox sh, in the test VM, module loaded), with
# ARGS as every program's arguments. Each program runs untraced, then
# once per mode armed by name from its exec on (`on comm NAME OPTIONS`
# through debugfs), and each traced run must end exactly as the untraced
# one: the same stdout and stderr bytes, the same exit status (a death
# by signal N shows as 128+N). After each traced run `off comm` must
# leave no slot of the program behind. One line per program:
#   TT-SAME name runs            every run the same
#   TT-DIFF name mode: what      the first difference, then the lines
#                                that differ as "TT-  untraced|" / "TT-  traced|"
#   TT-HANG name mode            killed after SECS (untraced it ended)
#   TT-EXC name mode: reason     a difference EXCEPTIONS accepts for this
#                                arch and mode (tests/transparency/exceptions)
#   TT-TIME name start end       the guest's uptime around all its runs
#                                (which programs the suite's time goes to)
# and last "TT-DONE programs differing".
# A program that hangs untraced is a suite bug: TT-DIFF name untraced.
ctl=/sys/kernel/debug/itrace/control
secs=30
exc=/dev/null
args=
while [ $# -ge 2 ]; do
	case $1 in
	-t) secs=$2 ;;
	-x) exc=$2 ;;
	-a) args=$2 ;;
	*) break ;;
	esac
	shift 2
done
arch=$(uname -m)

# excepted NAME MODE: the reason EXCEPTIONS gives for NAME differing in
# MODE on this arch, or nothing
excepted() {
	grep -v '^#' "$exc" | while IFS='|' read -r key why; do
		[ "$key" = "$arch $1 $2" ] && echo "$why"
	done
}
# The follow mode logs nothing (kinds none): the trap path without its
# records (what `off`, a trigger's wait and kinds none take), which must
# keep the program's own TF and sigreturns as the logging path does,
# runs every program too. Block mode also logs values (args 3: registers
# read at every call and return; every system call noted at its exit) and
# keeps a ring of its own (keep 4096), so what those add to the trap path
# and to signal delivery runs every program too (not freeze: a program
# killed by a signal would keep its frozen slot, which the check below
# counts as left behind).
modes="insn|block args 3 keep 4096|insn func tt_body|insn kinds none threads follow follow-exec"

# run PROG OUT: the program's output and end, in OUT (ARGS its arguments)
run() {
	# shellcheck disable=SC2086 # ARGS are words
	timeout -s KILL "$secs" "$1" $args >"$2" 2>&1
	echo "end $?" >>"$2"
}

ndiff=0
for p in "$@"; do
	name=${p##*/}
	read -r t0 _ </proc/uptime
	run "$p" /tmp/tt.ref
	if grep -q '^end 137$' /tmp/tt.ref; then
		echo "TT-DIFF $name untraced: did not end within ${secs}s"
		ndiff=$((ndiff + 1))
		continue
	fi
	bad=
	n=0
	IFS='|'
	for m in $modes; do
		IFS=' '
		# shellcheck disable=SC2086 # the options are words
		if ! echo "on comm $name $m" >$ctl; then
			bad="$m: on comm refused"
			break
		fi
		run "$p" /tmp/tt.out
		# the watch armed it at its exec: the run was traced
		armed=$(sed -n "s/^itrace: watching comm $name: .*; \([0-9]*\) armed at exec.*/\1/p" $ctl)
		echo "off comm $name" >$ctl
		n=$((n + 1))
		if [ "${armed:-0}" -lt 1 ]; then
			bad="$m: not armed at its exec ($armed)"
		elif grep -q "^ *[0-9]* $name " $ctl 2>/dev/null; then
			bad="$m: a slot of $name is left after it ended"
		elif ! cmp -s /tmp/tt.ref /tmp/tt.out; then
			if grep -q '^end 137$' /tmp/tt.out; then
				echo "TT-HANG $name $m"
			fi
			bad="$m: $(diff /tmp/tt.ref /tmp/tt.out | grep '^[-+][^-+]' | head -2 | tr '\n' ' ')"
			why=$(excepted "$name" "$m")
			if [ -n "$why" ]; then
				echo "TT-EXC $name $m: $why"
				bad=
			fi
		fi
		[ -z "$bad" ] || break
		IFS='|'
	done
	IFS=' '
	if [ -n "$bad" ]; then
		echo "TT-DIFF $name $bad"
		diff /tmp/tt.ref /tmp/tt.out | grep '^[-+]' | head -16 |
			sed 's/^-/TT-  untraced|/;s/^+/TT-  traced|/'
		ndiff=$((ndiff + 1))
	else
		echo "TT-SAME $name $n"
	fi
	read -r t1 _ </proc/uptime
	echo "TT-TIME $name $t0 $t1"
done
echo "TT-DONE $# $ndiff"
