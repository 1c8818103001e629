#!/usr/bin/python3
"""test_extended.py: the extended query protocol (pgwire.md 1.7, 1.15): statements, portals,
row limits, errors and discard-until-Sync, pipelines, binary formats against PostgreSQL's bytes."""
import struct

from pgw import (Bind, Close, Describe, Execute, Flush, Parse, Query, Sync, case, connect,
                 frame, main, rows, shorts)


def ex(c, *msgs, n_sync=None):
    """Sends messages, reads through as many ReadyForQuery as there are Syncs."""
    data = b"".join(msgs)
    c.send(data)
    n = n_sync if n_sync is not None else sum(1 for m in msgs if m == Sync())
    return shorts(c.until_rfq(n), skip="SK")


@case
def parse_bind_describe_execute_sync(t):
    with connect() as c:
        got = ex(c, Parse("SELECT $1::int4 + 1 AS n, $2::text AS s"), Describe("S"),
                 Bind(values=["41", "hi"]), Describe("P"), Execute(), Sync())
        t.eq(got, ["1", "t:23,25", "T:n/23/0,s/25/0", "2", "T:n/23/0,s/25/0", "D:42,hi",
                   "C:SELECT 1", "Z:I"], "full cycle")


@case
def parameter_types_are_inferred_or_taken(t):
    with connect() as c:
        got = ex(c, Parse("SELECT $1 + 1, $2 || 'x'", oids=(20,)), Describe("S"), Sync())
        t.eq(got, ["1", "t:20,25", "T:?column?/20/0,?column?/25/0", "Z:I"],
             "declared int8 and inferred text")
        got = ex(c, Parse("SET application_name = 'x'"), Describe("S"), Sync())
        t.eq(got, ["1", "t:", "n", "Z:I"], "statement without rows: NoData")


@case
def row_limit_portal_suspended(t):
    with connect() as c:
        q = "VALUES (1), (2), (3), (4), (5)"
        got = ex(c, Parse(q), Bind(), Execute("", 2), Execute("", 2), Execute("", 2),
                 Execute("", 2), Sync())
        t.eq(got, ["1", "2", "D:1", "D:2", "s", "D:3", "D:4", "s", "D:5", "C:SELECT 1",
                   "C:SELECT 0", "Z:I"], "2 rows at a time; an exhausted portal completes empty")


@case
def row_limit_named_portal_across_flush(t):
    with connect() as c:
        c.send(Query("BEGIN"))
        c.until_rfq()
        c.send(Parse("VALUES (1), (2), (3)", "st") +
               Bind("st", "cur") + Execute("cur", 1) + Flush())
        got = shorts(c.until("s"), skip="SK")
        t.eq(got, ["1", "2", "D:1", "s"], "first row before Sync, thanks to Flush")
        c.send(Execute("cur", 5) + Sync())
        got = shorts(c.until_rfq(), skip="SK")
        t.eq(got, ["D:2", "D:3", "C:SELECT 2", "Z:T"], "the rest after continuing")
        c.send(Query("COMMIT"))
        c.until_rfq()


@case
def flush_sends_replies_before_sync(t):
    with connect() as c:
        c.send(Parse("SELECT 7", "f1") + Flush())
        t.eq(c.recv().t, "1", "ParseComplete after Flush without Sync")
        c.send(Bind("f1") + Execute() + Flush())
        got = [c.recv().short() for _ in range(3)]
        t.eq(got, ["2", "D:7", "C:SELECT 1"], "Bind and Execute replies after Flush")
        c.send(Sync())
        t.eq(c.recv().short(), "Z:I", "then ReadyForQuery on Sync")


@case
def close_statement_and_portal(t):
    with connect() as c:
        got = ex(c, Parse("SELECT 1", "s1"), Close("S", "s1"), Close("S", "never"),
                 Close("P", "nope"), Sync())
        t.eq(got, ["1", "3", "3", "3", "Z:I"], "Close replies, missing names are not errors")
        got = ex(c, Bind("s1"), Sync())
        t.eq(got, ["E:ERROR:26000", "Z:I"], "closed statement is gone")


@case
def named_statement_errors(t):
    with connect() as c:
        got = ex(c, Parse("SELECT 1", "dup"), Parse("SELECT 2", "dup"), Sync())
        t.eq(got, ["1", "E:ERROR:42P05", "Z:I"], "re-Parse of a named statement")
        got = ex(c, Bind("missing"), Sync())
        t.eq(got, ["E:ERROR:26000", "Z:I"], "Bind of a missing statement")
        got = ex(c, Describe("S", "missing"), Sync())
        t.eq(got, ["E:ERROR:26000", "Z:I"], "Describe of a missing statement")
        got = ex(c, Describe("P", "missing"), Sync())
        t.eq(got, ["E:ERROR:34000", "Z:I"], "Describe of a missing portal")
        got = ex(c, Execute("missing"), Sync())
        t.eq(got, ["E:ERROR:34000", "Z:I"], "Execute of a missing portal")
        got = ex(c, Bind("dup"), Execute(), Sync())
        t.eq(got, ["2", "D:1", "C:SELECT 1", "Z:I"], "named statement still usable")


