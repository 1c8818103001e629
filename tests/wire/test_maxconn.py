#!/usr/bin/python3
"""test_maxconn.py: a server with a connection limit refuses one more client with FATAL 53300
and accepts again once a slot frees up.

  MAXCONN_PORT   the server, started with a limit of MAXCONN_LIMIT client connections"""
import os
import time

import pgw
from pgw import Conn, case, connect, main, rows, startup

PORT = int(os.environ.get("MAXCONN_PORT") or 0)
LIMIT = int(os.environ.get("MAXCONN_LIMIT") or 4)
pgw.TARGET_PORT = PORT


def refused(t, what):
    with Conn(PORT) as c:
        c.send(startup())
        m = c.recv()
        t.eq(m.t, "E", "%s: ErrorResponse" % what)
        f = m.fields() if m.t == "E" else {}
        t.eq(f.get("S"), "FATAL", "%s: severity" % what)
        t.eq(f.get("C"), "53300", "%s: SQLSTATE" % what)
        t.eq(f.get("M"), "sorry, too many clients already", "%s: message" % what)
        t.ok(c.closed_soon(), "%s: closed" % what)


@case
def limit_reached_gives_53300(t):
    conns = [connect(PORT) for _ in range(LIMIT)]
    try:
        for i, c in enumerate(conns):
            t.eq(rows(c.q("SELECT %d" % i)), [[str(i).encode()]], "client %d served" % i)
        refused(t, "client %d" % (LIMIT + 1))
        refused(t, "client %d again" % (LIMIT + 1))
        conns.pop().close()
        for _ in range(40):   # the server notices the close asynchronously
            time.sleep(0.05)
            try:
                c = connect(PORT)
                conns.append(c)
                break
            except AssertionError:
                continue
        else:
            t.ok(False, "no slot after a client left")
        for c in conns:
            t.eq(rows(c.q("SELECT 1")), [[b"1"]], "all clients at the limit still served")
    finally:
        for c in conns:
            c.close()


@case
def cancel_requests_do_not_need_a_slot(t):
    conns = [connect(PORT) for _ in range(LIMIT)]
    try:
        c0 = conns[0]
        c0.send(pgw.Query("SELECT pg_sleep(5)"))
        time.sleep(0.3)
        with Conn(PORT) as cc:
            cc.send(pgw.cancel_request(c0.pid, c0.key))
            cc.closed_soon(2)
        msgs = c0.until_rfq(timeout=10)
        t.eq([m.sqlstate() for m in msgs if m.t == "E"], ["57014"], "cancelled at the limit")
    finally:
        for c in conns:
            c.close()


if __name__ == "__main__":
    raise SystemExit(main())
