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
       trace_check.py --chain BINARY LOG   (objdump agreement and chain only)
"""
import re
import subprocess
import sys

import rawlog

def tool(name):
    """binutils for the binary's arch (set in main)."""
    return ARCH_TOOLS[ARCH] + name


ARCH = 'x86_64'
ARCH_TOOLS = {'x86_64': '', 'ppc64le': 'powerpc64le-linux-gnu-'}
TRANSFER = {'jcc', 'jmp', 'call', 'ret', 'icall', 'ijmp', 'syscall', 'int',
            'iret', 'far', 'async'}
X86_JCC = re.compile(r'^(j(?!mp)[a-z]+|loop[a-z]*|jrcxz|jecxz)$')
PPC_COND = re.compile(r'^b(dnzf|dnzt|dzf|dzt|dnz|dz|lt|le|eq|ge|gt|nl|ne|ng|'
                      r'so|ns|un|nu|f|t|c)(lrl|lr|ctrl|ctr|tarl|tar|la|l|a)?$')


def mclass(mnem):
    """Branch class of a mnemonic: call/icall/ret/jmp/ijmp/jcc/syscall."""
    if ARCH == 'x86_64':
        base = mnem.split('*')[0]
        if mnem in ('call*', 'jmp*'):
            return 'i' + base
        if mnem in ('call', 'ret', 'jmp', 'syscall'):
            return mnem
        return 'jcc' if X86_JCC.match(mnem) else None
    m = mnem.rstrip('+-')
    simple = {'b': 'jmp', 'ba': 'jmp', 'bl': 'call', 'bla': 'call',
              'blr': 'ret', 'bctr': 'ijmp', 'bctrl': 'icall',
              'blrl': 'icall', 'sc': 'syscall', 'scv': 'syscall'}
    if m in simple:
        return simple[m]
    c = PPC_COND.match(m)
    if not c:
        return None
    return {None: 'jcc', 'a': 'jcc', 'l': 'call', 'la': 'call',
            'lr': 'ret', 'lrl': 'icall', 'ctr': 'ijmp', 'ctrl': 'icall',
            'tar': 'ijmp', 'tarl': 'icall'}[c.group(2)]


def is_cond(mnem):
    """May the branch fall through?"""
    if ARCH == 'x86_64':
        return bool(X86_JCC.match(mnem))
    return bool(PPC_COND.match(mnem.rstrip('+-')))


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
    out = subprocess.run([tool('objdump'), '-d', '-w', binary],
                         capture_output=True, text=True, check=True).stdout
    insns = {}
    line_re = re.compile(r'^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*\t?(.*)$')
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
        if len(words) > 1 and words[1].startswith('*'):
            mnem += '*'     # x86 indirect call/jmp
        target = None
        t = re.search(r'[\s,]([0-9a-f]+) <', text)
        if t:
            target = int(t.group(1), 16)
        insns[addr] = (nbytes, mnem, target)
    return insns


