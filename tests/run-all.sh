#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: runs every test group (host unit tests, style, bounded
# libFuzzer runs, VM tests), echoes their PASS/FAIL lines and ends with
# one "N passed, N failed" line. With arguments, only those groups:
# host | style | fuzz | install | vm. ITRACE_ARCHES (default "x86_64 ppc64le")
# picks the arches, ITRACE_FLAVOURS the kernels (flavours below);
# ITRACE_FUZZ_SECS the fuzzing time (tests/fuzz/run.sh: 5 x that in
# all; default 40 here, beside the host and style groups, 60 alone).
# `make check-debug` (ITRACE_KVARIANT=debug): the VM tests on the debug
# kernels only (host, style and fuzz do not depend on the kernel).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
variant=${ITRACE_KVARIANT:-}
if [ -n "$variant" ]; then
	groups=${*:-vm}
else
	groups=${*:-host style fuzz install vm}
fi
# The kernels the VM suite runs on, as build/ names them (lib.sh's
# ITRACE_FLAVOUR: arch[-line][-variant]): the test kernels of three lines
# (5.10, 6.1, 7.3) on both arches, Debian 12's own kernels of its two
# lines (6.1, 6.12) on both arches (no kdb; the debugfs part of the
# suite), or with ITRACE_KVARIANT=debug the debug kernels. The 6.12 test
# kernels are left out of the default (CI runs cold: their two builds and
# generation sets were 11 of its 80 minutes; Debian's own 6.12 kernels
# stay, and the style group builds the module against their headers):
# ITRACE_FLAVOURS="x86_64-6.12 ppc64le-6.12" runs them, and overrides the
# list; ITRACE_ARCHES (default "x86_64 ppc64le") filters it by arch.
flavours() {
	local all f
	if [ -n "${ITRACE_FLAVOURS:-}" ]; then
		all=$ITRACE_FLAVOURS
	elif [ "$variant" = debug ]; then
		all="x86_64-debug ppc64le-debug"
	else
		all="x86_64 ppc64le x86_64-5.10 ppc64le-5.10 x86_64-7.3
			ppc64le-7.3 x86_64-stock x86_64-6.12-stock ppc64le-stock
			ppc64le-6.12-stock"
	fi
	for f in $all; do
		[[ " ${ITRACE_ARCHES:-x86_64 ppc64le} " == *" ${f%%-*} "* ]] && echo "$f"
	done
}

# flavour_run FLAVOUR CMD...: CMD with that kernel's ITRACE_* settings.
flavour_run() {
	local f=$1 kver=6.1 var= v
	shift
	v=${f#*-}
	v=${v%%-*}
	case $v in [0-9]*.[0-9]*) kver=$v ;; esac
	case $f in *-debug) var=debug ;; *-stock) var=stock ;; esac
	ITRACE_ARCH=${f%%-*} ITRACE_KVER=$kver ITRACE_KVARIANT=$var "$@"
}

