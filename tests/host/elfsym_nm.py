#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Holds the module's ELF symbol reader (elfsym.c, through elfsym_tool)
against nm over real binaries: every function symbol nm lists (type FUNC
or GNU_IFUNC, defined, from .symtab, or from .dynsym where the file has
no .symtab) must be in the reader's table at the same address with the
same size and name, and the table must hold nothing else; the build-id
must be the one readelf -n shows (or none for both). Names longer
than the reader keeps (elfsym.h) compare by their kept prefix. Prints a
PASS/FAIL line per file for tests/run-all.sh.

usage: elfsym_nm.py TOOL NM FILE...
"""
import subprocess
import sys

NAME_MAX = 127
FUNC_TYPES = ('FUNC', '<OS specific>: 10')     # 10: STT_GNU_IFUNC


def nm_funcs(nm, path, dynamic):
    """{(value, size, name)} of nm's defined function symbols."""
    args = [nm, '-f', 'sysv', '--defined-only'] + (['-D'] if dynamic else [])
    out = subprocess.run(args + [path], capture_output=True, text=True)
    funcs = set()
    for line in out.stdout.splitlines():
        f = [x.strip() for x in line.split('|')]
        if len(f) < 7 or f[3] not in FUNC_TYPES or f[6] == '*ABS*':
            continue
        name = f[0].split('@')[0][:NAME_MAX]
        funcs.add((int(f[1], 16), int(f[4] or '0', 16), name))
    return funcs


def readelf_build_id(nm, path):
    """The GNU build-id readelf -n shows (the same binutils as NM), or 'none'."""
    readelf = nm[:-2] + 'readelf'
    out = subprocess.run([readelf, '-n', path], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.strip().startswith('Build ID:'):
            return line.split(':', 1)[1].strip()
    return 'none'


def main():
    tool, nm, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    for path in files:
        out = subprocess.run([tool, path], capture_output=True, text=True)
        lines = out.stdout.splitlines()
        if out.returncode or not lines or not lines[-1].startswith('# '):
            print(f'FAIL elfsym vs nm {path}: {out.stdout.strip()[:200]}')
            failed += 1
            continue
        summary = lines[-1].split()
        source, total, dropped = summary[2], int(summary[4]), int(summary[8])
        build_id, want_id = summary[10], readelf_build_id(nm, path)
        if build_id != want_id:
            print(f'FAIL elfsym build-id {path}: {build_id}, readelf -n: {want_id}')
            failed += 1
        else:
            print(f'PASS elfsym build-id {path}: {build_id}, as readelf -n')
        got = set()
        for line in lines[:-1]:
            v, s, n = line.split(' ', 2)
            got.add((int(v, 16), int(s, 16), n))
        want = nm_funcs(nm, path, source == 'dynsym') if source != 'none' else set()
        missing, extra = want - got, got - want
        if missing or extra or dropped or total != len(lines) - 1:
            print(f'FAIL elfsym vs nm {path} ({source}): {len(want)} from nm, '
                  f'{len(got)} read, {len(missing)} missing e.g. '
                  f'{sorted(missing)[:3]}, {len(extra)} extra e.g. '
                  f'{sorted(extra)[:3]}, {dropped} dropped')
            failed += 1
        else:
            print(f'PASS elfsym vs nm {path}: {source}, all {len(want)} '
                  f'function symbols at nm\'s address and size')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
