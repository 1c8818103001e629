"""test_computed.py: reads whose plan reduces what it reads (GROUP BY with count / sum / avg of
integers, aggregates without GROUP BY, DISTINCT) are computed by the workers, which send the
reduced rows rather than the table's. Answers must be PostgreSQL's (same statements on both,
HAVING, ORDER BY and LIMIT above the reduction, an error inside it, a block reading its own
writes); the rows shipped (eddy_internal.workers.peek_rows) must be the groups', not the table's,
on servers of our own (COMPUTED_TARGETS: --workers 1, 2, 4) where nothing else reads; and what is
not computed there (a block that has written, other settings, functions) ships the table."""
import os

from pgw import REF_PORT, TARGET_PORT, case, connect, errors, main, rows

SCHEMA = "wirecomputed_%d" % os.getpid()
PRIVATE = [int(p) for p in os.environ.get("COMPUTED_TARGETS", "").split() if p]
ROWS = 1000

SETUP = [
    "CREATE TABLE g (k int, v int, w bigint)",
    "INSERT INTO g SELECT i %% 10, i, CASE WHEN i %% 7 = 0 THEN NULL ELSE i * 3 END "
    "FROM generate_series(1, %d) i" % ROWS,
    "CREATE TABLE e (k int PRIMARY KEY, v int)",
]

QUERIES = [
    "SELECT k, count(*), sum(v), avg(v), count(w), sum(w) FROM g GROUP BY k ORDER BY k",
    "SELECT count(*), sum(v), avg(w) FROM g",
    "SELECT count(*), sum(v) FROM e",
    "SELECT k, sum(v) FROM e GROUP BY k",
    "SELECT DISTINCT k FROM g ORDER BY k",
    "SELECT DISTINCT k % 3, v > 500 FROM g ORDER BY 1, 2",
    "SELECT k, count(*) FROM g WHERE v > 300 GROUP BY k HAVING sum(v) > 40000 ORDER BY 2 DESC, k LIMIT 3",
    "SELECT k + 1 AS k1, sum(v) * 2 FROM g GROUP BY k ORDER BY 1 OFFSET 2 LIMIT 4",
    "SELECT sum(v) FILTER (WHERE v % 2 = 0), count(*) FILTER (WHERE w IS NULL) FROM g",
    "SELECT sum(100 / (v - v)) FROM g",
    "SELECT k, sum(100 / (v - 500)) FROM g GROUP BY k",
]


def answer(port, sql):
    with connect(port) as c:
        assert not errors(c.q("SET search_path = %s" % SCHEMA))
        got = c.q(sql)
    e = errors(got)
    return ("error", e[0].fields().get("C"), e[0].fields().get("M")) if e else ("rows", rows(got))


def setup(port):
    with connect(port) as c:
        for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                  "SET search_path = %s" % SCHEMA] + SETUP:
            assert not errors(c.q(s)), (s, errors(c.q(s)))


def shipped(c):
    got = c.q("SELECT sum(peek_rows) FROM eddy_internal.workers")
    assert not errors(got), errors(got)[0].fields()
    return int(rows(got)[0][0])


def delta(c, sql):
    before = shipped(c)
    got = c.q(sql)
    assert not errors(got), (sql, errors(got)[0].fields())
    return shipped(c) - before, len(rows(got))


@case
def computed_reads_answer_as_postgresql(t):
    for port in [TARGET_PORT, REF_PORT]:
        setup(port)
    for q in QUERIES:
        t.eq(answer(TARGET_PORT, q), answer(REF_PORT, q), q)


@case
def a_computed_read_ships_its_groups(t):
    for port in PRIVATE or [TARGET_PORT]:
        at = "port %d: " % port
        setup(port)
        with connect(port) as c:
            assert not errors(c.q("SET search_path = %s" % SCHEMA))
            t.eq(delta(c, "SELECT k, count(*), sum(v) FROM g GROUP BY k"), (10, 10), at + "GROUP BY ships its groups")
            t.eq(delta(c, "SELECT count(*), avg(v) FROM g"), (1, 1), at + "an aggregate without GROUP BY ships one row")
            t.eq(delta(c, "SELECT DISTINCT k FROM g"), (10, 10), at + "DISTINCT ships the distinct rows")
            t.eq(delta(c, "SELECT k FROM g GROUP BY k HAVING count(*) > 1000 ORDER BY k LIMIT 1"), (10, 0),
                 at + "HAVING and LIMIT run on the groups")
            t.eq(delta(c, "SELECT count(*) FROM e"), (1, 1), at + "an empty table's count is one row")
            # What the workers do not compute reads the table.
            t.eq(delta(c, "SELECT k, max(v) FROM g GROUP BY k"), (ROWS, 10), at + "max is computed here")
            t.eq(delta(c, "SELECT abs(k), count(*) FROM g GROUP BY 1"), (ROWS, 10),
                 at + "a function call is evaluated here")
            assert not errors(c.q("SET extra_float_digits = 0"))
            t.eq(delta(c, "SELECT k, count(*) FROM g GROUP BY k"), (ROWS, 10), at + "other settings read the table")
            assert not errors(c.q("RESET extra_float_digits"))
            assert not errors(c.q("BEGIN"))
            assert not errors(c.q("INSERT INTO g VALUES (42, 1, 1)"))
            n, _ = delta(c, "SELECT k, count(*) FROM g GROUP BY k")
            t.eq(n, ROWS, at + "a block that has written reads the table")
            t.eq(rows(c.q("SELECT count(*) FROM g WHERE k = 42")), [[b"1"]], at + "and sees its own row")
            assert not errors(c.q("ROLLBACK"))


if __name__ == "__main__":
    main()
