#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks itrace-dump's views of a capture taken in the VM (dump.exp).

The binaries are the host's copies in BDIR (the programs) and BDIR/lib
(libc, the loader), placed under a made-up --symfs tree at the paths
the capture's map lines name. For every record:
  script    the kind as perf names it; both addresses with the function
            and offset that the file's own symbol table (readelf -s, as
            sym_check.py reads it: .symtab, else .dynsym) gives, any alias
            at that start accepted, "[unknown]" where no symbol covers
            it, and the mapping's path as the dso; with -F +srcline the
            program's addresses at the file:line addr2line gives;
  calls     per thread the tree calls_check.walk() makes from the same
            records (calls and returns from before tracing, depths and
            names);
  chrome    valid JSON; per thread every slice inside its parent, as
            many slices as calls, a name for each process and thread;
  folded    one stack per record (the counts add up to the records),
            each starting with its thread's name;
  -F +insn,+disasm  at each record's from address the bytes objdump -d
            shows there and its mnemonic (ALIASES, NEWER: where
            capstone 4 and objdump name one instruction differently).
The capture is version 3 (binary record blocks); TEXT, the guest's
`itrace-dump text` of it, must be what the host's makes of it, byte for
byte, and gives the records the checks expect.
Then a program changed since the capture (another file at its path) and
one missing: each named once on stderr, its addresses [unknown], the
other files still named. With --viewer INDEX_HTML (speedscope's page,
tests/vm/speedscope.sh): the chrome output opened there in headless
chromium must make one profile per thread, each named by its process
and thread.

Prints PASS/FAIL lines; exit status 1 on any FAIL.

usage: dump_check.py [--viewer INDEX_HTML] ITRACE_DUMP BDIR CAPTURE TEXT
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sym_check  # noqa: E402
import calls_check  # noqa: E402

TOOLS = os.environ.get('ITRACE_TOOLS', '')
os.environ.setdefault('READELF', TOOLS + 'readelf')
PERF_KIND = {'call': 'call', 'icall': 'call', 'ret': 'return', 'jmp': 'jmp',
             'ijmp': 'jmp', 'jcc': 'jcc', 'jcc-nt': 'jcc-nt', 'insn': 'insn',
             'syscall': 'syscall', 'int': 'int', 'iret': 'iret',
             'far': 'far', 'async': 'async'}
SCRIPT = re.compile(r'^ *(\S+) +(\d+) \[(\d+)\] #(\d+): (\S+) +([0-9a-f]+) '
                    r'(\S+) \((.*?)\) => +([0-9a-f]+) (\S+) \((.*?)\)$')
CALLS = re.compile(r'^ *(\d*) \[ *(\d+)\] \| ( *)(.*)$')
fail = sym_check.fail


def load(path):
    """(arch, {pid: (comm, tgid, maps)}, records) of a capture."""
    arch, takes, recs, cur = None, {}, [], None
    for line in open(path):
        f = line.rstrip('\n').split(' ')
        if f[0] == 'itrace-capture':
            arch = f[3]
        elif f[0] == 'task':
            cur = (' '.join(f[7:]), int(f[3]), [])
            takes[int(f[1])] = cur
        elif f[0] == 'map':
            s, e = f[2].split('-')
            cur[2].append((int(s, 16), int(e, 16), int(f[4], 16),
                           ' '.join(f[6:])))
        elif f[0].isdigit():
            recs.append((int(f[0]), int(f[1]), int(f[2]), f[3],
                         int(f[4], 16), int(f[5], 16)))
    return arch, takes, recs


def symbols(path, img):
    """The defined symbols of img's table (.symtab, else .dynsym) that
    elfutils names code with: FUNC, IFUNC and NOTYPE (POWER's linker
    stubs, e.g. 0000001b.plt_call.qsort), as (value, size, name)."""
    out, cur, table = [], None, img.source
    for line in sym_check.readelf(['-sW'], path).splitlines():
        m = re.match(r"^Symbol table '(\.\w+)'", line)
        if m:
            cur = m.group(1)
            continue
        m = sym_check.SYMBOL.match(line)
        if cur != table or not m:
            continue
        value, size, typ, ndx, name = m.groups()
        if typ not in ('FUNC', 'IFUNC', 'NOTYPE') or not ndx.isdigit() \
                or not name or name.startswith('$'):
            continue
        value = int(value, 16)
        if img.file_off(value) is None:
            continue
        out.append((value, int(size, 0), name.split('@')[0], int(ndx)))
    return out


