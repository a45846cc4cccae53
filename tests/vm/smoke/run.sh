#!/usr/bin/env bash
# Runs the VM harness smoke test (smoke.exp) through scripts/qemu/run-vm.sh.
# Extra arguments go to run-vm.sh, e.g. --no-module, --module X.ko,
# --append loglevel=7, --timeout 600 (default 300 x ITRACE_TIME_SCALE).
# ITRACE_VERBOSE=1 shows the console.
#
# ppc64le: a run killed by the known pseries-under-TCG kdb roundup race
# ("Oops: Unrecoverable System Reset" after go, see vm__sreset_fail in
# scripts/qemu/itrace.exp; about 1 run in 10) is run once more, saying so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run() {
	"$here/../../../scripts/qemu/run-vm.sh" "$@" \
		--expect "$here/smoke.exp"
}
[ "${ITRACE_ARCH:-x86_64}" = ppc64le ] || { run "$@"; exit; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
run "$@" | tee "$out" || rc=$?
if [ $rc -ne 0 ] && grep -q 'known pseries-under-TCG race' "$out"; then
	echo "[smoke] the kdb roundup race hit (not a harness failure); running once more" >&2
	rc=0
	run "$@" || rc=$?
fi
exit $rc
