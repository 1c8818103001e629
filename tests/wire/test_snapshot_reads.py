#!/usr/bin/python3
"""test_snapshot_reads.py: reads of materialized views and tables answered on the session's thread
from the shards the workers publish (--snapshot-reads, on by default), checked on servers of their own:

- SLOW_PORT: eddy --workers 2 --fault-worker-delay-ms 300 (worker 1 sleeps before each batch) with
  snapshot reads; SLOW_OFF_PORT: the same with --snapshot-reads off. A lookup of a quiet view, or
  of a table by its key, answers at once on the first (no worker is woken) and waits for the slow
  worker on the second;
  a read right after an acknowledged write (an INSERT into a table with a key, answered once
  applied, and one without a key, answered before the workers applied it) sees the write; a view
  in error answers its error; a read of 20,000 rows goes to the workers; eddy_snapshot_reads_total
  counts the reads answered from the shards.
- CONSISTENT_PORTS (eddy --workers 2 and 4): while sessions move amounts between rows of a
  table in single UPDATEs, every read of the table's rows and of a view of them (spread over the
  workers' shards) sums to the same total: a read is one step on every worker."""
import os
import threading
import time

import psycopg

from pgw import case, main

SLOW = int(os.environ.get("SLOW_PORT", "0"))
SLOW_OFF = int(os.environ.get("SLOW_OFF_PORT", "0"))
CONSISTENT = [int(p) for p in os.environ.get("CONSISTENT_PORTS", "").split() if p]


def conn(port):
    return psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="eddy", autocommit=True)


def q(c, sql):
    cur = c.execute(sql)
    return cur.fetchall() if cur.description else None


def snapshot_reads(c):
    r = q(c, "SELECT value FROM eddy_internal.metrics WHERE name = 'eddy_snapshot_reads_total'")
    return int(float(r[0][0])) if r else -1


def setup(c):
    for s in ["DROP TABLE IF EXISTS k CASCADE", "DROP TABLE IF EXISTS h CASCADE",
              "CREATE TABLE k (a int PRIMARY KEY, b int)",
              "INSERT INTO k SELECT g, g % 10 FROM generate_series(1, 1000) g",
              "CREATE MATERIALIZED VIEW mv AS SELECT b, count(*) AS n, sum(a) AS s FROM k GROUP BY b",
              "CREATE INDEX mv_b ON mv (b)",
              "CREATE TABLE h (a int, b int)",
              "CREATE MATERIALIZED VIEW mh AS SELECT b, count(*) AS n FROM h GROUP BY b",
              "CREATE MATERIALIZED VIEW mdiv AS SELECT a, 100 / (b - 3) AS d FROM k WHERE a > 2000"]:
        q(c, s)
    time.sleep(1.0)   # quiet: nothing left for the slow worker


def lookup_times(c, n):
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        got = q(c, "SELECT n, s FROM mv WHERE b = 7")
        times.append(time.perf_counter() - t0)
        assert got == [(100, sum(range(7, 1001, 10)))], got
        t0 = time.perf_counter()
        got = q(c, "SELECT b FROM k WHERE a = %d" % (i + 10))
        times.append(time.perf_counter() - t0)
        assert got == [((i + 10) % 10,)], got
    return times


