#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""itrace-dump on inputs it must refuse, and its command line.

Every bad capture (truncated, corrupt, foreign) must give exactly one
line on stderr naming the file and the line, nothing on stdout, exit
status 1, in each of the four views; a bad command line one line and
exit status 2. The good capture beside them (tests/fuzz/corpus/capfile/
small, whose files are not on this host) must give every view with
status 0, its addresses raw.

Then inlined frames: a program built here at -O2 with two levels of
always_inline functions in work(); a capture with a record at each of
work()'s instructions (objdump), read with -F +srcline, must name each
address work+OFF (nm) and give the chain of places addr2line -i gives:
"FILE:LINE inlined into CALLER at FILE:LINE ...". Then the same program
under a name with a newline, ESC and a backslash, and a comm with them:
escaped in the capture as kdb-itrace writes them, the file found and
named, the names printed escaped.

Prints PASS/FAIL lines; exit status 1 on any FAIL.

usage: test_dump.py ITRACE_DUMP GOOD_CAPTURE
"""
import os
import struct
import subprocess
import sys
import tempfile

FAILED = []
HEAD = 'itrace-capture 1 arch x86_64\n'
HEAD2 = 'itrace-capture 2 arch x86_64\n'
TASK = 'task 7 tgid 7 seq 1 comm p\n'
MAP = 'map 7 400000-401000 r-xp 00000000 - /bin/p\n'
REC = '2 0 7 call 0x400010 0x400100\n'
END = 'end records 1 lost 0\n'
HEAD3 = 'itrace-capture 3 arch x86_64\n'
# enum itrace_kind (kdb-itrace/lib/kind.h)
KIND = {'insn': 0, 'call': 4, 'ret': 5, 'syscall': 8}


def wire(seq, kind, frm, to, ns=0, vals=(), cpu=0, pid=7, nval=None):
    """One record of a version 3 block (kdb-itrace/lib/wire.h), as text."""
    v = list(vals) + [0] * (3 - len(vals))
    return struct.pack('<7QIHBB', seq, frm, to, ns, *v, pid, cpu,
                       KIND.get(kind, kind),
                       len(vals) if nval is None else nval).decode('latin-1')


BAD = [
    ('empty', '', 1, 'empty file, not an itrace capture'),
    ('a raw log', REC + END, 1, 'not an itrace capture'),
    ('a maps file', 'itrace-maps 1\n' + TASK, 1, 'not an itrace capture'),
    ('an ELF file', '\x7fELF\x02\x01\x01\x00\x00', 1, 'not an itrace capture'),
    ('version 2 without time', HEAD2 + REC + END, 2,
     'then the time'),
    ('version 2, a value not hex', HEAD2 + '2 0 7 call 0x1 0x2 5 17\n' + END,
     2, 'want values as 0x'),
    ('version 2, four values', HEAD2 + '2 0 7 call 0x1 0x2 5 0x1 0x2 0x3 0x4\n'
     + END, 2, 'more than 3 values'),
    ('version 2, a space at the end', HEAD2 + '2 0 7 call 0x1 0x2 5 \n' + END,
     2, 'then the time'),
    ('version 2, upper-case value', HEAD2 + '2 0 7 ret 0x1 0x2 5 0xA\n' + END,
     2, 'want values as 0x'),
    ('no arch', 'itrace-capture 1\n' + END, 1, 'header: want'),
    ('header only', HEAD, 2, 'no end line (truncated capture?)'),
    ('cut mid-record', HEAD + TASK + '2 0 7 call 0x4000', 3,
     'the last line has no newline (truncated capture?)'),
    ('no end', HEAD + TASK + MAP + REC, 5, 'no end line'),
    ('five words', HEAD + '2 0 7 call 0x400010\n' + END, 2,
     'want 0xfrom 0xto'),
    ('seven words', HEAD + '2 0 7 call 0x400010 0x1 0x2\n' + END, 2,
     'and nothing after'),
    ('two spaces', HEAD + '2 0  7 call 0x400010 0x1\n' + END, 2,
     'bad seq, cpu or pid'),
    ('unknown kind', HEAD + '2 0 7 calls 0x1 0x2\n' + END, 2,
     "unknown kind 'calls'"),
    ('upper-case hex', HEAD + '2 0 7 call 0x4000A 0x2\n' + END, 2,
     'want 0xfrom 0xto, lower-case hex'),
    ('no 0x', HEAD + '2 0 7 call 4000 0x2\n' + END, 2,
     'want 0xfrom 0xto, lower-case hex'),
    ('address past 64 bits', HEAD + '2 0 7 call 0x10000000000000000 0x2\n'
     + END, 2, 'want 0xfrom 0xto'),
    ('seq past 19 digits', HEAD + '18446744073709551616 0 7 call 0x1 0x2\n'
     + END, 2, 'bad seq, cpu or pid'),
    ('seq going back', HEAD + REC + REC + END, 3, 'seq 2 is not above'),
    ('a leading zero', HEAD + '02 0 7 call 0x1 0x2\n' + END, 2,
     'bad seq, cpu or pid'),
    ('cpu past 65535', HEAD + '2 65536 7 call 0x1 0x2\n' + END, 2,
     'bad seq, cpu or pid'),
    ('map before task', HEAD + MAP + END, 2, 'not after a task line'),
    ('map of another pid', HEAD + TASK + MAP.replace('map 7', 'map 8') + END,
     3, 'not after a task line'),
    ('maps out of order', HEAD + TASK + MAP + MAP + END, 4,
     'not in address order'),
    ('empty range', HEAD + TASK + 'map 7 401000-401000 r-xp 0 - /bin/p\n'
     + END, 3, 'bad range'),
    ('bad build-id', HEAD + TASK + MAP.replace(' - ', ' xyz ') + END, 3,
     'bad build-id'),
    ('relative path', HEAD + TASK + MAP.replace('/bin/p', 'bin/p') + END, 3,
     'not absolute'),
    ('bad task line', HEAD + 'task 7 tgid x seq 1 comm p\n' + END, 2,
     "want 'task PID"),
    ('task without name', HEAD + 'task 7 tgid 7 seq 1 comm\n' + END, 2,
     "want 'task PID"),
    ('end count', HEAD + REC + 'end records 2 lost 0\n', 3,
     'the end line counts 2 records'),
    ('text after end', HEAD + REC + END + REC, 4, 'text after the end line'),
    ('an unknown line', HEAD + 'hello\n' + END, 2,
     "not a line of an itrace capture: 'hello'"),
    ('an unknown itrace: line', HEAD + 'itrace: pid 7 armed\n' + END, 2,
     "an 'itrace:' line"),
    ('a NUL byte', HEAD + 'task 7 tgid 7 seq 1 comm p\x00\n' + END, 2,
     'a NUL byte'),
    ('a NUL in a record', HEAD + '2 0 7 call 0x1\x00 0x2\n' + END, 2,
     'want 0xfrom 0xto'),
    ('a blank line', HEAD + '\n' + END, 2, 'not a line of an itrace capture'),
    ('a later version', 'itrace-capture 4 arch x86_64\n' + END, 1,
     'not an itrace capture'),
    ('version 3, a block cut short', HEAD3 + 'records 2\n' +
     wire(2, 'call', 1, 2) + END, 2, 'the file ends before them'),
    ('version 3, an empty block', HEAD3 + 'records 0\n' + END, 2,
     "want 'records N'"),
    ('version 3, a count not decimal', HEAD3 + 'records 0x1\n' +
     wire(2, 'call', 1, 2) + END, 2, "want 'records N'"),
    ('version 3, an unknown kind', HEAD3 + 'records 1\n' +
     wire(2, 13, 1, 2) + END, 2, 'record 1 of the block is not one'),
    ('version 3, four values', HEAD3 + 'records 1\n' +
     wire(2, 'call', 1, 2, nval=4) + END, 2, 'record 1 of the block'),
    ('version 3, seq going back', HEAD3 + 'records 2\n' +
     wire(2, 'call', 1, 2) + wire(2, 'ret', 1, 2) + END, 2,
     'seq 2 is not above'),
    ('version 3, end count', HEAD3 + 'records 1\n' + wire(2, 'call', 1, 2) +
     'end records 2 lost 0\n', 3, 'the end line counts 2 records'),
    ('version 2, a block', HEAD2 + 'records 1\n' + wire(2, 'call', 1, 2) +
     END, 2, 'not a line of an itrace capture'),
]
USAGE = [
    (['script'], 'no capture file named'),
    (['script', 'a', 'b'], 'one capture file, not 2'),
    (['script', '-F', '+ip', 'x'], "+args, +insn or +disasm (comma-separated), not '+ip'"),
    (['script', '-F', '+time,', 'x'], "(comma-separated), not ''"),
    (['script', '-D', '2', 'x'], '-D: a depth of 1 or more, for calls'),
    (['calls', '-D', '0', 'x'], '-D: a depth of 1 or more, for calls'),
    (['chrome', '-F', 'main', 'x'], '-F is for script and calls'),
    (['capture', '-t', '0'], "-t: want seconds above 0, not '0'"),
    (['capture', '-c', 'x'], "-c: want a record count above 0, not 'x'"),
    (['capture', 'abc'], "'abc' is not a pid"),
    (['text'], 'usage: itrace-dump text'),
    (['gdb'], 'usage: itrace-dump gdb'),
    (['gdb', 'a', 'x'], "'x' is not a thread id"),
    (['gdb', 'a', '1', '2'], 'usage: itrace-dump gdb'),
    (['text', 'a', 'b'], 'usage: itrace-dump text'),
]


def fail(msg):
    FAILED.append(msg)
    print('FAIL dump: ' + msg)


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


INLINE_C = r'''
#include <stdio.h>
static inline __attribute__((always_inline)) int inner(int x)
{
	return x * 3 + (x >> 2);
}
static inline __attribute__((always_inline)) int outer(int x)
{
	return inner(x + 1) ^ 7;
}
__attribute__((noinline)) int work(int x)
{
	return outer(x) + 1;
}
int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\\n", work(argc));
	return 0;
}
'''


def out_of(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def check_inlines(tool, tmp):
    import re
    src, prog = os.path.join(tmp, 'inl.c'), os.path.join(tmp, 'inl')
    with open(src, 'w') as f:
        f.write(INLINE_C)
    subprocess.run(['gcc', '-O2', '-g', '-o', prog, src], check=True)
    work = int(next(l.split()[0] for l in out_of('nm', prog).splitlines()
                    if l.endswith(' T work')), 16)
    dis = out_of('objdump', '-d', '--no-show-raw-insn', prog)
    body = dis[dis.index('<work>:'):].split('\n\n')[0]
    addrs = [int(m, 16) for m in re.findall(r'^ *([0-9a-f]+):', body, re.M)]
    bid = re.search(r'Build ID: (\S+)', out_of('readelf', '-n', prog)).group(1)
    base = 0x400000
    cap = os.path.join(tmp, 'inl.capture')
    with open(cap, 'w') as f:
        f.write(HEAD + 'task 5 tgid 5 seq 0 comm inl\n')
        f.write('map 5 %x-%x r-xp 00000000 %s %s\n' % (base, base + 0x10000,
                                                      bid, prog))
        for i, a in enumerate(addrs):
            f.write('%d 0 5 insn 0x%x 0x%x\n' % (i + 1, base + a, base + a))
        f.write('end records %d lost 0\n' % len(addrs))
    rc, out, err = run(tool, ['script', '-F', '+srcline', cap])
    lines = out.decode().splitlines()
    bad, chained = 0, 0
    for a, line, src_line in zip(addrs, lines[0::2], lines[1::2]):
        want = [re.sub(r' \(discriminator \d+\)$', '', x) for x in
                out_of('addr2line', '-i', '-f', '-e', prog, hex(a)).splitlines()]
        funcs, places = want[0::2], want[1::2]
        chain = places[0] + ''.join(' inlined into %s at %s' % (fn, pl)
                                    for fn, pl in zip(funcs[1:], places[1:]))
        name = 'work+0x%x' % (a - work)
        got = src_line.strip().split(' => ')[0]
        if ' %s (%s)' % (name, prog) not in line or got != chain:
            bad += 1
            fail('inlines: 0x%x: %r / %r, want %s and %r' %
                 (a, line, got, name, chain))
        chained += len(places) > 1
    if rc or err or bad or len(lines) != 2 * len(addrs) or chained < 2:
        fail('inlines: exit %d, stderr %r, %d of %d addresses wrong, %d with '
             'inlined frames' % (rc, err, bad, len(addrs), chained))
    else:
        print('PASS dump: -F +srcline at the %d instructions of work(): '
              'work+OFF as nm places it, the chain of places addr2line -i '
              'gives (%d inside inlined functions)' % (len(addrs), chained))
    check_code(tool, cap, prog, addrs)


def check_code(tool, cap, prog, addrs):
    """script -F +insn,+disasm of the records at work()'s instructions:
    each line's bytes and instruction are objdump -d -M intel's there
    (mnemonic and operands' words: capstone writes "dword ptr [rbp -
    4]" where objdump has "DWORD PTR [rbp-0x4]", so only the mnemonic
    is compared), the file read at the capture's path."""
    import re
    rc, out, err = run(tool, ['script', '-F', '+insn,+disasm', cap])
    dis = {}
    for l in out_of('objdump', '-d', '-w', '-M', 'intel', prog).splitlines():
        m = re.match(r'^ *([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)', l)
        if m:
            dis[int(m.group(1), 16)] = (m.group(2), m.group(3))
    bad = []
    lines = out.decode().splitlines()
    for a, line in zip(addrs, lines):
        b, mn = dis.get(a, (None, None))
        m = re.search(r' ilen: (\d+) insn: ([0-9a-f ]+)  (\S+)', line)
        if not m or m.group(2) != b or m.group(3) != mn or \
                int(m.group(1)) != len(b.split()):
            bad.append('0x%x: %r, objdump %s %s' % (a, line[-60:], b, mn))
    if rc or err or bad or len(lines) != len(addrs):
        fail('insn: exit %d, stderr %r, %d lines, %s' % (rc, err, len(lines),
                                                        bad[:3]))
    else:
        print('PASS dump: -F +insn,+disasm at the %d instructions of work(): '
              'the bytes, length and mnemonic objdump -d shows' % len(addrs))


