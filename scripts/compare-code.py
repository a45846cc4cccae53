#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare-code.py [--objdump CMD] OLD.ko NEW.ko: the machine code of two
builds of the module, function by function, for a change that should
not change behaviour (files moved, headers split): which functions are
new, gone, or differ, and the .text sizes.

Each function's disassembly (objdump -d -r, every code section: .text,
.text.unlikely, .init.text, .exit.text) is compared with what moves
when code moves taken out: the addresses in front of each line and
before a <symbol+offset> operand, and the addends of relocations (a
string's or a static's offset in its section changes when the link
order does). Instructions, registers, immediates, the symbols called
and the relocation types stay. A function whose name the compiler
suffixed (.isra, .constprop, .cold) keeps its suffix; two statics of
one name (in two files) are told apart by their order, name#2. Exit 0
when every function is in both and identical, 1 otherwise.
"""
import argparse
import re
import subprocess
import sys

LINE = re.compile(r'^\s*[0-9a-f]+:\s*(.*)$')
FUNC = re.compile(r'^[0-9a-f]+ <(.+)>:$')
ADDR_SYM = re.compile(r'\b[0-9a-f]+ (<[^>]+>)')
ADDEND = re.compile(r'([+-]0x[0-9a-f]+)$')
# raw instruction bytes, where an objdump shows them anyway
RAW = re.compile(r'^(?:[0-9a-f]{2} )+\s*')
CODE = re.compile(r'^\.(?:text(?:\..*)?|init\.text|exit\.text)$')


def code_sections(objdump, path):
    out = subprocess.run([objdump, '-h', path], check=True,
                         capture_output=True, text=True).stdout
    return [(f[1], int(f[2], 16)) for f in (l.split() for l in out.splitlines())
            if len(f) >= 3 and CODE.match(f[1])]


def functions(objdump, path):
    sections = []
    for name, _ in code_sections(objdump, path):
        sections += ['-j', name]
    out = subprocess.run([objdump, '-d', '-r', '--no-show-raw-insn']
                         + sections + [path], check=True,
                         capture_output=True, text=True).stdout
    funcs, name = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m and m.group(1).endswith('-0x8'):
            name = None	# ppc64le: the TOC word, see below
            continue
        if m:
            name, n = m.group(1), 2
            while name in funcs:
                name, n = f'{m.group(1)}#{n}', n + 1
            funcs[name] = []
            continue
        if name is None or not line.strip():
            continue
        m = LINE.match(line)
        if not m:
            continue
        text = re.sub(r'\s+', ' ', RAW.sub('', m.group(1)).strip())
        if text.startswith('R_'):
            if text.startswith('R_PPC64_REL64 .TOC.'):
                # the TOC word before the next function's global entry
                continue
            text = ADDEND.sub('', text)
            # the relocation names the target: the <symbol> objdump
            # guessed from the unrelocated field is a neighbour's
            if funcs[name]:
                funcs[name][-1] = re.sub(r' ?<[^>]+>', '', funcs[name][-1])
        else:
            # a jump inside the function keeps its <function+offset>,
            # a call to a static of the same object its <name>
            text = ADDR_SYM.sub(r'\1', text)
        funcs[name].append(text)
    return funcs


def text_size(objdump, path):
    return sum(size for _, size in code_sections(objdump, path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--objdump', default='objdump')
    ap.add_argument('old')
    ap.add_argument('new')
    a = ap.parse_args()
    old = functions(a.objdump, a.old)
    new = functions(a.objdump, a.new)
    same = differ = 0
    for name in sorted(set(old) | set(new)):
        if name not in new:
            print(f'gone: {name} ({len(old[name])} instructions)')
        elif name not in old:
            print(f'new: {name} ({len(new[name])} instructions)')
        elif old[name] != new[name]:
            print(f'differs: {name} ({len(old[name])} -> '
                  f'{len(new[name])} instructions)')
            differ += 1
        else:
            same += 1
    gone = len(set(old) - set(new))
    added = len(set(new) - set(old))
    print(f'{same} functions identical, {differ} differ, {gone} gone, '
          f'{added} new; code {text_size(a.objdump, a.old)} -> '
          f'{text_size(a.objdump, a.new)} bytes')
    return 0 if not differ and not gone and not added else 1


if __name__ == '__main__':
    sys.exit(main())
