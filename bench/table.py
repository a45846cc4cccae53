#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: medians of the BENCH lines that bench/vm.exp
printed (build/bench/ARCH-CLOCK.data) and the HOST lines of
bench/host/run.sh, as markdown tables on stdout.

usage: table.py DIR   (reads DIR/*.data and DIR/host.txt)
"""
import glob
import os
import statistics
import sys

ROWS = [
    ("untraced", "untraced", None, None),
    ("ptrace-step", "ptrace PTRACE_SINGLESTEP", None, None),
    ("ptrace-block", "ptrace PTRACE_SINGLEBLOCK", None, None),
    ("insn", "itrace insn", "ptrace-step", "floor-insn"),
    ("block", "itrace block", "ptrace-block", "floor-block"),
    ("floor-insn", "itrace insn, kinds none (floor)", None, None),
    ("floor-block", "itrace block, kinds none (floor)", None, None),
    ("decode-insn", "itrace insn, kinds call", None, "floor-insn"),
]


def load(path):
    """{mode: [(ns, traps, records)...]}, {key: value} of one .data file"""
    runs, info = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 7 and w[1] == "loop":
                runs.setdefault(w[2], []).append(
                    (int(w[4]), int(w[5]), int(w[6])))
            elif len(w) >= 7 and w[1].startswith("cost-"):
                runs.setdefault(w[1] + " " + w[2], []).append(
                    (int(w[4]), 0, 0))
            elif len(w) >= 2:
                info[w[1]] = " ".join(w[2:])
    return runs, info


def med(xs):
    return statistics.median(xs)


def arch_table(path):
    runs, info = load(path)
    icount = path.endswith("-icount.data")
    unit = "guest insns" if icount else "ns"
    out = []
    name = os.path.basename(path)[:-len(".data")]
    out.append("### %s (%s)\n" % (name, "qemu -icount: 1 ns = 1 guest instruction"
                                  if icount else "wall clock"))
    out.append("%s; %s; %s; N=%s passes, %s runs each, medians\n" % (
        info.get("uname", "?"), "cpus " + info.get("cpus", "?"),
        "clocksource " + info.get("clocksource", "?"),
        info.get("arch", "? n ?").split()[2] if "arch" in info else "?",
        info.get("arch", "? n ? runs ?").split()[-1] if "arch" in info else "?"))
    out.append("| mode | window (%s) | traps | records | %s/trap | best | "
               "steps/s | x ptrace | x floor |"
               % ("ms" if not icount else "M insns", unit))
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    per = {}
    for key, _, _, _ in ROWS:
        if key in runs and med([x[1] for x in runs[key]]):
            per[key] = (med([x[0] for x in runs[key]]) /
                        med([x[1] for x in runs[key]]),)
    for key, label, vs_ptrace, vs_floor in ROWS:
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
        if traps:
            cells.append("%.0f" % (ns / traps))
            cells.append("%.0f" % min(x[0] / x[1] for x in r))
            cells.append("%.0f" % (traps / ns * 1e9) if not icount else
                         "%.0f k/G" % (traps / ns * 1e6))
        else:
            cells += ["-", "-", "-"]
        rp = per.get(vs_ptrace)
        rf = per.get(vs_floor)
        cells.append("%.1f" % (rp[0] / per[key][0]) if rp and traps else "")
        cells.append("%.2f" % (per[key][0] / rf[0]) if rf and traps else "")
        out.append("| " + " | ".join(cells) + " |")
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


def main():
    d = sys.argv[1]
    if os.path.exists(os.path.join(d, "host.txt")):
        print(host_table(os.path.join(d, "host.txt")))
    for p in sorted(glob.glob(os.path.join(d, "*.data"))):
        print(arch_table(p))


main()
