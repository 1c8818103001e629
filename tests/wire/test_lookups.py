#!/usr/bin/python3
"""test_lookups.py: reads of a table by its key. A filter fixing every column of a table's key to
constants or parameters makes the read a lookup: only the worker owning each key answers, with that
key's rows. Answers must be PostgreSQL's (hits, misses, NULL keys, IN lists, keys of two columns,
text keys, parameters, UPDATE/DELETE by key, a block reading its own writes), and a lookup must
ship only its keys' rows. A materialized view or a table without a key is looked up by the
columns the filter fixes: every worker ships only its matching rows (NULLs, duplicates, IN,
parameters, a block's own changes). eddy_internal.workers.peek_rows counts the rows the
workers' answers held, checked on servers of our own (LOOKUP_TARGETS: --workers 1, 2, 4) where nothing else runs."""
import os

from pgw import Bind, Execute, Parse, Sync, TARGET_PORT, case, connect, errors, main, rows, script_runner

SCHEMA = "wirelookups_%d" % os.getpid()
PRIVATE = [int(p) for p in os.environ.get("LOOKUP_TARGETS", "").split() if p]

TABLES = [
    "CREATE TABLE t (a int PRIMARY KEY, b int, c text)",
    "INSERT INTO t SELECT g, g * 10, 'x' || g FROM generate_series(1, 200) g",
    "CREATE TABLE two (k int, s text, v int, PRIMARY KEY (k, s))",
    "INSERT INTO two SELECT g % 7, 's' || (g % 5), g FROM generate_series(1, 35) g",
    "CREATE TABLE words (w text PRIMARY KEY, n int)",
    "INSERT INTO words VALUES ('abc', 1), ('ABC', 2), ('abc ', 3), ('', 4), ('é', 5)",
    "CREATE TABLE uq (a int UNIQUE, b int)",
    "INSERT INTO uq VALUES (1, 1), (NULL, 2), (NULL, 3), (4, 4)",
    "CREATE TABLE kl (a int, b int, c text)",
    "INSERT INTO kl SELECT g, g % 10, 'x' || (g % 4) FROM generate_series(1, 100) g",
    "INSERT INTO kl VALUES (7, 7, 'dup'), (7, 7, 'dup'), (NULL, 3, NULL)",
    "CREATE MATERIALIZED VIEW kv AS SELECT b, c, count(*) AS n, sum(a) AS s FROM kl GROUP BY b, c",
]


def ext(sql, oids, vals):
    return (Parse(sql, "", oids), Bind("", "", vals), Execute(), Sync())


