#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Holds the POWER instruction classifier (arch/powerpc/lib/insn_class.c) to
objdump: for every instruction powerpc64le-linux-gnu-objdump lists in an
object's code sections, classify the same word (with the word after it,
for prefixes) and compare the itrace kind and the fields.

Usage:
  ppc_objdump_check.py --lib libppcclass.so --name NAME FILE
      [--binary] [--synth SEED:WORDS] [--raw-text RAW] [--show N] [--stats]

FILE is an ELF object, executable or archive (objdump -d), or with
--binary a raw little-endian code file, which objcopy first wraps as the
.text of FILE.o. --synth first writes FILE: a seeded stream of
instruction words biased towards the opcodes the classifier tells apart
(branches with every BO, the XL and X forms it looks at, traps, sc,
prefixes with valid and invalid suffixes), to reach the encodings compilers
never emit; implies --binary. --raw-text RAW cross-checks the bytes
rebuilt from the listing against a raw dump of .text (objcopy -O binary
--only-section=.text), so that we know the classifier saw the real
section contents. --show N lists the first N mismatches; --stats also
counts the compared instructions by kind and flags.

Prints one summary line and exits 1 on any mismatch:
  ppc-class: NAME: N insns compared, K kind mismatches, F field
  mismatches, S skipped [(details)]

What objdump's mnemonic says (the expectation):
  - kind: b/ba JMP, bl/bla CALL; bc and its extended forms (bdnz, beq,
    bgt+, bdnztla ...) JCC, or JMP when BO is 1z1zz, CALL when they link;
    the lr forms RET (ICALL when linking), the ctr and tar forms IJMP
    (ICALL); sc/scv SYSCALL; rf* IRET; tw/td/twi/tdi, their extended
    forms and trap INT; everything else INSN. A word the classifier
    rejects while objdump decodes it is a kind mismatch.
  - cond: set by a condition in the mnemonic (beq, bdnz, tweq ...), or for
    the generic bc/bclr/bcctr/bctar and tw/td/twi/tdi by the BO/TO operand
    (BO = 1z1zz or TO = 31: unconditional).
  - link: the l suffix of a branch, and scv (which sets LR).
  - target: the address objdump prints must be ip + disp, or disp with AA
    (compared on the low 32 bits there: objdump prints absolute targets
    cut to 32 bits, while the CPU, like disp, sign-extends them).
  - larx/stcx: the five lXarx and five stXcx. mnemonics; len: the number
    of bytes on objdump's line (4, or 8 for a prefixed instruction).
Field mismatches count instructions, not fields.

Skipped, not compared:
  - ".long" lines: words objdump cannot decode. A prefix word objdump
    cannot pair with its suffix also shows as ".long", and objdump then
    decodes the suffix alone, which is compared.
  - non-ISA: words objdump decodes only through its fallback to the old
    POWER and implementation-specific tables, which no Power ISA 3.x CPU
    runs: attn (POWER9 Book IV, an illegal instruction under Linux),
    POWER's dozi and rlmi (primary opcodes 9 and 22) and svc (opcode 17
    with bits 30 and 31 clear). The classifier must reject these (else a
    kind mismatch); they are counted as skipped. In real code they are
    data words (jump tables, traceback tables) in .text.
  - One mapping: svcla, POWER's name for 0x44000003 (sc with its reserved
    bit 31 set), is expected as sc.
