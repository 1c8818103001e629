#!/usr/bin/python3
"""test_subscribe.py: SUBSCRIBE [TO] {mv | table | view | (query)} [WITH (SNAPSHOT [= bool],
PROGRESS)] and COPY (SUBSCRIBE ...) TO STDOUT. A subscriber sees the rows at its start (unless
SNAPSHOT = false), then every later change another session makes, as (mz_timestamp, mz_diff, the
columns): timestamps never go back, a step's rows come together and consolidated, and summing the
diffs gives exactly what a SELECT of the same relation or query answers after the writes. A table
is followed without a dataflow; a view or a query gets a dataflow of its own on the workers
(eddy_internal shows it) that is gone once the subscription ends, by a cancel, by the client
going away, by a DROP of what it reads, or by a row that fails in it. WITH (PROGRESS) adds
mz_progressed and progress rows, the first one at the subscription's start and more as the
frontier moves without data. A change reaches the subscriber about a round trip after its write
(the workers wake its loop). A cancel ends it with 57014 and the session goes on; a subscriber
that goes away leaves the server serving. Something missing, or a query the engine cannot
maintain, is refused. SUBSCRIBE_TARGETS may name more eddy ports (other --workers counts) to run
the cases marked so on."""
import os
import struct
import time

from pgw import TARGET_PORT, Conn, Query, cancel_request, case, connect, errors, main, rows

EXTRA = [int(p) for p in os.environ.get("SUBSCRIBE_TARGETS", "").split() if p]

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
    with Conn(c.port) as k:
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
        for sql, code in [("SUBSCRIBE nosuch", "42P01"), ("SUBSCRIBE subt WITH (BOGUS)", "42601"),
                          ("SUBSCRIBE (SELECT a, random() FROM subt)", "0A000"),
                          ("SUBSCRIBE (SELECT * FROM nosuch)", "42P01")]:
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



# ------------------------------------------------------------------ tables, views, queries

def subscribed(port, sql):
    """A connection streaming COPY (sql) TO STDOUT, past its CopyOutResponse."""
    s = connect(port)
    s.send(Query("COPY (%s) TO STDOUT" % sql))
    head = s.until("HE")
    if head[-1].t != "H":
        s.close()
        raise AssertionError("%s: %r" % (sql, [m.fields() for m in head if m.t == "E"]))
    return s


def multiset(lines):
    """The rows (without mz_timestamp and mz_diff) that lines add up to."""
    acc = {}
    for line in lines:
        acc[tuple(line[2:])] = acc.get(tuple(line[2:]), 0) + int(line[1])
    out = []
    for row, m in acc.items():
        assert m >= 0, ("a row went below zero copies", row, m)
        out.extend([row] * m)
    return sorted(out)


def answer(w, sql):
    return sorted(tuple(v.decode() if v is not None else "\\\\N" for v in r) for r in rows(w.q(sql)))


def follow(s, lines, want, deadline_s=10):
    """Reads lines until they add up to want (or the deadline); all lines read."""
    end = time.monotonic() + deadline_s
    while multiset(lines) != want and time.monotonic() < end:
        lines += copy_lines(s, 0.05, 1)
    return lines


def own_dataflows(w):
    """The subscriptions' dataflows on the workers: distinct ids, and their arrangements' rows."""
    ids = rows(w.q("SELECT count(DISTINCT dataflow_id) FROM eddy_internal.dataflow_operators "
                   "WHERE dataflow = 'subscribe'"))[0][0]
    arr = rows(w.q("SELECT count(*) FROM eddy_internal.arrangements WHERE dataflow = 'subscribe'"))[0][0]
    return int(ids), int(arr)


def settles(w, ok, deadline_s=5):
    """own_dataflows once ok(it), or as it is at the deadline."""
    end = time.monotonic() + deadline_s
    got = own_dataflows(w)
    while not ok(got) and time.monotonic() < end:
        time.sleep(0.02)
        got = own_dataflows(w)
    return got


def on_every_server(fn):
    """A case run on the shared eddy and on each of SUBSCRIBE_TARGETS."""
    def run(t):
        for port in [TARGET_PORT] + EXTRA:
            fn(t, port, "port %d: " % port)
    run.__name__ = fn.__name__
    return case(run)


