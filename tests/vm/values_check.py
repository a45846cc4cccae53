# SPDX-License-Identifier: GPL-2.0
"""Checks itrace-dump's views of the values in a capture taken in the VM
(tests/vm/values.exp: tp_values traced in block mode with `args 2`)
against what the program printed:

  calls: vf(A, B) = R; three times, the arguments and return values
         tp_values printed for its calls, in order
  script -F +time,+syscall,+args: the three system calls it printed
         with their numbers and return values ("nr 6 = -9"); each call
         into vf at a time between the clock readings the program took
         before it and before the next
  chrome: three vf slices with those arguments and return values,
         20 ms of sleep apart in ts (microseconds)

usage: values_check.py ITRACE_DUMP TP_VALUES_BINARY CAPTURE OUTPUT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

FAILED = []


def fail(msg):
    FAILED.append(msg)
    print('FAIL values: ' + msg)


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def symfs_for(capture, binary, tmp):
    """A --symfs tree holding the binary at the path the capture maps."""
    with open(capture) as f:
        path = next(l.split(' ', 6)[6].rstrip('\n') for l in f
                    if l.startswith('map ') and
                    l.rstrip('\n').endswith('/tp_values'))
    dst = os.path.join(tmp, path.lstrip('/'))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    os.symlink(os.path.abspath(binary), dst)
    return tmp


def main():
    tool, binary, capture, output = sys.argv[1:]
    out = open(output).read()
    calls = re.findall(r'^tp_values: call (\w+) (\w+) \w+ = (\w+)$', out, re.M)
    sysc = re.findall(r'^tp_values: sys (\w+) (\d+) = (-?\d+)$', out, re.M)
    m = re.search(r'^tp_values: clock (\d+) (\d+) (\d+) (\d+)$', out, re.M)
    p = re.search(r'^tp_values: pid (\d+) ready$', out, re.M)
    if len(calls) != 3 or len(sysc) != 3 or not m or not p:
        fail('tp_values printed %r' % out)
        return 1
    clock = [int(x) for x in m.groups()]
    # the capture holds the log's older records too (the insn run's)
    pid = int(p.group(1))
    with tempfile.TemporaryDirectory() as tmp:
        symfs = symfs_for(capture, binary, tmp)
        common = ['--symfs', symfs, capture]
        rc, text, err = run(tool, ['calls'] + common)
        got = re.findall(r'\[ *%d\] \| +vf\(0x(\w+), 0x(\w+)\) = 0x(\w+);$'
                         % pid, text, re.M)
        if rc or got != calls:
            fail('calls: exit %d, %r: vf lines %r, want %r' %
                 (rc, err, got, calls))
        else:
            print('PASS values: itrace-dump calls: vf(A, B) = R; for its '
                  '3 calls, as tp_values printed them')
        rc, text, err = run(tool, ['script', '-F', '+time,+syscall,+args'] +
                            common)
        ok = rc == 0
        for name, nr, ret in sysc:
            if not re.search(r'^ *tp_values +%d .* syscall .*  nr %s = %s$' %
                             (pid, nr, ret), text, re.M):
                fail('script: no syscall line ending "nr %s = %s" (%s)' %
                     (nr, ret, name))
                ok = False
        times = [int(s) * 1000000000 + int(ns) for s, ns in re.findall(
            r'^ *tp_values +%d \[\d+\] (\d+)\.(\d{9}) #\d+: call .* '
            r'vf\+0x0 \(\S+\)  \(0x\w+, 0x\w+\)$' % pid, text, re.M)]
        if len(times) != 3 or any(not clock[i] <= t <= clock[i + 1]
                                  for i, t in enumerate(times)):
            fail('script: times of the calls into vf %r, the program read '
                 'the clock at %r' % (times, clock))
            ok = False
        if ok:
            print('PASS values: itrace-dump script -F +time,+syscall,+args: '
                  'getppid, close and write with their numbers and returns; '
                  'the calls into vf at times between the program\'s clock '
                  'readings %r' % clock)
        rc, text, err = run(tool, ['chrome'] + common)
        try:
            ev = json.loads(text)['traceEvents']
            vf = [e for e in ev if e.get('ph') == 'X' and
                  e['name'] == 'vf' and e['tid'] == pid]
            got = [(e['args']['args'][0][2:], e['args']['args'][1][2:],
                    e['args']['ret'][0][2:]) for e in vf]
            gaps = [b['ts'] - a['ts'] for a, b in zip(vf, vf[1:])]
        except (ValueError, KeyError, IndexError) as e:
            got, gaps = repr(e), []
        if rc or got != calls or len(gaps) != 2 or \
                any(g < 20000 for g in gaps):
            fail('chrome: exit %d, vf slices %r (want %r), ts gaps %r us '
                 '(want 20000 or more)' % (rc, got, calls, gaps))
        else:
            print('PASS values: itrace-dump chrome: 3 vf slices with their '
                  'arguments and return values, %s us apart (the program '
                  'slept 20 ms)' % ', '.join('%.0f' % g for g in gaps))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
