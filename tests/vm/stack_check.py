#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks `itrace stack` of tp_deep (tests/vm/shadow.exp) against the
binary: every frame's address is a call instruction (objdump), and each
call goes to the function the next frame inward lies in; from the
innermost, past the C library's frames inside read(): wait_byte's call,
bottom's, nest's call to bottom, DEPTH calls of nest to itself,
deep_start's and main's. A stack deeper than the frames it holds (the
"deeper than N frames" line) shows at most N, the innermost, and counts
the rest exactly (a frame the ring let go of stays gone when the frames
inside it return); otherwise the frames end at main's. In insn mode
frame #0 is the system call tp_deep blocks in. The signal handler's
return: on x86_64 one return to no call site (it goes to the restorer,
which nobody called), on ppc64le none (the vDSO's trampoline calls the
handler with bctrl, and its return comes back there). With --child,
the stack of tp_deep's followed child, blocked in wait_child(): the
frames below it are its parent's, copied at the fork; no return to no
call site since.

usage: stack_check.py [--child] MODE DEPTH PROG STACK
"""
import re
import sys

import trace_check as tc

FRAME = re.compile(r'^#(\d+) +(\S+)$')
NAMED = re.compile(r'^([^:+\s]+)\+0x([0-9a-f]+)$')
DEEPER = re.compile(r'^itrace stack: deeper than (\d+) frames: (\d+) outer '
                    r'frames? not kept')
UNMATCHED = re.compile(r'^itrace stack: (\d+) returns? to no call site kept')


def main():
    args = sys.argv[1:]
    child = args[:1] == ['--child']
    if child:
        args = args[1:]
    mode, depth, prog, stack_f = args[0], int(args[1]), args[2], args[3]
    leaf = 'wait_child' if child else 'wait_byte'
    if child:
        mode += ' child'
    tc.set_arch(prog)
    insns = tc.objdump(prog)
    syms = tc.nm(prog)
    funcs = sorted((a, s, n) for n, (a, s) in syms.items() if s)

    def func_at(addr):
        for a, s, n in funcs:
            if a <= addr < a + s:
                return n
        return None

    lines = open(stack_f).read().splitlines()
    frames, bad = [], []
    for line in lines:
        m = FRAME.match(line.strip())
        if not m:
            continue
        n = NAMED.match(m.group(2))
        if not n or n.group(1) not in syms:
            bad.append('#%s %s: not function+0xoff of tp_deep' %
                       (m.group(1), m.group(2)))
            continue
        frames.append(syms[n.group(1)][0] + int(n.group(2), 16))
    tc.result(frames and not bad, f'{mode}: every frame names a function of '
              f'tp_deep ({len(frames)} frames)', '; '.join(bad[:3]))
    if not frames:
        return 1

    # #0: where the task is; each frame a call into the function inward
    if mode.startswith('insn'):
        ins = insns.get(frames[0])
        tc.result(ins and tc.mclass(ins[1]) == 'syscall',
                  f'{mode}: #0 is the system call it blocks in '
                  f'({func_at(frames[0])})', f'{ins} at {frames[0]:#x}')
    chain = []
    for i, site in enumerate(frames[1:], 1):
        ins = insns.get(site)
        callee = func_at(frames[i - 1])
        if not ins or tc.mclass(ins[1]) != 'call':
            chain.append(f'#{i} {site:#x} is no call ({ins})')
        elif ins[2] is not None and func_at(ins[2]) != callee:
            chain.append(f'#{i} calls {func_at(ins[2])}, #{i - 1} is in '
                         f'{callee}')
    tc.result(not chain, f'{mode}: each frame is a call into the function '
              'of the frame inside it (objdump)', '; '.join(chain[:3]))

    names = [func_at(a) for a in frames[1:]]
    first = names.index(leaf) if leaf in names else -1
    want = [leaf, 'bottom'] + ['nest'] * (depth + 1) + \
        ['deep_start', 'main']
    libc = first
    deeper = [DEEPER.match(line) for line in lines]
    deeper = [m for m in deeper if m]
    held = len(frames) - 1
    if deeper:
        limit, lost = int(deeper[0].group(1)), int(deeper[0].group(2))
        ok = first >= 0 and held <= limit and \
            names[first:] == want[:held - libc] and \
            lost == libc + len(want) - held
        tc.result(ok, f'{mode}: the innermost {held} of {libc + len(want)} '
                  f'frames ({libc} in read; at most {limit} held), the '
                  f'{lost} outer ones counted',
                  f'names {names[:4]}...{names[-2:]}, {held} held, {lost} '
                  f'not kept, want {libc + len(want) - held}')
    else:
        ok = first >= 0 and names[first:] == want
        tc.result(ok, f'{mode}: all {held} frames down to main ({libc} in '
                  f'read, {depth + 1} of nest)',
                  f'names {names[:4]}...{names[-3:]}')
    um = [int(m.group(1)) for m in map(UNMATCHED.match, lines) if m]
    want_um = [1] if tc.ARCH == 'x86_64' and not child else []
    if child:
        what = 'no return to no call site since the fork'
    else:
        what = 'the signal handler\'s return ' + \
            ('to no call site, counted' if want_um else 'matched') + \
            ': the frames it interrupted kept'
    tc.result(um == want_um, f'{mode}: {what}', f'{um}, want {want_um}')
    return 1 if tc.failed else 0


if __name__ == '__main__':
    sys.exit(main())