READS = [
    "SELECT * FROM t WHERE a = 5",
    "SELECT * FROM t WHERE a = 5000",
    "SELECT * FROM t WHERE a = NULL",
    "SELECT * FROM t WHERE a = 5 AND b > 3",
    "SELECT * FROM t WHERE a = 5 AND b > 60",
    "SELECT * FROM t WHERE b > 3 AND 7 = a",
    "SELECT * FROM t WHERE a IN (3, 1, 2, 3, NULL, 999) ORDER BY a",
    "SELECT * FROM t WHERE a = 5 OR a = 6 ORDER BY a",
    "SELECT count(*), sum(b) FROM t WHERE a = 9",
    "SELECT x.a, y.c FROM t x JOIN t y ON y.a = x.a + 1 WHERE x.a = 10",
    "SELECT (SELECT c FROM t WHERE a = 11), (SELECT count(*) FROM t)",
    "SELECT * FROM two WHERE k = 3 AND s = 's3'",
    "SELECT * FROM two WHERE k = 3 ORDER BY s",
    "SELECT * FROM two WHERE k IN (1, 2) AND s IN ('s1', 's2', 'nope') ORDER BY k, s",
    "SELECT * FROM words WHERE w = 'abc'",
    "SELECT * FROM words WHERE w = 'ABC'",
    "SELECT * FROM words WHERE w = 'abc '",
    "SELECT * FROM words WHERE w = ''",
    "SELECT * FROM words WHERE w = 'é'",
    "SELECT * FROM words WHERE w = 'ab'",
    "SELECT * FROM uq WHERE a = 1",
    "SELECT * FROM uq WHERE a = NULL",
    "SELECT * FROM uq WHERE a IS NULL ORDER BY b",
    ext("SELECT * FROM t WHERE a = $1", (23,), ["12"]),
    ext("SELECT * FROM t WHERE a = $1", (23,), [None]),
    ext("SELECT * FROM t WHERE a = $1 AND c = $2", (23, 25), ["13", "x13"]),
    ext("SELECT * FROM two WHERE k = $1 AND s = $2", (23, 25), ["4", "s4"]),
    ext("SELECT * FROM words WHERE w = $1", (25,), ["ABC"]),
    "UPDATE t SET b = b + 1 WHERE a = 20 RETURNING *",
    "UPDATE t SET b = b + 1 WHERE a = 2000 RETURNING *",
    "DELETE FROM t WHERE a = 21 RETURNING *",
    ext("UPDATE t SET c = 'p' WHERE a = $1 RETURNING *", (23,), ["22"]),
    "SELECT * FROM t WHERE a BETWEEN 19 AND 23 ORDER BY a",
    "BEGIN",
    "INSERT INTO t VALUES (500, 1, 'new')",
    "SELECT * FROM t WHERE a = 500",
    "UPDATE t SET b = 2 WHERE a = 500 RETURNING *",
    "DELETE FROM t WHERE a = 1",
    "SELECT * FROM t WHERE a = 1",
    "SELECT * FROM t WHERE a IN (1, 2, 500) ORDER BY a",
    "UPDATE t SET a = 600 WHERE a = 2",
    "SELECT * FROM t WHERE a = 2",
    "SELECT * FROM t WHERE a = 600",
    "COMMIT",
    "SELECT * FROM t WHERE a IN (1, 2, 500, 600) ORDER BY a",
    "SELECT * FROM t WHERE a = 'x'",
    "SELECT * FROM kv WHERE b = 3 ORDER BY c",
    "SELECT * FROM kv WHERE 3 = b AND c = 'x1'",
    "SELECT * FROM kv WHERE b IN (1, 2, NULL) AND c IN ('x0', 'x2') ORDER BY b, c",
    "CREATE INDEX kv_b ON kv (b)",
    "CREATE INDEX kv_cb ON kv (c, b)",
    "SELECT * FROM kv WHERE b = 3 ORDER BY c",
    "SELECT * FROM kv WHERE 3 = b AND c = 'x1'",
    "SELECT * FROM kv WHERE b IN (2, 1, NULL, 2) AND c IN ('x0', 'x2') ORDER BY b, c",
    "SELECT * FROM kv WHERE c = 'x1' AND b IN (4, 5, 6) ORDER BY b",
    "SELECT * FROM kv WHERE b = NULL",
    "SELECT * FROM kv WHERE b = 3 AND n > 2 ORDER BY c",
    "SELECT * FROM kv WHERE c = 'dup'",
    "SELECT * FROM kv WHERE b = 99",
    ext("SELECT * FROM kv WHERE b = $1 ORDER BY c", (23,), ["4"]),
    "SELECT * FROM kl WHERE b = 7 ORDER BY a, c",
    "SELECT * FROM kl WHERE b = 3 AND c = 'x1' ORDER BY a",
    "SELECT * FROM kl WHERE a IN (7, 8) ORDER BY a, c",
    "SELECT count(*), sum(a) FROM kl WHERE b = 3",
    "SELECT * FROM kl WHERE c = 'dup'",
    "UPDATE kl SET c = 'u' WHERE b = 5 AND a < 30",
    "DELETE FROM kl WHERE c = 'dup' RETURNING *",
    "SELECT * FROM kl WHERE b = 5 ORDER BY a",
    "BEGIN",
    "INSERT INTO kl VALUES (1000, 6, 'new')",
    "DELETE FROM kl WHERE a = 16",
    "SELECT * FROM kl WHERE b = 6 ORDER BY a",
    "COMMIT",
    "SELECT * FROM kl WHERE b = 6 ORDER BY a",
]