def sections(path):
    """{index: (address, size)} of the file's sections"""
    out = {}
    for line in sym_check.readelf(['-SW'], path).splitlines():
        m = re.match(r'^ *\[ *(\d+)\] +\S+ +\S+ +([0-9a-f]+) [0-9a-f]+ '
                     r'([0-9a-f]+) ', line)
        if m:
            out[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3), 16))
    return out


class Names:
    """What an address must read as, from the host's copies."""

    def __init__(self, bdir, takes):
        self.images, self.hosts, self.syms, self.secs = {}, {}, {}, {}
        for comm, tgid, maps in takes.values():
            for *_, path in maps:
                base = os.path.basename(path)
                host = os.path.join(bdir, base)
                if not os.path.exists(host):
                    host = os.path.join(bdir, 'lib', base)
                if path not in self.images and os.path.exists(host):
                    self.hosts[path] = host
                    self.images[path] = sym_check.Image(host)
                    self.syms[path] = symbols(host, self.images[path])
                    self.secs[path] = sections(host)
        self.takes = takes

    def where(self, pid, addr):
        """(path, file offset) of addr in pid's mappings, or None."""
        for start, end, off, path in self.takes[pid][2]:
            if start <= addr < end:
                return path, addr - start + off
        return None

    def want(self, pid, addr):
        """({names}, dso) addr may print as: the sized symbols covering
        it, those starting nearest; else the sizeless symbol nearest
        before it, in the same section, when no other symbol starts
        between them."""
        w = self.where(pid, addr)
        if not w or w[0] not in self.images:
            return {'[unknown]'}, w[0] if w else '[unknown]'
        v = self.images[w[0]].vaddr(w[1])
        syms = self.syms[w[0]]
        cover = [x for x in syms if v is not None and x[1] and
                 x[0] <= v < x[0] + x[1]]
        if not cover and v is not None:
            before = [x[0] for x in syms if x[0] <= v]
            last = max(before) if before else None
            sec = [i for i, (a, n) in self.secs[w[0]].items()
                   if a and a <= v < a + n]
            cover = [x for x in syms if x[0] == last and not x[1] and
                     [x[3]] == sec]
        if not cover:
            return {'[unknown]'}, w[0]
        start = max(x[0] for x in cover)
        return {'%s+0x%x' % (x[2], v - start) for x in cover
                if x[0] == start}, w[0]

    def func(self, pid, addr):
        """the names the function entered at addr may print as"""
        names, _ = self.want(pid, addr)
        return {n[:-4] if n.endswith('+0x0') else n for n in names} \
            if names != {'[unknown]'} else {'0x%x' % addr}


def symfs(tmp, names, skip=(), swap=None, strip=None):
    """A --symfs tree of links to the host's copies, at the guest's
    paths; files named in skip left out, swap=(name, file) puts another
    file at name's path; with strip=DIR the programs (/bin) are stripped
    copies instead, their debug information in DIR/NAME.debug."""
    root = tempfile.mkdtemp(dir=tmp)
    for path, host in names.hosts.items():
        base = os.path.basename(path)
        if base in skip:
            continue
        dst = root + path
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if strip and path.startswith('/bin/'):
            dbg = os.path.join(strip, base + '.debug')
            subprocess.run([TOOLS + 'objcopy', '--only-keep-debug', host,
                            dbg], check=True)
            subprocess.run([TOOLS + 'objcopy', '--strip-all', host, dst],
                           check=True)
            continue
        os.symlink(swap[1] if swap and base == swap[0] else host, dst)
    return root


