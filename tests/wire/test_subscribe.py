#!/usr/bin/python3
"""test_subscribe.py: SUBSCRIBE [TO] mv [WITH (SNAPSHOT [= bool])] and COPY (SUBSCRIBE ...) TO
STDOUT. A subscriber sees the view's rows at its start (unless SNAPSHOT = false), then every later
change another session makes, as (mz_timestamp, mz_diff, the view's columns): timestamps never go
back, a step's rows come together and consolidated, and summing the diffs gives exactly what
SELECT * FROM mv answers after the writes. A cancel ends it with 57014 and the session goes on; a
DROP of the view ends it with an error; a subscriber that goes away leaves the server serving.
SUBSCRIBE to a table or to something missing is refused."""
import struct
import time

from pgw import Conn, Query, cancel_request, case, connect, errors, main, rows

SETUP = [
    "DROP MATERIALIZED VIEW IF EXISTS subv",
    "DROP TABLE IF EXISTS subt",
    "CREATE TABLE subt (a int, b text)",
    "INSERT INTO subt VALUES (1, 'x'), (2, 'x'), (3, 'y')",
    "CREATE MATERIALIZED VIEW subv AS SELECT b, count(*) AS n, sum(a) AS s FROM subt GROUP BY b",
]

WRITES = [
    "INSERT INTO subt VALUES (4, 'x')",
    "DELETE FROM subt WHERE b = 'y'",
    "INSERT INTO subt VALUES (5, 'z'), (6, 'z')",
    "UPDATE subt SET a = a + 10 WHERE a = 5",
    "INSERT INTO subt SELECT g, 'w' || (g % 3) FROM generate_series(100, 130) g",
]


def cancel(c):
    with Conn() as k:
        k.send(cancel_request(c.pid, c.key))
        k.closed_soon(3)


def copy_lines(c, deadline_s, want_lines):
    """CopyData lines until want_lines of them came or the deadline passed."""
    got = []
    end = time.monotonic() + deadline_s
    while len(got) < want_lines and time.monotonic() < end:
        try:
            m = c.recv(timeout=0.2)
        except Exception:  # noqa: BLE001 (pgw's Timeout: nothing yet)
            continue
        if m.t == "d":
            got.append(m.body.decode().rstrip("\n").split("\t"))
        elif m.t == "E":
            raise AssertionError("subscription failed: %r" % m.fields())
    return got


def view_rows(w):
    return sorted((r[0].decode(), r[1].decode(), r[2].decode()) for r in rows(w.q("SELECT b, n, s FROM subv")))


def fold(lines):
    """The multiset of view rows the (ts, diff, b, n, s) lines add up to, and their timestamps."""
    acc = {}
    for ts, diff, b, n, s in lines:
        key = (b, n, s)
        acc[key] = acc.get(key, 0) + int(diff)
    out = []
    for key, m in acc.items():
        assert m >= 0, ("a row went below zero copies", key, m)
        out.extend([key] * m)
    return sorted(out)


