#!/usr/bin/python3
"""test_apply_timeout.py: synchronous DDL when the workers are slow, on an eddy started with
--fault-worker-delay-ms DELAY --ddl-apply-timeout-ms TIMEOUT (DELAY > 2 * TIMEOUT):
the DDL answers 57014 saying it is committed but not yet applied; it is not rolled back; a
statement of another session waits for the workers and answers 57014 when they take longer
than TIMEOUT, and runs once they applied it.

  SEQ_PORT, SEQ_WORKERS, SEQ_DELAY_MS, SEQ_TIMEOUT_MS"""
import os
import sys
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


case(committed_but_not_applied)
sys.exit(1 if failures else 0)