def escape(name):
    """The maps file's escape (docs/CAPTURE.md), as kdb-itrace writes it."""
    return ''.join(chr(b) if 0x20 <= b <= 0x7e and b != 0x5c else
                   '\\%03o' % b for b in name)


def check_escapes(tool, tmp):
    """A file whose name holds a newline, ESC and a backslash, mapped by a
    task whose comm holds them too: the capture has both escaped (one
    line each); itrace-dump opens the file the escaped path names and
    prints the names escaped, never a control byte."""
    import shutil
    import re
    prog = os.path.join(tmp, 'inl')
    odd = os.path.join(tmp, 'o\nd\x1b[31md\\012.so').encode()
    shutil.copy(prog, odd)
    work = int(next(l.split()[0] for l in out_of('nm', prog).splitlines()
                    if l.endswith(' T work')), 16)
    bid = re.search(r'Build ID: (\S+)', out_of('readelf', '-n', prog)).group(1)
    base = 0x400000
    comm = escape(b'tp\nx\x1b[31m')
    cap = os.path.join(tmp, 'odd.capture')
    with open(cap, 'w') as f:
        f.write(HEAD + 'task 5 tgid 5 seq 0 comm %s\n' % comm)
        f.write('map 5 %x-%x r-xp 00000000 %s %s\n' % (
            base, base + 0x10000, bid, escape(odd)))
        f.write('1 0 5 call 0x%x 0x%x\n' % (base + work, base + work))
        f.write('end records 1 lost 0\n')
    rc, out, err = run(tool, ['script', cap])
    want = ' work+0x0 (%s)' % escape(odd)
    text = out.decode('latin-1')
    if rc or err or want not in text or comm not in text or \
            any(c < 0x20 and c != 0x0a for c in out) or \
            len(text.splitlines()) != 1:
        fail('escaped names: exit %d, stderr %r, stdout %r; want %r and %r' %
             (rc, err, text, want, comm))
    else:
        print('PASS dump: a file named with a newline, ESC and a backslash '
              '(escaped in the capture) is opened and named: %s' % want.strip())
    for view in ('calls', 'chrome', 'folded'):
        rc, out, err = run(tool, [view, cap])
        if rc or err or any(c < 0x20 and c != 0x0a for c in out):
            fail('escaped names: %s: exit %d, stderr %r, stdout %r' %
                 (view, rc, err, out))
            break
    else:
        print('PASS dump: calls, chrome and folded of that capture: exit 0, '
              'no control byte')