@case
def unnamed_statement_dropped_by_simple_query(t):
    with connect() as c:
        ex(c, Parse("SELECT 5"), Sync())
        c.send(Query("SELECT 6"))
        c.until_rfq()
        got = ex(c, Bind(), Execute(), Sync())
        t.eq(got, ["E:ERROR:26000", "Z:I"], "unnamed statement gone after a Query")


@case
def discard_until_sync(t):
    with connect() as c:
        got = ex(c, Parse("SELECT 1/0"), Bind(), Execute(), Parse("SELECT 2", "after"),
                 Bind("after"), Execute(), Query("SELECT 3"), Flush(), Sync())
        # PostgreSQL folds 1/0 while planning at Bind; failing at Execute is as good.
        if got[:2] == ["1", "2"]:
            got = got[:1] + got[2:]
        t.eq(got, ["1", "E:ERROR:22012", "Z:I"], "everything after the error skipped")
        got = ex(c, Bind("after"), Sync())
        t.eq(got, ["E:ERROR:26000", "Z:I"], "the skipped Parse did not happen")
        got = ex(c, Parse("SELEC"), Bind(), Execute(), Sync(), Parse("SELECT 9"), Bind(),
                 Execute(), Sync())
        t.eq(got, ["E:ERROR:42601", "Z:I", "1", "2", "D:9", "C:SELECT 1", "Z:I"],
             "next Sync group runs normally")


@case
def errors_in_bind(t):
    with connect() as c:
        got = ex(c, Parse("SELECT $1::int4", "p2"), Bind("p2", values=["1", "2"]), Sync())
        t.eq(got, ["1", "E:ERROR:08P01", "Z:I"], "too many parameters")
        got = ex(c, Bind("p2", values=[]), Sync())
        t.eq(got, ["E:ERROR:08P01", "Z:I"], "too few parameters")
        got = ex(c, Bind("p2", values=["1"], pfmts=(0, 0)), Sync())
        t.eq(got, ["E:ERROR:08P01", "Z:I"], "format count differs from parameter count")
        got = ex(c, Bind("p2", values=["abc"]), Sync())
        t.eq(got, ["E:ERROR:22P02", "Z:I"], "bad text for int4")
        got = ex(c, Bind("p2", values=[b"\0\0\0"], pfmts=(1,)), Sync())
        t.eq(got, ["E:ERROR:08P01", "Z:I"], "3-byte binary int4")
        got = ex(c, Bind("p2", values=[b"\0\0\0\0\0"], pfmts=(1,)), Sync())
        t.eq(got, ["E:ERROR:22P03", "Z:I"], "5-byte binary int4")
        got = ex(c, Bind("p2", values=["1"], pfmts=(2,)), Sync())
        t.eq(got, ["E:ERROR:22023", "Z:I"], "parameter format code 2")
        got = ex(c, Bind("p2", values=["1"], rfmts=(7,)), Execute(), Sync())
        # PostgreSQL accepts the Bind and fails at Execute; failing at Bind is as good.
        if got[:1] == ["2"]:
            got = got[1:]
        t.eq(got, ["E:ERROR:22023", "Z:I"], "result format code 7")
        got = ex(c, Bind("p2", values=[None]), Execute(), Sync())
        t.eq(got, ["2", "D:NULL", "C:SELECT 1", "Z:I"], "NULL parameter")


@case
def multiple_commands_in_parse(t):
    with connect() as c:
        got = ex(c, Parse("SELECT 1; SELECT 2"), Sync())
        t.eq(got, ["E:ERROR:42601", "Z:I"], "Parse of two statements")


@case
def empty_statement(t):
    with connect() as c:
        got = ex(c, Parse(""), Bind(), Describe("P"), Execute(), Sync())
        t.eq(got, ["1", "2", "n", "I", "Z:I"], "empty statement: NoData, EmptyQueryResponse")


