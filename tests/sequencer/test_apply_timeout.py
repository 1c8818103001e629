#!/usr/bin/python3
"""test_apply_timeout.py: synchronous DDL when the workers are slow, on an eddy started with
--fault-worker-delay-ms DELAY --ddl-apply-timeout-ms TIMEOUT (DELAY > 2 * TIMEOUT):
the DDL answers 57014 saying it is committed but not yet applied; it is not rolled back; a
statement of another session waits for the workers and answers 57014 when they take longer
than TIMEOUT, and runs once they applied it. A read waiting for a slow worker ends at
statement_timeout and at a cancel, and its session goes on at once; a write runs to its end (one
into a table without a key is answered before the slow worker applied it, and read after it).

  SEQ_PORT, SEQ_WORKERS, SEQ_DELAY_MS, SEQ_TIMEOUT_MS"""
import os
import sys
import threading
import time
import traceback

import psycopg

PORT = int(os.environ["SEQ_PORT"])
WORKERS = int(os.environ["SEQ_WORKERS"])
DELAY_MS = int(os.environ["SEQ_DELAY_MS"])
TIMEOUT_MS = int(os.environ["SEQ_TIMEOUT_MS"])


def connect():
    return psycopg.connect(host="127.0.0.1", port=PORT, user="seq", dbname="eddy", autocommit=True)


