#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
tests/host/x86_objdump_check.py - holds arch/x86/lib/insn_decode.c to objdump:
for every instruction objdump lists in an object's code sections, decode the
same section bytes at the same start and compare length and itrace kind.

Usage:
  x86_objdump_check.py --lib libx86decode.so --name NAME FILE
      [--mode 64|32] [--binary] [--synth SEED:BYTES] [--raw-text RAW]
      [--show N]

FILE is an ELF object, executable or archive (objdump -d), or with --binary
a raw byte file disassembled as one flat section (objdump -D -b binary).
--synth first writes FILE: pseudo-random instruction-shaped bytes (prefixes,
REX, escapes, VEX/EVEX/XOP headers with sane fixed bits, then random bytes)
from a fixed seed, to reach the encodings compilers never emit; implies
--binary. --raw-text RAW cross-checks the bytes rebuilt from the listing
against a raw dump of .text (objcopy -O binary --only-section=.text), so
that we know the decoder saw the real section contents.

Prints one summary line and exits 1 on any mismatch.

What counts as one instruction (the CPU's view, not objdump's layout):
  - objdump prints prefixes it cannot attach (a REX followed by a legacy
    prefix, too many prefixes) as a line of their own ("rex.W", "data16",
    "cs" ...). The CPU executes them as part of the next instruction, so a
    prefix-only line is merged into the line that follows it. But objdump
    then decodes that following line without the split-off prefixes; when
    they include one that changes length or validity (66 67 F0 F2 F3) the
    merged unit would compare the CPU's view with a different decoding, so
    there the following line is compared alone, as objdump decoded it.
  - objdump takes FWAIT (9B) for a prefix: it fuses it with a following
    x87 control instruction ("fstsw" for 9B DF E0) and with prefixes around
    it. FWAIT is an instruction of its own, so such a line is compared as
    the prefixes up to and including 9B (one FWAIT) plus the rest.
  - "(bad)" and ".byte" lines, and anything merged with them, are what
    objdump cannot decode; they are skipped and counted as "bad skipped".
    If the decoder accepts such bytes that is not a mismatch: objdump's
    tables are not the CPU's (e.g. undefined 0F 38 opcodes).
  - A merged unit longer than 15 bytes must be rejected (#GP on the CPU).

Deliberate differences, each narrow and counted as "excluded" on its own:
  - prefixed-VEX: a VEX/EVEX/XOP instruction behind 66/F0/F2/F3/REX, which
    the CPU refuses with #UD and objdump decodes ("data16 vzeroupper").
  - fwait-prefixes: objdump applied prefixes that belong to an FWAIT to the
    instruction after it, or lost the byte that ends a prefix run behind
    an FWAIT; its length for that instruction means nothing.
And one mapping: F2/F3 0F 01 CA, printed "repnz/repz clac" by binutils
before 2.41, are FRED's erets/eretu, expected as IRET.
None of these occur in busybox or libc.a; the synthetic streams hit them.
"""

import argparse
import ctypes
import os
import random
import re
import subprocess
import sys

from objdump_listing import load_kinds, parse_listing


PREFIX_WORDS = {
    "cs", "ds", "es", "ss", "fs", "gs", "data16", "data32", "addr16",
    "addr32", "lock", "rep", "repz", "repnz", "repe", "repne", "bnd",
    "notrack", "xacquire", "xrelease", "rex", "rex64",
}

JCC_RE = re.compile(
    r"^(j(n?(o|b|c|ae|e|z|be|a|s|p|l|ge|le|g|nae|nb|nbe|na|nge|nl|nle|ng)"
    r"|pe|po|cxz|ecxz|rcxz)|loop(n?[ez])?)[wlq]?$")




def is_prefix_word(tok):
    return tok in PREFIX_WORDS or tok.startswith("rex.")


def objdump_kind(text):
    """Map objdump's mnemonic onto an itrace kind name (or 'BAD')."""
    toks = text.split()
    while toks and is_prefix_word(toks[0]):
        toks.pop(0)
    if not toks:
        return "PREFIX"
    mn = toks[0].split(",")[0]      # je,pt / je,pn branch hints
    ops = " ".join(toks[1:])
    if mn == ".byte" or "(bad)" in text:
        # objdump also flags bad operands inside an otherwise named
        # instruction ("movntq %mm0,(bad)") and then reports a bogus length.
        return "BAD"
    if JCC_RE.match(mn):
        return "JCC"
    if mn in ("jmp", "jmpw", "jmpl", "jmpq"):
        return "IJMP" if ops.startswith("*") else "JMP"
    if mn in ("call", "callw", "calll", "callq"):
        return "ICALL" if ops.startswith("*") else "CALL"
    if mn in ("ret", "retw", "retl", "retq"):
        return "RET"
    if mn.startswith(("ljmp", "lcall", "lret")):
        return "FAR"
    if (mn.startswith(("iret", "sysret", "sysexit")) or
            mn in ("uiret", "eretu", "erets")):
        return "IRET"
    if mn in ("syscall", "sysenter"):
        return "SYSCALL"
    if mn == "int":
        return "SYSCALL" if ops.split(",")[0] == "$0x80" else "INT"
    if mn in ("int3", "into", "int1", "icebp"):
        return "INT"
    if re.match(r"^ud[012][wlq]?$", mn):
        return "INT"
    return "INSN"




LEGACY_PREFIXES = frozenset(b"\x26\x2e\x36\x3e\x64\x65\x66\x67\xf0\xf2\xf3")


SIZE_PREFIXES = frozenset(b"\x66\x67\xf0\xf2\xf3")


def prefix_count(data, mode):
    """Number of legacy (and, in 64-bit mode, REX) prefix bytes at data[0]."""
    i = 0
    while i < len(data) and (data[i] in LEGACY_PREFIXES or
                              (mode == 0 and 0x40 <= data[i] <= 0x4f)):
        i += 1
    return i


def prefixed_vex(data, mode):
    """True for a VEX/EVEX/XOP instruction behind a 66/F0/F2/F3/REX prefix.
    The CPU raises #UD for these (Intel SDM vol. 2 sec. 2.3.2), so the
    decoder rejects them; objdump decodes them anyway ("data16 vzeroupper").
    They never occur in compiled code; they are counted as excluded."""
    n = prefix_count(data, mode)
    if n == 0 or n + 1 >= len(data):
        return False
    if not any(b in (0x66, 0xf0, 0xf2, 0xf3) or 0x40 <= b <= 0x4f
               for b in data[:n]):
        return False
    op, nxt = data[n], data[n + 1]
    if op in (0xc4, 0xc5, 0x62):
        return mode == 0 or nxt >= 0xc0
    return op == 0x8f and (nxt & 0x38) != 0


def fred_eret(data, mode):
    """F2/F3 0F 01 CA are FRED's erets/eretu, which binutils before 2.41
    prints as "repnz clac"/"repz clac"; the decoder calls them IRET."""
    n = prefix_count(data, mode)
    return (data[n:] == b"\x0f\x01\xca" and
            any(b in (0xf2, 0xf3) for b in data[:n]))


def units_to_compare(insns, mode):
    """Turn objdump lines into (offset, length, kind name, text) as the CPU
    sees instructions; see the module docstring for the rules."""
    base = insns[0].addr
    data = b"".join(i.data for i in insns)
    pend_off = None
    pend_len = 0
    pend_text = ""
    for ins in insns:
        off = ins.addr - base
        k = objdump_kind(ins.text)
        if k == "PREFIX":
            if pend_off is None:
                pend_off, pend_len, pend_text = off, 0, ""
            pend_len += len(ins.data)
            pend_text += ins.text + " | "
            continue
        length = len(ins.data)
        text = ins.text
        if pend_off is not None:
            # objdump decodes the line after a prefix-only line as if the
            # split-off prefixes were not there. Where one of them changes
            # the length or validity (66 67 F0 F2 F3) only that objdump
            # view can be compared; otherwise compare what the CPU runs.
            if not SIZE_PREFIXES.intersection(data[pend_off:off]):
                off, length = pend_off, pend_len + length
                text = pend_text + text
            pend_off = None
        tangled = False
        while k != "BAD":
            # objdump takes FWAIT (9B) for a prefix of what follows it
            # ("fstsw" for 9B DF E0); the CPU runs it alone, with any
            # prefixes before it.
            n = prefix_count(data[off:off + length], mode)
            if n + 1 >= length or data[off + n] != 0x9b:
                break
            yield off, n + 1, "INSN", "fwait (split from: %s)" % text
            tangled |= bool(SIZE_PREFIXES.intersection(data[off:off + n]))
            off += n + 1
            length -= n + 1
        if k != "BAD" and (tangled or
                           prefix_count(data[off:off + length], mode) >= length):
            # objdump applied the prefixes before that FWAIT to what follows
            # it, or dropped the byte that ends a prefix run behind it.
            k = "EXCLUDE:fwait-prefixes"
        yield off, length, k, text
    if pend_off is not None:
        yield pend_off, pend_len, "BAD", pend_text + "<end of section>"


class Decoder:
    class Out(ctypes.Structure):
        _fields_ = [("len", ctypes.c_uint8), ("kind", ctypes.c_uint8),
                    ("rep", ctypes.c_uint8), ("has_rel", ctypes.c_uint8),
                    ("rel", ctypes.c_int32)]

    def __init__(self, lib):
        self.lib = ctypes.CDLL(lib)
        self.fn = self.lib.itrace_x86_decode
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                            ctypes.POINTER(Decoder.Out)]
        self.out = Decoder.Out()
        self.outp = ctypes.pointer(self.out)

    def section(self, data):
        buf = (ctypes.c_uint8 * max(1, len(data))).from_buffer_copy(
            data if data else b"\0")
        return buf, ctypes.addressof(buf), len(data)


