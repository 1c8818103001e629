#!/usr/bin/python3
"""notify.py: plays systemd's side of Type=notify for one eddy.

usage: notify.py PORT CMD...

Binds a datagram socket, starts CMD with NOTIFY_SOCKET naming it, and waits
for READY=1; at that moment a client must be served at once (psql SELECT 1),
as readiness promises. Then it sends SIGTERM and expects STOPPING=1 and exit
status 0. Prints ok/not ok lines.
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

port, cmd = sys.argv[1], sys.argv[2:]
d = tempfile.mkdtemp(prefix='eddy-notify.')
path = os.path.join(d, 'notify')
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(30)
env = dict(os.environ, NOTIFY_SOCKET=path)
p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def recv():
    try:
        return s.recv(4096).decode()
    except socket.timeout:
        return None


try:
    msg = recv()
    if msg is None or 'READY=1' not in msg.split('\n'):
        print('not ok notify_ready: no READY=1 within 30 s (got %r)' % msg)
        sys.exit(0)
    r = subprocess.run(['psql', '-X', '-qAt', '-h', '127.0.0.1', '-p', port, '-U', 'eddy', 'eddy',
                        '-c', 'SELECT 40 + 2'], capture_output=True, text=True, timeout=30)
    if r.returncode == 0 and r.stdout.strip() == '42':
        print('ok notify_ready: READY=1 arrives and the server answers psql right then')
    else:
        print('not ok notify_ready: READY=1 came but psql failed: %s %s' % (r.stdout, r.stderr))
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    msg = recv()
    rc = p.wait(timeout=30)
    if msg is not None and 'STOPPING=1' in msg.split('\n') and rc == 0:
        print('ok notify_stopping: SIGTERM says STOPPING=1 and exits 0 (%.2f s)' % (time.monotonic() - t0))
    else:
        print('not ok notify_stopping: got %r, exit status %s: %s' % (msg, rc, p.stderr.read().decode()[-500:]))
finally:
    if p.poll() is None:
        p.kill()
        p.wait()
    s.close()
    os.unlink(path)
    os.rmdir(d)
