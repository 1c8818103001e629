#!/usr/bin/python3
"""test_limits.py: configured limits (pgwire.md 1.2): a message over the message size limit
drops the connection (a smaller one is served), and a client that does not finish start-up
within the authentication timeout is disconnected. Others are served throughout.

  LIMITS_PORT      the server
  MSG_MAX          its largest frontend message in bytes (eddy --message-max-bytes); 0 = skip
  AUTH_TIMEOUT_MS  its start-up/authentication timeout (eddy --auth-timeout-ms,
                   PostgreSQL authentication_timeout)"""
import os
import struct
import time

import pgw
from pgw import Conn, Query, case, connect, main, rows, startup

PORT = int(os.environ.get("LIMITS_PORT") or 0)
MSG_MAX = int(os.environ.get("MSG_MAX") or 0)
AUTH_TIMEOUT_MS = int(os.environ.get("AUTH_TIMEOUT_MS") or 0)
pgw.TARGET_PORT = PORT


@case
def message_at_and_over_the_limit(t):
    if not MSG_MAX:
        return
    # Largest legal Query: body = MSG_MAX - 4 bytes (length word counts itself? the
    # limit is on the body, as PostgreSQL's maxlen is on len - 4).
    with connect(PORT, timeout=20) as c:
        n = MSG_MAX - 200
        sql = "SELECT length('" + "a" * (n - 30) + "')"
        t.eq(rows(c.q(sql, timeout=20)), [[str(n - 30).encode()]], "a query just under the limit")
    with connect(PORT, timeout=20) as c:
        body = ("SELECT '" + "b" * (MSG_MAX + 100) + "'").encode() + b"\0"
        try:
            c.send(b"Q" + struct.pack("!i", len(body) + 4) + body)
        except OSError:
            pass
        closed = c.closed_soon(5)
        t.ok(closed, "a query over the limit drops the connection")
        if c.buf:
            t.eq(chr(c.buf[0]), "E", "only an ErrorResponse may precede the close")
    with connect(PORT) as c:   # declared over the limit, never sent
        c.send(b"Q" + struct.pack("!i", MSG_MAX + 1000))
        t.ok(c.closed_soon(5), "a length word over the limit alone drops the connection")
    t.served(PORT)


@case
def silent_client_is_disconnected_after_auth_timeout(t):
    if not AUTH_TIMEOUT_MS:
        return
    t0 = time.monotonic()
    silent = Conn(PORT, timeout=AUTH_TIMEOUT_MS / 1000 + 5)
    half = Conn(PORT, timeout=AUTH_TIMEOUT_MS / 1000 + 5)
    half.send(startup()[:6])
    t.served(PORT, "a normal client is served while two are stalling")
    closed1 = silent.closed_soon(AUTH_TIMEOUT_MS / 1000 + 3)
    closed2 = half.closed_soon(AUTH_TIMEOUT_MS / 1000 + 3)
    dt = time.monotonic() - t0
    t.ok(closed1, "silent connection closed")
    t.ok(closed2, "half-sent startup closed")
    t.ok(dt < AUTH_TIMEOUT_MS / 1000 + 2.5, "closed after about the timeout (%.2f s)" % dt)
    with connect(PORT) as c:
        time.sleep(AUTH_TIMEOUT_MS / 1000 + 0.5)
        t.eq(rows(c.q("SELECT 1")), [[b"1"]], "a logged-in idle client is not affected by the timeout")
    silent.close()
    half.close()


if __name__ == "__main__":
    raise SystemExit(main())