def steps(*sql):
    return script_runner(["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                          "SET search_path = %s" % SCHEMA] + list(sql))


def same_tags(got):
    """CREATE MATERIALIZED VIEW's tag is PostgreSQL's CREATE TABLE AS's (SELECT n) there: left out."""
    return [(sql, [m for m in msgs if not (sql.startswith("CREATE MATERIALIZED VIEW") and m.startswith("C:"))])
            for sql, msgs in got]


@case
def lookups_answer_as_postgresql(t):
    want = t.same_as_ref(steps(*(TABLES + READS)), "reads by key", norm=same_tags)
    for port in PRIVATE:
        # The first step's notice depends on whether the schema was there: compared from the second.
        t.eq(same_tags(steps(*(TABLES + READS))(port))[1:], (want or [])[1:], "port %d: as PostgreSQL" % port)


def view_rows(c, sql):
    got = c.q(sql)
    assert not errors(got), (sql, errors(got)[0].fields())
    return sorted(rows(got), key=lambda r: [(v is None, v or b"") for v in r])


def index_records(c, view):
    got = c.q("SELECT coalesce(sum(records), 0) FROM eddy_internal.arrangements WHERE arrangement = 'index' "
              "AND dataflow = 'eddy.%s.%s'" % (SCHEMA, view))
    assert not errors(got), errors(got)[0].fields()
    return int(rows(got)[0][0])


@case
def an_indexed_view_is_read_through_its_index(t):
    """CREATE INDEX on a materialized view arranges its rows by the index's columns on every worker,
    built from the rows the view holds and kept as they change; a lookup fixing those columns reads
    the index and answers as a read of every row does. The index goes with DROP INDEX and stays
    through a rename of the view."""
    lookups = ["b = 3", "b IN (1, 2, 2, 99)", "b = 5 AND c = 'u'", "b IN (6, 7) AND c IN ('x2', 'new', 'dup')"]

    def same(c, at, when):
        for w in lookups:
            # "b + 0" is no lookup: every row is read and filtered by the server.
            scan = w.replace("b =", "b + 0 =").replace("b IN", "b + 0 IN")
            t.eq(view_rows(c, "SELECT * FROM kv WHERE " + w), view_rows(c, "SELECT * FROM kv WHERE " + scan),
                 at + when + ": " + w)

    for port in PRIVATE or [TARGET_PORT]:
        at = "port %d: " % port
        with connect(port) as c:
            for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                      "SET search_path = %s" % SCHEMA] + TABLES + ["CREATE INDEX kv_b ON kv (b)"]:
                assert not errors(c.q(s)), s
            n = int(rows(c.q("SELECT count(*) FROM kv"))[0][0])
            t.eq(index_records(c, "kv"), n, at + "the index holds the view's rows, built from them")
            same(c, at, "built")
            for s in ["UPDATE kl SET c = 'u' WHERE b = 5 AND a < 30", "DELETE FROM kl WHERE c = 'dup'",
                      "INSERT INTO kl VALUES (1000, 6, 'new'), (1001, 7, 'new')", "DELETE FROM kl WHERE a = 16"]:
                assert not errors(c.q(s)), s
                same(c, at, "after " + s)
            t.ok(view_rows(c, "SELECT * FROM kv WHERE b = 6 AND c = 'new'") == [[b"6", b"new", b"1", b"1000"]],
                 at + "a new group is found through the index")
            assert not errors(c.q("ALTER MATERIALIZED VIEW kv RENAME TO kv2"))
            assert not errors(c.q("ALTER MATERIALIZED VIEW kv2 RENAME TO kv"))
            t.ok(index_records(c, "kv") > 0, at + "the index stays through a rename of its view")
            same(c, at, "after a rename")
            assert not errors(c.q("DROP INDEX kv_b"))
            t.eq(index_records(c, "kv"), 0, at + "DROP INDEX frees it")
            same(c, at, "without the index")


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
def a_lookup_ships_only_its_keys_rows(t):
    for port in PRIVATE or [TARGET_PORT]:
        at = "port %d: " % port
        with connect(port) as c:
            for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                      "SET search_path = %s" % SCHEMA] + TABLES:
                assert not errors(c.q(s)), s
            t.eq(delta(c, "SELECT * FROM t WHERE a = 7"), (1, 1), at + "a hit ships its one row")
            t.eq(delta(c, "SELECT * FROM t WHERE a = 7000"), (0, 0), at + "a miss ships nothing")
            t.eq(delta(c, "SELECT * FROM t WHERE a IN (1, 2, 3, 3)"), (3, 3), at + "IN ships its keys' rows once")
            t.eq(delta(c, "SELECT * FROM two WHERE k = 1 AND s = 's1'"), (1, 1), at + "a key of two columns")
            t.eq(delta(c, "UPDATE t SET b = 0 WHERE a = 8"), (1, 0), at + "UPDATE by key reads its one row")
            t.eq(delta(c, "DELETE FROM t WHERE a = 9"), (1, 0), at + "DELETE by key reads its one row")
            t.eq(delta(c, "SELECT * FROM t WHERE b > 100"), (199, 190), at + "any other filter reads the table")
            t.eq(delta(c, "SELECT * FROM two WHERE k = 1"), (35, 5), at + "part of a key reads the table")
            t.eq(delta(c, "SELECT * FROM kv WHERE b = 3 AND c = 'x1'"), (1, 1), at + "a view ships its matching row")
            t.eq(delta(c, "SELECT * FROM kv WHERE b IN (1, 2)"), (4, 4), at + "a view ships its matching rows")
            t.eq(delta(c, "SELECT * FROM kv WHERE n > 0"), (22, 22), at + "a view under another filter ships all")
            t.eq(delta(c, "SELECT * FROM kl WHERE b = 7"), (11, 12), at + "a table without a key ships its matches")
            before = shipped(c)
            c.send(b"".join(ext("SELECT * FROM t WHERE a = $1", (23,), ["10"])))
            got = c.until_rfq(1)
            t.eq((shipped(c) - before, len(rows(got))), (1, 1), at + "a parameter's lookup ships its one row")


if __name__ == "__main__":
    main()
