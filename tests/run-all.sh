#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: runs every test group (host unit tests, style, bounded
# libFuzzer runs, VM tests), echoes their PASS/FAIL lines and ends with
# one "N passed, N failed" line. With arguments, only those groups:
# host | style | fuzz | vm. ITRACE_ARCHES (default "x86_64 ppc64le")
# picks the arches; ITRACE_FUZZ_SECS (default 60) the fuzzing time
# (tests/fuzz/run.sh: 3.5 x that in all).
# `make check-debug` (ITRACE_KVARIANT=debug): the VM tests on the debug
# kernels only (host, style and fuzz do not depend on the kernel).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
variant=${ITRACE_KVARIANT:-}
if [ -n "$variant" ]; then
	groups=${*:-vm}
else
	groups=${*:-host style fuzz vm}
fi
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
	vm)	for a in ${ITRACE_ARCHES:-x86_64 ppc64le}; do
			ITRACE_ARCH=$a "$top/tests/vm/run.sh"
		done ;;
	*)	echo "FAIL unknown test group '$g'" ;;
	esac 2>&1 | tee -a "$out" | grep --line-buffered -E '^(FAIL|#|\[itrace\])' >&2
done

passed=$(grep -cE '^PASS:? ' "$out")
failed=$(grep -cE '^FAIL:? ' "$out")
echo "# make check${variant:+-$variant} took $(( $(date +%s) - start )) s (all PASS/FAIL lines: $out)" >&2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
