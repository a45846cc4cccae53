#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the symbolized `itrace log` against the binaries' own symbols.

Every record of SYM_LOG (the symbolized log) is matched by seq with the
same record of RAW_LOG (`itrace log -r`, taken at the same kdb stop), and
each of its two addresses must read exactly as the formatter promises:
  function+0xoff            in the program (the mapping named PROG)
  mapping:function+0xoff    in a shared object
  mapping+0xfileoff         where no function symbol covers the address
  0xaddr                    outside every executable mapping
The function is the one readelf's symbol table (.symtab, else .dynsym:
FUNC and IFUNC, defined, in a PT_LOAD) places the address in: of the
symbols covering it, the nearest start, and of aliases there the name
with the fewest leading underscores. MAPS is the task's /proc/PID/maps;
shared objects are looked up by name in LIBDIR, the vDSO as "[vdso]"
there (the kernel's vdso64.so, as the guest maps it). With STATUS (`itrace
status` output), each image's "N functions" must be the number of
function symbols of that table.

Prints PASS/FAIL lines (counted by tests/run-all.sh); exit status 1 on
any FAIL.

usage: sym_check.py [--status STATUS] PROG=PATH LIBDIR MAPS RAW_LOG SYM_LOG
"""
import os
import re
import subprocess
import sys

import rawlog

SYM = re.compile(r'^ *(\d+) +(\d+) +(\d+) +([a-z-]+) +(\S+) +(\S+)(?:  .*)?$')
MAP = re.compile(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) ([0-9a-f]+) \S+ \d+\s*(.*)$')
STATUS = re.compile(r'^itrace: syms (\S+): (\d+) functions from (\S+),')
# readelf -sW: Num: Value Size Type Bind Vis [ppc64: <localentry>: N] Ndx Name
SYMBOL = re.compile(r'^ *\d+: ([0-9a-f]+) +(\S+) (\w+) +\w+ +\w+ +'
                    r'(?:\[[^]]*\] +)?(\S+) (\S+)')
FN_SHOWN = 48            # format.h: ITRACE_FN_SHOWN
FAILED = []


def fail(msg):
    FAILED.append(msg)
    print('FAIL ' + msg)


def readelf(args, path):
    tool = os.environ.get('READELF', 'readelf')
    return subprocess.run([tool] + args + [path], check=True,
                          capture_output=True, text=True).stdout


class Image:
    """One ELF file: its PT_LOADs and function symbols, as elfsym.c
    reads them."""

    def __init__(self, path):
        self.loads = []
        for line in readelf(['-lW'], path).splitlines():
            f = line.split()
            if f and f[0] == 'LOAD':
                self.loads.append((int(f[1], 16), int(f[2], 16),
                                   int(f[4], 16)))   # offset, vaddr, filesz
        tables = {}
        cur = None
        for line in readelf(['-sW'], path).splitlines():
            m = re.match(r"^Symbol table '(\.\w+)'", line)
            if m:
                cur = tables.setdefault(m.group(1), [])
                continue
            m = SYMBOL.match(line)
            if cur is None or not m:
                continue
            value, size, typ, ndx, name = m.groups()
            if typ not in ('FUNC', 'IFUNC') or not ndx.isdigit():
                continue
            value, size = int(value, 16), int(size, 0)
            name = name.split('@')[0]
            if self.file_off(value) is None:
                continue
            cur.append((value, size, name))
        self.source = '.symtab' if '.symtab' in tables else (
            '.dynsym' if '.dynsym' in tables else None)
        self.funcs = tables.get(self.source, [])

    def file_off(self, v):
        for off, vaddr, filesz in self.loads:
            if vaddr <= v < vaddr + filesz:
                return v - vaddr + off
        return None

    def vaddr(self, off):
        for o, vaddr, filesz in self.loads:
            if o <= off < o + filesz:
                return off - o + vaddr
        return None

    def names_at(self, off):
        """(start, {acceptable names}) of the function at file offset
        @off, or None."""
        v = self.vaddr(off)
        if v is None:
            return None
        cover = [s for s in self.funcs
                 if (v - s[0] < s[1] if s[1] else v == s[0]) and v >= s[0]]
        if not cover:
            return None
        start = max(s[0] for s in cover)
        at = [s[2] for s in cover if s[0] == start]
        least = min(len(n) - len(n.lstrip('_')) for n in at)
        return start, v, {n for n in at if len(n) - len(n.lstrip('_')) == least}


def clean(s, n):
    return ''.join(c if ' ' <= c <= '~' else '?' for c in s[:n])


def expected(addr, maps, prog, images):
    """The set of texts the formatter may print for @addr."""
    for start, end, off, path in maps:
        if not start <= addr < end:
            continue
        name = clean(os.path.basename(path) if path else '[anon]', 24)
        foff = addr - start + off
        img = images.get(path)
        hit = img.names_at(foff) if img else None
        if not hit:
            return {'%s+0x%x' % (name, foff)}, None
        fstart, v, names = hit
        pre = '' if path == prog else name + ':'
        return {'%s%s+0x%x' % (pre, clean(n, FN_SHOWN), v - fstart)
                for n in names}, sorted(names)[0]
    return {'0x%x' % addr}, None


def load_maps(maps_f, prog_name, prog_path, libdir):
    """The executable mappings of MAPS as (start, end, offset, path), the
    Image of each file (PROG from prog_path, the others from libdir) and
    the program's guest path (None, after a FAIL, if it is not mapped)."""
    maps, images = [], {}
    for line in open(maps_f):
        m = MAP.match(line.strip())
        if not m or 'x' not in m.group(3):
            continue
        path = m.group(5).strip()
        maps.append((int(m.group(1), 16), int(m.group(2), 16),
                     int(m.group(4), 16), path))
        base = os.path.basename(path)
        if path in images or not (path.startswith('/') or path == '[vdso]'):
            continue
        host = prog_path if base == prog_name else os.path.join(libdir, base)
        if not os.path.exists(host):
            fail('%s: mapped in the guest, no copy at %s' % (path, host))
            continue
        images[path] = Image(host)
    prog = next((p for *_, p in maps if os.path.basename(p) == prog_name),
                None)
    if prog is None:
        fail('%s is not mapped in %s' % (prog_name, maps_f))
    return maps, images, prog


def main():
    args = sys.argv[1:]
    status = None
    if args[:1] == ['--status']:
        status, args = args[1], args[2:]
    if len(args) != 5 or '=' not in args[0]:
        sys.exit(__doc__)
    prog_name, prog_path = args[0].split('=', 1)
    libdir, maps_f, raw_f, sym_f = args[1:]

    maps, images, prog = load_maps(maps_f, prog_name, prog_path, libdir)
    if prog is None:
        return 1

    raw = {r.seq: (r.frm, r.to) for r in rawlog.read(raw_f)}
    n = bad = 0
    where = {}
    for line in open(sym_f):
        m = SYM.match(line.rstrip())
        if not m:
            continue
        seq = int(m.group(1))
        if seq not in raw:
            fail('symbolized record %d is not in the raw log' % seq)
            continue
        n += 1
        for text, addr in zip((m.group(5), m.group(6)), raw[seq]):
            want, fn = expected(addr, maps, prog, images)
            if text not in want:
                bad += 1
                if bad <= 10:
                    fail('record %d: 0x%x printed as %s, want %s' %
                         (seq, addr, text, ' or '.join(sorted(want))))
            key = text.split('+')[0]
            where[key] = where.get(key, 0) + 1 if fn else where.get(key, 0)
    if n == 0 or n != len(raw):
        fail('%d symbolized records for %d raw ones' % (n, len(raw)))
    named = sorted(k for k, v in where.items() if v)
    if not bad and n:
        print('PASS every symbolized address of %d records reads as the '
              'binaries place it (%d functions named: %s)' %
              (n, len(named), ' '.join(named[:12]) +
               (' ...' if len(named) > 12 else '')))

    if status is not None:
        seen = {}
        for line in open(status):
            m = STATUS.match(line.strip())
            if m:
                seen[m.group(1)] = (int(m.group(2)), m.group(3))
        for path, img in sorted(images.items()):
            name = clean(os.path.basename(path), 23)
            want = (len(img.funcs), img.source)
            if img.source is None:
                continue
            if seen.get(name) != want:
                fail('status: syms %s: %s, want %d functions from %s' %
                     (name, seen.get(name), *want))
            else:
                print('PASS status: %s: %d functions from %s, as readelf '
                      'counts them' % (name, *want))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
