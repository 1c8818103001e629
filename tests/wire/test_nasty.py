#!/usr/bin/python3
"""test_nasty.py: hostile and clumsy clients (pgwire.md 1.2, 5.2): bad lengths, truncated and
oversized messages, byte-by-byte delivery, a client that never reads. After each, another
client must still be served."""
import os
import random
import socket
import struct
import threading
import time

from pgw import (Bind, Conn, Describe, Execute, Flush, Parse, Query, Sync, case, connect, frame,
                 main, rows, rss_kib, shorts, startup, TARGET_IS_PG, TARGET_PORT)

EDDY_PID = int(os.environ.get("EDDY_PID") or 0)


def dropped(c, what, t, fatal_ok=True):
    """The server must close the connection; it may first send a FATAL 08P01."""
    closed = c.closed_soon(5)
    t.ok(closed, "%s: connection closed" % what)
    if c.buf:
        m_t = chr(c.buf[0])
        t.ok(fatal_ok and m_t == "E", "%s: only a FATAL may come back, got %r" % (what, c.buf[:40]))


@case
def message_length_below_four(t):
    for ln in (0, 3, -1):
        with connect() as c:
            c.send(b"Q" + struct.pack("!i", ln) + b"SELECT 1\0")
            dropped(c, "Query with length %d" % ln, t)
    t.served()


@case
def small_message_over_its_limit(t):
    with connect() as c:
        c.send(b"S" + struct.pack("!i", 10005) + b"\0" * 10001)
        dropped(c, "Sync of 10001 bytes", t)
    with connect() as c:
        c.send(b"E" + struct.pack("!i", 200000))
        dropped(c, "Execute declaring 200 KB", t)
    t.served()


@case
def message_over_the_limit(t):
    # PostgreSQL takes at most 0x3FFFFFFE bytes; eddy's limit is a knob but never more.
    with connect() as c:
        c.send(b"Q" + struct.pack("!i", 0x7FFFFFF0) + b"SELECT ")
        dropped(c, "Query declaring 2 GB", t)
    t.served()


@case
def huge_declared_length_then_close(t):
    # A legal-looking 512 MB Query that never arrives: nothing may be allocated up front.
    before = rss_kib(EDDY_PID) if EDDY_PID and not TARGET_IS_PG else None
    conns = []
    for _ in range(20):
        c = connect()
        c.send(b"Q" + struct.pack("!i", 512 << 20) + b"SELECT 1")
        conns.append(c)
    time.sleep(0.5)
    if before is not None:
        after = rss_kib(EDDY_PID)
        t.ok(after - before < 64 * 1024, "20 half-sent 512 MB queries grew RSS by %d KiB" %
             (after - before))
    for c in conns:
        c.close()
    t.served()


@case
def truncated_messages_then_close(t):
    whole = Query("SELECT 1") + Parse("SELECT $1::int4", "x") + Bind("x", values=["5"]) + \
        Execute() + Sync()
    for cut in (1, 2, 4, 5, 9, 14, len(whole) - 1):
        c = connect()
        c.send(whole[:cut])
        c.close()
    # And one that goes quiet mid-message but stays open while others work.
    quiet = connect()
    quiet.send(whole[:7])
    t.served()
    quiet.close()
    t.served()


@case
def bind_value_longer_than_message(t):
    body = b"\0\0" + struct.pack("!hh", 0, 1) + struct.pack("!i", 1000) + b"12" + struct.pack("!h", 0)
    with connect() as c:
        c.send(Parse("SELECT $1::text") + frame("B", body) + Sync())
        msgs = c.until("ZE")
        if msgs[-1].t == "E":
            t.eq(msgs[-1].sqlstate(), "08P01", "Bind whose value overruns it")
    t.served()


@case
def describe_with_bad_kind(t):
    with connect() as c:
        c.send(frame("D", b"X\0") + Sync())
        got = shorts(c.until_rfq(), skip="SK")
        t.eq(got, ["E:ERROR:08P01", "Z:I"], "Describe 'X'")
        c.send(frame("C", b"Q\0") + Sync())
        got = shorts(c.until_rfq(), skip="SK")
        t.eq(got, ["E:ERROR:08P01", "Z:I"], "Close 'Q'")
    t.served()