def check_values(tool, tmp):
    """A version 2 capture (times and values) of main calling work(5, 6),
    which returns 7 after a write system call that returned 3: script -F
    +time,+syscall,+args, calls and chrome show them, each as its format
    says; without -F script shows none of them."""
    import json
    import re
    prog = os.path.join(tmp, 'inl')
    syms = {l.split()[2]: int(l.split()[0], 16)
            for l in out_of('nm', prog).splitlines()
            if re.match(r'^[0-9a-f]+ T \w+$', l)}
    bid = re.search(r'Build ID: (\S+)', out_of('readelf', '-n', prog)).group(1)
    base = 0x400000
    w, m = base + syms['work'], base + syms['main']
    cap = os.path.join(tmp, 'values.capture')
    t0 = 812043611052
    with open(cap, 'w') as f:
        f.write(HEAD2 + 'task 5 tgid 5 seq 0 comm inl\n')
        f.write('map 5 %x-%x r-xp 00000000 %s %s\n' % (base, base + 0x10000,
                                                      bid, prog))
        f.write('1 0 5 call 0x%x 0x%x %d 0x5 0x6\n' % (m + 4, w, t0))
        f.write('2 0 5 syscall 0x%x 0x%x %d 0x1 0x3\n' % (w + 1, w + 3,
                                                          t0 + 1500))
        f.write('3 0 5 ret 0x%x 0x%x %d 0x7\n' % (w + 3, m + 9, t0 + 2750))
        f.write('4 0 5 syscall 0x%x 0x%x %d 0x3 0xfffffffffffffff7\n' % (
            m + 9, m + 11, t0 + 4000))
        f.write('end records 4 lost 0\n')
    ok = True
    rc, out, err = run(tool, ['script', '-F', '+time,+syscall,+args', cap])
    lines = out.decode().splitlines()
    want = ['] 812.043611052 #1: call ', '  (0x5, 0x6)',
            '] 812.043612552 #2: syscall ', '  nr 1 = 3',
            '] 812.043613802 #3: return ', '  = 0x7',
            '] 812.043615052 #4: syscall ', '  nr 3 = -9']
    if rc or err or len(lines) != 4 or any(
            want[2 * i] not in l or not l.endswith(want[2 * i + 1])
            for i, l in enumerate(lines)):
        fail('values: script -F +time,+syscall,+args: exit %d, %r, %r' %
             (rc, err, lines))
        ok = False
    rc, out, err = run(tool, ['script', cap])
    if rc or err or '812.' in out.decode() or '(0x5' in out.decode():
        fail('values: plain script shows times or values: %r' % out)
        ok = False
    rc, out, err = run(tool, ['calls', cap])
    if rc or err or not re.search(r'\] \| work\(0x5, 0x6\) = 0x7;$',
                                  out.decode(), re.M):
        fail('values: calls: exit %d, %r, want work(0x5, 0x6) = 0x7;' %
             (rc, out))
        ok = False
    rc, out, err = run(tool, ['chrome', cap])
    try:
        ev = json.loads(out.decode())['traceEvents']
        sl = [e for e in ev if e['ph'] == 'X' and e['name'] == 'work'][0]
        sys_ev = [e for e in ev if e['ph'] == 'i']
        good = (sl['ts'] == 0 and sl['dur'] == 2.75 and
                sl['args']['args'] == ['0x5', '0x6'] and
                sl['args']['ret'] == ['0x7'] and
                [(e['ts'], e['args']['nr'], e['args']['ret']) for e in sys_ev]
                == [(1.5, 1, 3), (4.0, 3, -9)])
    except (ValueError, KeyError, IndexError):
        good = False
    if rc or err or not good:
        fail('values: chrome: exit %d, %r' % (rc, out))
        ok = False
    if ok:
        print('PASS dump: a version 2 capture: script -F +time,+syscall,+args '
              'shows each record\'s time and values, calls work(0x5, 0x6) = '
              '0x7, chrome real microseconds with arguments, return value, '
              'system-call number and return')
    return cap


