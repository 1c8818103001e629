#!/usr/bin/python3
"""test_simple.py: the simple query protocol (pgwire.md 1.6, 1.9): results, errors, transaction status."""
from pgw import case, connect, errors, main, rows, shorts


def run(port, *queries):
    """Every query on one fresh connection; the compact message sequences."""
    with connect(port) as c:
        return [shorts(c.q(q), skip="SK") for q in queries]


@case
def select_one(t):
    with connect() as c:
        msgs = c.q("SELECT 1")
        t.eq(shorts(msgs), ["T:?column?/23/0", "D:1", "C:SELECT 1", "Z:I"], "SELECT 1")
        cols = [m for m in msgs if m.t == "T"][0].columns()
        t.eq(cols[0][4], 4, "int4 typlen")
        t.eq(cols[0][5], -1, "typmod")


@case
def multi_statement(t):
    with connect() as c:
        msgs = c.q("SELECT 1 AS a; SELECT 'x' AS b, 2.5 AS c; SELECT")
        t.eq(shorts(msgs), ["T:a/23/0", "D:1", "C:SELECT 1",
                            "T:b/25/0,c/1700/0", "D:x,2.5", "C:SELECT 1",
                            "T:", "D:", "C:SELECT 1", "Z:I"], "three results, one ReadyForQuery")


@case
def empty_query(t):
    with connect() as c:
        for q in ("", "   ", ";", " ; ;", "-- just a comment", "/* c */"):
            t.eq(shorts(c.q(q)), ["I", "Z:I"], "EmptyQueryResponse for %r" % q)
        t.eq(shorts(c.q("; ; SELECT 1; ;")), ["T:?column?/23/0", "D:1", "C:SELECT 1", "Z:I"],
             "empty statements around a real one are skipped")


@case
def error_in_the_middle_abandons_the_rest(t):
    with connect() as c:
        msgs = c.q("SELECT 1; SELECT 1/0; SELECT 3")
        t.eq(shorts(msgs), ["T:?column?/23/0", "D:1", "C:SELECT 1", "E:ERROR:22012", "Z:I"],
             "rest abandoned, exactly one ReadyForQuery")
        t.eq(rows(c.q("SELECT 4")), [[b"4"]], "session usable afterwards")


@case
def syntax_error_runs_nothing(t):
    with connect() as c:
        msgs = c.q("SELECT 1; SELEC 2; SELECT 3")
        t.eq(shorts(msgs), ["E:ERROR:42601", "Z:I"], "a syntax error anywhere runs no statement")
        e = errors(msgs)[0].fields()
        t.eq(e.get("P"), "11", "position of SELEC (1-based characters)")
        t.eq(e.get("M"), 'syntax error at or near "SELEC"', "message")


@case
def error_position_counts_characters(t):
    with connect() as c:
        msgs = c.q("SELECT 'äöü€' AS x FRUM y")
        e = errors(msgs)
        t.ok(len(e) == 1, "one error")
        if e:
            # F of FRUM is character 20 (byte 25).
            t.eq(e[0].fields().get("P"), "20", "position in characters, not bytes")


@case
def parameter_in_simple_query(t):
    # A simple Query carries no parameter values: $n is 42P02 at its position.
    with connect() as c:
        e = errors(c.q("SELECT $1"))
        t.eq([(x.sqlstate(), x.fields().get("M"), x.fields().get("P")) for x in e],
             [("42P02", "there is no parameter $1", "8")], "SELECT $1")
        msgs = c.q("SELECT 1; SELECT '$1', $2 + 1")
        t.eq(shorts(msgs), ["T:?column?/23/0", "D:1", "C:SELECT 1", "E:ERROR:42P02", "Z:I"],
             "the first statement runs, the second fails")
        t.eq(errors(msgs)[0].fields().get("P"), "24", "position in the whole string, past the literal")


@case
def settings_functions(t):
    # current_setting() and set_config() reach the session, SET LOCAL semantics included.
    def script(port):
        with connect(port) as c:
            out = []
            for q in ("SELECT current_setting('DateStyle'), set_config('application_name', 'zz', false), "
                      "current_setting('nope', true)",
                      "SELECT set_config('DateStyle', 'German', true)", "SHOW DateStyle",
                      "BEGIN; SELECT set_config('DateStyle', 'German', true), current_setting('datestyle')",
                      "COMMIT", "SHOW DateStyle", "SELECT current_setting('nope')", "SHOW application_name"):
                out.append(shorts(c.q(q)))
            return out
    t.same_as_ref(script, "settings functions")


@case
def error_fields(t):
    with connect() as c:
        e = errors(c.q("SELECT 1/0"))[0].fields()
        t.eq(e.get("S"), "ERROR", "S")
        t.eq(e.get("V"), "ERROR", "V")
        t.eq(e.get("C"), "22012", "C")
        t.eq(e.get("M"), "division by zero", "M")


@case
def transaction_status_transitions(t):
    with connect() as c:
        t.eq(c.q("BEGIN")[-1].short(), "Z:T", "after BEGIN")
        t.eq(c.q("SELECT 1")[-1].short(), "Z:T", "inside")
        msgs = c.q("SELECT 1/0")
        t.eq(shorts(msgs), ["E:ERROR:22012", "Z:E"], "error inside a block")
        msgs = c.q("SELECT 1")
        t.eq(shorts(msgs), ["E:ERROR:25P02", "Z:E"], "25P02 in a failed block")
        msgs = c.q("COMMIT")
        t.eq(shorts(msgs), ["C:ROLLBACK", "Z:I"], "COMMIT of a failed block says ROLLBACK")
        t.eq(shorts(c.q("BEGIN; SELECT 1/0; ROLLBACK")), ["C:BEGIN", "E:ERROR:22012", "Z:E"],
             "error in BEGIN; ...; ROLLBACK leaves the block failed")
        t.eq(shorts(c.q("ROLLBACK")), ["C:ROLLBACK", "Z:I"], "ROLLBACK ends it")
        t.eq(shorts(c.q("BEGIN; SELECT 2; COMMIT")),
             ["C:BEGIN", "T:?column?/23/0", "D:2", "C:SELECT 1", "C:COMMIT", "Z:I"], "one string")
        t.eq(shorts(c.q("START TRANSACTION")), ["C:START TRANSACTION", "Z:T"], "START TRANSACTION")
        t.eq(shorts(c.q("END")), ["C:COMMIT", "Z:I"], "END commits")


