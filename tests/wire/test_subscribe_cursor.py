#!/usr/bin/python3
"""test_subscribe_cursor.py: SUBSCRIBE through a cursor, as drivers read it (psycopg here): BEGIN;
DECLARE c CURSOR FOR SUBSCRIBE ...; FETCH [n | ALL] c [WITH (timeout = ...)]; CLOSE c. A FETCH
answers the rows that are ready, at most n, the tag FETCH k; with nothing ready it waits for a first
row for at most its timeout (none: until one comes, '0s': not at all), so a write made by another
session while it waits comes back at once. The cursor's columns describe FETCH. CLOSE, COMMIT and
ROLLBACK end the subscription and its dataflow on the workers; a cancel ends a waiting FETCH with
57014. DECLARE outside a transaction block is 25P01, a cursor that is not there 34000.
SUBSCRIBE_TARGETS may name more eddy ports (other --workers counts) to run every case on."""
import os
import threading
import time

import psycopg

from pgw import TARGET_PORT, case, main

EXTRA = [int(p) for p in os.environ.get("SUBSCRIBE_TARGETS", "").split() if p]


def conn(port, autocommit=False):
    return psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="eddy", autocommit=autocommit)


def on_every_server(fn):
    def run(t):
        for port in [TARGET_PORT] + EXTRA:
            fn(t, port, "port %d: " % port)
    run.__name__ = fn.__name__
    return case(run)


def own_dataflows(w):
    return w.execute("SELECT count(DISTINCT dataflow_id) FROM eddy_internal.dataflow_operators "
                     "WHERE dataflow = 'subscribe'").fetchone()[0]


def settles(w, want, deadline_s=5):
    end = time.monotonic() + deadline_s
    got = own_dataflows(w)
    while got != want and time.monotonic() < end:
        time.sleep(0.02)
        got = own_dataflows(w)
    return got


def later(delay_s, fn):
    th = threading.Thread(target=lambda: (time.sleep(delay_s), fn()))
    th.start()
    return th


def fetch(cur, sql):
    """The rows of a FETCH, its tag and how long it took."""
    t0 = time.monotonic()
    cur.execute(sql)
    return cur.fetchall(), cur.statusmessage, time.monotonic() - t0


@on_every_server
def fetch_reads_a_table_subscription(t, port, at):
    with conn(port, True) as w, conn(port) as c:
        w.execute("DROP TABLE IF EXISTS curt")
        w.execute("CREATE TABLE curt (a int, b text)")
        w.execute("INSERT INTO curt VALUES (1, 'x'), (2, 'y')")
        cur = c.cursor()
        cur.execute("DECLARE c CURSOR FOR SUBSCRIBE curt")
        t.eq(cur.statusmessage, "DECLARE CURSOR", at + "DECLARE's tag")
        got, tag, _ = fetch(cur, "FETCH ALL c")
        t.eq([d.name for d in cur.description], ["mz_timestamp", "mz_diff", "a", "b"], at + "FETCH's columns")
        t.eq(sorted(r[1:] for r in got), [(1, 1, "x"), (1, 2, "y")], at + "the snapshot")
        t.eq(tag, "FETCH 2", at + "FETCH's tag counts its rows")
        snap_ts = got[0][0]
        got, tag, dt = fetch(cur, "FETCH ALL c WITH (timeout = '300ms')")
        t.eq((got, tag), ([], "FETCH 0"), at + "nothing ready: no row when the timeout passes")
        t.ok(0.25 <= dt < 2.5, at + "after the timeout: %.2f s" % dt)
        got, tag, dt = fetch(cur, "FETCH ALL c WITH (timeout = '0s')")
        t.ok((got, tag) == ([], "FETCH 0") and dt < 0.5, at + "timeout 0: at once (%.2f s)" % dt)
        th = later(0.3, lambda: w.execute("UPDATE curt SET b = 'z' WHERE a = 1"))
        got, tag, dt = fetch(cur, "FETCH ALL c")
        th.join()
        t.eq(sorted(r[1:] for r in got), [(-1, 1, "x"), (1, 1, "z")], at + "without a timeout it waits for the change")
        t.ok(0.25 <= dt < 3, at + "and answers once it is there (%.2f s)" % dt)
        t.ok(len({r[0] for r in got}) == 1 and got[0][0] > snap_ts, at + "one later step")
        w.execute("INSERT INTO curt VALUES (3, 'p'), (4, 'q'), (5, 'r')")
        got, tag, _ = fetch(cur, "FETCH 2 c WITH (timeout = '2s')")
        t.eq((len(got), tag), (2, "FETCH 2"), at + "FETCH 2 takes two of the three")
        rest, tag, _ = fetch(cur, "FETCH ALL FROM c WITH (timeout = '2s')")
        t.eq(tag, "FETCH 1", at + "the third comes next")
        t.eq(sorted(r[2:] for r in got + rest), [(3, "p"), (4, "q"), (5, "r")], at + "the inserted rows, once each")
        cur.execute("CLOSE c")
        t.eq(cur.statusmessage, "CLOSE CURSOR", at + "CLOSE's tag")
        try:
            cur.execute("FETCH c")
            t.ok(False, at + "FETCH after CLOSE fails")
        except psycopg.Error as e:
            t.eq(e.sqlstate, "34000", at + "FETCH after CLOSE: the cursor is not there")
        c.rollback()
        w.execute("DROP TABLE curt")


