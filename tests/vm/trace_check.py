#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks raw `itrace log -r` output against objdump/nm of the traced binary.

Owns the exact-behaviour assertions of the tp_loop VM test: the insn-mode
log must be a gap-free chain of steps whose every record agrees with the
instruction objdump shows at `from`, with exactly K calls into leaf() and
K returns from it; the block-mode log must equal the control-transfer
subset of the insn-mode log. Prints PASS/FAIL lines (counted by
tests/run-all.sh); exit status 1 on any FAIL.

The step count `itrace status` gave for the insn run (INSN_LOG with
.log replaced by .counts: "steps records") pins down the trap behaviour:
one trap per instruction, none for a syscall (its record is replayed),
and one per iteration of a rep string instruction (one record).

usage: trace_check.py BINARY K INSN_LOG BLOCK_LOG
"""
import re
import subprocess
import sys

RAW = re.compile(r'^(\d+) (\d+) (\d+) ([a-z-]+) 0x([0-9a-f]+) 0x([0-9a-f]+)$')
TRANSFER = {'jcc', 'jmp', 'call', 'ret', 'icall', 'ijmp', 'syscall', 'int',
            'iret', 'far', 'async'}
JCC = re.compile(r'^(j(?!mp)[a-z]+|loop[a-z]*|jrcxz|jecxz)$')
failed = 0


def result(ok, name, why=''):
    global failed
    if ok:
        print(f'PASS {name}')
    else:
        failed += 1
        print(f'FAIL {name}: {why}')
    return ok


def objdump(binary):
    """addr -> (length, mnemonic, branch target or None)."""
    out = subprocess.run(['objdump', '-d', '-w', binary],
                         capture_output=True, text=True, check=True).stdout
    insns = {}
    line_re = re.compile(r'^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$')
    for line in out.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        nbytes = len(m.group(2).split())
        text = m.group(3).strip()
        words = text.split()
        while words and words[0] in ('notrack', 'bnd', 'rep', 'repz',
                                     'repnz', 'lock', 'data16', 'cs',
                                     'ds', 'rex.W', 'rex'):
            words = words[1:]
        mnem = words[0] if words else ''
        target = None
        t = re.search(r'\s([0-9a-f]+) <', text)
        if t:
            target = int(t.group(1), 16)
        insns[addr] = (nbytes, mnem, target)
    return insns


def nm(binary):
    """name -> (address, size) of sized symbols."""
    out = subprocess.run(['nm', '-S', binary], capture_output=True,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def read_log(path):
    recs = []
    with open(path) as f:
        for line in f:
            m = RAW.match(line.strip())
            if m:
                recs.append((int(m.group(1)), m.group(4),
                             int(m.group(5), 16), int(m.group(6), 16)))
    return recs


def check_record(insns, kind, frm, to):
    """None if consistent with objdump, else the reason."""
    if frm not in insns:
        return f'from 0x{frm:x} is not an instruction start'
    length, mnem, target = insns[frm]
    nxt = frm + length
    if kind == 'insn':
        ok = to == nxt and not JCC.match(mnem) and mnem not in (
            'call', 'ret', 'jmp', 'syscall')
    elif kind == 'jcc-nt':
        ok = JCC.match(mnem) and to == nxt
    elif kind == 'jcc':
        ok = JCC.match(mnem) and to == target
    elif kind == 'call':
        ok = mnem == 'call' and to == target
    elif kind == 'jmp':
        ok = mnem == 'jmp' and to == target
    elif kind == 'ret':
        ok = mnem == 'ret'
    elif kind == 'syscall':
        ok = mnem == 'syscall' and to == nxt
    else:
        ok = False
    if ok:
        return None
    return f'{kind} 0x{frm:x}->0x{to:x} vs objdump "{mnem}" len {length}'


def main():
    binary, k, insn_log, block_log = sys.argv[1], int(sys.argv[2]), \
        sys.argv[3], sys.argv[4]
    insns = objdump(binary)
    syms = nm(binary)
    def in_func(name, mnem):
        base, size = syms[name]
        return sorted(a for a, (n, m, t) in insns.items()
                      if base <= a < base + size and m == mnem)

    leaf = syms['leaf'][0]
    raw_read = syms['raw_read'][0]
    sites = [a for a, (n, m, t) in insns.items() if m == 'call' and t == leaf]
    leaf_rets = in_func('leaf', 'ret')
    read_sites = sorted(a for a, (n, m, t) in insns.items()
                        if m == 'call' and t == raw_read)
    read_syscall = in_func('raw_read', 'syscall')
    if not result(len(sites) == 1 and len(leaf_rets) == 1 and
                  len(read_sites) == 2 and len(read_syscall) == 1,
                  'tp_loop layout from objdump',
                  f'call sites {sites}, leaf rets {leaf_rets}, '
                  f'raw_read calls {read_sites}'):
        return 1
    site, leaf_ret = sites[0], leaf_rets[0]
    site_len = insns[site][0]

    recs = read_log(insn_log)
    result(len(recs) > 0, 'insn log not empty', insn_log)
    calls = [r for r in recs if r[1] == 'call' and r[3] == leaf]
    result(len(calls) == k and all(r[2] == site for r in calls),
           f'insn: exactly {k} calls {site:#x}->leaf {leaf:#x}',
           f'{[(hex(r[2]), hex(r[3])) for r in calls]}')
    rets = [r for r in recs if r[1] == 'ret' and r[2] == leaf_ret]
    result(len(rets) == k and all(r[3] == site + site_len for r in rets),
           f'insn: exactly {k} rets {leaf_ret:#x}->{site + site_len:#x}',
           f'{[(hex(r[2]), hex(r[3])) for r in rets]}')
    bad = [(r, why) for r in recs
           for why in [check_record(insns, r[1], r[2], r[3])] if why]
    result(not bad, f'insn: all {len(recs)} records agree with objdump',
           '; '.join(w for _, w in bad[:5]))
    gaps = [(a, b) for a, b in zip(recs, recs[1:]) if a[3] != b[2]]
    result(not gaps, 'insn: records chain (each to == next from)',
           '; '.join(f'{a[3]:#x} then {b[2]:#x}' for a, b in gaps[:5]))
    seqs = [r[0] for r in recs]
    result(seqs == sorted(seqs) and len(set(seqs)) == len(seqs),
           'insn: sequence numbers strictly increase')
    if recs:
        first, last = recs[0], recs[-1]
        result(first[1] == 'ret' and first[2] == read_syscall[0] + 2 and
               first[3] == read_sites[0] + insns[read_sites[0]][0],
               'insn: trace starts at the return from the first raw_read',
               f'{first}')
        result(last[3] == read_syscall[0] and last[1] == 'insn',
               'insn: trace ends at the syscall of the second raw_read',
               f'{last}')
        writes = [r for r in recs if r[1] == 'syscall']
        result(len(writes) == 1, 'insn: exactly one syscall record (write)',
               f'{writes}')
        reps = in_func('rep_fill', 'stos')
        rep_recs = [r for r in recs if reps and r[2] == reps[0]]
        result(len(reps) == 1 and len(rep_recs) == 1 and
               rep_recs[0][1] == 'insn',
               'insn: the 16-iteration rep stosb is one insn record',
               f'{rep_recs}')
        steps, nrec = map(int, open(insn_log.replace('.log', '.counts'))
                          .read().split())
        result(nrec == len(recs) and steps == nrec - len(writes) + 15,
               'insn: traps = records - syscalls + 15 rep iterations '
               '(syscalls trap once after the next insn, rep traps per '
               'iteration)', f'steps {steps}, records {nrec}')

    brecs = read_log(block_log)
    want = [(r[1], r[2], r[3]) for r in recs if r[1] in TRANSFER]
    got = [(r[1], r[2], r[3]) for r in brecs]
    result(got == want and len(got) > 0,
           f'block: log equals the {len(want)} transfers of the insn log',
           f'got {len(got)} records; first difference at '
           f'{next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
