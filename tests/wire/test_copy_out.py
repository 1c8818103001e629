#!/usr/bin/python3
"""test_copy_out.py: COPY {t [(cols)] | (query)} TO STDOUT, compared with PostgreSQL 15 byte for
byte: the CopyOutResponse, each CopyData line (text and CSV: escapes, quoting, NULL strings,
delimiters, FORCE_QUOTE, HEADER), CopyDone and the "COPY n" tag, and the errors PostgreSQL gives
for what COPY TO refuses (a view, unknown columns, options that belong to COPY FROM). A table's
rows come in no fixed order, so its lines are compared as a multiset; a query's keep its ORDER BY.
Also through the extended protocol (Describe answers NoData) and over a materialized view."""
import os

from pgw import Bind, Describe, Execute, Parse, REF_PORT, Sync, TARGET_PORT, case, connect, errors, main

SCHEMA = "wirecopyout_%d" % os.getpid()

SETUP = [
    "CREATE TABLE ct (a int, b text, c numeric, d date, e bool)",
    "INSERT INTO ct VALUES (1, 'x', 1.5, '2024-01-02', true), "
    "(2, E'tab\\there\\nnl\\\\bs\\rcr', NULL, NULL, false), (3, '', 0, '1999-12-31', NULL), "
    "(4, 'q\"u,o''s', -2, '2000-02-29', true), (NULL, '\\N', 3, '2020-05-05', false), "
    "(6, E'\\\\.', 6, NULL, NULL), (7, 'NA', 7, NULL, true), (8, E'\\u00e9t\\u00e9|pipe', 8.25, NULL, true)",
    "CREATE VIEW cv AS SELECT a, b FROM ct",
    "CREATE TABLE one (t text)",
    "INSERT INTO one VALUES (E'\\\\.'), ('plain'), (NULL), ('')",
]

STATEMENTS = [
    ("COPY ct TO STDOUT", False),
    ("COPY ct (b, a) TO STDOUT", False),
    ("COPY ct TO STDOUT WITH (FORMAT csv)", False),
    ("COPY ct TO STDOUT WITH (FORMAT csv, HEADER)", False),
    ("COPY ct (e, b) TO STDOUT (FORMAT csv, HEADER true, DELIMITER ';', NULL 'NA')", False),
    ("COPY ct TO STDOUT WITH (FORMAT csv, QUOTE '''', ESCAPE '\\')", False),
    ("COPY ct TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)", False),
    ("COPY ct TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (b, d))", False),
    ("COPY ct TO STDOUT WITH (DELIMITER '|', NULL '')", False),
    ("COPY ct TO STDOUT (HEADER)", False),
    ("COPY one TO STDOUT (FORMAT csv)", False),
    ("COPY one TO STDOUT", False),
    ("COPY (SELECT a, b, c FROM ct WHERE a > 1 ORDER BY a) TO STDOUT", True),
    ("COPY (SELECT a * 10 AS ten, upper(b) FROM ct ORDER BY a NULLS FIRST) TO STDOUT (FORMAT csv, HEADER)", True),
    ("COPY (SELECT 1 AS x, 'two' AS y UNION ALL SELECT 3, NULL ORDER BY 1) TO STDOUT", True),
    ("COPY (SELECT * FROM cv WHERE a < 3 ORDER BY a) TO STDOUT", True),
    ("COPY (VALUES (1, 'a'), (2, 'b')) TO STDOUT (FORMAT csv)", True),
    ("COPY (SELECT a FROM ct WHERE false) TO STDOUT", True),
    ("COPY cv TO STDOUT", True),
    ("COPY ct (zz) TO STDOUT", True),
    ("COPY ct (a, a) TO STDOUT", True),
    ("COPY nosuch TO STDOUT", True),
    ("COPY ct TO STDOUT (HEADER match)", True),
    ("COPY ct TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a))", True),
    ("COPY ct TO STDOUT (FORMAT csv, FORCE_QUOTE (zz))", True),
    ("COPY ct TO STDOUT (FORCE_QUOTE *)", True),
    ("COPY ct TO STDOUT (FORMAT xml)", True),
    ("COPY ct TO STDOUT (DELIMITER ',,')", True),
    ("COPY (SELECT 1/0) TO STDOUT", True),
    ("COPY (SELECT a FROM ct WHERE a = $1) TO STDOUT", True),
    ("COPY (SELECT a AS x FROM ct) TO STDOUT (FORMAT csv, FORCE_QUOTE (zz))", True),
    ("COPY ct (a) TO STDOUT (FORMAT csv, FORCE_QUOTE (b))", True),
]