@on_every_server
def a_query_cursor_keeps_a_dataflow_until_the_transaction_ends(t, port, at):
    with conn(port, True) as w, conn(port) as c:
        w.execute("DROP TABLE IF EXISTS curq")
        w.execute("CREATE TABLE curq (a int, b text)")
        w.execute("INSERT INTO curq VALUES (1, 'x'), (2, 'x'), (3, 'y')")
        t.eq(own_dataflows(w), 0, at + "none before")
        cur = c.cursor()
        cur.execute("DECLARE q CURSOR FOR SUBSCRIBE (SELECT b, count(*) AS n FROM curq GROUP BY b) WITH (PROGRESS)")
        got, _, _ = fetch(cur, "FETCH ALL q WITH (timeout = '2s')")
        t.eq([d.name for d in cur.description], ["mz_timestamp", "mz_progressed", "mz_diff", "b", "n"],
             at + "columns with PROGRESS")
        data = sorted(r[2:] for r in got if not r[1])
        t.eq(data, [(1, "x", 2), (1, "y", 1)], at + "the query's snapshot")
        t.ok(got and got[0][1] and got[0][2:] == (None, None, None), at + "progress first: %r" % got[:1])
        t.eq(settles(w, 1), 1, at + "its dataflow on the workers")
        w.execute("INSERT INTO curq VALUES (4, 'y')")
        seen = []
        end = time.monotonic() + 5
        while not any(not r[1] for r in seen) and time.monotonic() < end:
            seen += fetch(cur, "FETCH ALL q WITH (timeout = '1s')")[0]
        t.eq(sorted(r[2:] for r in seen if not r[1]), [(-1, "y", 1), (1, "y", 2)], at + "the group's change")
        c.commit()
        t.eq(settles(w, 0), 0, at + "COMMIT closes the cursor and its dataflow")
        cur.execute("DECLARE q CURSOR FOR SUBSCRIBE (SELECT a FROM curq WHERE a > 2)")
        t.eq(settles(w, 1), 1, at + "a new cursor of the same name")
        c.rollback()
        t.eq(settles(w, 0), 0, at + "ROLLBACK closes it too")
        cur.execute("DECLARE k CURSOR FOR SUBSCRIBE (SELECT 'only' AS s)")
        got, _, _ = fetch(cur, "FETCH ALL k")
        t.eq([r[1:] for r in got], [(1, "only")], at + "a constant query's row")
        got, tag, dt = fetch(cur, "FETCH ALL k")
        t.ok((got, tag) == ([], "FETCH 0") and dt < 1, at + "then nothing, at once: it is complete (%.2f s)" % dt)
        c.rollback()
        w.execute("DROP TABLE curq")


@on_every_server
def a_cancel_ends_a_waiting_fetch_and_refusals(t, port, at):
    with conn(port, True) as w, conn(port) as c:
        w.execute("DROP TABLE IF EXISTS curc")
        w.execute("CREATE TABLE curc (a int)")
        cur = c.cursor()
        cur.execute("DECLARE k CURSOR FOR SUBSCRIBE curc WITH (SNAPSHOT = false)")
        th = later(0.3, c.cancel)
        try:
            fetch(cur, "FETCH ALL k")
            t.ok(False, at + "a FETCH waiting for rows ends at a cancel")
        except psycopg.Error as e:
            t.eq(e.sqlstate, "57014", at + "a cancel ends the wait")
        th.join()
        c.rollback()
        t.eq(c.execute("SELECT 1").fetchone(), (1,), at + "the session goes on")
        c.rollback()
        c.autocommit = True
        for sql, code in [("DECLARE k CURSOR FOR SUBSCRIBE curc", "25P01"), ("FETCH ALL nosuch", "34000"),
                          ("CLOSE nosuch", "34000")]:
            try:
                c.execute(sql)
                t.ok(False, at + sql + " fails")
            except psycopg.Error as e:
                t.eq(e.sqlstate, code, at + sql)
        c.autocommit = False
        c.execute("DECLARE k CURSOR FOR SUBSCRIBE curc")
        try:
            c.execute("DECLARE k CURSOR FOR SUBSCRIBE curc")
            t.ok(False, at + "a second DECLARE of k fails")
        except psycopg.Error as e:
            t.eq(e.sqlstate, "42P03", at + "a cursor of that name exists")
        c.rollback()
        w.execute("DROP TABLE curc")


if __name__ == "__main__":
    main()