def check_v3(tool, tmp, v2):
    """The version 2 capture @v2 written as `itrace-dump capture` writes
    version 3: its first record as a line (the log copied at the start),
    the rest in two binary blocks with a lost line between them (every
    field through wire()). `text` gives back the version 2 file, but for
    its header and that lost line; every view reads both the same."""
    with open(v2) as f:
        lines = f.read().splitlines(True)
    recs = [l for l in lines if l[:1].isdigit()]
    blocks = []
    for l in recs[1:]:
        w = l.split()
        blocks.append(wire(int(w[0]), w[3], int(w[4], 16), int(w[5], 16),
                           int(w[6]), [int(x, 16) for x in w[7:]],
                           cpu=int(w[1]), pid=int(w[2])))
    lost = 'itrace: 3 records lost (not read in time)\n'
    head = [l for l in lines if not l[:1].isdigit() and
            not l.startswith(('itrace-capture', 'end '))]
    end = lines[-1].replace(' lost 0', ' lost 3')
    v3 = os.path.join(tmp, 'v3.capture')
    with open(v3, 'wb') as f:
        f.write((HEAD3 + ''.join(head) + recs[0] + 'records 1\n' + blocks[0] +
                 lost + 'records %d\n' % len(blocks[1:]) +
                 ''.join(blocks[1:]) + end).encode('latin-1'))
    want = ''.join([HEAD2] + head + recs[:2] + [lost] + recs[2:] + [end])
    rc, out, err = run(tool, ['text', v3])
    ok = rc == 0 and out.decode() == want and not err
    if not ok:
        fail('version 3: text: exit %d, stderr %r, %r; want %r' %
             (rc, err, out, want))
    v2l = os.path.join(tmp, 'v2l.capture')
    with open(v2l, 'w') as f:
        f.write(want)
    for args in (['script', '-F', '+time,+syscall,+args'], ['calls'],
                 ['chrome'], ['folded']):
        r3, r2 = run(tool, args + [v3]), run(tool, args + [v2l])
        if r3[0] or not r3[1] or r3[1].replace(v3.encode(), b'C') != \
                r2[1].replace(v2l.encode(), b'C') or \
                r3[2].replace(v3, 'C') != r2[2].replace(v2l, 'C'):
            fail('version 3: %s: exit %d, output differs from version 2\'s: '
                 '%r / %r' % (' '.join(args), r3[0], r3[1], r2[1]))
            ok = False
    if ok:
        print('PASS dump: a version 3 capture (a record line, two binary '
              'blocks, a lost line): text gives the version 2 file back, '
              'script, calls, chrome and folded read it as they read that')


