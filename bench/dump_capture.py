#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes a capture for the itrace-dump benchmark (bench/dump.sh).

PROG, a PIE test program built on this host, runs until it blocks on its
fifo; its /proc/PID/maps and the build-ids of its files make the task
and map lines. The records are made up, deterministically: N calls and
returns between the functions of PROG and libc (nm's function symbols),
each from a call site a few bytes into the caller to the callee's start,
and back; ADDRS distinct call sites in all, as a branch log of a real
program repeats a few thousand addresses. Prints the number of distinct
addresses on stderr. OUT is written as version 1 (every record a
line, as older captures are) and OUT.v3 as version 3 (binary blocks, as
`itrace-dump capture` writes them now), the same records.

usage: dump_capture.py PROG N ADDRS OUT
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time


def build_id(path):
    out = subprocess.run(['readelf', '-n', path], capture_output=True,
                         text=True).stdout
    m = re.search(r'Build ID: ([0-9a-f]+)', out)
    return m.group(1) if m else '-'


def funcs(path):
    out = subprocess.run(['nm', '-D', '--defined-only', path] if
                         path.endswith('.so.6') else ['nm', path],
                         capture_output=True, text=True).stdout
    return sorted({int(f[0], 16) for f in (l.split() for l in out.splitlines())
                   if len(f) == 3 and f[1] in 'Tt' and int(f[0], 16)})


# records a block, as a capture's read of 1 MiB gives them
BLOCK = 16384


def main():
    prog, n, addrs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        sys.argv[4]
    tmp = tempfile.mkdtemp()
    fifo = os.path.join(tmp, 'f')
    os.mkfifo(fifo)
    p = subprocess.Popen([prog, fifo, '5'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    p.stdout.readline()
    time.sleep(0.2)
    maps = open('/proc/%d/maps' % p.pid).read().splitlines()
    p.kill()
    p.wait()
    task, lines, bases = p.pid, [], []
    for m in maps:
        f = m.split(None, 5)
        if len(f) < 6 or f[4] == '0' or not f[5].startswith('/'):
            continue
        lines.append('map %d %s %s %s %s %s' % (task, f[0], f[1], f[2],
                                               build_id(f[5]), f[5]))
        if f[2] == '00000000' and (f[5] == os.path.realpath(prog) or
                                   'libc.so' in f[5]):
            bases.append((int(f[0].split('-')[0], 16), f[5]))
    targets = []
    for base, path in bases:
        targets += [base + a for a in funcs(path)]
    rnd = random.Random(1)
    sites = [(rnd.choice(targets) + rnd.randrange(4, 64), rnd.choice(targets))
             for _ in range(addrs // 3)]
    recs = []
    for i in range(n // 2):
        site, to = sites[rnd.randrange(len(sites))]
        recs.append((len(recs) + 1, i & 1, 'call', site, to))
        recs.append((len(recs) + 1, i & 1, 'ret', to + 8, site + 5))
    head = 'task %d tgid %d seq 0 comm tp_calls\n' % (task, task) + \
        '\n'.join(lines) + '\n'
    with open(out, 'w') as f:
        f.write('itrace-capture 1 arch x86_64\n' + head)
        for seq, cpu, kind, a, b in recs:
            f.write('%d %d %d %s 0x%x 0x%x\n' % (seq, cpu, task, kind, a, b))
        f.write('end records %d lost 0\n' % len(recs))
    # the same records as `itrace-dump capture` writes them: version 3,
    # binary blocks (kdb-itrace/lib/wire.h; kinds call 4, ret 5), a
    # time of 100 ns a record
    with open(out + '.v3', 'wb') as f:
        f.write(('itrace-capture 3 arch x86_64\n' + head).encode())
        for i in range(0, len(recs), BLOCK):
            blk = recs[i:i + BLOCK]
            f.write(b'records %d\n' % len(blk))
            f.write(b''.join(struct.pack('<7QIHBB', seq, a, b, seq * 100,
                                         0, 0, 0, task, cpu,
                                         4 if kind == 'call' else 5, 0)
                             for seq, cpu, kind, a, b in blk))
        f.write(b'end records %d lost 0\n' % len(recs))
    distinct = {a for s, t in sites for a in (s, t, t + 8, s + 5)}
    print(len(distinct), file=sys.stderr)


if __name__ == '__main__':
    main()
