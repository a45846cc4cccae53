#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Regenerates the seed corpus tests/fuzz/corpus/<target>/ (checked in;
# run by hand after adding host test cases):
#   parse       the `itrace help` syntax lines, concrete forms of each,
#               and every ok and bad case line of tests/host/test_parse.c
#   x86_decode  the instruction bytes of tests/host/test_x86_decode.c
#   ppc_class   the words tests/host/test_ppc_class.c names
#   ring, format  hand-made inputs (layouts in fuzz_ring.c, fuzz_format.c)
#   elfsym      tiny ELF images compiled here (program, stripped, shared)
#   cond        every condition of tests/host/test_cond.c's tables
# x86_decode and ppc_class keep only the seeds that add coverage
# (libFuzzer -merge). Files named regress-* (reproducers of fixed
# crashes) are never touched.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
c="$top/tests/fuzz/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$top/tests/fuzz/build.sh" x86_decode ppc_class

# fresh NAME: empty corpus/NAME of everything but regress-*
fresh() {
	mkdir -p "$c/$1"
	find "$c/$1" -type f ! -name 'regress-*' -delete
}
# bytes FILE HEX...: write the bytes given in hex
bytes() {
	local f=$1
	shift
	printf '%b' "$(printf '%s' "$*" | tr -d ' \n' | sed 's/../\\x&/g')" >"$f"
}
# words FILE LINE: LINE (C escapes allowed) as NUL-separated words
words() {
	printf '%b' "$2" | tr ' ' '\0' >"$1"
}

# --- parse
fresh parse
n=0
sed -n '/itrace_help_lines\[\]/,/NULL/s/^\t"itrace \([^"]*\)  .*/\1/p' \
	"$top/kdb-itrace/lib/parse.c" | sed 's/ *$//' | while read -r l; do
	n=$((n + 1))
	words "$c/parse/help-$n" "$l"
done
for l in "on 1" "on 1 insn" "on 4194304 block" "on 1 threads follow" \
	"on 1 block follow-exec" "off 1" "off all" \
	"status" "log" "log -n 5" "log -r" "log -n 0 -r 7" "clear" "help"; do
	words "$c/parse/form-$(tr ' ' _ <<<"$l")" "$l"
done
: >"$c/parse/form-empty"
n=0
sed -n '/^static const struct \(ok\|bad\)_case/,/^};/s/^\t{ "\([^"]*\)".*/\1/p' \
	"$top/tests/host/test_parse.c" | while IFS= read -r l; do
	n=$((n + 1))
	words "$c/parse/case-$n" "$l"
done

# --- x86_decode: every hex string of the unit test, then -merge
mkdir -p "$tmp/x86"
n=0
sed -n 's/^[[:space:]]*[A-Z]*(M\(64\|32\), "\([0-9a-f ]*\)".*/\2/p' \
	"$top/tests/host/test_x86_decode.c" | while read -r h; do
	n=$((n + 1))
	bytes "$tmp/x86/$n" "$h"
done

# --- ppc_class: the words the unit test prints, little-endian, then -merge
mkdir -p "$tmp/ppc"
gcc -O2 -I"$top/tests/host" -o "$tmp/test_ppc_class" \
	"$top/tests/host/test_ppc_class.c" "$top/arch/powerpc/lib/insn_class.c"
n=0
"$tmp/test_ppc_class" | sed -n 's/.*\[\([0-9a-f]\{8\}\)\( [0-9a-f]\{8\}\)\?\]$/\1\2/p' |
while read -r w nx; do
	n=$((n + 1))
	le=""
	for x in $w ${nx:-}; do
		le="$le${x:6:2}${x:4:2}${x:2:2}${x:0:2}"
	done
	bytes "$tmp/ppc/$n" "$le"
done

merge() { # merge TARGET DIR: the coverage-adding inputs of DIR
	fresh "$1"
	"$top/build/fuzz/$1" -merge=1 "$c/$1" "$2" >"$tmp/$1.merge.log" 2>&1
}
merge x86_decode "$tmp/x86"
merge ppc_class "$tmp/ppc"

# --- ring: size byte (1 << b % 7 entries), then steps: b & 3 is push
# (0), read (1), frozen writer (2, stage (b >> 2) % 3) or burst (3)
fresh ring
bytes "$c/ring/wrap-frozen-8" 03 53 01 15 02 06 0a fd
bytes "$c/ring/single-slot" 00 00 02 00 06 00 0a 01
bytes "$c/ring/partial-64" 06 07 02 06 0a 01 05
bytes "$c/ring/two-slots" 01 00 01 00 01 02 00 06 01 0a 01 0f 01

# --- format: seq from to (8 each) pid (4) kind cpu (4) cut mapflag nr,
# then per mapping: how, [below above (2 each) | start end (8 each)],
# pgoff (8), name (24)
fresh format
name() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
pad() { printf '%0*d' $(( (24 - ${#1}) * 2 )) 0; }
bytes "$c/format/no-map" \
	000000000000002a 00000000004016b8 0000000000401625 00000061 04 \
	00000001 50 00
bytes "$c/format/two-maps" \
	000000000000004c 0000000000401622 00007ffd1000a000 0000002a 08 \
	00000000 20 01 02 \
	01 06b8 1000 0000000000001000 "$(name tp_loop)$(pad tp_loop)" \
	02 0010 2000 0000000000000000 "$(name '[vdso]')$(pad '[vdso]')"
bytes "$c/format/max-values" \
	ffffffffffffffff fffffffffffffffe fffffffffffffffe ffffffff 0c \
	ffffffff 9f 01 10 \
	03 ffff ffff ffffffffffffffff "$(printf 'x%.0s' $(seq 24) | od -An -tx1 | tr -d ' \n')"
bytes "$c/format/nr-past-max" \
	0000000000000001 0000000000001000 0000000000001000 00000001 02 \
	00000000 10 01 13 \
	03 0000 0010 0000000000000000 "$(name a)$(pad a)"
# --- elfsym: small images compiled here, as the reader meets them: a
# program with .symtab, the same stripped (no table), a shared object
# (.dynsym only)
fresh elfsym
cat >"$tmp/tiny.c" <<'C'
static int leaf(int x) { return x * 3 + 1; }
int (*volatile fp)(int) = leaf;
int entry(int x) { return fp(x) + 1; }
void _start(void) { for (;;) entry(1); }
C
tiny() { gcc -O1 -nostdlib -fno-asynchronous-unwind-tables -Wl,--build-id=none "$@"; }
tiny -static -o "$c/elfsym/static" "$tmp/tiny.c"
tiny -static -s -o "$c/elfsym/stripped" "$tmp/tiny.c"
tiny -shared -fPIC -Wl,-s -o "$c/elfsym/shared" "$tmp/tiny.c"
# --- cond: a control byte (1: the words came from kdb, as the table
# line says ITRACE_COND_KDB), then the condition's words NUL-separated
fresh cond
n=0
sed -n '/^\t{ "/{s/^\t{ "\(\([^"\\]\|\\.\)*\)".*ITRACE_COND_KDB.*/1 \1/p;t
	s/^\t{ "\(\([^"\\]\|\\.\)*\)".*/0 \1/p}' "$top/tests/host/test_cond.c" |
while IFS= read -r l; do
	n=$((n + 1))
	l=${l//\\\"/\"}
	{ printf '%b' "\\x0${l%% *}"; printf '%b' "${l#? }" | tr ' ' '\0'; } \
		>"$c/cond/case-$n"
done
echo "seeds: $(find "$c" -type f | wc -l) files in $c"