def check_names_libdwfl(tool, tmp):
    """Names as libdwfl's own lookup gives them: a capture of one record
    at every 4th byte of the inl program's .text and every 61st of libc's
    (its symbols as elfutils finds them here, debug files included);
    script must name each address with the function eu-addr2line -S
    names it with (an alias at the same start counts as the same), and
    leave unknown exactly those it leaves unknown."""
    import re
    libc = next(l.split()[2] for l in out_of('ldd', '/bin/true').splitlines()
                if 'libc.so' in l)
    files = [(os.path.join(tmp, 'inl'), 4, 0x400000),
             (libc, 61, 0x7f0000000000)]
    cap = os.path.join(tmp, 'names.capture')
    addrs, seq = [], 0
    with open(cap, 'w') as f:
        f.write(HEAD + 'task 5 tgid 5 seq 0 comm names\n')
        for path, step, base in files:
            text = re.search(r'\.text +PROGBITS +([0-9a-f]+) [0-9a-f]+ '
                             r'([0-9a-f]+)', out_of('readelf', '-SW', path))
            lo, n = int(text.group(1), 16), int(text.group(2), 16)
            bid = re.search(r'Build ID: (\S+)',
                            out_of('readelf', '-n', path)).group(1)
            size = os.path.getsize(path)
            f.write('map 5 %x-%x r-xp 00000000 %s %s\n' % (
                base, base + (size + 0xfff & ~0xfff), bid, path))
            addrs.append((path, base, list(range(lo, lo + n, step))))
        for path, base, vs in addrs:
            for v in vs:
                seq += 1
                f.write('%d 0 5 insn 0x%x 0x%x\n' % (seq, base + v, base + v))
        f.write('end records %d lost 0\n' % seq)
    rc, out, err = run(tool, ['script', cap])
    ours = [l.split(' => ')[0].rsplit(' (', 1)[0].split()[-1]
            for l in out.decode().splitlines()]
    bad, named, i = [], 0, 0
    for path, base, vs in addrs:
        theirs = out_of('eu-addr2line', '-S', '-e', path,
                        *['0x%x' % v for v in vs]).splitlines()[0::2]
        for v, t in zip(vs, theirs):
            o = ours[i] if i < len(ours) else '?'
            i += 1
            # eu-addr2line: 'f' at a start, 'f+0x4' past it, '()+0x..'
            # or '??' where no symbol covers the address
            to = None if t.startswith(('(', '??')) else \
                t.rsplit('+', 1)[1] if '+0x' in t else '0x0'
            oo = o.rsplit('+', 1)[1] if '+0x' in o else None
            named += oo is not None
            if to != oo:
                bad.append('%s 0x%x: %s, libdwfl %s' % (
                    os.path.basename(path), v, o, t))
    if rc or len(ours) != seq or bad:
        fail('names: exit %d, %d lines for %d records, %d of them named '
             'otherwise than libdwfl names them: %s' % (
                 rc, len(ours), seq, len(bad), bad[:5]))
    else:
        print('PASS dump: names of %d addresses (inl and libc) as libdwfl\'s '
              'own lookup gives them (%d named, the rest unknown to both)' %
              (seq, named))