# vm_lanes: the VM suites, one lane per arch, the lanes side by side
# (ITRACE_VM_LANES=1: one after the other). A guest keeps about one host
# core busy. Per arch, not from one queue: two x86_64 guests (2 vCPUs
# each) side by side starve a vCPU past kdb's one-second roundup now
# and then (seen in a queue-fed run: 1 in about 40 boots).
# Every VM wait is a handshake or scaled by ITRACE_TIME_SCALE, so a
# slower guest is no failure. Each lane's output is printed whole, in
# arch order, once both are done; its timing line on the way.
# make check-debug: part of one kernel's tests cross over to even the
# lanes (without it the x86_64 one ran about 4 minutes longer): those of
# x86_64-debug that need no second CPU (tests/vm/run.sh's "moved"), at
# the end of the last lane (ppc64le's), booted with one CPU
# (ITRACE_SMP=1) so that the host runs three busy vCPU threads, as with
# an x86_64 guest beside a ppc64le one, booting what the x86_64 lane
# built for it (ITRACE_VM_PART). make check: Debian's own ppc64le 6.12
# kernel runs at the end of the x86_64 lane (a second ppc64le guest
# beside the other lane's, one vCPU each: no kdb roundup to starve),
# since the 5.10 and 7.3 kernels made the ppc64le lane the longer one.
lane_moved() {
	if [ "$variant" = debug ]; then
		echo x86_64-debug
	else
		echo ppc64le-6.12-stock
	fi
}
vm_lanes() {
	local a f lanes=() logs=() moved= part= m
	# one lane: every kernel once, whole, one after the other
	if [ "${ITRACE_VM_LANES:-2}" = 1 ]; then
		for f in $(flavours); do
			flavour_run "$f" "$top/tests/vm/run.sh"
		done
		return
	fi
	for a in ${ITRACE_ARCHES:-x86_64 ppc64le}; do
		lanes+=("$(flavours | grep -E "^$a(-|$)" | tr '\n' ' ')")
	done
	m=$(lane_moved)
	if [ ${#lanes[@]} -gt 1 ] && [ -n "$m" ] && [[ " ${lanes[0]} " == *" $m "* ]]; then
		# from the first lane to the last: part of it (debug)
		moved=$m
		part=1
		lanes[-1]+="$moved "
	elif [ ${#lanes[@]} -gt 1 ] && [ -n "$m" ] && [[ " ${lanes[-1]} " == *" $m "* ]]; then
		# from the last lane to the end of the first, whole
		lanes[-1]=$(echo " ${lanes[-1]} " | sed "s/ $m / /")
		lanes[0]+="$m "
	fi
	# the id the moved part waits for (tests/vm/run.sh)
	export ITRACE_VM_RUN=$$-$(date +%s)
	for a in "${!lanes[@]}"; do
		# (emptied by a move, with ITRACE_FLAVOURS)
		[ -n "${lanes[$a]// /}" ] || continue
		logs+=("$top/build/vm-lane-$a.log")
		(
			t=$(date +%s)
			for f in ${lanes[$a]}; do
				if [ "$f" != "$moved" ]; then
					flavour_run "$f" "$top/tests/vm/run.sh"
				elif [ -z "$part" ]; then
					ITRACE_SMP=1 flavour_run "$f" "$top/tests/vm/run.sh"
				elif [ "$a" = 0 ]; then
					ITRACE_VM_PART=main flavour_run "$f" "$top/tests/vm/run.sh"
				else
					ITRACE_SMP=1 ITRACE_VM_PART=moved \
						flavour_run "$f" "$top/tests/vm/run.sh"
				fi
			done >"${logs[$a]}" 2>&1
			echo "# vm lane ${lanes[$a]}took $(( $(date +%s) - t )) s" >&2
		) &
	done
	wait
	cat "${logs[@]}"
}

mkdir -p "$top/build"
# every PASS/FAIL line of the last run
out="$top/build/check${variant:+-$variant}.log"
: >"$out"
start=$(date +%s)

# The fuzz group runs beside the host and style groups when all three
# are asked for: each of them is mostly one process at a time (host
# tests, checkpatch, module builds with -j2 in short bursts, here one
# libFuzzer at a time), so on 2 cores the three take about as long as
# host and style alone. fuzz's lines follow style's.
flog="$top/build/fuzz-beside.log"
fpid=
if [[ " $groups " == *" host "* && " $groups " == *" style "* &&
      " $groups " == *" fuzz "* ]]; then
	# 200 s of fuzzing: less than host and style take together, which
	# want both cores for part of their time (style builds two at once)
	ITRACE_FUZZ_SECS=${ITRACE_FUZZ_SECS:-40} ITRACE_FUZZ_JOBS=1 \
		"$top/tests/fuzz/run.sh" >"$flog" 2>&1 &
	fpid=$!
fi

# group G: one test group's PASS/FAIL lines
group() {
	case $1 in
	host)	"$top/tests/host/run.sh" ;;
	style)	"$top/tests/checkpatch.sh" ;;
	fuzz)	"$top/tests/fuzz/run.sh" ;;
	install) "$top/tests/install.sh" ;;
	vm)	vm_lanes ;;
	*)	echo "FAIL unknown test group '$1'" ;;
	esac
}

for g in $groups; do
	if [ -n "$fpid" ]; then
		[ "$g" != fuzz ] || continue
	fi
	echo "== $g" >&2
	group "$g" 2>&1 | tee -a "$out" | grep --line-buffered -E '^(FAIL|SKIP|#|\[itrace\])' >&2
	if [ "$g" = style ] && [ -n "$fpid" ]; then
		g="fuzz (beside host and style)"
		echo "== $g" >&2
		wait "$fpid"
		tee -a "$out" <"$flog" | grep --line-buffered -E '^(FAIL|SKIP|#|\[itrace\])' >&2
	fi
done

passed=$(grep -cE '^PASS:? ' "$out")
failed=$(grep -cE '^FAIL:? ' "$out")
# SKIP: a check this machine cannot run for a reason outside the tree
# (stock-kernel.sh: Debian's index of that kernel did not come), each
# line saying why; neither passed nor failed
skipped=$(grep -cE '^SKIP ' "$out")
[ "$skipped" -eq 0 ] || echo "# $skipped skipped (SKIP lines above)" >&2
echo "# make check${variant:+-$variant} took $(( $(date +%s) - start )) s (all PASS/FAIL lines: $out)" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