"""

import argparse
import ctypes
import os
import random
import re
import subprocess
import sys

from objdump_listing import load_kinds, parse_listing

OBJDUMP = "powerpc64le-linux-gnu-objdump"
OBJCOPY = "powerpc64le-linux-gnu-objcopy"


CC = "lt|le|eq|ge|gt|nl|ne|ng|so|ns|un|nu"
# Extended branch mnemonics: b, then a condition (CR bit test, CTR test or
# both), then the register the target comes from, then l and a, then a hint.
EXT_BR_RE = re.compile(r"^b(dnzt|dnzf|dzt|dzf|dnz|dz|t|f|%s)?(lr|ctr|tar)?"
                       r"(l)?(a)?[+-]?$" % CC)
# The generic forms, whose first operand is BO.
GEN_BR_RE = re.compile(r"^bc(lr|ctr|tar)?(l)?(a)?[+-]?$")
TRAP_RE = re.compile(r"^t[wd](lt|le|eq|ge|gt|nl|ne|ng|llt|lle|lge|lgt|lnl|"
                     r"lng|u)?i?$")
IRET = {"rfid", "hrfid", "rfscv", "rfebb", "urfid", "rfi", "rfci", "rfmci",
        "rfdi", "rfgi"}
LARX = {"lbarx", "lharx", "lwarx", "ldarx", "lqarx"}
STCX = {"stbcx.", "sthcx.", "stwcx.", "stdcx.", "stqcx."}
NON_ISA = {"attn", "dozi", "rlmi", "rlmi.", "svc"}
TARGET_RE = re.compile(r"(?:^|,)(0x[0-9a-f]+|[0-9a-f]+)(?:\s+<[^>]*>)?$")
MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1



class Expect:
    """What objdump's line says about one instruction."""
    __slots__ = ("kind", "cond", "link", "target", "larx", "stcx")

    def __init__(self, kind, cond=0, link=0, target=None, larx=0, stcx=0):
        self.kind = kind
        self.cond = cond
        self.link = link
        self.target = target
        self.larx = larx
        self.stcx = stcx


def first_int(ops):
    return int(ops.split(",")[0].strip(), 0)


def parse_target(ops):
    m = TARGET_RE.search(ops)
    if not m:
        raise ValueError("no branch target in %r" % ops)
    return int(m.group(1), 16)


def expect_of(text):
    """Map objdump's instruction text onto an Expect, or a skip reason."""
    parts = text.split(None, 1)
    mn = parts[0]
    ops = parts[1].strip() if len(parts) > 1 else ""
    if mn == ".long" or mn == ".byte" or mn == ".short":
        return ".long"
    if mn in NON_ISA:
        return "non-ISA"
    if mn[0] == "b":
        m = GEN_BR_RE.match(mn)
        if m:
            reg, link, _ = m.groups()
            bo = first_int(ops)
            cond = 0 if (bo & 0x14) == 0x14 else 1
            link = 1 if link else 0
            if reg:
                return Expect(branch_kind(reg, link, cond), cond, link)
            return Expect(branch_kind(None, link, cond), cond, link,
                          parse_target(ops))
        m = EXT_BR_RE.match(mn)
        if m:
            cc, reg, link, _ = m.groups()
            cond = 1 if cc else 0
            link = 1 if link else 0
            if reg:
                return Expect(branch_kind(reg, link, cond), cond, link)
            return Expect(branch_kind(None, link, cond), cond, link,
                          parse_target(ops))
        return Expect("INSN")
    if mn == "sc" or mn == "svcla":
        # svcla: POWER's name for sc with its reserved bit 31 set.
        return Expect("SYSCALL")
    if mn == "scv":
        return Expect("SYSCALL", link=1)
    if mn in IRET:
        return Expect("IRET")
    if mn == "trap":
        return Expect("INT")
    m = TRAP_RE.match(mn)
    if m:
        if m.group(1):
            cond = 0 if m.group(1) == "u" else 1
        else:
            cond = 0 if first_int(ops) == 31 else 1
        return Expect("INT", cond)
    if mn in LARX:
        return Expect("INSN", larx=1)
    if mn in STCX:
        return Expect("INSN", stcx=1)
    return Expect("INSN")


def branch_kind(reg, link, cond):
    if reg is None:
        if link:
            return "CALL"
        return "JCC" if cond else "JMP"
    if link:
        return "ICALL"
    return "RET" if reg == "lr" else "IJMP"



class Out(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint8), ("cond", ctypes.c_uint8),
                ("link", ctypes.c_uint8), ("direct", ctypes.c_uint8),
                ("abs", ctypes.c_uint8), ("larx", ctypes.c_uint8),
                ("stcx", ctypes.c_uint8), ("len", ctypes.c_uint8),
                ("disp", ctypes.c_int32)]


# Words the classifier looks at closely: branch and XL forms with every BO,
# the opcode-31 X-forms it names, traps, sc, and prefixes.
XO19 = (16, 528, 560, 18, 274, 82, 146, 306, 50, 51, 38, 39, 102, 150, 0,
        33, 129, 193, 225, 257, 289, 417, 449, 370, 17, 529, 561, 2, 34)