@case
def warnings_for_stray_transaction_commands(t):
    with connect() as c:
        msgs = c.q("COMMIT")
        t.eq(shorts(msgs, skip="S"), ["N:WARNING:25P01", "C:COMMIT", "Z:I"], "COMMIT without BEGIN")
        msgs = c.q("ROLLBACK")
        t.eq(shorts(msgs, skip="S"), ["N:WARNING:25P01", "C:ROLLBACK", "Z:I"],
             "ROLLBACK without BEGIN")
        c.q("BEGIN")
        msgs = c.q("BEGIN")
        t.eq(shorts(msgs, skip="S"), ["N:WARNING:25001", "C:BEGIN", "Z:T"], "nested BEGIN")
        c.q("ROLLBACK")


@case
def set_reports_parameter_status(t):
    with connect() as c:
        msgs = c.q("SET application_name = 'abc'")
        ps = [m.param() for m in msgs if m.t == "S"]
        t.eq(ps, [("application_name", "abc")], "ParameterStatus after SET")
        t.eq(shorts(msgs), ["C:SET", "Z:I"], "SET")
        msgs = c.q("SET DateStyle = 'ISO, DMY'")
        t.eq([m.param() for m in msgs if m.t == "S"], [("DateStyle", "ISO, DMY")], "DateStyle reported")
        t.eq(rows(c.q("SHOW DateStyle")), [[b"ISO, DMY"]], "SHOW DateStyle")
        msgs = c.q("RESET DateStyle")
        t.eq([m.param() for m in msgs if m.t == "S"], [("DateStyle", "ISO, MDY")], "RESET reported")
        msgs = c.q("SET unknown_setting_xyz = 1")
        t.eq(shorts(msgs), ["E:ERROR:42704", "Z:I"], "unknown setting")


@case
def set_rolled_back_with_transaction(t):
    with connect() as c:
        c.q("BEGIN")
        c.q("SET application_name = 'inside'")
        msgs = c.q("ROLLBACK")
        t.eq([m.param() for m in msgs if m.t == "S"], [("application_name", "")],
             "rollback of SET reports the old value")
        t.eq(rows(c.q("SHOW application_name")), [[b""]], "value restored")


@case
def nul_in_query_string(t):
    # A Query whose string ends before the message does is malformed.
    from pgw import frame
    with connect() as c:
        c.send(frame("Q", b"SELECT 1\0SELECT 2\0"))
        msgs = c.until("ZE")
        t.eq(msgs[-1].t, "E", "ErrorResponse for a Query with bytes after its string")
        t.eq(msgs[-1].sqlstate(), "08P01", "protocol violation")
    t.served()


@case
def invalid_utf8_in_query_string(t):
    # Client text is checked as PostgreSQL checks it: 22021 naming the bytes
    # of the first bad sequence, and the session goes on.
    from pgw import frame
    with connect() as c:
        for text, shown in ((b'SELECT 1 AS "\xa1"', "0xa1"), (b"SELECT '\xe2\x28\xa1'", "0xe2 0x28 0xa1")):
            c.send(frame("Q", text + b"\0"))
            msgs = c.until("Z")
            err = [m for m in msgs if m.t == "E"]
            t.ok(len(err) == 1 and err[0].sqlstate() == "22021", "22021 for %r" % text)
            t.eq(err[0].fields().get("M") if err else None,
                 'invalid byte sequence for encoding "UTF8": ' + shown, "message names the bytes")
        t.eq(rows(c.q("SELECT 1")), [[b"1"]], "the session still answers")
    t.served()


@case
def big_result_and_big_query(t):
    with connect(timeout=30) as c:
        msgs = c.q("SELECT repeat('x', 1000000) AS big")
        r = rows(msgs)
        t.ok(len(r) == 1 and r[0][0] == b"x" * 1000000, "1 MB value comes back whole")
        q = "SELECT length('" + "y" * 200000 + "')"
        t.eq(rows(c.q(q, timeout=30)), [[b"200000"]], "a 200 KB query")
        msgs = c.q("VALUES " + ", ".join("(%d, 'r%d')" % (i, i) for i in range(3000)))
        t.eq(len(rows(msgs)), 3000, "3000 rows")
        t.eq(msgs[-2].short(), "C:SELECT 3000", "tag")


@case
def simple_matches_postgres(t):
    t.same_as_ref(lambda p: run(p, "SELECT 1, 'a', NULL, true, 1.50, 2::int8, 3::int2, 1.5::float8",
                               "SELECT 1 WHERE false", "SELECT 1 UNION ALL SELECT 2",
                               "SELECT 1/0", "SELEC", "BEGIN", "SELECT x", "SELECT 1", "ROLLBACK",
                               "SHOW standard_conforming_strings", "SHOW client_encoding",
                               "SET extra_float_digits = 3", "SELECT 0.1::float8",
                               "VALUES (1, 'a'), (2, NULL)", "SELECT 1 AS \"Mixed Case\""),
                  "sequence of results")


if __name__ == "__main__":
    raise SystemExit(main())
