#!/usr/bin/python3
"""test_tables.py: reading tables over the wire. A query over tables is a read of the workers'
shards at one step, finished on the server: over empty tables it answers what PostgreSQL does
(no rows; one row for an aggregate without GROUP BY), in the simple and the extended protocol, with
row limits (PortalSuspended), and a view over a table still answers 0A000 until views have
dataflows. statement_timeout applies while the read waits.

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
        t.eq([m.sqlstate() for m in errors(c.q("CREATE VIEW v AS SELECT a FROM t; SELECT * FROM v"))], ["0A000"],
             "a view has no dataflow yet")


@case
def extended_protocol_reads(t):
    with connect() as c:
        setup(c, "ext")
        c.send(Parse("SELECT a, b FROM t WHERE a > $1", "s", (23,)) + Bind("s", "p", ["1"]) + Execute("p", 10) + Sync())
        got = c.until_rfq(1)
        t.eq(errors(got), [], "no error")
        t.eq([m.t for m in got if m.t not in "SKN"], ["1", "2", "C", "Z"], "Parse, Bind, CommandComplete, ReadyForQuery")


if __name__ == "__main__":
    main()