@case
def startup_message_over_10000_bytes(t):
    params = {"user": "postgres", "database": "eddy", "application_name": "a" * 10050}
    with Conn() as c:
        try:
            c.send(startup(params))
        except OSError:
            pass
        t.ok(c.closed_soon(), "connection dropped")
        t.eq(c.buf, b"", "nothing sent back")
    t.served()


@case
def many_connections_sending_garbage_concurrently(t):
    rnd = random.Random(7)
    conns = []
    for i in range(30):
        c = Conn()
        junk = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200)))
        if i % 3 == 0:
            junk = startup() + junk   # garbage after a valid startup
        try:
            c.send(junk)
        except OSError:
            pass
        conns.append(c)
    for c in conns:
        c.closed_soon(0.2)
        c.close()
    t.served()


SESSION = (Query("SELECT 1 AS a; SELECT 'x' AS b") +
           Parse("SELECT $1::int4 * 2 AS d", "s") + Describe("S", "s") +
           Bind("s", values=["21"]) + Execute() + Sync() +
           Query("BEGIN") + Query("SELECT 1/0") + Query("ROLLBACK") +
           Parse("VALUES (1), (2), (3)") + Bind() + Execute("", 2) +
           Execute("", 2) + Sync() + Query("SELECT repeat('z', 5000)"))
SESSION_RFQ = 7


def session_answers(port, chunked, seed=1):
    with Conn(port, timeout=20) as c:
        data = startup() + SESSION
        if chunked:
            rnd = random.Random(seed)
            i = 0
            while i < len(data):
                n = rnd.randint(1, 7)
                c.send(data[i:i + n])
                i += n
                if rnd.random() < 0.1:
                    time.sleep(0.001)
        else:
            c.send(data)
        msgs = c.until_rfq(1 + SESSION_RFQ)
        return shorts(msgs)


@case
def byte_by_byte_delivery(t):
    whole = session_answers(None, False)
    t.eq(len([m for m in whole if m.startswith("Z:")]), 1 + SESSION_RFQ, "whole session answered")
    for seed in (1, 2, 3):
        t.eq(session_answers(None, True, seed), whole, "answers with 1..7-byte chunks (seed %d)" % seed)


@case
def session_answers_match_postgres(t):
    t.same_as_ref(lambda p: session_answers(p, True), "chunked session")


@case
def client_that_never_reads(t):
    """Many queries sent without reading: the server must stop reading (back-pressure),
    stay small, and keep serving others; the answers must then all arrive in order."""
    # 8000 queries of 1.5 KB (12 MB, more than the kernel buffers) asking for
    # 40 MB of answers.
    n, width = 8000, 5000
    q = Query("SELECT repeat('x', %d) /* %s */" % (width, "p" * 1500))
    s = socket.create_connection(("127.0.0.1", TARGET_PORT))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    s.sendall(startup())
    time.sleep(0.2)
    sent = {"n": 0}

    def writer():
        try:
            for _ in range(n):
                s.sendall(q)
                sent["n"] += 1
        except OSError:
            pass
    th = threading.Thread(target=writer, daemon=True)
    before = rss_kib(EDDY_PID) if EDDY_PID and not TARGET_IS_PG else None
    th.start()
    time.sleep(2.0)
    t.ok(sent["n"] < n, "writer is blocked (the server stopped reading): sent %d of %d" %
         (sent["n"], n))
    if before is not None:
        grown = rss_kib(EDDY_PID) - before
        t.ok(grown < 32 * 1024, "RSS grew by %d KiB while the client did not read" % grown)
        print("  (info) RSS growth with a non-reading client: %d KiB" % grown)
    t.served(what="another client is served meanwhile")
    # Now read everything: every answer must arrive, in order.
    c = Conn.__new__(Conn)
    c.sock, c.timeout, c.buf, c.params, c.eof, c.pid, c.key = s, 30, b"", {}, False, None, None
    c.until_rfq(1)
    got = 0
    try:
        while got < n:
            m = c.recv(30)
            if m.t == "D":
                if len(m.row()[0]) != width:
                    t.ok(False, "row %d has the wrong width" % got)
                    break
            elif m.t == "Z":
                got += 1
    except Exception as e:  # noqa: BLE001
        t.ok(False, "reading answers: %s after %d" % (e, got))
    t.eq(got, n, "ReadyForQuery count")
    th.join(5)
    s.close()
    t.served()


if __name__ == "__main__":
    raise SystemExit(main())
