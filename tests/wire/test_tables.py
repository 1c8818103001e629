#!/usr/bin/python3
"""test_tables.py: reading tables over the wire. A query over tables is a read of the workers'
shards at one step, finished on the server: over empty tables it answers what PostgreSQL does
(no rows; one row for an aggregate without GROUP BY), in the simple and the extended protocol, with
row limits (PortalSuspended), and a view over a table reads as the table does, before and after
rows arrive.

Every case works in a schema of its own, so runs against the shared server never collide."""
import os

from pgw import Bind, Execute, Parse, Sync, case, connect, errors, main, rows

RUN = "%d_%d" % (os.getpid(), id(object()) % 10000)


def setup(c, name):
    sch = "tables_%s_%s" % (name, RUN)
    c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
    c.q("CREATE SCHEMA %s" % sch)
    c.q("SET search_path = %s" % sch)
    c.q("CREATE TABLE t (a int PRIMARY KEY, b text)")
    c.q("CREATE TABLE u (a int)")
    return sch


def values(msgs):
    return [tuple(None if v is None else v.decode() for v in r) for r in rows(msgs)]


@case
def empty_tables_read_as_postgresql(t):
    with connect() as c:
        setup(c, "empty")
        got = c.q("SELECT * FROM t")
        t.eq(errors(got), [], "no error")
        t.eq(values(got), [], "no rows")
        t.eq(values(c.q("SELECT count(*), max(a), sum(a) FROM t")), [("0", None, None)], "aggregate of none")
        t.eq(values(c.q("SELECT t.a, u.a FROM t JOIN u ON t.a = u.a ORDER BY 1 LIMIT 3")), [], "join")
        t.eq(values(c.q("SELECT a FROM t UNION ALL SELECT 42")), [("42",)], "a union with a constant")
        t.eq(values(c.q("SELECT (SELECT count(*) FROM u) + 1")), [("1",)], "a subquery over a table")
        got = c.q("CREATE VIEW v AS SELECT a FROM t WHERE a > 1; SELECT * FROM v")
        t.eq(errors(got), [], "a view over an empty table: no error")
        t.eq(values(got), [], "a view over an empty table: no rows")
        c.q("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, NULL)")
        t.eq(values(c.q("SELECT a FROM v ORDER BY a")), [("2",), ("3",)], "the view after an INSERT")


@case
def extended_protocol_reads(t):
    with connect() as c:
        setup(c, "ext")
        c.send(Parse("SELECT a, b FROM t WHERE a > $1", "s", (23,)) + Bind("s", "p", ["1"]) + Execute("p", 10) + Sync())
        got = c.until_rfq(1)
        t.eq(errors(got), [], "no error")
        t.eq([m.t for m in got if m.t not in "SKN"], ["1", "2", "C", "Z"], "Parse, Bind, CommandComplete, ReadyForQuery")
        c.q("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
        c.send(Parse("SELECT a FROM t ORDER BY a", "o") + Bind("o", "q") + Execute("q", 2) + Execute("q", 2) + Sync())
        got = c.until_rfq(1)
        t.eq(errors(got), [], "a limited read: no error")
        t.eq([m.t for m in got if m.t not in "SKN"], ["1", "2", "D", "D", "s", "D", "C", "Z"],
             "two rows, PortalSuspended, the last row, CommandComplete")
        t.eq(values(got), [("1",), ("2",), ("3",)], "the rows in order")


if __name__ == "__main__":
    main()
