#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks a `func` trigger's log against an untriggered run.

FULL is the raw log (`itrace log -r`) of tp_trig traced whole in insn
mode, TRIG that of the same program traced with `func target`. Being a
static program it runs the same addresses both times, so TRIG must be
exactly the records of FULL that lie inside target's outermost
invocations: from the record of target's first instruction (where the
uprobe sits: TARGET from nm, or POWER's local entry 8 bytes on, which
TRIG's first record says) through the return that leaves that
invocation, callees and recursion included, counted by call depth; a
record of an instruction at the probe (the entry, and each recursive
one) reads as `async`, the kind of a uprobe's step. ENTRIES is how many
outermost invocations FULL must hold. With --block, TRIG is a block-mode
run: those records less the ones block mode does not log (insn, jcc-nt).
With --stop STOP, TRIG is a `start target stop STOP` run: each segment
runs from the record at the start to the one that reaches STOP (or
POWER's local entry 8 bytes on). With --pick K,K.., TRIG holds only the records of those of FULL's
invocations (numbered from 1): a run with `count N` (--pick 1,..,N) or
with an `if` condition that holds at those entries only.

usage: trig_check.py [--block] [--pick K,K.. WHY] [--stop STOP] TARGET ENTRIES
                     FULL TRIG
"""
import sys

import rawlog

def records(path):
    return [(r.kind, r.frm, r.to) for r in rawlog.read(path)]


def inside(full, probe, pick=None, stop=None):
    """FULL's records inside the outermost invocations (those numbered
    in PICK, if given), and how many invocations FULL holds. With STOP,
    an invocation ends with the record that reaches STOP instead."""
    out, n, depth, within = [], 0, 0, False
    for kind, frm, to in full:
        if not within:
            if frm != probe:
                continue
            within, depth, n = True, 0, n + 1
        if pick is None or n in pick:
            out.append(('async' if frm == probe else kind, frm, to))
        if stop is not None:
            within = to != stop
        elif kind in ('call', 'icall'):
            depth += 1
        elif kind == 'ret':
            if depth == 0:
                within = False
            else:
                depth -= 1
    return out, n


def main():
    args = sys.argv[1:]
    block = args[:1] == ['--block']
    if block:
        args = args[1:]
    pick, why = None, ''   # why: what picked them, for the PASS line
    if args[:1] == ['--pick'] and len(args) > 2:
        pick, why, args = ([int(k) for k in args[1].split(',')], args[2],
                           args[3:])
    stop = None
    if args[:1] == ['--stop'] and len(args) > 1:
        stop, args = int(args[1], 0), args[2:]
    if len(args) != 4:
        sys.exit(__doc__)
    target, entries = int(args[0], 0), int(args[1])
    full, trig = records(args[2]), records(args[3])
    mode = 'block' if block else 'insn'
    if not trig or trig[0][0] != 'async' or trig[0][1] not in (target,
                                                              target + 8):
        print('FAIL the triggered log does not start with the uprobe at '
              'target 0x%x: %s' % (target, trig[:1]))
        return 1
    probe = trig[0][1]
    if stop is not None:
        # POWER: the probe sits at the local entry, where calls go
        if trig[-1][2] not in (stop, stop + 8):
            print('FAIL start/stop: the triggered log does not end at the '
                  'stop 0x%x: %s' % (stop, trig[-1:]))
            return 1
        stop = trig[-1][2]
        why = 'start at 0x%x, stop at 0x%x' % (probe, stop)
    want, n = inside(full, probe, pick, stop)
    if block:
        want = [r for r in want if r[0] not in ('insn', 'jcc-nt')]
    if n != entries:
        print('FAIL the untriggered run enters target at 0x%x %d times, '
              'want %d' % (probe, n, entries))
        return 1
    if trig != want:
        for i, (a, b) in enumerate(zip(trig, want)):
            if a != b:
                break
        else:
            i = min(len(trig), len(want))
        print('FAIL %s: the triggered log (%d records) is not the %d records '
              'of target\'s invocations in the untriggered run (%d); first '
              'difference at record %d: %s, want %s' %
              (mode, len(trig), len(want), len(full), i,
               trig[i] if i < len(trig) else None,
               want[i] if i < len(want) else None))
        return 1
    which = 'its %d' % n
    if pick is not None:
        which = 'number %s of its %d' % (','.join(map(str, pick)), n)
    print('PASS %s %s%s: exactly the %d records of %s '
          'invocations (probe 0x%x) of the untriggered insn run\'s %d, '
          'nothing from outside' % (mode, 'start target stop helper' if
                                    stop is not None else 'func target',
                                    ' (%s)' % why if why else '',
                                    len(trig), which, probe, len(full)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
