#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks `itrace calls` and `itrace stack` against the raw log.

The call tree is computed here from RAW_LOG (`itrace log -r`) and the
binaries' symbols (sym_check.py's Image and naming): a call or indirect
call pushes a frame; a return pops back to the innermost frame whose
call site lies at most CALL_LEN bytes before its target (x86_64: 15,
ppc64le: 4), and with no frame known leaves one entered before tracing.
CALLS (the command's output) must list exactly the calls and those
returns, in order, with the same depths (the least depth shown as 0)
and names; STACK's frames must be the call sites of the calls still
open at the last record, innermost first, after #0, which lies in the
function of the last record's target (the live stack's #0 is where the
last step left the task: in block mode past that target). Then the program's known shape (tp_calls.c with N = 5): calls
per function counted from the raw log, and the stack it blocks in.

Prints PASS/FAIL lines (counted by tests/run-all.sh); exit status 1 on
any FAIL.

usage: calls_check.py ARCH PROG=PATH LIBDIR MAPS RAW_LOG CALLS STACK
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rawlog  # noqa: E402
import sym_check  # noqa: E402

CALL_LEN = {'x86_64': 15, 'ppc64le': 4}
TREE = re.compile(r'^ *(\d+) +(\d+) +(\^ )?(\S+)(?:  \(from (\S+)\))?')
FRAME = re.compile(r'^#(\d+) +(\S+)$')
# tp_calls.c, pass(5) and the chain: calls into each function
SHAPE = {'fact': 5, 'op_add': 1, 'op_sub': 1, 'op_mul': 1, 'classify': 5,
         'use_libc': 1, 'pass': 1, 'chain_a': 1, 'chain_b': 1, 'chain_c': 1}
STACK = ['chain_c', 'chain_b', 'chain_a', 'main']


def fail(msg):
    sym_check.fail(msg)


def walk(recs, call_len):
    """The tree lines and the frames open at the end, as calls.c makes
    them: (lines, frames, last record)."""
    frames, lines, depth, least = [], [], 0, 0
    for seq, kind, frm, to in recs:
        if kind in ('call', 'icall'):
            frames.append((frm, to))
            depth += 1
            lines.append((seq, depth, False, to, frm))
        elif kind == 'ret':
            depth -= 1
            if not frames:
                least = min(least, depth)
                lines.append((seq, depth, True, to, None))
                continue
            i = len(frames)
            while i > 0 and not 0 < to - frames[i - 1][0] <= call_len:
                i -= 1
            if i == 0:
                frames.pop()
            else:
                depth -= len(frames) - i
                del frames[i - 1:]
            least = min(least, depth)
    return [(s, d - least, b, t, f) for s, d, b, t, f in lines], frames


def main():
    if len(sys.argv) != 8 or '=' not in sys.argv[2]:
        sys.exit(__doc__)
    arch, prog_arg, libdir, maps_f, raw_f, calls_f, stack_f = sys.argv[1:]
    prog_name, prog_path = prog_arg.split('=', 1)
    maps, images, prog = sym_check.load_maps(maps_f, prog_name, prog_path,
                                             libdir)
    if prog is None:
        return 1

    def name(addr):
        return sorted(sym_check.expected(addr, maps, prog, images)[0])

    recs = [(r.seq, r.kind, r.frm, r.to) for r in rawlog.read(raw_f)]
    want, frames = walk(recs, CALL_LEN[arch])

    got = []
    for line in open(calls_f):
        m = TREE.match(line.rstrip())
        if m:
            got.append((int(m.group(1)), int(m.group(2)), bool(m.group(3)),
                        m.group(4), m.group(5)))
    bad = 0
    if len(got) != len(want):
        fail('calls: %d lines, the raw log makes %d' % (len(got), len(want)))
    for g, w in zip(got, want):
        ok = g[:3] == w[:3] and g[3] in name(w[3]) and \
            (w[2] or g[4] in name(w[4]))
        if not ok:
            bad += 1
            if bad <= 5:
                fail('calls: line %s, want seq %d depth %d %s %s (from %s)'
                     % (g, w[0], w[1], 'ret-before' if w[2] else 'call',
                        name(w[3]), name(w[4]) if w[4] else '-'))
    if not bad and len(got) == len(want):
        print('PASS calls: the %d lines are the tree the raw log makes '
              '(%d calls, depths and names)' %
              (len(got), sum(1 for x in want if not x[2])))

    # calls per function, from the raw log and from the tree output
    count, shown = {}, {}
    for s, d, before, to, frm in want:
        if not before:
            fn = name(to)[0].split('+')[0]
            count[fn] = count.get(fn, 0) + 1
    for s, d, before, to, frm in got:
        if not before:
            fn = to.split('+')[0]
            shown[fn] = shown.get(fn, 0) + 1
    wrong = {f: (count.get(f, 0), shown.get(f, 0)) for f in SHAPE
             if count.get(f, 0) != SHAPE[f] or shown.get(f, 0) != SHAPE[f]}
    if wrong:
        fail('calls per function (raw log, calls output) differ from '
             "tp_calls' shape %s: %s" % (SHAPE, wrong))
    else:
        print('PASS calls: per function exactly the program\'s shape: %s' %
              ' '.join('%s %d' % kv for kv in sorted(SHAPE.items())))

    got = []
    for line in open(stack_f):
        m = FRAME.match(line.strip())
        if m:
            got.append(m.group(2))
    last_to = recs[-1][3]
    want = [name(last_to)] + [name(site) for site, _ in reversed(frames)]
    # #0: where the last step left it, in the function the last record
    # went to (block mode steps on past a transfer's target)
    if got and want and any(got[0].split('+')[0] == w.split('+')[0]
                            for w in want[0]):
        want[0] = [got[0]]
    if len(got) != len(want) or \
            any(g not in w for g, w in zip(got, want)):
        fail('stack: %s, want %s' % (got, want))
    else:
        print('PASS stack: %d frames, as the raw log leaves them: %s' %
              (len(got), ' '.join(got)))
    fns = [g.split('+')[0] for g in got]
    if len(fns) < 5 or not fns[0].startswith('libc.so.6:') or \
            fns[1:5] != STACK:
        fail('stack: %s, want libc.so.6:read then %s' % (fns, STACK))
    else:
        print('PASS stack: blocked in %s called from %s' %
              (fns[0], ' <- '.join(STACK)))
    return 1 if sym_check.FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
