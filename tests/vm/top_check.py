#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks `itrace top -n 0` against the raw log read at the same kdb
stop (`itrace log -r`) and the binaries' own symbols (sym_check.py's
reading of them): every record counted once under the function its
from lies in (the symbol covering it, as the formatter names it), every
call counted under its call site with where it went, every taken jump and
branch under its edge; each table whole (-n 0), its rows in falling
order of count, and each count exact.

usage: top_check.py PROG=PATH LIBDIR MAPS RAW_LOG TOP
"""
import re
import sys

import rawlog
import sym_check as sc

HEAD = re.compile(r'^itrace: top of pid \d+: (\d+) records in the log, '
                  r'(\d+) functions$')
SITES = re.compile(r'^itrace: (\d+) calls from (\d+) call sites$')
EDGES = re.compile(r'^itrace: (\d+) taken jumps and branches over (\d+) '
                   r'edges$')
FUNC = re.compile(r'^ *(\d+) +\d+\.\d% +(.+)$')
PAIR = re.compile(r'^ *(\d+)  (\S+) -> (\S+)( \(and elsewhere\))?$')
CALLS = {'call', 'icall'}
BRANCHES = {'jcc', 'jmp', 'ijmp'}


def func_label(texts):
    """the names a function row may show for an address the formatter
    may print as any of @texts (function+0xoff, mapping+0xoff, 0xaddr)"""
    out = set()
    for t in texts:
        if t.startswith('0x'):
            out.add('(outside every mapping)')
        elif ':' not in t and t.split('+')[0] in MAPPED:
            out.add(t.split('+')[0] + ' (no symbol)')
        else:
            out.add(t.rsplit('+', 1)[0])
    return frozenset(out)


def sections(lines):
    """{name: (header match, [row lines])} of the three tables"""
    out, cur = {}, None
    for line in lines:
        for name, rx in (('func', HEAD), ('site', SITES), ('edge', EDGES)):
            m = rx.match(line)
            if m:
                cur = name
                out[cur] = (m, [])
                break
        else:
            if cur and (FUNC.match(line) or PAIR.match(line)):
                out[cur][1].append(line)
    return out


def compare(what, want, rows, parse):
    """@rows (lines) against @want {key: count}: each row's count, the
    order, and nothing left over"""
    got, bad, last = {}, [], None
    for line in rows:
        count, key = parse(line)
        if key is None:
            bad.append('row %r names nothing the log has' % line)
            continue
        if last is not None and count > last:
            bad.append('row %r out of order' % line)
        last = count
        got[key] = got.get(key, 0) + count
    for k, n in want.items():
        if got.get(k) != n:
            bad.append('%s: %s, want %d' % (sorted(k)[0] if isinstance(
                k, frozenset) else k, got.get(k), n))
    extra = set(got) - set(want)
    if extra:
        bad.append('rows not in the log: %s' % sorted(map(str, extra))[:3])
    sc.fail('top %s: %s' % (what, '; '.join(bad[:4]))) if bad else print(
        'PASS top %s: %d rows, each count exact' % (what, len(rows)))


MAPPED = set()


def main():
    if len(sys.argv) != 6 or '=' not in sys.argv[1]:
        sys.exit(__doc__)
    prog_arg, libdir, maps_f, raw_f, top_f = sys.argv[1:]
    prog_name, prog_path = prog_arg.split('=', 1)
    maps, images, prog = sc.load_maps(maps_f, prog_name, prog_path, libdir)
    if prog is None:
        return 1
    for *_, path in maps:
        MAPPED.add(sc.clean(path.rsplit('/', 1)[-1] if path else '[anon]',
                            24))
    recs = list(rawlog.read(raw_f))
    cache = {}

    def texts(addr):
        if addr not in cache:
            cache[addr] = frozenset(sc.expected(addr, maps, prog, images)[0])
        return cache[addr]

    funcs, sites, callees, edges = {}, {}, {}, {}
    for r in recs:
        k = func_label(texts(r.frm))
        funcs[k] = funcs.get(k, 0) + 1
        if r.kind in CALLS:
            k = texts(r.frm)
            sites[k] = sites.get(k, 0) + 1
            callees.setdefault(k, set()).add(texts(r.to))
        elif r.kind in BRANCHES:
            k = (texts(r.frm), texts(r.to))
            edges[k] = edges.get(k, 0) + 1

    lines = open(top_f).read().splitlines()
    sec = sections(lines)
    if set(sec) != {'func', 'site', 'edge'}:
        sc.fail('top: not the three tables: %s' % lines[:3])
        return 1
    head = sec['func'][0]
    if int(head.group(1)) != len(recs) or int(head.group(2)) != len(funcs):
        sc.fail('top: header %r, the log has %d records in %d functions'
                % (head.group(0), len(recs), len(funcs)))
    else:
        print('PASS top: header: %d records, %d functions, as the raw log'
              % (len(recs), len(funcs)))

    def func_row(line):
        m = FUNC.match(line)
        key = next((k for k in funcs if m.group(2) in k), None)
        return int(m.group(1)), key

    def site_row(line):
        """a site's row: its count, and one of its callees ("and
        elsewhere" where there were several)"""
        m = PAIR.match(line)
        key = next((k for k in sites if m.group(2) in k), None)
        if key is None or bool(m.group(4)) != (len(callees[key]) > 1) or \
                not any(m.group(3) in c for c in callees[key]):
            return int(m.group(1)), None
        return int(m.group(1)), key

    def edge_row(line):
        m = PAIR.match(line)
        key = next((k for k in edges if m.group(2) in k[0] and
                    m.group(3) in k[1]), None)
        return int(m.group(1)), key

    compare('functions', funcs, sec['func'][1], func_row)
    compare('call sites', sites, sec['site'][1], site_row)
    compare('branches', edges, sec['edge'][1], edge_row)
    return 1 if sc.FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
