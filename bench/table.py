#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: medians of the BENCH lines that bench/vm.exp
printed (build/bench/ARCH-CLOCK.data) and the HOST lines of
bench/host/run.sh, as markdown tables on stdout.

It checks its own figures first: every traced run's traps (and records)
against the workload's known counts per pass (tp_bench: 9 instructions,
4 taken transfers, 5 branches, 1 call) times N. A row with a run off by
more than a small margin (the span's few instructions outside the loop)
is printed as INVALID with the reason instead of its per-trap figures,
and no ratio is taken against it: a miscounted row must not pass for a
measurement (the ptrace rows once showed negative traps and a -290x
ratio, docs/BENCH.md "The clock"). Exit status 3 when a row is invalid.

usage: table.py DIR   (reads DIR/*.data and DIR/host.txt)
"""
import glob
import os
import re
import statistics
import sys

# key, label, ratio against (ptrace row, floor row), expected traps and
# records per pass (a key of per_pass(), 0, or None: not counted)
ROWS = [
    ("untraced", "untraced", None, None, None, None),
    ("ptrace-step", "ptrace PTRACE_SINGLESTEP", None, None, "insns", None),
    ("ptrace-block", "ptrace PTRACE_SINGLEBLOCK", None, None, "block", None),
    ("insn", "itrace insn", "ptrace-step", "floor-insn", "insns", "insns"),
    ("block", "itrace block", "ptrace-block", "floor-block", "block", "taken"),
    ("floor-insn", "itrace insn, kinds none (floor)", None, None, "insns", 0),
    ("floor-block", "itrace block, kinds none (floor)", None, None, "block", 0),
    ("decode-insn", "itrace insn, kinds call", None, "floor-insn", "insns",
     "calls"),
    # the module loaded with stack_frames=0: what the live shadow stack
    # costs is the insn (block) row above it (stack_table())
    ("nostack-insn", "itrace insn, no live stack (stack_frames=0)", None,
     "floor-insn", "insns", "insns"),
    ("nostack-block", "itrace block, no live stack (stack_frames=0)", None,
     "floor-block", "block", "taken"),
    # keep 65536: every record also into the thread's own ring (the
    # flight recorder): its cost is this row above insn (block), per
    # record (keep_table())
    ("keep-insn", "itrace insn, keep 65536 (its own ring too)", None,
     "floor-insn", "insns", "insns"),
    ("keep-block", "itrace block, keep 65536 (its own ring too)", None,
     "floor-block", "block", "taken"),
    # args 3: calls and returns also take registers (values in records):
    # its cost is this row above insn (block), per call and return
    # (args_table())
    ("args-insn", "itrace insn, args 3 (values at calls, returns)", None,
     "floor-insn", "insns", "insns"),
    ("args-block", "itrace block, args 3 (values at calls, returns)", None,
     "floor-block", "block", "taken"),
    ("range-insn", "itrace insn, range tp_bench (every record in it)", None,
     "floor-insn", "insns", "insns"),
    ("range-none", "itrace insn, range 0x1-0x2 (no record in it)", None,
     "floor-insn", "insns", 0),
    # func triggers on bench_leaf, called once a pass: their figure is
    # the cost per pass above the untraced run (trig_table())
    ("trig-miss", "func bench_leaf if (never true): a uprobe hit a pass",
     None, None, 0, 0),
    ("trig-once", "func bench_leaf count 1: one entry, then untraced",
     None, None, None, None),
    ("trig-each", "func bench_leaf: every entry traced", None, None,
     "calls", "entry"),
]


def tolerance(want):
    """how far a count may be from @want = per pass x N: the span's own
    instructions outside the loop (the clock system calls, the call into
    the loop; a few tens), and nothing at all where nothing is due"""
    return 100 + want // 1000 if want else 0


def load(path):
    """{mode: [(ns, traps, records)...]}, {key: value},
    {mode: [(ns, steps, calls)...]} of one .data file"""
    runs, info, vdso = {}, {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 7 and w[1] == "loop":
                runs.setdefault(w[2], []).append(
                    (int(w[4]), int(w[5]), int(w[6])))
            elif len(w) >= 7 and w[1].startswith("cost-"):
                runs.setdefault(w[1] + " " + w[2], []).append(
                    (int(w[4]), 0, 0))
            elif len(w) >= 7 and w[1] == "vdso":
                vdso.setdefault(w[2], []).append(
                    (int(w[4]), int(w[5]), int(w[6])))
            elif len(w) >= 2:
                info[w[1]] = " ".join(w[2:])
    return runs, info, vdso


def per_pass(info):
    """the workload's counts per pass, from its own "per pass" line, and
    what a block step traps on here (vm.exp's blockmode line): every
    branch under powerpc's MSR_BE, every instruction where qemu ignores
    x86 BTF (module and kernel then single-step), else taken transfers"""
    m = re.search(r"per pass (\d+) insns, (\d+) taken transfers, "
                  r"(\d+) branches, (\d+) call", info.get("status", ""))
    if not m:
        return None
    p = dict(zip(("insns", "taken", "branches", "calls"),
                 map(int, m.groups())))
    # a traced entry of bench_leaf: the probed instruction (async, from
    # the re-arm) and the stepped ret that leaves it; one trap, the ret's
    p["entry"] = 2 * p["calls"]
    bm = info.get("blockmode")
    if bm is None:
        return None
    if "MSR_BE" in bm:
        p["block"] = p["branches"]
    elif "not honoured" in bm:
        p["block"] = p["insns"]
    else:
        p["block"] = p["taken"]
    return p


def check(r, n, pp, traps_key, recs_key):
    """why the runs @r of a row do not count what they say, or None"""
    why = []
    for i, (ns, traps, recs) in enumerate(r, 1):
        if ns <= 0:
            why.append("run %d: window %d ns" % (i, ns))
        for what, got, key in (("traps", traps, traps_key),
                               ("records", recs, recs_key)):
            if key is None:
                continue
            if pp is None or n is None:
                return "no per-pass counts in the data to check against"
            k = pp[key] if key else 0
            want = k * n
            if abs(got - want) > tolerance(want):
                why.append("run %d: %s %d, expected %d (%d per pass x %d) "
                           "within %d" % (i, what, got, want, k, n,
                                          tolerance(want)))
    return "; ".join(why) if why else None


def med(xs):
    return statistics.median(xs)


def host_speed(d):
    """the host microbenchmark's x86 hot loop, ns/record: the yardstick
    of the host's speed beside the wall-clock figures"""
    try:
        with open(os.path.join(d, "host.txt")) as f:
            for line in f:
                w = line.split()
                if len(w) == 7 and w[:3] == ["HOST", "x86", "hot"]:
                    return w[4]
    except OSError:
        pass
    return None


def stack_table(runs, bad, n, pp, unit):
    """the live shadow stack's cost: each mode's run above its run with
    no stack, per call and return (tp_bench: one of each a pass)"""
    pairs = [(m, "nostack-" + m) for m in ("insn", "block")
             if m in runs and "nostack-" + m in runs and m not in bad and
             "nostack-" + m not in bad]
    if not pairs or not n or not pp or not pp["calls"]:
        return []
    out = ["\nThe live shadow stack (`itrace stack`): a run above the same "
           "run with the module loaded with stack_frames=0, per call and "
           "its return, in %s:\n" % unit,
           "| mode | above no stack, whole run | per call and return |",
           "|---|---:|---:|"]
    for m, ns in pairs:
        above = med([x[0] for x in runs[m]]) - med([x[0] for x in runs[ns]])
        out.append("| %s | %.0f | %.0f |" % (m, above,
                                            above / (n * pp["calls"])))
    return out


def keep_table(runs, bad, unit):
    """the flight recorder's cost: each mode's run with keep 65536
    above the same run without, per record"""
    out = []
    for m in ("insn", "block"):
        k = "keep-" + m
        if m not in runs or k not in runs or m in bad or k in bad:
            continue
        recs = med([x[2] for x in runs[k]])
        if not recs:
            continue
        if not out:
            out = ["\nThe flight recorder (`keep N`): a run with keep 65536 "
                   "above the same run without, per record, in %s:\n" % unit,
                   "| mode | above, whole run | records | per record |",
                   "|---|---:|---:|---:|"]
        above = med([x[0] for x in runs[k]]) - med([x[0] for x in runs[m]])
        out.append("| %s | %.0f | %.0f | %.1f |" % (m, above, recs,
                                                   above / recs))
    return out


def args_table(runs, bad, unit, info):
    """the cost of `args 3`: each mode's run with it above the same run
    without, per call and per return (one of each a pass)"""
    out = []
    p = per_pass(info)
    arch = info.get("arch", "").split()
    n = int(arch[2]) if len(arch) >= 5 else None
    if not p or not n:
        return out
    for m in ("insn", "block"):
        a = "args-" + m
        if m not in runs or a not in runs or m in bad or a in bad:
            continue
        if not out:
            out = ["\nValues at calls and returns (`args 3`): a run with "
                   "args 3 above the same run without, per call or return "
                   "record, in %s:\n" % unit,
                   "| mode | above, whole run | calls and returns | "
                   "per call or return |",
                   "|---|---:|---:|---:|"]
        above = med([x[0] for x in runs[a]]) - med([x[0] for x in runs[m]])
        frames = 2 * p["calls"] * n
        out.append("| %s | %.0f | %d | %.1f |" % (m, above, frames,
                                                   above / frames))
    return out


def arch_table(path, speed, invalid):
    runs, info, vdso = load(path)
    icount = path.endswith("-icount.data")
    unit = "guest insns" if icount else "ns"
    out = []
    name = os.path.basename(path)[:-len(".data")]
    if icount:
        out.append("### %s (qemu -icount: 1 ns = 1 guest instruction; "
                   "exact, the same on any host)\n" % name)
    else:
        out.append("### %s (wall clock: moves with the host; host "
                   "yardstick %s ns/record)\n" % (name, speed or "?"))
    arch = info.get("arch", "").split()
    n = int(arch[2]) if len(arch) >= 5 else None
    out.append("%s; %s; %s; N=%s passes, %s runs each, medians\n" % (
        info.get("uname", "?"), "cpus " + info.get("cpus", "?"),
        "clocksource " + info.get("clocksource", "?"),
        n if n is not None else "?", arch[4] if len(arch) >= 5 else "?"))
    pp = per_pass(info)
    if any(key in runs for key, _, _, _, _, _ in ROWS):
        out.append("| mode | window (%s) | traps | records | %s/trap | "
                   "best | steps/s | x ptrace | x floor |"
                   % ("ms" if not icount else "M insns", unit))
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    bad = {}
    for key, label, _, _, tk, rk in ROWS:
        if key in runs:
            why = check(runs[key], n, pp, tk, rk)
            if why:
                bad[key] = why
                invalid.append("%s: %s: INVALID: %s" % (name, label, why))
    per = {}
    for key, _, _, _, _, _ in ROWS:
        if key in runs and key not in bad and med([x[1] for x in runs[key]]):
            per[key] = (med([x[0] for x in runs[key]]) /
                        med([x[1] for x in runs[key]]),)
    for key, label, vs_ptrace, vs_floor, _, _ in ROWS:
        if key not in runs:
            continue
        r = runs[key]
        ns = med([x[0] for x in r])
        traps = med([x[1] for x in r])
        recs = med([x[2] for x in r])
        spread = (max(x[0] for x in r) - min(x[0] for x in r)) / ns * 100 \
            if ns else 0
        window = "%.1f" % (ns / 1e6)
        if not icount:
            window += " (±%.0f%%)" % (spread / 2)
        cells = [label, window, "%d" % traps, "%d" % recs]
        if key in bad:
            cells += ["**INVALID**: " + bad[key], "", "", "", ""]
            out.append("| " + " | ".join(cells) + " |")
            continue
        if traps:
            cells.append("%.0f" % (ns / traps))
            cells.append("%.0f" % min(x[0] / x[1] for x in r))
            cells.append("%.0f" % (traps / ns * 1e9) if not icount else
                         "%.0f k/G" % (traps / ns * 1e6))
        else:
            cells += ["-", "-", "-"]
        rp = per.get(vs_ptrace)
        rf = per.get(vs_floor)
        cells.append("%.1f" % (rp[0] / per[key][0]) if rp and traps else
                     "-" if vs_ptrace in bad else "")
        cells.append("%.2f" % (per[key][0] / rf[0]) if rf and traps else
                     "-" if vs_floor in bad else "")
        out.append("| " + " | ".join(cells) + " |")
    checked = [k for k, _, _, _, tk, _ in ROWS if k in runs and tk]
    if checked:
        out.append("\nCounts: %s." % (
            "every traced run within tolerance of N x the workload's "
            "count per pass" if not bad else
            "%d of %d traced rows INVALID (above)" % (len(bad), len(checked))))
    trig = [k for k, _, _, _, _, _ in ROWS
            if k.startswith("trig-") and k in runs and k not in bad]
    if trig and "untraced" in runs and n:
        base = med([x[0] for x in runs["untraced"]])
        out.append("\nTriggers (`func bench_leaf`, entered once a pass): "
                   "the run above the untraced one, per pass, in %s:\n"
                   % unit)
        out.append("| mode | above untraced, whole run | per pass | "
                   "traps/pass | records/pass |")
        out.append("|---|---:|---:|---:|---:|")
        for key in trig:
            r = runs[key]
            above = med([x[0] for x in r]) - base
            out.append("| %s | %.0f | %.0f | %.2f | %.2f |" % (
                key, above, above / n, med([x[1] for x in r]) / n,
                med([x[2] for x in r]) / n))
    out += stack_table(runs, bad, n, pp, unit)
    out += keep_table(runs, bad, unit)
    out += args_table(runs, bad, unit, info)
    cost = [k for k in runs if k.startswith("cost-")]
    if cost:
        out.append("\nUntraced cost (median of %d rounds, module loaded "
                   "with another task traced vs. unloaded):\n"
                   % len(runs[cost[0]]))
        out.append("| workload | loaded | unloaded | difference | "
                   "spread (max-min)/median |")
        out.append("|---|---:|---:|---:|---:|")
        for wl in ("cost-loop", "cost-sys"):
            a = [x[0] for x in runs.get(wl + " loaded", [])]
            b = [x[0] for x in runs.get(wl + " unloaded", [])]
            if not a or not b:
                continue
            ma, mb = med(a), med(b)
            sa = (max(a) - min(a)) / ma * 100
            sb = (max(b) - min(b)) / mb * 100
            u = "M insns" if icount else "ms"
            out.append("| %s | %.2f %s | %.2f %s | %+.2f%% | %.1f%% / %.1f%% |"
                       % (wl[5:], ma / 1e6, u, mb / 1e6, u,
                          (ma - mb) / mb * 100, sa, sb))
    if vdso:
        out.append("\nvDSO clock reads (`tp_bench clock`, BENCH_VDSO): "
                   "steps per call above those of a read that is never "
                   "retried are retries (x86_64: 59 steps a call, 26 more "
                   "a retry; ppc64le: 86, 14 more a retry):\n")
        out.append("| mode | calls | %s/call | steps/call | min | max | "
                   "%s/step |" % (unit, unit))
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for key in ("untraced", "insn", "ptrace-step"):
            if key not in vdso:
                continue
            r = vdso[key]
            calls = r[0][2]
            spc = [x[1] / x[2] for x in r]
            ns = med([x[0] for x in r])
            steps = med([x[1] for x in r])
            cells = [key, "%d" % calls, "%.0f" % (ns / calls)]
            if steps:
                cells += ["%.1f" % med(spc), "%.1f" % min(spc),
                          "%.1f" % max(spc), "%.0f" % (ns / steps)]
            else:
                cells += ["-", "-", "-", "-"]
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def host_table(path):
    cases = {"hot": "a loop of 32 instructions (x86: decode memo hits)",
             "cold": "all of the text in order (x86: memo misses)",
             "nolog": "the loop, kind filter logs nothing (no append)"}
    out = ["### host: per-record work (bench/host/bench_record.c)\n",
           "| code | case | ns/record | instructions/record |",
           "|---|---|---:|---:|"]
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 7 and w[0] == "HOST":
                out.append("| %s | %s | %s | %s |" % (
                    w[1], cases.get(w[2], w[2]), w[4], w[6]))
    return "\n".join(out) + "\n"


def drain_table(path):
    """bench/drain.sh's rows: per mode, the median over runs of the rate
    the task logged at and the rate the capture drained at, and what the
    captures lost, all runs together"""
    runs, cpus = {}, "?"
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[1] == "cpus":
                cpus = w[2]
            elif len(w) == 8 and w[1] == "drain":
                secs, logged, got, lost = float(w[4]), int(w[5]), \
                    int(w[6]), int(w[7])
                runs.setdefault(w[2], []).append(
                    (logged / secs, got / secs, got, lost))
    name = os.path.basename(path)[:-len(".drain")]
    out = ["### %s: itrace-dump capture draining the binary stream "
           "(wall clock, %s guest CPUs)" % (name, cpus), "",
           "| mode | runs | logged/s (median) | drained/s (median) | "
           "records captured | lost |", "|---|---|---|---|---|---|"]
    for mode in sorted(runs):
        r = runs[mode]
        out.append("| %s | %d | %.0f | %.0f | %d | %d |" % (
            mode, len(r), med([x[0] for x in r]), med([x[1] for x in r]),
            sum(x[2] for x in r), sum(x[3] for x in r)))
    return "\n".join(out) + "\n"


def main():
    d = sys.argv[1]
    speed = host_speed(d)
    invalid = []
    print("Host speed: %s ns/record in the host microbenchmark's x86 hot "
          "loop, the yardstick for every wall-clock table (they move with "
          "the host's speed and load; the icount tables are exact guest "
          "instruction counts, the same on any host).\n" % (speed or "?"))
    if os.path.exists(os.path.join(d, "host.txt")):
        print(host_table(os.path.join(d, "host.txt")))
    for p in sorted(glob.glob(os.path.join(d, "*.data"))):
        print(arch_table(p, speed, invalid))
    for p in sorted(glob.glob(os.path.join(d, "*.drain"))):
        print(drain_table(p))
    for line in invalid:
        print("table.py: " + line, file=sys.stderr)
    return 3 if invalid else 0


sys.exit(main())