@case
def a_subscriber_follows_the_view(t):
    with connect() as w, connect() as s:
        for sql in SETUP:
            assert not errors(w.q(sql)), sql
        s.send(Query("COPY (SUBSCRIBE subv) TO STDOUT"))
        head = s.until("HE")
        t.eq([m.t for m in head][-1], "H", "CopyOutResponse first")
        t.eq(struct.unpack_from("!bh", head[-1].body, 0), (0, 5), "text, five columns")
        lines = copy_lines(s, 5, 2)
        t.eq(fold(lines), view_rows(w), "the snapshot is the view's rows")
        t.eq(len({ts for ts, *_ in lines}), 1, "the snapshot is one step")
        for sql in WRITES:
            assert not errors(w.q(sql)), sql
        want = view_rows(w)
        # Enough lines for every change (each step retracts and adds at most the groups it touches).
        more = []
        end = time.monotonic() + 10
        while fold(lines + more) != want and time.monotonic() < end:
            more += copy_lines(s, 0.5, 1000)
        t.eq(fold(lines + more), want, "snapshot plus changes is the view after the writes")
        stamps = [int(ts) for ts, *_ in lines + more]
        t.eq(stamps, sorted(stamps), "timestamps never go back")
        t.ok(stamps[-1] > stamps[0], "changes come at later steps than the snapshot")
        steps = {}
        for ts, diff, b, n, s_ in more:
            steps.setdefault((ts, b, n, s_), []).append(diff)
        t.ok(all(len(v) == 1 for v in steps.values()), "a step's rows are consolidated")
        # A rename of the view keeps the subscription: later changes still come.
        assert not errors(w.q("ALTER MATERIALIZED VIEW subv RENAME TO subv_renamed"))
        assert not errors(w.q("INSERT INTO subt VALUES (200, 'after-rename')"))
        renamed = copy_lines(s, 5, 1)
        t.eq([line[1:] for line in renamed], [["1", "after-rename", "1", "200"]], "a rename keeps it")
        assert not errors(w.q("ALTER MATERIALIZED VIEW subv_renamed RENAME TO subv"))
        cancel(s)
        tail = s.until("Z", timeout=5)
        e = [m.fields() for m in tail if m.t == "E"]
        t.eq([(f.get("C"), f.get("M")) for f in e], [("57014", "canceling statement due to user request")],
             "a cancel ends it")
        t.eq(rows(s.q("SELECT 1")), [[b"1"]], "the session goes on")


@case
def snapshot_false_and_plain_subscribe(t):
    with connect() as w, connect() as s:
        for sql in SETUP:
            assert not errors(w.q(sql)), sql
        s.send(Query("SUBSCRIBE TO subv WITH (SNAPSHOT = false)"))
        desc = s.until("TE")
        t.eq(desc[-1].t, "T", "RowDescription")
        t.eq(desc[-1].short(), "T:mz_timestamp/20/0,mz_diff/20/0,b/25/0,n/20/0,s/20/0", "its columns")
        assert not errors(w.q("INSERT INTO subt VALUES (7, 'q')"))
        got = []
        end = time.monotonic() + 5
        while not got and time.monotonic() < end:
            try:
                m = s.recv(timeout=0.2)
            except Exception:  # noqa: BLE001
                continue
            if m.t == "D":
                got.append(m.row())
        t.eq([r[1:] for r in got], [[b"1", b"q", b"1", b"7"]], "only the change, no snapshot")
        cancel(s)
        s.until("Z", timeout=5)


@case
def a_drop_ends_it_and_refusals(t):
    with connect() as w, connect() as s:
        for sql in SETUP:
            assert not errors(w.q(sql)), sql
        s.send(Query("COPY (SUBSCRIBE subv) TO STDOUT"))
        copy_lines(s, 5, 2)
        assert not errors(w.q("DROP MATERIALIZED VIEW subv"))
        tail = s.until("Z", timeout=5)
        e = [m.fields() for m in tail if m.t == "E"]
        t.eq([f.get("M") for f in e], ["the subscribed materialized view was dropped"], "a DROP ends it")
        t.eq(rows(s.q("SELECT 2")), [[b"2"]], "the session goes on")
        for sql, code in [("SUBSCRIBE subt", "0A000"), ("SUBSCRIBE nosuch", "42P01"),
                          ("SUBSCRIBE subt WITH (PROGRESS)", "0A000"), ("SUBSCRIBE (SELECT 1)", "0A000")]:
            got = errors(s.q(sql))
            t.eq([m.fields().get("C") for m in got], [code], sql)
    # A subscriber that goes away without a word leaves the server serving.
    with connect() as w:
        for sql in SETUP:
            assert not errors(w.q(sql)), sql
        gone = connect()
        gone.send(Query("COPY (SUBSCRIBE subv) TO STDOUT"))
        copy_lines(gone, 5, 2)
        gone.close()
        assert not errors(w.q("INSERT INTO subt VALUES (8, 'x')"))
        time.sleep(0.05)
        t.eq(len(rows(w.q("SELECT * FROM subv"))), 2, "the server serves on")
        w.q("DROP MATERIALIZED VIEW subv")
        w.q("DROP TABLE subt")


if __name__ == "__main__":
    main()