@case
def pipeline_of_100(t):
    with connect(timeout=20) as c:
        msgs = b"".join(Parse("SELECT %d AS i" % i) + Bind() + Execute() for i in range(100))
        got = ex(c, msgs + Sync(), n_sync=1)
        want = []
        for i in range(100):
            want += ["1", "2", "D:%d" % i, "C:SELECT 1"]
        t.eq(got, want + ["Z:I"], "100 Parse/Bind/Execute, one Sync")
        # With an error in the middle, the rest up to the Sync is skipped.
        bad = b"".join(Parse("SELECT %d/%d" % (i, 50 - i)) + Bind() + Execute() for i in range(100))
        got = ex(c, bad + Sync(), n_sync=1)
        t.eq(len([g for g in got if g.startswith("D:")]), 50, "rows before the error")
        t.eq(got[-2:], ["E:ERROR:22012", "Z:I"], "error then ReadyForQuery")


@case
def pipeline_of_sync_groups(t):
    with connect(timeout=20) as c:
        data = b"".join(Parse("SELECT %d" % i) + Bind() + Execute() + Sync() for i in range(200))
        c.send(data)
        got = shorts(c.until_rfq(200), skip="SK")
        t.eq(got.count("Z:I"), 200, "200 ReadyForQuery")
        t.eq([g for g in got if g.startswith("D:")], ["D:%d" % i for i in range(200)], "in order")


@case
def implicit_transaction_in_pipeline(t):
    with connect() as c:
        got = ex(c, Parse("BEGIN"), Bind(), Execute(), Parse("SELECT 1/0"), Bind(), Execute(),
                 Sync(), Parse("SELECT 1"), Bind(), Execute(), Sync(),
                 Parse("ROLLBACK"), Bind(), Execute(), Sync())
        if got[3:5] == ["1", "2"]:   # the division may fail at Bind or at Execute
            got = got[:4] + got[5:]
        t.eq(got, ["1", "2", "C:BEGIN", "1", "E:ERROR:22012", "Z:E",
                   "E:ERROR:25P02", "Z:E", "1", "2", "C:ROLLBACK", "Z:I"],
             "explicit block through Syncs, 25P02 at Parse in a failed block")


@case
def unknown_message_type_is_fatal(t):
    with connect() as c:
        c.send(frame("?", b"abc"))
        m = c.recv()
        t.eq((m.t, m.fields().get("S"), m.sqlstate()), ("E", "FATAL", "08P01"), "FATAL 08P01")
        t.ok(c.closed_soon(), "closed")
    t.served()


# --------------------------------------------------------- binary formats
#
# Each (type, text literal): the server's binary output of the value must be
# PostgreSQL's bytes, and sending PostgreSQL's bytes as a binary parameter
# must read back as the same text.