def main():
    tool, good = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for name, text, line, msg in BAD:
            f = os.path.join(tmp, 'c')
            with open(f, 'wb') as fh:
                fh.write(text.encode('latin-1'))
            want = 'itrace-dump: %s: line %d: ' % (f, line)
            for view in ('script', 'calls', 'chrome', 'folded', 'text'):
                rc, out, err = run(tool, [view, f])
                lines = err.splitlines()
                if rc != 1 or out or len(lines) != 1 or \
                        not lines[0].startswith(want) or msg not in lines[0]:
                    fail('%s (%s): exit %d, stdout %d bytes, stderr %r; want '
                         '%r...%r' % (name, view, rc, len(out), err, want, msg))
                    break
            else:
                n += 1
        if n == len(BAD):
            print('PASS dump: %d bad captures (truncated, corrupt, foreign) '
                  'each refused in every view and by text, one line naming the line'
                  % n)
    n = 0
    for args, msg in USAGE:
        rc, out, err = run(tool, args)
        lines = err.splitlines()
        if rc != 2 or out or len(lines) < 1 or msg not in lines[0]:
            fail('%s: exit %d, stderr %r; want 2 and %r' %
                 (' '.join(args), rc, err, msg))
        else:
            n += 1
    if n == len(USAGE):
        print('PASS dump: %d bad command lines each refused with exit 2 and '
              'a line saying why' % n)
    ok = 0
    for view in ('script', 'calls', 'chrome', 'folded'):
        rc, out, err = run(tool, [view, good])
        if rc != 0 or not out or 'not found; its addresses print raw' not in err:
            fail('%s of %s: exit %d, stderr %r' % (view, good, rc, err))
        else:
            ok += 1
    if ok == 4:
        print('PASS dump: a good capture whose files are missing: every view, '
              'exit 0, each missing file named, addresses raw')
    with tempfile.TemporaryDirectory() as tmp:
        check_inlines(tool, tmp)
        check_escapes(tool, tmp)
        check_v3(tool, tmp, check_values(tool, tmp))
        check_names_libdwfl(tool, tmp)
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
