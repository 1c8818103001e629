#!/usr/bin/python3
"""test_rowdesc.py: the table OID and column number of each RowDescription field, against
PostgreSQL 15. PostgreSQL sends them for a column read straight from a table or view, through
subqueries, WITH queries and join columns that are one side's (markTargetListOrigins), and 0
for anything computed; drivers look them up in pg_attribute (pgJDBC's
ResultSetMetaData.getTableName / isNullable / isAutoIncrement, psycopg's Column).

The queries are described, not run (reading a table needs eddy's dataflow engine); OIDs differ
between the servers, so each is compared as the relation it names (oid::regclass::text).
Every run works in a schema of its own."""
import os

from pgw import Describe, Parse, Sync, TARGET_IS_PG, case, connect, errors, main, rows

SCHEMA = "rowdesc_%d" % os.getpid()

SETUP = [
    "DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA,
    "CREATE SCHEMA %s" % SCHEMA,
    "SET search_path = %s" % SCHEMA,
    "CREATE TABLE t (a int NOT NULL, b text, c numeric(10,2))",
    "CREATE VIEW v AS SELECT a, b, c + 1 AS c1 FROM t",
    "CREATE MATERIALIZED VIEW mv AS SELECT b, a FROM t",
]

# The same on both servers: (query, what it shows).
SAME = [
    "SELECT * FROM t",
    "SELECT a, b AS x, a + 1, a::int8, (a), c::numeric FROM t",
    "SELECT t.a, s.b FROM t JOIN t s USING (a)",
    "SELECT a FROM t JOIN t s USING (a)",
    "SELECT a FROM t LEFT JOIN t s USING (a)",
    "SELECT a FROM t RIGHT JOIN t s USING (a)",
    "SELECT a, t.a, s.a FROM t FULL JOIN t s USING (a)",
    "SELECT x FROM (SELECT a AS x FROM t) s",
    "SELECT q.z FROM (SELECT b FROM t) q(z)",
    "SELECT z FROM t AS q(z)",
    "WITH w AS (SELECT b, a FROM t) SELECT a, b FROM w",
    "SELECT a FROM t UNION SELECT a FROM t",
    "SELECT a FROM (SELECT a FROM t UNION ALL SELECT a FROM t) s",
    "SELECT count(*), a FROM t GROUP BY a",
    "SELECT DISTINCT b FROM t ORDER BY b LIMIT 3",
    "SELECT row_number() OVER (), a FROM t",
    "SELECT a FROM t WHERE a IN (SELECT a FROM t)",
    "SELECT (SELECT a FROM t LIMIT 1)",
    "SELECT * FROM v",
    "SELECT c1, a FROM v",
    "SELECT * FROM mv",
    "SELECT a FROM t, generate_series(1, 2) g",
    "SELECT g FROM t, generate_series(1, 2) g",
    "VALUES (1, 'x')",
    "SELECT * FROM (VALUES (1)) x(a)",
    "SELECT 1 AS one, now()",
    "SELECT relname, oid, relkind FROM pg_class",
    "SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace",
    "SELECT typname, typlen FROM pg_catalog.pg_type",
    "SELECT attname, attnum FROM pg_attribute",
]


def describe(c, sql):
    """(name, relation or None, attnum) of each field of Parse + Describe of sql, or the error."""
    c.send(Parse(sql) + Describe("S") + Sync())
    got = c.until_rfq(1)
    if errors(got):
        return "error " + errors(got)[0].sqlstate()
    cols = next((m.columns() for m in got if m.t == "T"), [])
    out = []
    for name, tab, att, _oid, _len, _mod, _fmt in cols:
        rel = None
        if tab:
            r = rows(c.q("SELECT %d::regclass::text" % tab))
            rel = r[0][0].decode() if r else "?"
        out.append((name, rel, att))
    return out


def run_all(port):
    with connect(port) as c:
        for s in SETUP:
            c.q(s)
        out = [(q, describe(c, q)) for q in SAME]
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)
    return out


@case
def origins_match_postgres(t):
    t.same_as_ref(run_all, "RowDescription table OIDs and column numbers")


@case
def origins_of_plain_columns(t):
    """What the comparison above covers, spelled out for the plain cases."""
    with connect() as c:
        for s in SETUP:
            c.q(s)
        t.eq(describe(c, "SELECT b, a FROM t"), [("b", "t", 2), ("a", "t", 1)], "table columns")
        t.eq(describe(c, "SELECT a + 1 AS a FROM t"), [("a", None, 0)], "an expression has none")
        t.eq(describe(c, "SELECT c1 FROM v"), [("c1", "v", 3)], "a view's column is the view's")
        t.eq(describe(c, "SELECT relname FROM pg_class"), [("relname", "pg_class", 2)], "pg_class")
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


@case
def origins_where_eddy_differs(t):
    """pg_catalog views that eddy defines without an OID of PostgreSQL's (pg_tables, pg_views, ...)
    send 0: PostgreSQL sends its view's OID, which names nothing in eddy's pg_class. A source is
    eddy's own relation (a foreign table to pg_class): its columns carry its OID."""
    if TARGET_IS_PG:
        return
    with connect() as c:
        for s in SETUP:
            c.q(s)
        t.eq(describe(c, "SELECT tablename FROM pg_tables"), [("tablename", None, 0)], "pg_tables")
        c.q("CREATE SOURCE src FROM LOAD GENERATOR COUNTER")
        t.eq(describe(c, "SELECT counter FROM src"), [("counter", "src", 1)], "a source")
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


if __name__ == "__main__":
    raise SystemExit(main())