@on_every_server
def a_table_is_followed_directly(t, port, at):
    with connect(port) as w:
        for sql in ["DROP TABLE IF EXISTS subk", "CREATE TABLE subk (k int PRIMARY KEY, v text)",
                    "INSERT INTO subk VALUES (1, 'a'), (2, 'b')"]:
            assert not errors(w.q(sql)), sql
        s = subscribed(port, "SUBSCRIBE subk")
        snap = copy_lines(s, 5, 2)
        t.eq(multiset(snap), [("1", "a"), ("2", "b")], at + "the snapshot is the table's rows")
        t.eq(own_dataflows(w), (0, 0), at + "a table needs no dataflow of its own")
        steps = []
        for sql, want in [("UPDATE subk SET v = 'c' WHERE k = 1", [("-1", "1", "a"), ("1", "1", "c")]),
                          ("DELETE FROM subk WHERE k = 2", [("-1", "2", "b")]),
                          ("INSERT INTO subk VALUES (3, 'd')", [("1", "3", "d")])]:
            assert not errors(w.q(sql)), sql
            got = copy_lines(s, 5, len(want))
            t.eq(sorted(tuple(line[1:]) for line in got), want, at + sql)
            t.eq(len({line[0] for line in got}), 1, at + sql + ": one step")
            steps.append(int(got[0][0]))
        t.ok(int(snap[0][0]) < steps[0] < steps[1] < steps[2], at + "each write at a later step: %r" % steps)
        t.eq(copy_lines(s, 0.3, 1), [], at + "nothing more")
        cancel(s)
        t.eq([m.fields().get("C") for m in s.until("Z", timeout=5) if m.t == "E"], ["57014"], at + "a cancel ends it")
        s.close()
        w.q("DROP TABLE subk")


QUERY_SETUP = [
    "DROP VIEW IF EXISTS subqv", "DROP MATERIALIZED VIEW IF EXISTS subqm", "DROP TABLE IF EXISTS subq",
    "CREATE TABLE subq (a int, b text)",
    "INSERT INTO subq VALUES (1, 'x'), (2, 'x'), (3, 'y'), (4, 'z')",
    "CREATE VIEW subqv AS SELECT b, count(*) AS n, sum(a) AS s FROM subq GROUP BY b",
    "CREATE MATERIALIZED VIEW subqm AS SELECT b, count(*) AS n FROM subq GROUP BY b",
]
JOINED = "SELECT q.b, q.a, m.n FROM subq q JOIN subqm m ON q.b = m.b WHERE q.a > 1"


@on_every_server
def a_view_and_a_query_get_a_dataflow_until_they_end(t, port, at):
    with connect(port) as w:
        for sql in QUERY_SETUP:
            assert not errors(w.q(sql)), sql
        base = own_dataflows(w)
        t.eq(base, (0, 0), at + "no subscription dataflow before")
        sv = subscribed(port, "SUBSCRIBE subqv")
        sq = subscribed(port, "SUBSCRIBE (%s)" % JOINED)
        lv = follow(sv, [], answer(w, "SELECT * FROM subqv"))
        lq = follow(sq, [], answer(w, JOINED))
        t.eq(multiset(lv), answer(w, "SELECT * FROM subqv"), at + "the view's snapshot")
        t.eq(multiset(lq), answer(w, JOINED), at + "the query's snapshot (a table joined with a view)")
        ids, arr = own_dataflows(w)
        t.eq(ids, 2, at + "a dataflow for each")
        t.ok(arr > 0, at + "their arrangements show")
        for sql in WRITES[:4] + ["UPDATE subq SET b = 'y' WHERE a = 2", "DELETE FROM subq WHERE b = 'z'"]:
            assert not errors(w.q(sql.replace("subt", "subq"))), sql
        lv = follow(sv, lv, answer(w, "SELECT * FROM subqv"))
        lq = follow(sq, lq, answer(w, JOINED))
        t.eq(multiset(lv), answer(w, "SELECT * FROM subqv"), at + "snapshot plus changes is the view")
        t.eq(multiset(lq), answer(w, JOINED), at + "snapshot plus changes is the query")
        for lines in (lv, lq):
            stamps = [int(line[0]) for line in lines]
            t.eq(stamps, sorted(stamps), at + "timestamps never go back")
        cancel(sv)
        t.eq([m.fields().get("C") for m in sv.until("Z", timeout=5) if m.t == "E"], ["57014"], at + "cancelled")
        t.eq(settles(w, lambda d: d[0] == 1)[0], 1, at + "the cancelled one's dataflow is gone")
        t.eq(rows(sv.q("SELECT 1")), [[b"1"]], at + "its session goes on")
        sv.close()
        sq.close()   # without a word: the server notices and tears its dataflow down
        t.eq(settles(w, lambda d: d == (0, 0)), (0, 0), at + "no dataflow, no arrangement left")
        assert not errors(w.q("INSERT INTO subq VALUES (50, 'x')"))
        t.eq(answer(w, "SELECT * FROM subqm WHERE b = 'x'"), answer(w, "SELECT b, count(*) FROM subq WHERE b = 'x' "
                                                                     "GROUP BY b"), at + "the server serves on")