XO31 = (4, 68, 52, 116, 20, 84, 276, 694, 726, 150, 214, 182, 15, 47, 79,
        333, 339, 467, 854, 598, 1014, 86, 278, 826, 827, 890, 891)
SUFFIX_OPS = (0, 1, 14, 18, 32, 33, 34, 36, 38, 40, 41, 42, 43, 44, 46, 47,
              48, 50, 51, 52, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 16, 19)


def synthesize(path, seed, count):
    """Write count little-endian words; see the module docstring."""
    rnd = random.Random(seed)
    b = rnd.getrandbits
    words = []
    while len(words) < count:
        c = rnd.randrange(16)
        if c < 3:
            words.append(b(32))
        elif c < 5:
            op = rnd.choice((16, 18, 16, 17, 2, 3, 0, 5, 9, 22))
            w = (op << 26) | b(26)
            if op == 17 and rnd.random() < 0.8:
                w &= ~0x03fff01c     # sc/scv with clean reserved fields
            words.append(w)
        elif c < 8:
            xo = rnd.choice(XO19) if rnd.random() < 0.9 else b(10)
            w = (19 << 26) | b(26)
            w = (w & ~0x7fe) | (xo << 1)
            if rnd.random() < 0.6:
                w &= ~0x0000f800     # reserved / BH-only bits 16:20
            if rnd.random() < 0.3:
                w &= ~0x03fff800     # rfid & co. are whole-word matches
            words.append(w)
        elif c < 11:
            xo = rnd.choice(XO31) if rnd.random() < 0.9 else b(10)
            w = (31 << 26) | b(26)
            words.append((w & ~0x7fe) | (xo << 1))
        elif c < 14:
            # A prefix with a sane or random type/subtype, then a suffix.
            p = (1 << 26) | b(26)
            r = rnd.random()
            if r < 0.7:
                p &= ~0x00ec0000     # ST and the reserved bits clear
            if r < 0.15:
                p = (p & ~0x00f00000) | (9 << 20) | (3 << 24)  # MMA
            if r > 0.95:
                p = 0x07000000       # pnop
            s = (rnd.choice(SUFFIX_OPS) << 26) | b(26)
            if rnd.random() < 0.5:
                s &= ~0x001f0000     # RA = 0 (pla & co. with R = 1)
            words += [p, s]
        else:
            words.append(b(32))
    with open(path, "wb") as fh:
        for w in words[:count]:
            fh.write(w.to_bytes(4, "little"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--binary", action="store_true")
    ap.add_argument("--synth")
    ap.add_argument("--raw-text")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--stats", action="store_true",
                    help="also print how many of each kind were compared")
    ap.add_argument("file")
    args = ap.parse_args()

    kinds = load_kinds()
    kind_names = {v: k for k, v in kinds.items()}
    if args.synth:
        seed, count = (int(x, 0) for x in args.synth.split(":"))
        synthesize(args.file, seed, count)
        args.binary = True
    path = args.file
    if args.binary:
        # Wrap the words in an ELF64 object, as its .text: objdump's flat
        # binary mode prints absolute targets with 32 bits.
        path = args.file + ".o"
        subprocess.check_call([
            OBJCOPY, "-I", "binary", "-O", "elf64-powerpcle", "-B",
            "powerpc:common64", "--rename-section",
            ".data=.text,contents,alloc,load,readonly,code", args.file, path])
    cmd = [OBJDUMP, "-d", "-z", "-w", path]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True,
                            errors="replace", bufsize=1 << 20,
                            env=dict(os.environ, LC_ALL="C"))

    lib = ctypes.CDLL(args.lib)
    fn = lib.itrace_ppc_classify
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(Out)]
    out = Out()
    outp = ctypes.pointer(out)

    compared = kind_bad = field_bad = 0
    skipped = {}
    stats = {}
    text_bytes = bytearray()
    shown = 0

    def show(what, addr, data, text, unit, section):
        nonlocal shown
        if shown < args.show:
            shown += 1
            print("MISMATCH %s %s %s @%#x: %s: %s [%s]" % (
                args.name, unit, section, addr, what, data.hex(" "), text))

    for unit, section, insns in parse_listing(proc.stdout):
        if args.raw_text and section == ".text":
            text_bytes += b"".join(i[1] for i in insns)
        for idx, (addr, data, text) in enumerate(insns):
            if len(data) not in (4, 8) or not text:
                skipped["odd-size"] = skipped.get("odd-size", 0) + 1
                continue
            exp = expect_of(text)
            w = int.from_bytes(data[0:4], "little")
            if isinstance(exp, str):
                skipped[exp] = skipped.get(exp, 0) + 1
                if exp == "non-ISA" and fn(w, 0, outp) == 0:
                    kind_bad += 1
                    show("classifier accepts a non-ISA word", addr, data,
                         text, unit, section)
                continue
            if len(data) == 8:
                nxt = int.from_bytes(data[4:8], "little")
            elif idx + 1 < len(insns):
                nxt = int.from_bytes(insns[idx + 1][1][0:4], "little")
            else:
                nxt = 0
            compared += 1
            if args.stats:
                key = (exp.kind + ("/cond" if exp.cond else "") +
                       ("/link" if exp.link else "") +
                       ("/larx" if exp.larx else "") +
                       ("/stcx" if exp.stcx else "") +
                       ("/len8" if len(data) == 8 else ""))
                stats[key] = stats.get(key, 0) + 1
            if fn(w, nxt, outp) != 0:
                kind_bad += 1
                show("classifier rejects", addr, data, text, unit, section)
                continue
            if out.kind != kinds[exp.kind]:
                kind_bad += 1
                show("kind %s vs objdump %s" % (
                    kind_names.get(out.kind, out.kind), exp.kind),
                    addr, data, text, unit, section)
                continue
            bad = []
            if out.cond != exp.cond:
                bad.append("cond %d vs %d" % (out.cond, exp.cond))
            if out.link != exp.link:
                bad.append("link %d vs %d" % (out.link, exp.link))
            if out.len != len(data):
                bad.append("len %d vs %d" % (out.len, len(data)))
            if out.larx != exp.larx:
                bad.append("larx %d vs %d" % (out.larx, exp.larx))
            if out.stcx != exp.stcx:
                bad.append("stcx %d vs %d" % (out.stcx, exp.stcx))
            if exp.target is None:
                if out.direct:
                    bad.append("direct but objdump shows no target")
            elif not out.direct:
                bad.append("not direct, objdump target %#x" % exp.target)
            else:
                # objdump prints an absolute (AA=1) target cut to 32 bits;
                # the CPU sign-extends it to 64, as the classifier's disp.
                tgt = out.disp if out.abs else addr + out.disp
                mask = MASK32 if out.abs else MASK64
                if (tgt & mask) != (exp.target & mask):
                    bad.append("target %#x vs %#x" % (tgt & MASK64,
                                                      exp.target))
            if bad:
                field_bad += 1
                show(", ".join(bad), addr, data, text, unit, section)
    if proc.wait() != 0:
        print("ppc-class: %s: objdump failed" % args.name)
        return 1

    raw_bad = 0
    if args.raw_text:
        with open(args.raw_text, "rb") as f:
            raw = f.read()
        if raw != bytes(text_bytes):
            raw_bad = 1
            print("ppc-class: %s: .text rebuilt from objdump (%d bytes) "
                  "differs from %s (%d bytes)" % (
                      args.name, len(text_bytes), args.raw_text, len(raw)))

    if args.stats:
        print("ppc-class: %s: compared by kind: %s" % (args.name, ", ".join(
            "%s %d" % kv for kv in sorted(stats.items()))))
    nskip = sum(skipped.values())
    detail = ", ".join("%d %s" % (n, why)
                       for why, n in sorted(skipped.items()))
    print("ppc-class: %s: %d insns compared, %d kind mismatches, "
          "%d field mismatches, %d skipped%s" % (
              args.name, compared, kind_bad, field_bad, nskip,
              " (%s)" % detail if detail else ""))
    if compared == 0:
        print("ppc-class: %s: nothing compared" % args.name)
        return 1
    return 1 if (kind_bad or field_bad or raw_bad) else 0


if __name__ == "__main__":
    sys.exit(main())
