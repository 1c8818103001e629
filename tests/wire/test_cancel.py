#!/usr/bin/python3
"""test_cancel.py: CancelRequest (pgwire.md 1.10): the right key cancels the running statement
with 57014 within a second, a wrong key or an idle session changes nothing. pg_backend_pid()
answers the pid BackendKeyData gave the session, as PostgreSQL's does (an int4 column named
pg_backend_pid, a number of each session's own): the one a CancelRequest names."""
import time

from pgw import Conn, Query, cancel_request, case, connect, main, rows, shorts, ssl_request


def send_cancel(pid, key, with_ssl=False):
    with Conn() as c:
        if with_ssl:
            c.send(ssl_request())
            c.recv_bytes(1)
        c.send(cancel_request(pid, key))
        closed = c.closed_soon(3)
        return closed, c.buf


@case
def cancel_running_sleep(t):
    with connect(timeout=15) as c:
        t.ok(c.pid is not None, "BackendKeyData received")
        c.send(Query("SELECT pg_sleep(10)"))
        time.sleep(0.3)
        t0 = time.monotonic()
        closed, reply = send_cancel(c.pid, c.key)
        t.ok(closed, "cancel connection closed by the server")
        t.eq(reply, b"", "nothing sent on the cancel connection")
        msgs = c.until_rfq(timeout=10)
        dt = time.monotonic() - t0
        t.eq(shorts(msgs), ["T:pg_sleep/2278/0", "E:ERROR:57014", "Z:I"]
             if any(m.t == "T" for m in msgs) else ["E:ERROR:57014", "Z:I"], "cancelled")
        e = [m for m in msgs if m.t == "E"]
        if e:
            t.eq(e[0].fields().get("M"), "canceling statement due to user request", "message")
        t.ok(dt < 1.0, "cancelled within a second (took %.2f s)" % dt)
        t.eq(rows(c.q("SELECT 2")), [[b"2"]], "session continues")


@case
def cancel_after_ssl_request(t):
    with connect(timeout=15) as c:
        c.send(Query("SELECT pg_sleep(10)"))
        time.sleep(0.3)
        t0 = time.monotonic()
        send_cancel(c.pid, c.key, with_ssl=True)
        msgs = c.until_rfq(timeout=10)
        t.eq([m.sqlstate() for m in msgs if m.t == "E"], ["57014"], "cancelled")
        t.ok(time.monotonic() - t0 < 1.0, "within a second")


@case
def wrong_key_does_nothing(t):
    with connect(timeout=15) as c:
        c.send(Query("SELECT pg_sleep(1.5) AS slept, 'done' AS d"))
        time.sleep(0.3)
        closed, reply = send_cancel(c.pid, c.key ^ 0x5A5A5A5A)
        t.ok(closed, "cancel connection closed")
        t.eq(reply, b"", "no reply")
        send_cancel(c.pid + 1 if c.pid != 0x7FFFFFFF else 1, c.key)
        msgs = c.until_rfq(timeout=10)
        t.eq([m.t for m in msgs if m.t == "E"], [], "no error")
        t.eq([r[1] for r in rows(msgs)], [b"done"], "statement completed")


@case
def cancel_while_idle_is_harmless(t):
    with connect(timeout=15) as c:
        send_cancel(c.pid, c.key)
        time.sleep(0.3)
        t.eq(rows(c.q("SELECT 3")), [[b"3"]], "next statement is not cancelled")


@case
def pg_backend_pid_is_the_key_pid(t):
    with connect(timeout=15) as c, connect(timeout=15) as d:
        got = c.q("SELECT pg_backend_pid()")
        cols = [m.columns() for m in got if m.t == "T"]
        t.eq([(x[0], x[3]) for x in cols[0]] if cols else None, [("pg_backend_pid", 23)], "one int4 column")
        t.eq(rows(got), [[str(c.pid).encode()]], "the pid of BackendKeyData")
        t.eq(rows(c.q("SELECT pg_backend_pid() = pg_backend_pid()")), [[b"t"]], "the same within a statement")
        t.eq(rows(d.q("SELECT pg_backend_pid()")), [[str(d.pid).encode()]], "another session: its own pid")
        t.ok(c.pid != d.pid, "two sessions, two pids")
        c.send(Query("SELECT pg_sleep(10) FROM (SELECT pg_backend_pid()) s"))
        time.sleep(0.3)
        send_cancel(int(rows(d.q("SELECT %d" % c.pid))[0][0]), c.key)
        t.eq(shorts(c.until_rfq(timeout=10))[-2:], ["E:ERROR:57014", "Z:I"], "that pid cancels its statement")


@case
def cancel_with_bad_length_is_dropped(t):
    import struct
    with Conn() as c:
        c.send(struct.pack("!iiii", 20, 80877102, 1, 2) + b"\0\0\0\0")
        t.ok(c.closed_soon(), "closed")
    t.served()


if __name__ == "__main__":
    raise SystemExit(main())
