#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""itrace-dump on inputs it must refuse, and its command line.

Every bad capture (truncated, corrupt, foreign) must give exactly one
line on stderr naming the file and the line, nothing on stdout, exit
status 1, in each of the four views; a bad command line one line and
exit status 2. The good capture beside them (tests/fuzz/corpus/capfile/
small, whose files are not on this host) must give every view with
status 0, its addresses raw.

Prints PASS/FAIL lines; exit status 1 on any FAIL.

usage: test_dump.py ITRACE_DUMP GOOD_CAPTURE
"""
import os
import subprocess
import sys
import tempfile

FAILED = []
HEAD = 'itrace-capture 1 arch x86_64\n'
TASK = 'task 7 tgid 7 seq 1 comm p\n'
MAP = 'map 7 400000-401000 r-xp 00000000 - /bin/p\n'
REC = '2 0 7 call 0x400010 0x400100\n'
END = 'end records 1 lost 0\n'
BAD = [
    ('empty', '', 1, 'empty file, not an itrace capture'),
    ('a raw log', REC + END, 1, 'not an itrace capture'),
    ('a maps file', 'itrace-maps 1\n' + TASK, 1, 'not an itrace capture'),
    ('an ELF file', '\x7fELF\x02\x01\x01\x00\x00', 1, 'not an itrace capture'),
    ('a later version', 'itrace-capture 2 arch x86_64\n' + END, 1,
     'not an itrace capture'),
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
]
USAGE = [
    (['script'], 'no capture file named'),
    (['script', 'a', 'b'], 'one capture file, not 2'),
    (['script', '-F', '+ip', 'x'], "only +srcline, not '+ip'"),
    (['script', '-D', '2', 'x'], '-D: a depth of 1 or more, for calls'),
    (['calls', '-D', '0', 'x'], '-D: a depth of 1 or more, for calls'),
    (['chrome', '-F', 'main', 'x'], '-F is for script and calls'),
    (['capture', '-t', '0'], "-t: want seconds above 0, not '0'"),
    (['capture', '-c', 'x'], "-c: want a record count above 0, not 'x'"),
    (['capture', 'abc'], "'abc' is not a pid"),
]


def fail(msg):
    FAILED.append(msg)
    print('FAIL dump: ' + msg)


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def main():
    tool, good = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for name, text, line, msg in BAD:
            f = os.path.join(tmp, 'c')
            with open(f, 'wb') as fh:
                fh.write(text.encode('latin-1'))
            want = 'itrace-dump: %s: line %d: ' % (f, line)
            for view in ('script', 'calls', 'chrome', 'folded'):
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
                  'each refused in every view with one line naming the line'
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
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
