#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make vm`: builds what is missing and boots the test VM on this
# terminal with the module loaded and the test programs in /bin, at a
# root shell from which `echo g > /proc/sysrq-trigger` enters kdb. The
# transparency suite's programs are there too (`tt-run PROG`).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

initrd=$("$ITRACE_TOP/scripts/qemu/prepare.sh")
exec "$ITRACE_TOP/scripts/qemu/run-vm.sh" --initrd "${initrd%.cpio.gz}-tt.cpio.gz" "$@"