def synthesize(path, seed, size, mode):
    """Write size bytes of instruction-shaped noise; see the docstring."""
    rnd = random.Random(seed)
    legacy = sorted(LEGACY_PREFIXES)
    hi = 0xc0 if mode == 1 else 0   # 32-bit VEX/EVEX need R=X=1
    out = bytearray()
    while len(out) < size:
        f = bytearray(rnd.choice(legacy)
                      for _ in range(rnd.choice((0, 0, 0, 1, 1, 2, 3))))
        if mode == 0 and rnd.random() < 0.4:
            f.append(0x40 + rnd.randrange(16))
        c = rnd.randrange(10)
        b = rnd.getrandbits
        if c == 1:
            f += b"\x0f"
        elif c == 2:
            f += b"\x0f\x38"
        elif c == 3:
            f += b"\x0f\x3a"
        elif c == 4:
            f += bytes((0xc5, b(8) | hi))
        elif c == 5:
            f += bytes((0xc4, (b(8) & 0xe0) | hi | rnd.choice((1, 2, 3)),
                        b(8)))
        elif c == 6:
            f += bytes((0x62, (b(8) & 0xf0) | hi |
                        rnd.choice((1, 2, 3, 5, 6)), b(8) | 4, b(8)))
        elif c == 7:
            f += bytes((0x8f, (b(8) & 0xe0) | rnd.choice((8, 9, 10)), b(8)))
        elif c == 8:
            f += b"\x0f\x0f"
        f += bytes(b(8) for _ in range(rnd.randrange(1, 8)))
        out += f
    with open(path, "wb") as fh:
        fh.write(out[:size])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--mode", default="64", choices=("64", "32"))
    ap.add_argument("--binary", action="store_true")
    ap.add_argument("--synth")
    ap.add_argument("--raw-text")
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("file")
    args = ap.parse_args()

    kinds = load_kinds()
    kind_names = {v: k for k, v in kinds.items()}
    mode = 0 if args.mode == "64" else 1
    if args.synth:
        seed, size = (int(x, 0) for x in args.synth.split(":"))
        synthesize(args.file, seed, size, mode)
        args.binary = True
    if args.binary:
        arch = "i386:x86-64" if mode == 0 else "i386"
        cmd = ["objdump", "-D", "-z", "-w", "-b", "binary", "-m", arch,
               args.file]
    else:
        cmd = ["objdump", "-d", "-z", "-w", args.file]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True,
                            errors="replace", bufsize=1 << 20,
                            env=dict(os.environ, LC_ALL="C"))

    dec = Decoder(args.lib)
    fn, out, outp = dec.fn, dec.out, dec.outp
    compared = len_bad = kind_bad = skipped = rejected = 0
    excluded = {}
    text_bytes = bytearray()
    shown = 0
    for unit, section, insns in parse_listing(proc.stdout):
        data = b"".join(i.data for i in insns)
        if args.raw_text and section == ".text":
            text_bytes += data
        buf, addr, size = dec.section(data)
        for off, length, k, text in units_to_compare(insns, mode):
            if k == "BAD":
                skipped += 1
                continue
            rc = fn(addr + off, size - off, mode, outp)
            if length > 15:
                # Only a merged prefix line can get here: the CPU raises
                # #GP for an instruction longer than 15 bytes.
                compared += 1
                if rc != 0:
                    continue
                len_bad += 1
                if shown < args.show:
                    shown += 1
                    print("MISMATCH %s: %d-byte insn accepted: %s [%s]" % (
                        args.name, length, data[off:off + length].hex(" "),
                        text))
                continue
            if k == "INSN" and fred_eret(data[off:off + length], mode):
                k = "IRET"
            if rc != 0 and prefixed_vex(data[off:off + length], mode):
                k = "EXCLUDE:prefixed-VEX"
            if k.startswith("EXCLUDE:"):
                why = k[len("EXCLUDE:"):]
                excluded[why] = excluded.get(why, 0) + 1
                continue
            compared += 1
            if rc == 0 and out.len == length and out.kind == kinds[k]:
                continue
            if rc != 0:
                rejected += 1
                len_bad += 1
                what = "decoder rejects"
            elif out.len != length:
                len_bad += 1
                what = "len %d vs objdump %d" % (out.len, length)
            else:
                kind_bad += 1
                what = "kind %s vs objdump %s" % (
                    kind_names.get(out.kind, out.kind), k)
            if shown < args.show:
                shown += 1
                print("MISMATCH %s %s %s @%#x: %s: %s [%s]" % (
                    args.name, unit, section, insns[0].addr + off, what,
                    data[off:off + max(length, 1)].hex(" "), text))
    if proc.wait() != 0:
        print("x86-decode: %s: objdump failed" % args.name)
        return 1

    raw_bad = 0
    if args.raw_text:
        with open(args.raw_text, "rb") as f:
            raw = f.read()
        if raw != bytes(text_bytes):
            raw_bad = 1
            print("x86-decode: %s: .text rebuilt from objdump (%d bytes) "
                  "differs from %s (%d bytes)" % (
                      args.name, len(text_bytes), args.raw_text, len(raw)))

    print("x86-decode: %s: %d insns compared, %d length mismatches, "
          "%d class mismatches, %d bad skipped%s%s" % (
              args.name, compared, len_bad, kind_bad, skipped,
              "".join(", %d %s excluded" % (n, why)
                      for why, n in sorted(excluded.items())),
              " (%d of the length mismatches are rejections)" % rejected
              if rejected else ""))
    if compared == 0:
        print("x86-decode: %s: nothing compared" % args.name)
        return 1
    return 1 if (len_bad or kind_bad or raw_bad) else 0


if __name__ == "__main__":
    sys.exit(main())