@case
def reads_of_views_do_not_wait_for_the_workers(t):
    if not SLOW or not SLOW_OFF:
        t.ok(True, "skipped: SLOW_PORT / SLOW_OFF_PORT not set")
        return
    with conn(SLOW) as c, conn(SLOW_OFF) as off:
        setup(c)
        setup(off)
        before = snapshot_reads(c)
        on_times = lookup_times(c, 10)
        t.ok(max(on_times) < 0.15, "lookups of a quiet view and table wake no worker: slowest %.3f s" % max(on_times))
        t.ok(snapshot_reads(c) - before >= 20, "eddy_snapshot_reads_total counts them")
        off_times = lookup_times(off, 3)
        t.ok(min(off_times) >= 0.25, "with --snapshot-reads off each waits for the slow worker: fastest %.3f s"
             % min(off_times))
        t.eq(snapshot_reads(off), 0, "and none is counted there")
        for a in range(2001, 2006):
            # Answered once every worker applied it: the next read sees it.
            q(c, "INSERT INTO k VALUES (%d, 7)" % a)
            t.eq(q(c, "SELECT n FROM mv WHERE b = 7"), [(100 + a - 2000,)], "a keyed INSERT is read at once (%d)" % a)
            t.eq(q(c, "SELECT b FROM k WHERE a = %d" % a), [(7,)], "and its row by its key (%d)" % a)
            # Answered before the workers applied it (no key): the read still sees it.
            q(c, "INSERT INTO h VALUES (%d, 1)" % a)
            t.eq(q(c, "SELECT n FROM mh WHERE b = 1"), [(a - 2000,)], "an INSERT without a key is read at once (%d)" % a)
            t.eq(sorted(r[0] for r in q(c, "SELECT a FROM h WHERE b = 1")), list(range(2001, a + 1)),
                 "and its rows in the table (%d)" % a)
        with c.transaction():
            q(c, "INSERT INTO k VALUES (2100, 7)")
            t.eq(q(c, "SELECT b FROM k WHERE a = 2100"), [(7,)], "a transaction reads its own write")
            q(c, "UPDATE k SET b = 8 WHERE a = 2100")
            t.eq(q(c, "SELECT b FROM k WHERE a = 2100"), [(8,)], "and its own update")
        t.eq(q(c, "SELECT b FROM k WHERE a = 2100"), [(8,)], "which the next read sees once committed")
        # A read that visits many records goes to the workers, which scan side by side, rather than
        # holding up the session's loop.
        q(c, "CREATE TABLE big (a int, b int)")
        q(c, "INSERT INTO big SELECT g, g FROM generate_series(1, 20000) g")
        time.sleep(1.0)
        before = snapshot_reads(c)
        t.eq(len(q(c, "SELECT * FROM big")), 20000, "a read of 20,000 rows")
        t.eq(q(c, "SELECT a FROM big WHERE b = 5"), [(5,)], "a filter over them")
        t.eq(snapshot_reads(c) - before, 0, "both went to the workers")
        t.eq(q(c, "SELECT b FROM k WHERE a = 11"), [(1,)], "a lookup by key still does not")
        t.eq(snapshot_reads(c) - before, 1, "(counted)")
        q(c, "INSERT INTO k VALUES (3000, 3)")
        try:
            q(c, "SELECT * FROM mdiv")
            t.ok(False, "a view in error answers its error")
        except psycopg.errors.DivisionByZero as e:
            t.eq(str(e).strip(), "division by zero", "a view in error answers its error")
        q(c, "DELETE FROM k WHERE a = 3000")
        t.eq(len(q(c, "SELECT * FROM mdiv")), 6, "and its rows once the failing row went")
        q(c, "DROP MATERIALIZED VIEW mh")
        try:
            q(c, "SELECT * FROM mh")
            t.ok(False, "a dropped view is not read")
        except psycopg.errors.UndefinedTable:
            t.ok(True, "a dropped view is not read")


@case
def a_read_is_one_step_on_every_worker(t):
    for port in CONSISTENT:
        at = "port %d: " % port
        with conn(port) as c:
            for s in ["DROP TABLE IF EXISTS acct CASCADE", "CREATE TABLE acct (k int PRIMARY KEY, v int)",
                      "INSERT INTO acct SELECT g, 100 FROM generate_series(1, 64) g",
                      "CREATE MATERIALIZED VIEW acct_rows AS SELECT k, v FROM acct"]:
                q(c, s)
            before = snapshot_reads(c)
        stop = time.time() + 3.0
        bad, reads, moves, failures = [], [0], [0], []

        def mover(seed):
            try:
                with conn(port) as w:
                    i = seed
                    while time.time() < stop:
                        a, b = 1 + (i * 7) % 64, 1 + (i * 13 + 5) % 64
                        i += 1
                        if a == b:
                            continue
                        try:
                            q(w, "UPDATE acct SET v = v + CASE WHEN k = %d THEN 1 ELSE -1 END WHERE k IN (%d, %d)"
                              % (a, a, b))
                            moves[0] += 1
                        except psycopg.errors.SerializationFailure:
                            pass   # the other mover changed one of the rows meanwhile: nothing was applied
            except Exception as e:   # noqa: BLE001 - reported as a failure below
                failures.append(repr(e))

        def reader():
            try:
                with conn(port) as r:
                    while time.time() < stop:
                        for rel in ("acct_rows", "acct"):
                            rows = q(r, "SELECT k, v FROM %s" % rel)
                            reads[0] += 1
                            if len(rows) != 64 or sum(v for _, v in rows) != 6400:
                                bad.append((rel, len(rows), sum(v for _, v in rows)))
            except Exception as e:   # noqa: BLE001
                failures.append(repr(e))

        threads = [threading.Thread(target=mover, args=(s,)) for s in (1, 2)] + \
                  [threading.Thread(target=reader) for _ in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        t.eq(failures, [], at + "no session failed")
        t.ok(moves[0] > 20 and reads[0] > 20, at + "moves %d, reads %d" % (moves[0], reads[0]))
        t.eq(bad[:5], [], at + "every read saw 64 rows summing to 6400")
        with conn(port) as c:
            t.ok(snapshot_reads(c) - before > 0, at + "some reads were answered from the published shards")
            q(c, "DROP TABLE acct CASCADE")


if __name__ == "__main__":
    main()