def one(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def check(cond, what):
    if not cond:
        raise AssertionError(what)


failures = 0


def case(fn):
    global failures
    try:
        fn()
        print(f"ok {fn.__name__}")
    except Exception as e:  # noqa: BLE001
        failures += 1
        print(f"not ok {fn.__name__}: {e}")
        for line in traceback.format_exc().splitlines()[-6:]:
            print(f"  {line}")
    sys.stdout.flush()


def count_flows(conn, name):
    return one(conn, f"SELECT count(*) FROM eddy_internal.dataflows WHERE name = 'eddy.public.{name}'")[0][0]


def committed_but_not_applied():
    """Worker 1 sleeps DELAY before each batch; DELAY > 2 * TIMEOUT."""
    a, b = connect(), connect()
    # Start once the slow worker applied everything sequenced so far (its Bootstrap).
    for _ in range(100):
        if one(b, "SELECT min(applied_seq) FROM eddy_internal.workers") == one(
                b, "SELECT max(seq) FROM eddy_internal.commands"):
            break
        time.sleep(0.1)
    t0 = time.monotonic()
    try:
        a.execute("CREATE VIEW slow AS SELECT 1 AS x")
        raise AssertionError("CREATE VIEW returned before the workers applied it")
    except psycopg.errors.QueryCanceled as e:
        msg = e.diag.message_primary or ""
        check("CREATE VIEW is committed" in msg and "not yet applied by every worker" in msg, f"message: {msg}")
        check("not rolled back" in (e.diag.message_detail or ""), f"detail: {e.diag.message_detail}")
    took = (time.monotonic() - t0) * 1000
    check(TIMEOUT_MS * 0.9 <= took < DELAY_MS, f"the DDL answered after {took:.0f} ms")
    # A statement of another session waits for the workers and gives up after TIMEOUT ...
    try:
        count_flows(b, "slow")
        raise AssertionError(f"a query ran after {(time.monotonic() - t0) * 1000:.0f} ms, before the view was applied")
    except psycopg.errors.QueryCanceled as e:
        check("have not applied catalog index" in (e.diag.message_primary or ""), f"{e.diag.message_primary}")
    # ... and the next one waits until the view is applied and sees it on every worker.
    n = count_flows(b, "slow")
    took = (time.monotonic() - t0) * 1000
    check(n == WORKERS, f"after the wait the view is on {n} of {WORKERS} workers")
    check(took >= DELAY_MS * 0.9, f"the query ran after {took:.0f} ms, before the slow worker applied the view")
    check(one(b, "SHOW VIEWS LIKE 'slow'") == [("slow",)], "SHOW VIEWS misses the committed view")
    # Not rolled back: creating it again is 42P07.
    try:
        a.execute("CREATE VIEW slow AS SELECT 1 AS x")
        raise AssertionError("the view could be created twice")
    except psycopg.errors.DuplicateTable:
        pass
    a.close()
    b.close()


def caught_up(conn):
    """Waits until every worker applied everything sequenced so far."""
    for _ in range(200):
        try:
            if one(conn, "SELECT min(applied_seq) FROM eddy_internal.workers") == one(
                    conn, "SELECT max(seq) FROM eddy_internal.commands"):
                return
        except psycopg.errors.QueryCanceled:
            pass   # held until the workers applied a DDL (the case above): ask again
        time.sleep(0.05)
    raise AssertionError("the workers did not catch up")


def stopped_read(conn, message):
    """Milliseconds until a read of slow_reads was stopped with 57014 and this message. The read
    counts: the workers compute it (a plain read of a table nobody writes is answered from the
    shards the workers published, without waiting for them)."""
    t0 = time.monotonic()
    try:
        one(conn, "SELECT count(*) FROM slow_reads")
        raise AssertionError("the read waited for the slow worker to the end")
    except psycopg.errors.QueryCanceled as e:
        check(e.diag.message_primary == message, f"{e.diag.message_primary}")
    return (time.monotonic() - t0) * 1000


def reads_stop_at_timeout_and_cancel():
    """A read's wait for a worker that takes DELAY per batch ends at statement_timeout or a cancel."""
    a = connect()
    try:
        a.execute("CREATE TABLE slow_reads (x int)")
    except psycopg.errors.QueryCanceled:
        pass   # committed, applied later (the case above)
    caught_up(a)
    a.execute("SET statement_timeout = 200")
    took = stopped_read(a, "canceling statement due to statement timeout")
    check(150 <= took < DELAY_MS * 0.9, f"the read was stopped after {took:.0f} ms")
    t0 = time.monotonic()
    check(one(a, "SELECT 1") == [(1,)], "the session goes on")
    took = (time.monotonic() - t0) * 1000
    check(took < DELAY_MS / 2, f"the next statement waited {took:.0f} ms for the abandoned read")
    caught_up(a)
    a.execute("SET statement_timeout = 0")
    t = threading.Timer(0.2, a.cancel)
    t.start()
    took = stopped_read(a, "canceling statement due to user request")
    t.join()
    check(took < DELAY_MS * 0.9, f"the cancel stopped the read after {took:.0f} ms")
    caught_up(a)
    # Rows added to a table without a key cannot fail on a worker: the INSERT is answered once
    # it holds its place among the steps, and the read after it waits for the slow worker and
    # sees it.
    t0 = time.monotonic()
    a.execute("INSERT INTO slow_reads VALUES (1)")
    took = (time.monotonic() - t0) * 1000
    check(took < DELAY_MS / 2, f"the INSERT into a table without a key waited {took:.0f} ms for the slow worker")
    check(one(a, "SELECT x FROM slow_reads") == [(1,)], "the read after the INSERT sees it")
    # A write that can fail on a worker (a key to check) waits for every worker, and once sent
    # it is applied whatever the session does: statement_timeout does not cut its wait.
    try:
        a.execute("CREATE TABLE slow_keyed (x int PRIMARY KEY)")
    except psycopg.errors.QueryCanceled:
        pass
    caught_up(a)
    a.execute("SET statement_timeout = 200")
    t0 = time.monotonic()
    a.execute("INSERT INTO slow_keyed VALUES (1)")
    took = (time.monotonic() - t0) * 1000
    check(took >= DELAY_MS * 0.9, f"the INSERT answered after {took:.0f} ms, before the slow worker applied it")
    a.execute("SET statement_timeout = 0")
    check(one(a, "SELECT x FROM slow_keyed") == [(1,)], "the INSERT applied")
    a.close()


case(committed_but_not_applied)
case(reads_stop_at_timeout_and_cancel)
sys.exit(1 if failures else 0)
