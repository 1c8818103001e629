#!/usr/bin/python3
"""shutdown.py: SIGTERM while clients run statements.

usage: shutdown.py EDDY_BIN

1. A storm: 16 sessions insert and read rows as fast as they can on an eddy
   whose writes take a while (--fault-worker-delay-ms), then SIGTERM. Every
   statement a session sent gets its answer or FATAL 57P01 "terminating
   connection due to administrator command" (anything else, such as a
   connection cut without it, fails; a FATAL that came between statements is
   a notice to libpq, as with PostgreSQL), statements running at the signal are
   answered, and the process exits 0 within --shutdown-timeout-ms.
2. A statement longer than the timeout (pg_sleep) gets 57P01 once the
   timeout has passed, and the process exits 0 right after.
"""
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import psycopg

EDDY = sys.argv[1]
ADMIN = 'terminating connection due to administrator command'


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start(port, *args):
    log = open(os.environ.get('LOG_DIR', '/tmp') + '/shutdown.eddy.log', 'ab')
    p = subprocess.Popen([EDDY, '--listen', '127.0.0.1:%d' % port] + list(args), stdout=log, stderr=log)
    for _ in range(400):
        try:
            socket.create_connection(('127.0.0.1', port), 0.2).close()
            return p
        except OSError:
            time.sleep(0.05)
    p.kill()
    raise SystemExit('not ok shutdown_start: eddy did not start')


def connect(port):
    return psycopg.connect(host='127.0.0.1', port=port, user='eddy', dbname='eddy', autocommit=True)


def is_admin_shutdown(e):
    return getattr(e, 'sqlstate', None) == '57P01' or ADMIN in str(e)


def storm():
    port = free_port()
    timeout_ms = 5000
    p = start(port, '--workers', '2', '--fault-worker-delay-ms', '20',
              '--shutdown-timeout-ms', str(timeout_ms))
    with connect(port) as c:
        c.execute('CREATE TABLE t (id int PRIMARY KEY, v int)')
    sig_at = [None]
    results = []   # per session: (answers, answers after the signal, ending)
    lock = threading.Lock()

    def session(k):
        answers = after = 0
        ending = 'no 57P01'
        try:
            conn = connect(port)
        except Exception as e:
            with lock:
                results.append((0, 0, 'connect failed: %s' % e))
            return
        # A FATAL that arrives between statements reaches libpq while it is idle: it is
        # delivered as a notice and the next statement finds the connection closed (as
        # with PostgreSQL's own shutdown).
        notices = []
        conn.add_notice_handler(lambda d: notices.append(d.sqlstate))
        i = 0
        try:
            while True:
                i += 1
                if i % 2:
                    conn.execute('INSERT INTO t VALUES (%s, %s)', (k * 1000000 + i, i))
                else:
                    conn.execute('SELECT count(*) FROM t').fetchone()
                answers += 1
                if sig_at[0] is not None:
                    after += 1
        except Exception as e:
            if is_admin_shutdown(e):
                ending = '57P01'
            elif '57P01' in notices and conn.closed:
                ending = '57P01'
            else:
                ending = 'other: %r %s (notices %s)' % (type(e).__name__, e, notices)
        with lock:
            results.append((answers, after, ending))

    threads = [threading.Thread(target=session, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    sig_at[0] = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=timeout_ms / 1000 + 5)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = 'still running'
    took = time.monotonic() - sig_at[0]
    for t in threads:
        t.join(30)
    bad = [r for r in results if r[2] != '57P01']
    total = sum(r[0] for r in results)
    if bad or len(results) != 16:
        print('not ok shutdown_storm_answers: %d sessions, not ended by 57P01: %s' % (len(results), bad[:3]))
    else:
        print('ok shutdown_storm_answers: 16 sessions, %d statements answered, each session then ended by 57P01' % total)
    if sum(r[1] for r in results) > 0:
        print('ok shutdown_storm_running_finish: %d statements running at SIGTERM were answered'
              % sum(r[1] for r in results))
    else:
        print('not ok shutdown_storm_running_finish: no statement running at SIGTERM got its answer')
    if rc == 0 and took < timeout_ms / 1000:
        print('ok shutdown_storm_exit: exit status 0, %.2f s after SIGTERM (timeout %d ms)' % (took, timeout_ms))
    else:
        print('not ok shutdown_storm_exit: status %s after %.2f s (timeout %d ms)' % (rc, took, timeout_ms))
    try:
        connect(port).close()
        print('not ok shutdown_refuses: a connection after the exit succeeded')
    except Exception:
        print('ok shutdown_refuses: no connection is accepted after shutdown')


def timeout_case():
    port = free_port()
    p = start(port, '--workers', '1', '--shutdown-timeout-ms', '500')
    conn = connect(port)
    got = {}

    def run():
        t0 = time.monotonic()
        try:
            conn.execute('SELECT pg_sleep(20)')
            got['r'] = 'answered'
        except Exception as e:
            got['r'] = '57P01' if is_admin_shutdown(e) else 'other: %s' % e
        got['t'] = time.monotonic() - t0

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = 'still running'
    took = time.monotonic() - t0
    th.join(30)
    if got.get('r') == '57P01' and rc == 0 and 0.4 <= took < 3:
        print('ok shutdown_timeout: a statement past --shutdown-timeout-ms 500 gets 57P01, exit 0 after %.2f s' % took)
    else:
        print('not ok shutdown_timeout: statement %s, status %s after %.2f s' % (got.get('r'), rc, took))


storm()
timeout_case()
