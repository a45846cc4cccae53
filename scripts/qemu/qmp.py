#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qmp.py SOCKET save FILE | SOCKET wait-running

Owns the two QEMU machine-protocol (QMP) exchanges of the boot snapshot
(scripts/qemu/run-vm.sh --snapshot, itrace.exp's vm__boot), run on the
host beside a test VM:

  save FILE     stop the guest, write its whole state (RAM and devices,
                a migration stream) to FILE, let it run on; prints
                "saved N MB in S s"
  wait-running  wait until a guest started with -incoming has loaded
                its state and runs; prints "restored in S s"

Every wait is bounded (ITRACE_TIME_SCALE x 60 s); an error or a timeout
is one line on stderr and exit status 1.
"""
import json
import os
import socket
import sys
import time

LIMIT = 60 * int(os.environ.get('ITRACE_TIME_SCALE', '1') or 1)


class Qmp:
    """One QMP session over a unix socket."""

    def __init__(self, path):
        end = time.monotonic() + LIMIT
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError as e:
                self.sock.close()
                if time.monotonic() > end:
                    raise SystemExit(f'qmp.py: cannot connect to {path}: {e}')
                time.sleep(0.05)
        self.sock.settimeout(LIMIT)
        self.file = self.sock.makefile('rw')
        self.reply()                    # the greeting
        self.cmd('qmp_capabilities')

    def reply(self):
        while True:
            line = self.file.readline()
            if not line:
                raise SystemExit('qmp.py: qemu closed the socket')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    def cmd(self, name, **args):
        req = {'execute': name}
        if args:
            req['arguments'] = args
        self.file.write(json.dumps(req) + '\n')
        self.file.flush()
        msg = self.reply()
        if 'error' in msg:
            raise SystemExit(f'qmp.py: {name}: {msg["error"].get("desc")}')
        return msg['return']

    def until(self, what, done):
        end = time.monotonic() + LIMIT
        while not done():
            if time.monotonic() > end:
                raise SystemExit(f'qmp.py: no {what} within {LIMIT} s')
            time.sleep(0.02)


def save(q, path):
    t = time.monotonic()
    q.cmd('stop')
    # exec: qemu 7.2 has no file: transport; the path holds no quote
    # (run-vm.sh makes it)
    q.cmd('migrate', uri=f"exec:cat > '{path}'")

    def completed():
        st = q.cmd('query-migrate').get('status')
        if st in ('failed', 'cancelled'):
            raise SystemExit(f'qmp.py: migration {st}')
        return st == 'completed'
    q.until('completed migration', completed)
    q.cmd('cont')
    mb = os.path.getsize(path) >> 20
    print(f'saved {mb} MB in {time.monotonic() - t:.2f} s')


def wait_running(q):
    t = time.monotonic()
    # The state was saved from a stopped guest (save), and a guest comes
    # out of -incoming as the stream says it was: paused. Run it.
    q.until('loaded state', lambda: q.cmd('query-status')['status'] != 'inmigrate')
    if q.cmd('query-status')['status'] != 'running':
        q.cmd('cont')
    print(f'restored in {time.monotonic() - t:.2f} s')


def main():
    if len(sys.argv) < 3 or (sys.argv[2] == 'save') != (len(sys.argv) == 4):
        raise SystemExit(__doc__.split('\n')[0])
    q = Qmp(sys.argv[1])
    if sys.argv[2] == 'save':
        save(q, sys.argv[3])
    elif sys.argv[2] == 'wait-running':
        wait_running(q)
    else:
        raise SystemExit(f'qmp.py: unknown operation {sys.argv[2]}')


if __name__ == '__main__':
    main()
