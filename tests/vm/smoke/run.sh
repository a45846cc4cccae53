#!/usr/bin/env bash
# Runs the VM harness smoke test (smoke.exp) through scripts/qemu/run-vm.sh.
# Extra arguments go to run-vm.sh, e.g. --no-module, --module X.ko,
# --append loglevel=7, --timeout 600. ITRACE_VERBOSE=1 shows the console.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../../../scripts/qemu/run-vm.sh" --timeout 300 "$@" \
	--expect "$here/smoke.exp"
