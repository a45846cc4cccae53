#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bounded libFuzzer runs of the pure-C parts, for `make fuzz` and the
# fuzz group of tests/run-all.sh: the command parser, the x86 decoder
# (ITRACE_FUZZ_SECS each, default 60) and the POWER classifier, the log
# ring, the line formatter, the ELF symbol reader, the condition
# compiler and itrace-dump's capture reader (half that each): 5 x
# ITRACE_FUZZ_SECS of fuzzing in all, run ITRACE_FUZZ_JOBS at a time
# (default: the host's cores, so 2.5 minutes on two). A fuzzer is one
# process on one core.
#
#   tests/fuzz/run.sh [target...]    targets: tests/fuzz/fuzz_<target>.c
#
# Each target starts from its seed corpus tests/fuzz/corpus/<target>/,
# copied into build/fuzz/<target>.corpus/ (which keeps what earlier runs
# found; the repo corpus is never written). Prints one line per target:
#   PASS fuzz <target>: N execs, 0 crashes, cov C ft F corp K, R exec/s
# or FAIL with the saved reproducer; replay one with
#   build/fuzz/<target> <file>
# and once fixed, add it to the seed corpus so every run replays it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${ITRACE_FUZZ_SECS:-60}
b="$top/build/fuzz"

all="parse x86_decode ppc_class ring format elfsym cond capfile"
targets=${*:-$all}

# Per target: share of $secs (percent), longest input, dictionary.
opts() {
	case $1 in
	parse)		echo 100 4096 parse.dict ;;
	x86_decode)	echo 100 32 - ;;
	ppc_class)	echo 50 8 - ;;
	ring)		echo 50 512 - ;;
	format)		echo 50 1024 - ;;
	elfsym)		echo 50 16384 - ;;
	cond)		echo 50 4096 cond.dict ;;
	capfile)	echo 50 8192 capfile.dict ;;
	*)		echo 50 4096 - ;;
	esac
}

# shellcheck disable=SC2086 # $targets is a word list
if ! "$top/tests/fuzz/build.sh" $targets; then
	for t in $targets; do
		[ -x "$b/$t" ] || echo "FAIL fuzz $t: does not build"
	done
fi

# fuzz_one TARGET: one bounded run; its PASS or FAIL line(s) on stdout
fuzz_one() {
	local t=$1 pct maxlen dict s corpus art log args rc execs rate cov crash
	read -r pct maxlen dict < <(opts "$t")
	s=$(( secs * pct / 100 ))
	[ "$s" -ge 1 ] || s=1
	corpus="$b/$t.corpus"
	art="$b/$t.artifacts"
	log="$b/$t.log"
	rm -rf "$art"
	mkdir -p "$corpus" "$art"
	cp "$top/tests/fuzz/corpus/$t"/* "$corpus"/ 2>/dev/null
	args=(-max_total_time="$s" -max_len="$maxlen" -timeout=10
	      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/")
	[ "$dict" = - ] || args+=(-dict="$top/tests/fuzz/$dict")
	echo "[itrace] fuzz $t: ${s} s" >&2
	# The outer timeout only guards against a hung fuzzer.
	UBSAN_OPTIONS=print_stacktrace=1 timeout $(( s + 300 )) \
		"$b/$t" "${args[@]}" "$corpus" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(sed -n 's/^#[0-9]*[[:space:]]*DONE *cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/cov \1 ft \2 corp \3/p' "$log" | tail -1)
	crash=$(find "$art" -type f -printf "%f\n" | head -1)
	if [ $rc -eq 0 ] && [ -z "$crash" ] && [ -n "$execs" ] && [ -n "$cov" ]; then
		echo "PASS fuzz $t: $execs execs, 0 crashes, $cov, $rate exec/s"
	else
		echo "FAIL fuzz $t: exit $rc after ${execs:-?} execs," \
			"reproducer: ${crash:+$art/$crash} (log $log)"
		grep -E 'invariant broken|ERROR:|runtime error|SUMMARY' "$log" |
			head -5 | sed 's/^/    /'
	fi
}

# ITRACE_FUZZ_JOBS at a time, each target's lines kept and printed in
# the targets' order once all are done
jobs=${ITRACE_FUZZ_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
running=0
for t in $targets; do
	[ -x "$b/$t" ] || continue
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	fuzz_one "$t" >"$b/$t.result" &
	running=$((running + 1))
done
wait
for t in $targets; do
	[ ! -x "$b/$t" ] || cat "$b/$t.result"
done