VALUES = [
    ("int2", "-12345"), ("int4", "2147483647"), ("int4", "-1"), ("int8", "-9223372036854775808"),
    ("float4", "1.5"), ("float8", "-0.000123"), ("float8", "Infinity"), ("float8", "NaN"),
    ("text", "héllo wörld"), ("varchar", "abc"), ("bool", "true"), ("bool", "false"),
    ("bytea", "\\x00ff10"), ("numeric", "0"), ("numeric", "-123.4500"),
    ("numeric", "12345678901234567890123456789012345678.123"), ("numeric", "0.000001"),
    ("numeric", "NaN"), ("date", "2024-02-29"), ("date", "1999-12-31"),
    ("timestamp", "2024-03-01 12:34:56.789"), ("timestamp", "1970-01-01 00:00:00"),
    ("timestamptz", "2024-03-01 12:34:56+02"), ("time", "23:59:59.999999"),
    ("interval", "1 year 2 mons 3 days 04:05:06"), ("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
    ("oid", "4294967295"), ("name", "pg_class"), ("char(3)", "ab"), ("jsonb", '{"a": [1, 2]}'),
    ("int4[]", "{1,2,NULL}"), ("text[]", '{a,"b c"}'),
]


def binary_out(port):
    with connect(port) as c:
        out = []
        for typ, lit in VALUES:
            got = ex(c, Parse("SELECT $1::%s" % typ), Bind(values=[lit], rfmts=(1,)),
                     Execute(), Sync())
            out.append((typ, lit, got))
        return out


def binary_in(port, ref_bytes):
    with connect(port) as c:
        out = []
        for (typ, lit), raw in zip(VALUES, ref_bytes):
            got = ex(c, Parse("SELECT $1::%s::text" % typ), Bind(values=[raw], pfmts=(1,)),
                     Execute(), Sync())
            out.append((typ, lit, got))
        return out


def ref_binary(port):
    with connect(port) as c:
        out = []
        for typ, lit in VALUES:
            c.send(Parse("SELECT $1::%s" % typ) + Bind(values=[lit], rfmts=(1,)) + Execute() + Sync())
            r = rows(c.until_rfq())
            out.append(r[0][0] if r else b"")
        return out


@case
def binary_results_match_postgres(t):
    got = t.same_as_ref(binary_out, "binary results")
    if got:
        for typ, lit, g in got:
            t.ok(g and g[0] == "1" and g[-1] == "Z:I", "%s %r: %s" % (typ, lit, g))


@case
def binary_parameters_match_postgres(t):
    from pgw import REF_PORT
    if not REF_PORT:
        t.ok(False, "no reference PostgreSQL")
        return
    raw = ref_binary(REF_PORT)
    t.same_as_ref(lambda p: binary_in(p, raw), "binary parameters read back as text")


@case
def mixed_result_formats(t):
    with connect() as c:
        c.send(Parse("SELECT 1::int4, 'a'::text, 2::int8") + Bind(rfmts=(1, 0, 1)) + Describe("P") +
               Execute() + Sync())
        msgs = c.until_rfq()
        cols = [m for m in msgs if m.t == "T"][0].columns()
        t.eq([x[6] for x in cols], [1, 0, 1], "per-column formats in RowDescription")
        t.eq(rows(msgs), [[struct.pack("!i", 1), b"a", struct.pack("!q", 2)]], "values")


@case
def repeated_unnamed_parse(t):
    # The same unnamed Parse again and again (PQexecParams, pgbench -M extended)
    # behaves as a fresh Parse each time, even after settings that shape binding
    # changed through a named statement, and after a failed Parse.
    def script(port):
        with connect(port) as c:
            q = Parse("SELECT '01/02/2024'::date AS d, $1::int4 AS n")
            out = [ex(c, q, Bind(values=["1"]), Describe("P"), Execute(), Sync()),
                   ex(c, q, Bind(values=["2"]), Describe("P"), Execute(), Sync()),
                   ex(c, Parse("SET DateStyle = 'ISO, DMY'", "set"), Bind("set"), Execute(), Sync()),
                   ex(c, q, Bind(values=["3"]), Execute(), Sync()),
                   ex(c, Parse("SELEC 1"), Sync()),
                   ex(c, Bind(values=["4"]), Execute(), Sync()),
                   ex(c, q, Bind(values=["5"]), Execute(), Sync())]
            return out
    t.same_as_ref(script, "unnamed statement reused or parsed again")


@case
def describe_in_failed_transaction(t):
    # Results cannot be described in a failed transaction; commands can (ROLLBACK).
    def script(port):
        with connect(port) as c:
            out = [ex(c, Parse("SELECT $1::int4 AS a", "s"), Parse("ROLLBACK", "r"), Sync()),
                   ex(c, Query("BEGIN"), Query("SELECT x"), n_sync=2),
                   ex(c, Describe("S", "s"), Sync()),
                   ex(c, Describe("S", "r"), Bind("r"), Describe("P"), Execute(), Sync())]
            return out
    t.same_as_ref(script, "Describe after an error in a block")


@case
def show_with_row_limit(t):
    # SHOW returns rows like a query: a row limit suspends it, and it completes as SHOW.
    def script(port):
        with connect(port) as c:
            out = [ex(c, Parse("SHOW DateStyle"), Bind(), Execute("", 1), Execute("", 1), Sync())]
            c.send(Parse("SHOW ALL") + Bind() + Execute("", 3) + Execute("", 2) + Sync())
            msgs = c.until_rfq()
            out.append([m.t for m in msgs if m.t not in "SK"])
            return out
    t.same_as_ref(script, "SHOW through a portal with a row limit")


@case
def extended_matches_postgres(t):
    def script(port):
        with connect(port) as c:
            return [
                ex(c, Parse("SELECT $1::int8 * 2, $2::text", "a"), Describe("S", "a"),
                   Bind("a", "pa", values=["21", None]), Describe("P", "pa"), Execute("pa"), Sync()),
                ex(c, Parse("VALUES (1), (2), (3)"), Bind(), Execute("", 1),
                   Execute("", 1), Sync()),
                ex(c, Parse("SELECT 1", "a"), Sync()),
                ex(c, Parse("SELECT $1::int4"), Bind(values=["x"]), Execute(), Bind(), Execute(),
                   Sync()),
                ex(c, Close("S", "a"), Bind("a"), Sync()),
                ex(c, Parse("BEGIN"), Bind(), Execute(), Sync(), Parse("SELECT 1"), Bind(),
                   Execute(), Sync(), Parse("COMMIT"), Bind(), Execute(), Sync()),
            ]
    t.same_as_ref(script, "a script of extended-protocol exchanges")


if __name__ == "__main__":
    raise SystemExit(main())