def outcome(msgs, ordered):
    """What a COPY TO answered: its messages' kinds and bodies, lines sorted unless ordered."""
    e = errors(msgs)
    if e:
        f = e[0].fields()
        return ("E", f.get("C"), f.get("M"), f.get("D"), f.get("H"))
    head = [(m.t, m.body) for m in msgs if m.t in "HGT"]
    lines = [m.body for m in msgs if m.t == "d"]
    tail = [(m.t, m.body) for m in msgs if m.t in "cC"]
    if not ordered:
        lines = sorted(lines)   # the table's order
    return ("ok", head, lines, tail)


def run_all(port):
    got = []
    with connect(port) as c:
        for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                  "SET search_path = %s" % SCHEMA] + SETUP:
            assert not errors(c.q(s)), s
        for sql, ordered in STATEMENTS:
            # A header line is kept in place: sort only what follows it.
            res = outcome(c.q(sql), ordered or "HEADER" in sql.upper())
            got.append((sql, res))
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)
    return got


@case
def copy_to_answers_as_postgresql(t):
    want = dict(run_all(REF_PORT))
    for sql, res in run_all(TARGET_PORT):
        if "HEADER" in sql.upper() and res[0] == "ok" and want[sql][0] == "ok":
            # Rows after the header in the table's order: compare header and the sorted rest.
            res = (res[0], res[1], res[2][:1] + sorted(res[2][1:]), res[3])
            w = want[sql]
            want[sql] = (w[0], w[1], w[2][:1] + sorted(w[2][1:]), w[3])
        t.eq(res, want[sql], sql)


@case
def copy_to_over_the_extended_protocol_and_a_view(t):
    for port in (TARGET_PORT, REF_PORT):
        at = "port %d: " % port
        with connect(port) as c:
            for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                      "SET search_path = %s" % SCHEMA] + SETUP[:2]:
                assert not errors(c.q(s)), s
            c.send(b"".join((Parse("COPY (SELECT a, b FROM ct WHERE a = 4) TO STDOUT", ""),
                             Describe("S", ""), Bind("", ""), Execute(), Sync())))
            msgs = c.until_rfq(1)
            t.eq([m.t for m in msgs], ["1", "t", "n", "2", "H", "d", "c", "C", "Z"],
                 at + "extended COPY TO %r" % [e.fields().get("M") for e in errors(msgs)])
            t.eq([m.body for m in msgs if m.t == "d"], [b'4\tq"u,o\'s\n'], at + "its line")
            if port == TARGET_PORT:
                # A materialized view reads as its query: COPY (SELECT ... FROM mv) TO.
                assert not errors(c.q("CREATE MATERIALIZED VIEW mv AS SELECT e, count(*) AS n FROM ct GROUP BY e"))
                msgs = c.q("COPY (SELECT * FROM mv ORDER BY e NULLS LAST) TO STDOUT (FORMAT csv)")
                t.eq([m.body for m in msgs if m.t == "d"], [b"f,2\n", b"t,4\n", b",2\n"], at + "a view's rows")
                t.eq([m.body for m in msgs if m.t == "C"], [b"COPY 3\0"], at + "its tag")
            c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


if __name__ == "__main__":
    main()
