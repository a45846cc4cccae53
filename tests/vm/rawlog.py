# SPDX-License-Identifier: GPL-2.0
"""The raw record line of `itrace log -r` (README, "log"):
    SEQ CPU PID KIND 0xFROM 0xTO NS [0xVALUE ...]
parsed in one place for the VM checkers (trace_check, sym_check,
trig_check, calls_check, values_check)."""
import collections
import re

RAW = re.compile(r'^(\d+) (\d+) (\d+) ([a-z-]+) 0x([0-9a-f]+) 0x([0-9a-f]+)'
                 r' (\d+)((?: 0x[0-9a-f]+)*)$')

Rec = collections.namedtuple('Rec', 'seq cpu pid kind frm to ns vals')


def parse(line):
    """The record of one line, or None for any other line."""
    m = RAW.match(line.strip())
    if not m:
        return None
    return Rec(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4),
               int(m.group(5), 16), int(m.group(6), 16), int(m.group(7)),
               tuple(int(v, 16) for v in m.group(8).split()))


def read(path):
    """Every record of the file at PATH, in its order."""
    with open(path) as f:
        return [r for r in map(parse, f) if r]