def nm(binary):
    """name -> (address, size) of sized symbols."""
    out = subprocess.run([tool('nm'), '-S', binary], capture_output=True,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def read_log(path):
    return [(r.seq, r.kind, r.frm, r.to) for r in rawlog.read(path)]


def check_record(insns, kind, frm, to):
    """None if consistent with objdump, else the reason."""
    if frm not in insns:
        return f'from 0x{frm:x} is not an instruction start'
    length, mnem, target = insns[frm]
    nxt = frm + length
    c = mclass(mnem)
    if kind == 'insn':
        ok = to == nxt and c is None
    elif kind == 'jcc-nt':
        ok = is_cond(mnem) and to == nxt
    elif kind == 'jcc':
        ok = c == 'jcc' and to == target
    elif kind in ('call', 'jmp'):
        ok = c == kind and to == target
    elif kind in ('ret', 'icall', 'ijmp'):
        ok = c == kind
    elif kind == 'syscall':
        ok = c == 'syscall' and to == nxt
    else:
        ok = False
    if ok:
        return None
    return f'{kind} 0x{frm:x}->0x{to:x} vs objdump "{mnem}" len {length}'


def chain_only(binary, log):
    """Every record agrees with objdump and the records chain."""
    insns = objdump(binary)
    recs = read_log(log)
    result(len(recs) > 0, f'{log}: log not empty')
    bad = [why for r in recs
           for why in [check_record(insns, r[1], r[2], r[3])] if why]
    result(not bad, f'all {len(recs)} records agree with objdump',
           '; '.join(bad[:5]))
    gaps = [(a, b) for a, b in zip(recs, recs[1:]) if a[3] != b[2]]
    result(not gaps, 'records chain (each to == next from)',
           '; '.join(f'{a[3]:#x} then {b[2]:#x}' for a, b in gaps[:5]))
    return 1 if failed else 0


def set_arch(binary):
    global ARCH
    with open(binary, 'rb') as f:
        hdr = f.read(20)
    ARCH = 'ppc64le' if hdr[18] == 21 else 'x86_64'    # e_machine EM_PPC64


def main():
    if sys.argv[1] == '--chain':
        set_arch(sys.argv[2])
        return chain_only(sys.argv[2], sys.argv[3])
    binary, k, insn_log, block_log = sys.argv[1], int(sys.argv[2]), \
        sys.argv[3], sys.argv[4]
    set_arch(binary)
    insns = objdump(binary)
    syms = nm(binary)
    def in_func(name, cls):
        base, size = syms[name]
        return sorted(a for a, (n, m, t) in insns.items()
                      if base <= a < base + size and mclass(m) == cls)

    def calls_to(name):
        base, size = syms[name]
        return sorted(a for a, (n, m, t) in insns.items()
                      if mclass(m) == 'call' and t is not None and
                      base <= t < base + size)

    leaf = syms['leaf'][0]
    sites = calls_to('leaf')
    leaf_rets = in_func('leaf', 'ret')
    read_sites = calls_to('raw_read')
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
    leaf_to = insns[site][2]
    calls = [r for r in recs if r[1] == 'call' and r[3] == leaf_to]
    result(len(calls) == k and all(r[2] == site for r in calls),
           f'insn: exactly {k} calls {site:#x}->leaf {leaf_to:#x}',
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
        sc_len = insns[read_syscall[0]][0]
        result(first[2] == read_syscall[0] + sc_len and
               [r for r in recs if r[1] == 'ret'][0][3] ==
               read_sites[0] + insns[read_sites[0]][0],
               'insn: trace starts right after the first raw_read syscall '
               'and returns to its caller', f'{first}')
        result(last[3] == read_syscall[0] and last[1] == 'insn',
               'insn: trace ends at the syscall of the second raw_read',
               f'{last}')
        writes = [r for r in recs if r[1] == 'syscall']
        result(len(writes) == 1, 'insn: exactly one syscall record (write)',
               f'{writes}')
        steps, nrec = map(int, open(insn_log.replace('.log', '.counts'))
                          .read().split())
        if ARCH == 'x86_64':
            base, size = syms['rep_fill']
            reps = sorted(a for a, (n, m, t) in insns.items()
                          if base <= a < base + size and m == 'stos')
            rep_recs = [r for r in recs if reps and r[2] == reps[0]]
            result(len(reps) == 1 and len(rep_recs) == 1 and
                   rep_recs[0][1] == 'insn',
                   'insn: the 16-iteration rep stosb is one insn record',
                   f'{rep_recs}')
            result(nrec == len(recs) and steps == nrec - len(writes) + 15,
                   'insn: traps = records - syscalls + 15 rep iterations '
                   '(syscalls trap once after the next insn, rep traps per '
                   'iteration)', f'steps {steps}, records {nrec}')
        else:
            result(nrec == len(recs) and steps == nrec - len(writes),
                   'insn: traps = records - syscalls (sc is not traced, '
                   'the next insn traps)', f'steps {steps}, records {nrec}')

    brecs = read_log(block_log)
    want = [(r[1], r[2], r[3]) for r in recs if r[1] in TRANSFER]
    got = [(r[1], r[2], r[3]) for r in brecs]
    result(got == want and len(got) > 0,
           f'block: log equals the {len(want)} transfers of the insn log',
           f'got {len(got)} records; first difference at '
           f'{next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))}')
    bsteps, bnrec = map(int, open(block_log.replace('.log', '.counts'))
                        .read().split())
    if ARCH == 'ppc64le':
        # MSR_BE traps after every branch, taken or not; sc is untraced
        nt = len([r for r in recs if r[1] == 'jcc-nt'])
        taken = len([r for r in brecs if r[1] != 'syscall'])
        result(bsteps == taken + nt and bsteps < steps,
               f'block: {bsteps} traps = {taken} taken + {nt} not-taken '
               f'branches (branch trace reports both), vs {steps} in insn '
               f'mode', f'{bsteps} block traps')
        # CFAR holds the last *taken* branch: "ok/total" counters
        # (cumulative over both runs) from `itrace status`
        ci = list(map(int, open(insn_log.replace('.log', '.cfar')).read()
                      .split()))
        cb = list(map(int, open(block_log.replace('.log', '.cfar')).read()
                      .split()))
        be_ok, be_all = cb[0] - ci[0], cb[1] - ci[1]
        result(ci[2] == ci[3] and ci[3] > 0,
               f'insn: CFAR named the branch on all {ci[3]} single-step '
               'traps after a taken branch', f'{ci}')
        result(be_ok == taken and be_all == bsteps,
               f'block: CFAR named the branch on the {taken} taken-branch '
               f'traps, not on the {nt} not-taken ones', f'{cb} - {ci}')
    else:
        result(bsteps == steps,
               'block: software block step takes the insn-mode traps '
               f'({steps})', f'{bsteps} block traps')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