@on_every_server
def a_drop_ends_a_query_subscription(t, port, at):
    with connect(port) as w:
        for sql in QUERY_SETUP:
            assert not errors(w.q(sql)), sql
        s = subscribed(port, "SUBSCRIBE (SELECT b, sum(a) FROM subq GROUP BY b)")
        follow(s, [], answer(w, "SELECT b, sum(a) FROM subq GROUP BY b"))
        assert not errors(w.q("DROP TABLE subq CASCADE"))
        e = [m.fields() for m in s.until("Z", timeout=5) if m.t == "E"]
        t.eq([(f.get("C"), f.get("M")) for f in e],
             [("42P01", 'subscribe has been terminated because underlying relation "eddy.public.subq" was dropped')],
             at + "a DROP ends it")
        t.eq(settles(w, lambda d: d == (0, 0)), (0, 0), at + "its dataflow is gone")
        s.close()


@on_every_server
def an_error_ends_a_query_subscription(t, port, at):
    with connect(port) as w:
        for sql in QUERY_SETUP:
            assert not errors(w.q(sql)), sql
        s = subscribed(port, "SUBSCRIBE (SELECT b, 100 / a AS r FROM subq)")
        follow(s, [], answer(w, "SELECT b, 100 / a FROM subq"))
        t.eq(own_dataflows(w)[0], 1, at + "its dataflow")
        assert not errors(w.q("INSERT INTO subq VALUES (0, 'zero')"))
        e = [m.fields() for m in s.until("Z", timeout=5) if m.t == "E"]
        t.eq([(f.get("C"), f.get("M")) for f in e], [("22012", "division by zero")], at + "a row that fails ends it")
        t.eq(settles(w, lambda d: d == (0, 0)), (0, 0), at + "its dataflow is gone")
        t.eq(rows(s.q("SELECT 1")), [[b"1"]], at + "the session goes on")
        s.close()


@case
def a_constant_query_ends_after_its_rows(t):
    """Nothing can change a query that reads no relation: as Materialize's, it ends once its rows
    are out, as a query does (SELECT n, or COPY n)."""
    with connect() as s:
        msgs = s.q("SUBSCRIBE (SELECT 1 AS x UNION ALL SELECT 2)")
        t.eq(sorted(r[1:] for r in rows(msgs)), [[b"1", b"1"], [b"1", b"2"]], "its rows")
        t.eq([m.text() for m in msgs if m.t == "C"], ["SELECT 2"], "then its end")
        msgs = s.q("COPY (SUBSCRIBE (VALUES ('a')) WITH (PROGRESS)) TO STDOUT")
        lines = [m.body.decode().rstrip("\n").split("\t")[1:] for m in msgs if m.t == "d"]
        t.eq(lines[:2], [["t", "\\N", "\\N"], ["f", "1", "a"]], "progress at its start, its row")
        t.eq([m.text() for m in msgs if m.t == "C"], ["COPY %d" % len(lines)], "COPY n counts every line")


