#!/usr/bin/python3
"""test_explain.py: EXPLAIN over the wire (issue 3 item 4; the plan text itself is checked by the
golden files in tests/explain/): the result is one text column named "Optimized Plan" for the simple
and the extended protocol, a query over a table explains (and reads the table from the workers),
EXPLAIN VIEW plans the stored definition, and errors are the query's own with their positions.

Every case works in a schema of its own, so runs against the shared server never collide."""
import os

from pgw import Bind, Describe, Execute, Parse, Sync, case, connect, errors, main, rows, shorts

RUN = "%d_%d" % (os.getpid(), id(object()) % 10000)


def setup(c, name):
    sch = "explain_%s_%s" % (name, RUN)
    c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
    c.q("CREATE SCHEMA %s" % sch)
    c.q("SET search_path = %s" % sch)
    c.q("CREATE TABLE t (a int, b text)")
    c.q("CREATE VIEW v AS SELECT a FROM t WHERE b = 'x'")
    return sch


def lines(msgs):
    return [r[0].decode() for r in rows(msgs)]


@case
def explain_query_over_a_table(t):
    with connect() as c:
        sch = setup(c, "query")
        got = c.q("EXPLAIN SELECT b FROM t WHERE a > 1")
        cols = [m.columns() for m in got if m.t == "T"]
        t.eq([(col[0], col[3]) for col in cols[0]] if cols else None, [("Optimized Plan", 25)], "RowDescription")
        t.eq(lines(got), ["Explained Query:", "  Project (#1)", "    Filter (#0 > 1)",
                          "      Get eddy.%s.t" % sch], "plan rows")
        t.eq([m.sqlstate() for m in errors(c.q("SELECT b FROM t WHERE a > 1"))], [],
             "reading the table itself: its (no) rows from the workers")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def explain_view_plans_the_definition(t):
    with connect() as c:
        sch = setup(c, "view")
        t.eq(lines(c.q("EXPLAIN VIEW v")), ["eddy.%s.v:" % sch, "  Project (#0)", "    Filter (#1 = 'x')",
                                            "      Get eddy.%s.t" % sch], "EXPLAIN VIEW v")
        t.eq([m.sqlstate() for m in errors(c.q("EXPLAIN MATERIALIZED VIEW v"))], ["42809"], "not a materialized view")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def explain_extended_protocol(t):
    with connect() as c:
        sch = setup(c, "ext")
        c.send(Parse("EXPLAIN PLAN FOR SELECT count(*) FROM t") + Describe("S") + Bind() + Execute() + Sync())
        got = c.until_rfq(1)
        t.eq(shorts(got, skip="SKN")[:4], ["1", "t:", "T:Optimized Plan/25/0", "2"], "Parse, Describe, Bind")
        t.eq(lines(got), ["Explained Query:", "  Reduce aggregates=[count(*)]", "    Project ()",
                          "      Get eddy.%s.t" % sch], "rows")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def explain_errors_are_the_querys(t):
    with connect() as c:
        sch = setup(c, "err")
        e = errors(c.q("EXPLAIN SELECT * FROM nope"))
        t.eq([(m.sqlstate(), m.fields().get("P")) for m in e], [("42P01", "23")], "missing relation at its position")
        e = errors(c.q("EXPLAIN SELECT nope FROM t"))
        t.eq([m.sqlstate() for m in e], ["42703"], "missing column")
        e = errors(c.q("EXPLAIN VIEW nope"))
        t.eq([m.sqlstate() for m in e], ["42P01"], "missing view")
        c.q("DROP SCHEMA %s CASCADE" % sch)


if __name__ == "__main__":
    main()
