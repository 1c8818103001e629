#!/usr/bin/python3
"""test_dml.py: writes through the extended protocol, against PostgreSQL 15: Parse infers each
$n of INSERT, UPDATE and DELETE from the column it is assigned to or compared with, Describe of
the statement answers ParameterDescription and RETURNING's RowDescription (NoData without
RETURNING), declared types are kept, and errors come at Parse (binding) or at Bind (planning:
a constant too long for its column); a bound write runs and is read back. Every run works in a
schema of its own."""
import os

from pgw import Bind, Describe, Execute, Parse, Sync, case, connect, errors, main, rows, shorts

SCHEMA = "wiredml_%d" % os.getpid()

SETUP = [
    "DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA,
    "CREATE SCHEMA %s" % SCHEMA,
    "SET search_path = %s" % SCHEMA,
    "CREATE TABLE t (a int NOT NULL, b text DEFAULT 'x', c numeric(10,2), d varchar(3), e int8[], PRIMARY KEY (a))",
    "CREATE TABLE u (id int8, v text, w timestamptz)",
]

# (statement, declared parameter type OIDs)
STATEMENTS = [
    ("INSERT INTO t VALUES ($1)", ()),
    ("INSERT INTO t VALUES ($1, $2, $3, $4, $5)", ()),
    ("INSERT INTO t (d, c, a) VALUES ($1, $2, $3)", ()),
    ("INSERT INTO t (a) VALUES ($1), ($2), ($1)", ()),
    ("INSERT INTO t (a, b) VALUES ($1 + 1, $2 || 'x')", ()),
    ("INSERT INTO t (a) SELECT $1", ()),
    ("INSERT INTO t (a) SELECT id FROM u WHERE v = $1", ()),
    ("INSERT INTO t (a) VALUES ($1) RETURNING a, b, $2", ()),
    ("INSERT INTO t (a, e) VALUES ($1, $2) RETURNING *", ()),
    ("INSERT INTO t (a) VALUES ($1)", (20,)),
    ("INSERT INTO t (a, b) VALUES ($1, $2)", (25, 0)),
    ("UPDATE t SET b = $1, c = $2 WHERE a = $3", ()),
    ("UPDATE t SET (b, d) = ($1, $2) RETURNING a, d", ()),
    ("UPDATE t SET b = u.v FROM u WHERE u.id = t.a AND u.w < $1 RETURNING u.w", ()),
    ("UPDATE t SET a = a + $1", ()),
    ("DELETE FROM t WHERE a = $1", ()),
    ("DELETE FROM t WHERE b LIKE $1 RETURNING a, c", ()),
    ("DELETE FROM t USING u WHERE u.id = t.a AND u.v = $1", ()),
    ("INSERT INTO t (a) VALUES ($2)", ()),
    ("INSERT INTO t (a, nosuch) VALUES ($1, $2)", ()),
    ("INSERT INTO t (a) VALUES ($1::text)", ()),
    ("UPDATE t SET a = $1 WHERE b = 1", ()),
]


def described(c, sql, oids):
    """What Parse + Describe of the statement answer: parameter types and columns, or the error."""
    c.send(Parse(sql, oids=oids) + Describe("S") + Sync())
    got = c.until_rfq(1)
    if errors(got):
        f = errors(got)[0].fields()
        return ["E", f.get("C"), f.get("M"), f.get("P")]
    return shorts(got)


def run_all(port):
    with connect(port) as c:
        for s in SETUP:
            c.q(s)
        out = [(sql, oids, described(c, sql, oids)) for sql, oids in STATEMENTS]
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)
    return out


@case
def parameters_and_columns_match_postgres(t):
    t.same_as_ref(run_all, "Parse + Describe of writes")


@case
def inferred_types_spelled_out(t):
    """What the comparison above covers, for the plain cases."""
    with connect() as c:
        for s in SETUP:
            c.q(s)
        t.eq(described(c, "INSERT INTO t VALUES ($1)", ()), ["1", "t:23", "n", "Z:I"], "the column's type")
        t.eq(described(c, "INSERT INTO t (d, a) VALUES ($1, $2)", ()), ["1", "t:1043,23", "n", "Z:I"],
             "in the column list's order")
        t.eq(described(c, "DELETE FROM t WHERE a = $1 RETURNING b", ()), ["1", "t:23", "T:b/25/0", "Z:I"],
             "RETURNING's columns")
        t.eq(described(c, "INSERT INTO t (a) VALUES ($1)", (20,)), ["1", "t:20", "n", "Z:I"], "declared int8 kept")
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


def bind_execute(port):
    """Parse, Bind with values, Describe the portal; then Parse and Bind of a constant that fails when planned."""
    with connect(port) as c:
        for s in SETUP:
            c.q(s)
        c.send(Parse("INSERT INTO t (a, d) VALUES ($1, $2) RETURNING a, d") +
               Bind(values=["1", "ab"]) + Describe("P") + Sync())
        first = shorts(c.until_rfq(1))
        c.send(Parse("INSERT INTO t (a, d) VALUES (1, 'abcd')") + Sync())
        parse = shorts(c.until_rfq(1))
        c.send(Bind() + Sync())
        bind = [(m.t, m.sqlstate()) for m in c.until_rfq(1) if m.t in "E2"]
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)
    return first, parse, bind


@case
def bind_and_planning_errors_match_postgres(t):
    t.same_as_ref(bind_execute, "Bind of a write, and a planning error kept for Bind")


@case
def execute_writes_the_table(t):
    """A bound write runs through the extended protocol: the row goes to the workers, a read sees it,
    and writing the same key again is 23505 with PostgreSQL's detail."""
    with connect() as c:
        for s in SETUP:
            c.q(s)
        c.send(Parse("INSERT INTO t (a) VALUES ($1)") + Bind(values=["7"]) + Execute() + Sync())
        got = c.until_rfq(1)
        t.eq([m.short() for m in got if m.t not in "SKN"], ["1", "2", "C:INSERT 0 1", "Z:I"], "INSERT 0 1")
        t.eq([r[0] for r in rows(c.q("SELECT a FROM t WHERE a = 7"))], [b"7"], "the row is read back")
        c.send(Parse("INSERT INTO t (a) VALUES ($1)") + Bind(values=["7"]) + Execute() + Sync())
        e = errors(c.until_rfq(1))
        t.ok(e and e[0].sqlstate() == "23505" and e[0].fields().get("D") == "Key (a)=(7) already exists.",
             "the same key again: %r" % [m.fields() for m in e])
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


if __name__ == "__main__":
    raise SystemExit(main())
