# SPDX-License-Identifier: GPL-2.0
"""The part of the objdump checkers (x86_objdump_check.py,
ppc_objdump_check.py) that is the same for both arches: the log's kind
names from the library's kind.h, and objdump -d's listing read into
runs of instructions."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
KIND_H = os.path.join(HERE, "..", "..", "kdb-itrace", "lib", "kind.h")
LINE_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$")


def load_kinds():
    """enum itrace_kind names in order, straight from kind.h."""
    with open(KIND_H) as f:
        text = f.read()
    body = text[text.index("enum itrace_kind"):]
    body = body[body.index("{") + 1:body.index("}")]
    names = re.findall(r"\b(ITRACE_K_[A-Z0-9_]+)", body)
    return {n[len("ITRACE_K_"):]: i for i, n in enumerate(names)}


class Insn:
    """One instruction of the listing; also reads as (addr, data, text)."""
    __slots__ = ("addr", "data", "text")

    def __init__(self, addr, data, text):
        self.addr = addr
        self.data = data
        self.text = text

    def __iter__(self):
        return iter((self.addr, self.data, self.text))

    def __getitem__(self, i):
        return (self.addr, self.data, self.text)[i]


def parse_listing(stream):
    """Yield (unit, section, [Insn...]) per contiguous run of a code
    section. A line with bytes but no text continues the previous
    instruction's bytes (objdump without -w)."""
    unit = ""
    section = ""
    insns = []
    for line in stream:
        if line.startswith("Disassembly of section "):
            if insns:
                yield unit, section, insns
            insns = []
            section = line[len("Disassembly of section "):]
            section = section.rstrip().rstrip(":")
            continue
        m = LINE_RE.match(line)
        if not m:
            if ":     file format " in line:
                if insns:
                    yield unit, section, insns
                insns = []
                unit = line.split(":")[0]
            continue
        addr = int(m.group(1), 16)
        data = bytes.fromhex(m.group(2))
        text = (m.group(3) or "").strip()
        if insns and not text:
            last = insns[-1]
            if addr == last.addr + len(last.data):
                last.data += data
                continue
        if insns and addr != insns[-1].addr + len(insns[-1].data):
            yield unit, section, insns
            insns = []
        insns.append(Insn(addr, data, text))
    if insns:
        yield unit, section, insns
