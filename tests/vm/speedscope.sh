#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The trace viewer dump_check.py loads itrace-dump's Chrome JSON into:
# speedscope (npm, pinned) in Debian's chromium, headless. Installs both
# when missing (speedscope under $ITRACE_CACHE/speedscope, kept between
# runs) and prints speedscope's index.html.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/qemu/lib.sh"
need_pkgs chromium
# npm: Debian's package, unless one is already on PATH (e.g. NodeSource's)
command -v npm >/dev/null || need_pkgs npm
v=1.25.0
d="$ITRACE_CACHE/speedscope-$v"
html="$d/node_modules/speedscope/dist/release/index.html"
if [ ! -e "$html" ]; then
	say "installing speedscope $v (npm) into $d"
	mkdir -p "$d"
	npm install --silent --no-audit --no-fund --prefix "$d" "speedscope@$v" >&2 ||
		die "npm install speedscope@$v failed"
fi
[ -e "$html" ] || die "speedscope: no $html"
echo "$html"