def data_rows(s, deadline_s, want):
    """DataRows (lists of str / None) until want of them came or the deadline passed."""
    got = []
    end = time.monotonic() + deadline_s
    while len(got) < want and time.monotonic() < end:
        try:
            m = s.recv(timeout=0.2)
        except Exception:  # noqa: BLE001 (pgw's Timeout: nothing yet)
            continue
        if m.t == "D":
            got.append([v.decode() if v is not None else None for v in m.row()])
        elif m.t == "E":
            raise AssertionError("subscription failed: %r" % m.fields())
    return got


@on_every_server
def progress_rows_mark_the_frontier(t, port, at):
    with connect(port) as w, connect(port) as s:
        for sql in ["DROP TABLE IF EXISTS subp", "DROP TABLE IF EXISTS subp_other", "CREATE TABLE subp (a int)",
                    "CREATE TABLE subp_other (a int)", "INSERT INTO subp VALUES (1), (2)"]:
            assert not errors(w.q(sql)), sql
        s.send(Query("SUBSCRIBE (SELECT a, a * 10 AS b FROM subp) WITH (PROGRESS)"))
        desc = s.until("TE")
        t.eq(desc[-1].short(), "T:mz_timestamp/20/0,mz_progressed/16/0,mz_diff/20/0,a/23/0,b/23/0",
             at + "mz_progressed after mz_timestamp")
        first = data_rows(s, 5, 4)
        t0 = first[0][0]
        t.eq(first[0], [t0, "t", None, None, None], at + "the first row is progress at its start")
        t.eq(sorted(first[1:3]), [[t0, "f", "1", "1", "10"], [t0, "f", "1", "2", "20"]],
             at + "the snapshot at that step")
        t.eq(first[3][1:], ["t", None, None, None], at + "then progress past it")
        t.ok(int(first[3][0]) > int(t0), at + "to a later step")
        last = int(first[3][0])
        # Writes elsewhere move the frontier: progress without data.
        assert not errors(w.q("INSERT INTO subp_other VALUES (7)"))
        quiet = data_rows(s, 5, 1)
        t.eq([r[1:] for r in quiet], [["t", None, None, None]], at + "progress without data")
        t.ok(quiet and int(quiet[0][0]) > last, at + "a later frontier")
        assert not errors(w.q("INSERT INTO subp VALUES (3)"))
        more = data_rows(s, 5, 2)
        t.eq([r[1:] for r in more], [["f", "1", "3", "30"], ["t", None, None, None]], at + "the change, then progress")
        t.ok(len(more) == 2 and int(more[1][0]) > int(more[0][0]), at + "progress past the change's step")
        stamps = [int(r[0]) for r in first + quiet + more]
        t.eq(stamps, sorted(stamps), at + "timestamps never go back")
        cancel(s)
        s.until("Z", timeout=5)
        w.q("DROP TABLE subp")
        w.q("DROP TABLE subp_other")


@case
def a_change_arrives_without_waiting_for_a_poll(t):
    """The last worker to pass a step wakes the subscriber's loop: a change is out within about a
    round trip, not at the session's next poll (every 10 ms, which a median of ~5 ms would show)."""
    with connect() as w, connect() as s:
        for sql in ["DROP TABLE IF EXISTS sublat", "CREATE TABLE sublat (a int)"]:
            assert not errors(w.q(sql)), sql
        s.send(Query("COPY (SUBSCRIBE sublat) TO STDOUT"))
        s.until("H")
        took = []
        for i in range(40):
            t0 = time.monotonic()
            assert not errors(w.q("INSERT INTO sublat VALUES (%d)" % i))
            got = copy_lines(s, 2, 1)
            took.append((time.monotonic() - t0) * 1000)
            t.eq([line[1:] for line in got], [["1", str(i)]], "insert %d arrives" % i)
        took.sort()
        t.ok(took[len(took) // 2] < 3.0, "median from INSERT to its row: %.2f ms" % took[len(took) // 2])
        cancel(s)
        s.until("Z", timeout=5)
        w.q("DROP TABLE sublat")


if __name__ == "__main__":
    main()
