#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: runs every test group (host unit tests, style, bounded
# libFuzzer runs, VM tests), echoes their PASS/FAIL lines and ends with
# one "N passed, N failed" line. With arguments, only those groups:
# host | style | fuzz | install | vm. ITRACE_ARCHES (default "x86_64 ppc64le")
# picks the arches, ITRACE_FLAVOURS the kernels (flavours below);
# ITRACE_FUZZ_SECS (default 60) the fuzzing time
# (tests/fuzz/run.sh: 3.5 x that in all).
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
# ITRACE_FLAVOUR: arch[-6.12][-variant]): the test kernels of both lines
# on both arches, Debian's own amd64 kernels of both lines (no kdb; the
# debugfs part of the suite), or with ITRACE_KVARIANT=debug the debug
# kernels. ITRACE_FLAVOURS overrides the list; ITRACE_ARCHES (default
# "x86_64 ppc64le") filters it by arch.
flavours() {
	local all f
	if [ -n "${ITRACE_FLAVOURS:-}" ]; then
		all=$ITRACE_FLAVOURS
	elif [ "$variant" = debug ]; then
		all="x86_64-debug ppc64le-debug"
	else
		all="x86_64 ppc64le x86_64-6.12 ppc64le-6.12 x86_64-stock x86_64-6.12-stock"
	fi
	for f in $all; do
		[[ " ${ITRACE_ARCHES:-x86_64 ppc64le} " == *" ${f%%-*} "* ]] && echo "$f"
	done
}

# flavour_run FLAVOUR CMD...: CMD with that kernel's ITRACE_* settings.
flavour_run() {
	local f=$1 kver=6.1 var=
	shift
	case $f in *-6.12*) kver=6.12 ;; esac
	case $f in *-debug) var=debug ;; *-stock) var=stock ;; esac
	ITRACE_ARCH=${f%%-*} ITRACE_KVER=$kver ITRACE_KVARIANT=$var "$@"
}

mkdir -p "$top/build"
# every PASS/FAIL line of the last run
out="$top/build/check${variant:+-$variant}.log"
: >"$out"
start=$(date +%s)

for g in $groups; do
	echo "== $g" >&2
	case $g in
	host)	"$top/tests/host/run.sh" ;;
	style)	"$top/tests/checkpatch.sh" ;;
	fuzz)	"$top/tests/fuzz/run.sh" ;;
	install) "$top/tests/install.sh" ;;
	vm)	for f in $(flavours); do
			flavour_run "$f" "$top/tests/vm/run.sh"
		done ;;
	*)	echo "FAIL unknown test group '$g'" ;;
	esac 2>&1 | tee -a "$out" | grep --line-buffered -E '^(FAIL|#|\[itrace\])' >&2
done

passed=$(grep -cE '^PASS:? ' "$out")
failed=$(grep -cE '^FAIL:? ' "$out")
echo "# make check${variant:+-$variant} took $(( $(date +%s) - start )) s (all PASS/FAIL lines: $out)" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