def run(tool, *args):
    p = subprocess.run([tool] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def addr2line(host, vaddrs):
    """Per address, the place addr2line -i gives, with the places of the
    calls it is inlined into as itrace-dump writes them: "FILE:LINE
    inlined into CALLER at FILE:LINE ..." ("??:0" for none)."""
    out = subprocess.run([TOOLS + 'addr2line', '-a', '-i', '-f', '-e', host] +
                         ['0x%x' % v for v in vaddrs], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    res, cur = [], None
    for line in out:
        if re.match(r'^0x[0-9a-f]+$', line):
            cur = []
            res.append(cur)
        else:
            cur.append(re.sub(r' \(discriminator \d+\)$', '', line))
    chains = []
    for r in res:
        funcs, places = r[0::2], r[1::2]
        if places[0].startswith('??') or places[0].startswith(':'):
            chains.append('??:0')
            continue
        chains.append(places[0] + ''.join(
            ' inlined into %s at %s' % (f, p)
            for f, p in zip(funcs[1:], places[1:])))
    return chains


def check_script(tool, fs, cap, names, recs, progs):
    rc, out, err = run(tool, 'script', '-F', '+srcline', '--symfs', fs, cap)
    if rc != 0 or err.strip():
        fail('script: exit %d, stderr %s' % (rc, err.strip()[:300]))
    lines = out.splitlines()
    if len(lines) != 2 * len(recs):
        fail('script: %d lines for %d records' % (len(lines), len(recs)))
        return
    bad, src, checked_src, inlined = 0, [], 0, 0
    for (seq, cpu, pid, kind, frm, to), line, sl in zip(
            recs, lines[0::2], lines[1::2]):
        m = SCRIPT.match(line)
        ok = m and (int(m.group(2)), int(m.group(3)), int(m.group(4)),
                    m.group(5), int(m.group(6), 16), int(m.group(9), 16)) \
            == (pid, cpu, seq, PERF_KIND[kind], frm, to) and \
            m.group(1) == names.takes[pid][0]
        for a, n, d in ((frm, 7, 8), (to, 10, 11)):
            if not ok:
                break
            want, dso = names.want(pid, a)
            ok = m.group(n) in want and m.group(d) == dso
        if not ok:
            bad += 1
            if bad <= 5:
                fail('script: record %d %s 0x%x 0x%x printed as %r, want %s'
                     % (seq, kind, frm, to, line,
                        [names.want(pid, frm), names.want(pid, to)]))
        for a, s in zip((frm, to), sl.strip().split(' => ')):
            w = names.where(pid, a)
            if w and os.path.basename(w[0]) in progs:
                src.append((w[0], names.images[w[0]].vaddr(w[1]), s))
    if not bad:
        print('PASS script: the %d records, kinds, both addresses named as '
              "the files' symbol tables name them, and their dsos" % len(recs))
    by = {}
    for path, v, s in src:
        by.setdefault(path, {})[v] = s
    bad = 0
    for path, got in by.items():
        vs = sorted(got)
        for v, w in zip(vs, addr2line(names.hosts[path], vs)):
            g = got[v]
            checked_src += 1
            inlined += ' inlined into ' in w
            if g != w:
                bad += 1
                if bad <= 5:
                    fail('script: %s 0x%x at %s, addr2line says %s' %
                         (path, v, g, w))
    if not bad and checked_src:
        print('PASS script -F +srcline: the %d distinct addresses in %s at '
              'the file:line addr2line -i gives (%d in inlined code, with '
              'the calls they are inlined into)' %
              (checked_src, ' and '.join(sorted(progs)), inlined))
    elif not checked_src:
        fail('script -F +srcline: no address in the programs checked')


def parse_calls(out):
    """{pid: [(depth, kind, name)]}: kind call, or before (a return
    from a function entered before tracing)."""
    per, open_ = {}, {}
    for line in out.splitlines()[1:]:
        m = CALLS.match(line)
        if not m:
            fail('calls: not a tree line: %r' % line)
            continue
        pid, depth, text = int(m.group(2)), len(m.group(3)) // 2, m.group(4)
        st = open_.setdefault(pid, [])
        lst = per.setdefault(pid, [])
        if text.endswith('() {'):
            lst.append((depth, 'call', text[:-4]))
            st.append((depth, text[:-4]))
        elif text.endswith('();'):
            lst.append((depth, 'call', text[:-3]))
        elif text.startswith('} /* ') and text.endswith(' */'):
            name = text[5:-3]
            if st and st[-1] == (depth, name):
                st.pop()
            else:
                lst.append((depth, 'before', name))
        else:
            fail('calls: not a tree line: %r' % line)
    return per


def check_calls(tool, fs, cap, names, recs, call_len):
    rc, out, err = run(tool, 'calls', '--symfs', fs, cap)
    if rc != 0:
        fail('calls: exit %d: %s' % (rc, err[:300]))
        return 0
    got = parse_calls(out)
    ncalls = 0
    for pid in names.takes:
        mine = [(s, k, f, t) for s, c, p, k, f, t in recs if p == pid]
        frm_of = {s: f for s, k, f, t in mine}
        want, _ = calls_check.walk(mine, call_len)
        exp = []
        for seq, d, before, to, frm in want:
            if before:
                w = names.want(pid, frm_of[seq])[0]
                exp.append((d, 'before', {n.split('+')[0] for n in w}
                            if w != {'[unknown]'} else None))
            else:
                exp.append((d - 1, 'call', names.func(pid, to)))
                ncalls += 1
        g = got.get(pid, [])
        bad = len(g) != len(exp)
        for i, (x, y) in enumerate(zip(g, exp)):
            if x[0] != y[0] or x[1] != y[1] or \
                    (y[2] is not None and x[2] not in y[2]):
                bad = True
                fail('calls: pid %d line %d: %s, want %s' % (pid, i, x, y))
                break
        if bad:
            fail('calls: pid %d: %d lines, the records make %d' %
                 (pid, len(g), len(exp)))
        else:
            print('PASS calls: pid %d (%s): the %d lines are the tree the '
                  'records make (calls_check.walk)' %
                  (pid, names.takes[pid][0], len(exp)))
    return ncalls


def check_chrome(tool, fs, cap, names, ncalls):
    rc, out, err = run(tool, 'chrome', '--symfs', fs, cap)
    try:
        doc = json.loads(out)
    except ValueError as e:
        fail('chrome: not JSON: %s' % e)
        return
    ev = doc['traceEvents']
    meta = {(e['name'], e['pid'], e['tid']) for e in ev if e['ph'] == 'M'}
    slices = [e for e in ev if e['ph'] == 'X']
    bad = 0
    for pid, (comm, tgid, _) in names.takes.items():
        if ('thread_name', tgid, pid) not in meta or \
                ('process_name', tgid, tgid) not in meta:
            fail('chrome: no thread or process name for %d' % pid)
        st = []
        # in whole ns: ts and dur are microseconds with three decimals,
        # and a parent and a child often end at the same record
        for e in sorted((e for e in slices if e['tid'] == pid),
                        key=lambda e: (e['ts'], -e['dur'])):
            ts, dur = round(e['ts'] * 1000), round(e['dur'] * 1000)
            end = ts + dur
            while st and st[-1] <= ts:
                st.pop()
            if dur <= 0 or (st and end > st[-1]):
                bad += 1
                if bad <= 3:
                    fail('chrome: slice %s overlaps its parent' % e)
            st.append(end)
    if len(slices) != ncalls:
        fail('chrome: %d slices for %d calls' % (len(slices), ncalls))
    elif rc == 0 and not bad:
        print('PASS chrome: valid JSON, %d slices (one per call), every one '
              'inside its parent, process and thread names' % len(slices))


def check_folded(tool, fs, cap, names, recs):
    rc, out, err = run(tool, 'folded', '--symfs', fs, cap)
    total, comms = 0, {c for c, _, _ in names.takes.values()}
    for line in out.splitlines():
        stack, _, n = line.rpartition(' ')
        total += int(n)
        if stack.split(';')[0] not in comms or len(stack.split(';')) < 2:
            fail('folded: %r does not start with a thread name' % line)
            return
    if rc or total != len(recs):
        fail('folded: exit %d, counts add up to %d, %d records' %
             (rc, total, len(recs)))
    else:
        print('PASS folded: %d stacks, counts adding up to the %d records'
              % (len(out.splitlines()), len(recs)))


def check_viewer(tool, fs, cap, names, html, tmp):
    """speedscope loads the JSON the way its own command line hands a
    file to the page (speedscope.loadFileFromBase64 in a script named by
    #localProfilePath); chromium prints the page it made. A file it
    cannot read stops at an alert, and the page never comes."""
    import base64
    rc, out, err = run(tool, 'chrome', '--symfs', fs, cap)
    js = os.path.join(tmp, 'profile.js')
    with open(js, 'w') as f:
        f.write('speedscope.loadFileFromBase64("capture.json", "%s")' %
                base64.b64encode(out.encode()).decode())
    try:
        dom = subprocess.run(
            ['chromium', '--headless', '--no-sandbox', '--disable-gpu',
             '--virtual-time-budget=20000', '--dump-dom',
             'file://%s#localProfilePath=%s' % (html, js)],
            capture_output=True, text=True, timeout=120).stdout
    except subprocess.TimeoutExpired:
        dom = ''
    pids = []
    for r in load(cap)[2]:
        if r[2] not in pids:
            pids.append(r[2])
    want = ['%s (pid %d), %s (tid %d)' % (names.takes[p][0],
                                            names.takes[p][1],
                                            names.takes[p][0], p)
            for p in pids]
    want += ['(1/%d)' % len(pids), '<title>capture.json - speedscope</title>']
    missing = [w for w in want if w not in dom]
    if rc or missing:
        fail('viewer: speedscope in headless chromium shows no %s (%d bytes '
             'of page)' % (missing, len(dom)))
    else:
        print('PASS viewer: speedscope (headless chromium) loads the chrome '
              'output: %d thread profiles, named %s' %
              (len(pids), ' and '.join('"%s"' % w for w in want[:len(pids)])))


def check_text(tool, cap, text):
    rc, out, err = run(tool, 'text', cap)
    with open(cap, 'rb') as f:
        head = f.readline().decode()
    with open(text) as f:
        want = f.read()
    if rc != 0 or err or out != want or not head.startswith('itrace-capture 3'):
        fail('text: exit %d, stderr %r; the host\'s text of the capture '
             '(%s) is%s the guest\'s' % (rc, err.strip(), head.strip(),
                                         '' if out == want else ' not'))
    else:
        print('PASS text: the host\'s itrace-dump makes of the binary capture '
              '(%d records) the text the guest\'s did, byte for byte' %
              sum(1 for l in want.splitlines() if l[:1].isdigit()))


# objdump's extended mnemonics that capstone 4 spells by the base
# instruction (or its prefix away), as (objdump, capstone)
ALIASES = {('data16', 'nop'), ('srdi', 'rldicl'), ('sldi', 'rldicr'),
           ('clrrdi', 'rldicr'), ('clrldi', 'rldicl'), ('rotldi', 'rldicl'),
           ('clrrwi', 'rlwinm'), ('clrlwi', 'rlwinm'), ('slwi', 'rlwinm'),
           ('srwi', 'rlwinm'), ('rotlwi', 'rlwinm'), ('mftb', 'mfspr'),
           ('bcl', 'bdnzl'), ('cntlzw', 'cntlz')}
# POWER ISA 3.0 and 3.1 instructions capstone 4 (Debian 12's) does not
# decode: "(unknown)"
NEWER = {'lxv', 'stxv', 'lxvx', 'stxvx', 'lxsd', 'stxsd', 'lxssp', 'stxssp',
         'vctzlsbb', 'vclzlsbb', 'scv', 'darn', 'addpcis', 'cnttzd', 'cnttzw',
         'cmpeqb', 'setb', 'maddld', 'maddhd', 'maddhdu', 'modsd', 'modud',
         'modsw', 'moduw', 'extswsli', 'lxvb16x', 'stxvb16x', 'xxbrd',
         'xxbrw', 'mtvsrdd', 'mfvsrld', 'vcmpnezb.', 'vcmpneb.', 'lxvl',
         'lxvll', 'stxvl', 'stxvll', 'xxspltib', 'brh', 'brw', 'brd', 'pld',
         'pstd', 'paddi', 'plwz', 'pla', 'setbc', 'setbcr', 'setnbc'}


def objdump(path, vaddrs, arch):
    """{vaddr: (bytes, mnemonic)} of the instructions objdump -d finds
    from the least of @vaddrs to the greatest (Intel syntax on x86)"""
    args = [TOOLS + 'objdump', '-d', '-w', '--start-address=0x%x' %
            min(vaddrs), '--stop-address=0x%x' % (max(vaddrs) + 16), path]
    if arch == 'x86_64':
        args[2:2] = ['-M', 'intel']
    out = {}
    for line in subprocess.run(args, capture_output=True, text=True,
                               check=True).stdout.splitlines():
        m = re.match(r'^ *([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$', line)
        if m:
            out[int(m.group(1), 16)] = (m.group(2).split(),
                                        (m.group(3) or '?').split()[0])
    return out


def check_code(tool, fs, cap, names, recs, arch):
    """script -F +insn,+disasm: at every record's from address, the
    bytes objdump -d shows there, exactly, and its mnemonic (capstone's
    text), but for ALIASES and, on POWER, the NEWER instructions
    capstone 4 does not know"""
    rc, out, err = run(tool, 'script', '-F', '+insn,+disasm', '--symfs', fs,
                       cap)
    lines = out.splitlines()
    need = {}
    for r in recs:
        w = names.where(r[2], r[4])
        if w and w[0] in names.images:
            need.setdefault(w[0], set()).add(
                names.images[w[0]].vaddr(w[1]))
    dis = {p: objdump(names.hosts[p], vs, arch) for p, vs in need.items()}
    bad, alias, newer, n = [], 0, 0, 0
    for r, line in zip(recs, lines):
        w = names.where(r[2], r[4])
        m = re.search(r' ilen: (\d+)(?: insn: ([0-9a-f ]+?))?  (\S+)', line)
        if not w or w[0] not in dis:
            continue
        n += 1
        ob, om = dis[w[0]].get(names.images[w[0]].vaddr(w[1]), (None, None))
        cb = m.group(2).split() if m and m.group(2) else []
        cm = m.group(3) if m else None
        if ob != cb or not m or int(m.group(1)) != len(cb):
            bad.append('#%d bytes %s, objdump %s' % (r[0], cb, ob))
        elif cm == om:
            pass
        elif (om, cm) in ALIASES:
            alias += 1
        elif arch == 'ppc64le' and cm == '(unknown)' and om in NEWER:
            newer += 1
        else:
            bad.append('#%d %s, objdump %s' % (r[0], cm, om))
    if rc or err.strip() or len(lines) != len(recs) or bad or n < 1000:
        fail('insn/disasm: exit %d, %d lines for %d records (%d in files), '
             '%d differ from objdump: %s' % (rc, len(lines), len(recs), n,
                                              len(bad), bad[:5]))
    else:
        print('PASS script -F +insn,+disasm: the %d records\' from '
              'instructions, the bytes objdump -d shows, the same mnemonic '
              '(%d an alias of it, %d POWER9/10 ones capstone 4 does not '
              'know)' % (n, alias, newer))


GDB = {'x86_64': 'gdb', 'ppc64le': 'gdb-multiarch'}


def collapse(names):
    out = []
    for n in names:
        if not out or out[-1] != n:
            out.append(n)
    return out


def gdb_run(tool, fs, cap, pid, arch, more):
    cmds = ['set sysroot ' + fs, 'set pagination off',
            'target remote | %s gdb --symfs %s %s %d' % (tool, fs, cap, pid),
            'info record', 'record function-call-history /c 1,1000000',
            'record instruction-history /m', 'reverse-stepi', 'print/x $pc'] \
        + more
    args = [GDB[arch], '-batch', '-nx']
    for c in cmds:
        args += ['-ex', c]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def check_gdb(tool, fs, cap, names, recs, arch):
    """gdb (Debian's 13; gdb-multiarch for ppc64le) on `itrace-dump gdb`,
    each thread of the capture: info record counts the thread's records
    whose instruction a file holds, and each block of the trace that
    starts where no file holds the code (the vDSO) as a gap, which gdb
    numbers as two instructions; its
    function-call-history goes through the program's functions in the
    order the records do (nm's names; every other function, and gaps,
    one '*'); instruction-history ends with the last ten records' from
    addresses; reverse-stepi goes to the last
    record's from; on x86_64, for the static program, reverse-finish to
    the call that entered the function it is in, and the calls of its
    function-call-history /c (a segment indented deeper than the one
    before) the calls of itrace-dump's `calls` tree, kdb-itrace's own
    walker, name for name and depth for depth (gdb's btrace knows calls
    and returns on x86 alone)."""
    for pid in sorted({r[2] for r in recs}):
        mine = [r for r in recs if r[2] == pid]
        prog = names.takes[pid][2][0][3]
        # the program's FUNC symbols (gdb names no linker stub)
        own = {x[2] for x in names.images[prog].funcs}
        static = all(m[3] == prog for m in names.takes[pid][2])
        def held(a):
            w = names.where(pid, a)
            return bool(w and w[0] in names.images)
        # the stub's blocks (gdb.c): each starts at the first record's
        # from or at a branch's target; one no file holds is a gap
        starts = [mine[0][4]] + [r[5] for r in mine
                                 if r[3] not in ('insn', 'jcc-nt', 'syscall',
                                                 'int')]
        gaps = sum(1 for a in starts if not held(a))
        nheld = sum(1 for r in mine if held(r[4]))
        more = []
        back = None
        if arch == 'x86_64' and static:
            depth = 0
            for r in reversed(mine):
                if r[3] == 'ret':
                    depth += 1
                elif r[3] in ('call', 'icall'):
                    if not depth:
                        back = r[4]
                        break
                    depth -= 1
            more = ['reverse-finish', 'print/x $pc']
        rc, out = gdb_run(tool, fs, cap, pid, arch, more)
        bad = []
        m = re.search(r'Recorded (\d+) instructions in (\d+) functions '
                      r'\((\d+) gaps\) for thread 1 \(Thread %d\)' % pid,
                      out)
        if not m or int(m.group(1)) != nheld + 2 * gaps or \
                int(m.group(3)) != gaps:
            bad.append('info record: %s, want %d instructions, %d gaps' %
                       (m.group(0) if m else None, nheld + 2 * gaps, gaps))
        hist = re.findall(r'^\d+\t *(\S+)$', out, re.M)
        want = collapse([min(names.func(pid, r[4])).split('+')[0]
                         if names.where(pid, r[4]) and
                         names.where(pid, r[4])[0] == prog else '*'
                         for r in mine])
        want = collapse([w if w in own else '*' for w in want])
        got = collapse([h if h in own else '*' for h in hist])
        if got != want:
            i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                     min(len(got), len(want)))
            bad.append('function-call-history: from segment %d %s, want %s' %
                       (i, got[i:i + 6], want[i:i + 6]))
        insns = [int(a, 16) for a in re.findall(
            r'^\d+\t +(0x[0-9a-f]+)', out, re.M)]
        if insns != [r[4] for r in mine[-10:]]:
            bad.append('instruction-history: %s, want %s' % (
                [hex(a) for a in insns], [hex(r[4]) for r in mine[-10:]]))
        pcs = [int(a, 16) for a in re.findall(r'^\$\d+ = (0x[0-9a-f]+)',
                                              out, re.M)]
        if pcs[:1] != [mine[-1][4]]:
            bad.append('reverse-stepi: pc %s, want 0x%x' % (
                [hex(a) for a in pcs], mine[-1][4]))
        if more and (back is None or pcs[1:2] != [back]):
            bad.append('reverse-finish: pc %s, want %s' % (
                [hex(a) for a in pcs[1:]], back and hex(back)))
        ncalls = None
        if more:
            segs = [(len(i) // 2, n) for i, n in
                    re.findall(r'^\d+\t( *)(\S+)$', out, re.M)]
            gcalls = [b for a, b in zip(segs, segs[1:]) if b[0] > a[0]]
            trc, tout, _ = run(tool, 'calls', '--symfs', fs, cap)
            tcalls = [(d, n) for d, k, n in parse_calls(tout).get(pid, [])
                      if k == 'call']
            norm = [[(d - min(x[0] for x in c), n) for d, n in c]
                    if c else [] for c in (gcalls, tcalls)]
            ncalls = len(tcalls)
            if trc or not tcalls or norm[0] != norm[1]:
                bad.append('function-call-history /c calls %s, the calls '
                           'tree\'s %s' % (norm[0][:8], norm[1][:8]))
        if rc or bad:
            fail('gdb, thread %d: exit %d, %s' % (pid, rc, '; '.join(bad)))
        else:
            print('PASS gdb, thread %d (%s): info record %s instructions, '
                  '%d function segments in the records\' order, '
                  'instruction-history and reverse-stepi at the records\' '
                  'addresses%s' % (pid, os.path.basename(prog), m.group(1),
                                   len(hist), ', reverse-finish to the '
                                   'call at 0x%x, its %d calls those of the '
                                   'calls tree' % (back, ncalls)
                                   if more else ''))


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def check_debuginfod(tool, tmp, fs, cap, names):
    """Stripped programs (objcopy --strip-all: no symbols, no DWARF),
    their debug files served by a local debuginfod (Debian's package):
    with DEBUGINFOD_URLS naming it, script -F +srcline must print what
    it prints with the unstripped files, line for line; without, the
    programs' addresses print [unknown]."""
    import time
    srv = tempfile.mkdtemp(dir=tmp)
    sfs = symfs(tmp, names, strip=srv)
    port = free_port()
    env = dict(os.environ, DEBUGINFOD_URLS='http://127.0.0.1:%d' % port,
               DEBUGINFOD_CACHE_PATH=os.path.join(tmp, 'dcache'),
               DEBUGINFOD_TIMEOUT='10')
    log = open(os.path.join(tmp, 'debuginfod.log'), 'w')
    d = subprocess.Popen(['debuginfod', '-F', '-p', str(port), '-d',
                          os.path.join(tmp, 'dbgi.sqlite'), srv],
                         stdout=log, stderr=subprocess.STDOUT)
    try:
        bids = set()
        for path in names.hosts:
            if path.startswith('/bin/'):
                out = subprocess.run([TOOLS + 'readelf', '-n',
                                      names.hosts[path]],
                                     capture_output=True, text=True).stdout
                bids.add(re.search(r'Build ID: (\S+)', out).group(1))
        # indexed yet? (the server scans its directory after starting;
        # each probe its own client cache: the client remembers a miss)
        for _ in range(100):
            probe = dict(env, DEBUGINFOD_CACHE_PATH=tempfile.mkdtemp(dir=tmp))
            got = [subprocess.run(['debuginfod-find', 'debuginfo', b],
                                  env=probe, capture_output=True).returncode
                   for b in bids]
            if not any(got):
                break
            time.sleep(0.2)
        want = run(tool, 'script', '-F', '+srcline', '--symfs', fs, cap)
        p = subprocess.run([tool, 'script', '-F', '+srcline', '--symfs', sfs,
                            cap], env=env, capture_output=True, text=True)
        plain = dict(os.environ)
        plain.pop('DEBUGINFOD_URLS', None)
        q = subprocess.run([tool, 'script', '--symfs', sfs, cap], env=plain,
                           capture_output=True, text=True)
    finally:
        d.terminate()
        d.wait()
        log.close()
    progs = [l for l in q.stdout.splitlines() if '(/bin/' in l]
    raw = all(re.search(r'\[unknown\] \(/bin/', l) for l in progs)
    if p.returncode or p.stdout != want[1] or not want[1] or q.returncode \
            or not progs or not raw or any(got):
        fail('debuginfod: exit %d, %s the unstripped output (%d of %d lines '
             'differ); without it: exit %d, %d lines of the programs, all '
             '[unknown]: %s; debuginfod-find: %s; stderr %r' % (
                 p.returncode, 'same as' if p.stdout == want[1] else 'not',
                 sum(a != b for a, b in zip(p.stdout.splitlines(),
                                            want[1].splitlines())),
                 len(want[1].splitlines()), q.returncode, len(progs), raw,
                 got, p.stderr[:300]))
    else:
        print('PASS debuginfod: stripped programs, their debug files from a '
              'local debuginfod (%d build-ids): script -F +srcline prints '
              'what the unstripped files give, all %d lines; without '
              'DEBUGINFOD_URLS their addresses print [unknown]' %
              (len(bids), len(want[1].splitlines())))


def check_changed(tool, tmp, cap, names):
    progs = sorted(os.path.basename(p) for p in names.hosts
                   if p.startswith('/bin/'))
    other = names.hosts[next(p for p in names.hosts
                             if os.path.basename(p) == progs[1])]
    fs = symfs(tmp, names, skip=(progs[1],), swap=(progs[0], other))
    rc, out, err = run(tool, 'script', '--symfs', fs, cap)
    errs = err.strip().splitlines()
    want = ['itrace-dump: %s/bin/%s: build-id differs from the capture\'s '
            '(changed since?); its addresses print raw' % (fs, progs[0]),
            'itrace-dump: %s/bin/%s: not found; its addresses print raw'
            % (fs, progs[1])]
    raw = {p: all('[unknown] (/bin/%s)' % p in l for l in out.splitlines()
                  if ' (/bin/%s) =>' % p in l) for p in progs}
    libc = any('(%s)' % p in out for p in names.hosts if 'libc' in p)
    if rc != 0 or sorted(errs) != sorted(want) or not all(raw.values()) \
            or not libc:
        fail('changed/missing: exit %d, stderr %s (want %s), raw %s, libc '
             'named %s' % (rc, errs, want, raw, libc))
    else:
        print('PASS a changed %s and a missing %s: named once each, their '
              'addresses [unknown], libc still named' % tuple(progs))


def main():
    args, html = sys.argv[1:], None
    if args[:1] == ['--viewer']:
        html, args = args[1], args[2:]
    if len(args) != 4:
        sys.exit(__doc__)
    tool, bdir, cap, text = args[0], os.path.abspath(args[1]), args[2], \
        args[3]
    check_text(tool, cap, text)
    arch, takes, recs = load(text)
    names = Names(bdir, takes)
    progs = {os.path.basename(p) for p in names.hosts if p.startswith('/bin/')}
    tmp = tempfile.mkdtemp()
    try:
        fs = symfs(tmp, names)
        check_script(tool, fs, cap, names, recs, progs)
        check_code(tool, fs, cap, names, recs, arch)
        n = check_calls(tool, fs, cap, names, recs,
                        calls_check.CALL_LEN[arch])
        check_chrome(tool, fs, cap, names, n)
        check_folded(tool, fs, cap, names, recs)
        check_changed(tool, tmp, cap, names)
        check_debuginfod(tool, tmp, fs, cap, names)
        check_gdb(tool, fs, cap, names, recs, arch)
        if html:
            check_viewer(tool, fs, cap, names, html, tmp)
    finally:
        shutil.rmtree(tmp)
    return 1 if sym_check.FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
