#!/usr/bin/python3
"""test_sql_prepare.py: SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE) as
PostgreSQL 15 answers them, in the simple and the extended protocol, sharing one namespace
with the extended protocol's named statements; most cases run a script on eddy and on the
reference PostgreSQL and compare every message, errors with all their fields."""
from pgw import (Bind, Close, Describe, Execute, Parse, Sync, case, connect, main, script_runner, shorts)


@case
def prepare_execute_deallocate_tags(t):
    with connect() as c:
        t.eq(shorts(c.q("PREPARE p(int) AS SELECT $1 + 1 AS n")), ["C:PREPARE", "Z:I"], "PREPARE")
        t.eq(shorts(c.q("EXECUTE p(41)")), ["T:n/23/0", "D:42", "C:SELECT 1", "Z:I"], "EXECUTE")
        t.eq(shorts(c.q("DEALLOCATE p")), ["C:DEALLOCATE", "Z:I"], "DEALLOCATE")
        t.eq(shorts(c.q("EXECUTE p(1)")), ["E:ERROR:26000", "Z:I"], "gone")
        t.eq(shorts(c.q("PREPARE v AS VALUES (1), (2); EXECUTE v; DEALLOCATE ALL")),
             ["C:PREPARE", "T:column1/23/0", "D:1", "D:2", "C:SELECT 2", "C:DEALLOCATE ALL", "Z:I"],
             "one query string")


@case
def simple_protocol_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE p(int) AS SELECT $1 + 1 AS n",
        "PREPARE p AS SELECT 1",
        "EXECUTE p(41)", "EXECUTE p", "EXECUTE p(1, 2)", "EXECUTE q", "DEALLOCATE q",
        "DEALLOCATE PREPARE q",
        "EXECUTE p('12')", "EXECUTE p(1.6)", "EXECUTE p(2::bigint)", "EXECUTE p(NULL)",
        "PREPARE z AS SELECT 1", "EXECUTE z(1/0)", "EXECUTE z(nosuch)",
        "PREPARE a7(int, text, numeric) AS SELECT $1 AS a, $2 AS b, $3 AS c",
        "EXECUTE a7(1, 'x', 1.25)", "EXECUTE a7('1', 2, '3')",
        "EXECUTE a7(1, 'x', 1.25) ; EXECUTE a7(2, 'y', 3)",
        "PREPARE inf AS SELECT $1 || 'x', $2", "EXECUTE inf(1, 2)",
        "PREPARE und(int, int) AS SELECT $1", "EXECUTE und(1, 2)",
        "PREPARE unk(unknown) AS SELECT $1", "EXECUTE unk('x')",
        "PREPARE tm(varchar(2), numeric(3,1)) AS SELECT $1, $2", "EXECUTE tm('abcd', 12.345)",
        "PREPARE arr(int[]) AS SELECT $1", "EXECUTE arr('{1,2}')", "EXECUTE arr(ARRAY[1,2])",
        "PREPARE u AS VALUES (1) UNION SELECT 2 ORDER BY 1", "EXECUTE u",
        "PREPARE u2 AS SELECT 1 UNION SELECT $1", "EXECUTE u2('2')",
        "PREPARE sl(int) AS SELECT pg_sleep(0), $1", "EXECUTE sl(7)",
        "PREPARE nc AS SELECT", "EXECUTE nc",
        "PREPARE sp (int , text) AS SELECT $2 || $1", "EXECUTE sp (1, 'a')",
        'PREPARE "Mixed" AS SELECT 1', "EXECUTE mixed", 'EXECUTE "Mixed"', 'DEALLOCATE "Mixed"',
        "DEALLOCATE ALL", "DEALLOCATE PREPARE ALL", "EXECUTE a7(1, 'x', 1)",
    ]), "PREPARE / EXECUTE / DEALLOCATE")


@case
def errors_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE z2(int) AS SELECT 1",
        "EXECUTE z2", "EXECUTE z2('a')", "EXECUTE z2(true)", "SELECT 1; EXECUTE z2(true)",
        "EXECUTE z2(1/0)", "EXECUTE z2(x)", "EXECUTE z2(t.x)", "EXECUTE z2(99999999999::bigint)",
        "EXECUTE z2($1)", "EXECUTE z2(count(*))", "EXECUTE z2(row_number() over ())",
        "EXECUTE z2((SELECT 1))", "EXECUTE z2(EXISTS (SELECT 1))",
        "PREPARE z3(int, int) AS SELECT $1, $2",
        "EXECUTE z3(1, true)", "EXECUTE z3('q', true)", "EXECUTE z3(1::bigint, 2.5)",
        "PREPARE b(bool) AS SELECT $1", "EXECUTE b(1)", "EXECUTE b('t')", "EXECUTE b(NULL::int)",
        "PREPARE s(int2) AS SELECT $1", "EXECUTE s(100000)", "EXECUTE s(1.5)",
        "PREPARE tx(text) AS SELECT $1", "EXECUTE tx(1.5)", "EXECUTE tx(true)", "EXECUTE tx(ARRAY[1])",
        "SELECT 1; PREPARE e1 AS SELECT nosuch", "SELECT 'ü'; PREPARE e1 AS SELECT nosuch",
        "PREPARE e2(nosuchtype) AS SELECT 1",
        "PREPARE e3(int) AS SELECT $1::text::int + 'a'",
        "PREPARE e4 AS SELECT $1 IS NULL",
        "PREPARE e5(int) AS SELECT $1, $3",
        "PREPARE e6 AS TABLE nosuch",
        "PREPARE e7 AS SET x.y = 1", "PREPARE e8 AS SHOW work_mem",
        "PREPARE e9 AS PREPARE z AS SELECT 1", "PREPARE e10 AS EXECUTE z2",
        'PREPARE "" AS SELECT 1', 'EXECUTE ""', 'DEALLOCATE ""',
        "PREPARE a1 AS SELECT 1; PREPARE a1 AS SELECT nosuch", "PREPARE a1 AS SELECT nosuch",
        # Folding is planning: PREPARE succeeds, EXECUTE fails.
        "PREPARE dz AS SELECT 1/0", "EXECUTE dz",
    ]), "errors")


@case
def transactions_as_postgres(t):
    t.same_as_ref(script_runner([
        # Prepared statements are not transactional.
        "BEGIN", "PREPARE t1 AS SELECT 1", "ROLLBACK", "EXECUTE t1",
        "BEGIN", "DEALLOCATE t1", "ROLLBACK", "EXECUTE t1",
        "PREPARE w AS SELECT 1",
        "BEGIN", "SELECT 1/0", "EXECUTE w", "DEALLOCATE w", "PREPARE w2 AS SELECT 2", "ROLLBACK",
        "EXECUTE w", "EXECUTE w2",
        "BEGIN", "SELECT 1/0", (Parse("EXECUTE w"), Describe("S"), Sync()), "ROLLBACK",
    ]), "transactions")


@case
def discard_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE d AS SELECT 1", (Parse("SELECT 2", "proto"), Sync()),
        "SET application_name = 'kept'",
        "BEGIN", "DISCARD PLANS", "COMMIT", "DISCARD TEMP", "DISCARD SEQUENCES",
        "SHOW application_name", "EXECUTE d", "EXECUTE proto",
        "BEGIN", "DISCARD ALL", "ROLLBACK", "EXECUTE d",
        "DISCARD ALL", "EXECUTE d", "EXECUTE proto", "SHOW application_name",
    ]), "DISCARD ALL drops prepared statements, the others do not")


@case
def shared_namespace_as_postgres(t):
    t.same_as_ref(script_runner([
        (Parse("SELECT 1", "pp"), Sync()), "PREPARE pp AS SELECT 2", "EXECUTE pp",
        "PREPARE qq AS SELECT 3", (Parse("SELECT 4", "qq"), Sync()),
        (Bind("qq"), Execute(), Sync()),
        (Close("S", "qq"), Sync()), "EXECUTE qq",
        "DEALLOCATE pp", (Bind("pp"), Sync()),
        (Parse("SELECT $1 + 1, $2::text", "s5", oids=(20,)), Sync()),
        "EXECUTE s5(1, 2)", "EXECUTE s5(1)",
        (Parse("SET application_name = 'zz'", "s1"), Sync()), "EXECUTE s1", "SHOW application_name",
        (Parse("", "s2"), Sync()), "EXECUTE s2",
        (Parse("BEGIN", "s3"), Sync()), "EXECUTE s3", "ROLLBACK",
        (Parse("SHOW application_name", "s4"), Sync()), "EXECUTE s4",
        (Parse("SELECT 5 AS five", "b"), Parse("EXECUTE b", "c"), Sync()), "EXECUTE c",
        (Parse("PREPARE x AS SELECT 6", "d"), Sync()), "EXECUTE d", "EXECUTE x",
        (Parse("DEALLOCATE e", "e"), Sync()), "EXECUTE e", "EXECUTE e",
        (Parse("EXECUTE a", "a"), Sync()), "EXECUTE a",
    ]), "protocol-level and SQL-level statements in one namespace")


@case
def extended_protocol_as_postgres(t):
    t.same_as_ref(script_runner([
        (Parse("PREPARE x AS SELECT $1::int AS v"), Describe("S"), Bind(), Describe("P"), Execute(), Sync()),
        (Parse("PREPARE x AS SELECT 2"), Describe("S"), Bind(), Execute(), Sync()),
        (Parse("PREPARE y AS SELECT nosuch"), Describe("S"), Bind(), Execute(), Sync()),
        (Parse("EXECUTE x(5)"), Describe("S"), Bind(), Describe("P"), Execute(), Sync()),
        (Parse("EXECUTE nosuch(5)"), Describe("S"), Bind(), Describe("P"), Execute(), Sync()),
        (Parse("EXECUTE x($1)"), Describe("S"), Sync()),
        (Parse("EXECUTE x($1)"), Bind(values=["3"]), Execute(), Sync()),
        (Parse("EXECUTE x($1)"), Bind(), Execute(), Sync()),
        (Parse("EXECUTE x($1)", oids=(23,)), Describe("S"), Bind(values=["3"]), Execute(), Sync()),
        "PREPARE v AS VALUES (1), (2), (3)",
        (Parse("EXECUTE v"), Bind(), Execute("", 2), Execute("", 2), Execute("", 2), Sync()),
        "PREPARE bi(int) AS SELECT $1 AS v",
        (Parse("EXECUTE bi(7)"), Bind(rfmts=(1,)), Describe("P"), Execute(), Sync()),
        # A PREPARE made again between Parse and Bind: the portal takes the new columns.
        (Parse("EXECUTE bi(7)", "eb"), Sync()), "DEALLOCATE bi",
        "PREPARE bi AS SELECT 'x'::text AS w, 2",
        (Bind("eb"), Describe("P"), Execute(), Sync()),
        "DEALLOCATE bi", (Bind("eb"), Describe("P"), Execute(), Sync()),
        "PREPARE bj AS SELECT 1 AS one", (Parse("EXECUTE bj", "ej"), Describe("S"), Sync()),
        "DEALLOCATE bj", (Describe("S", "ej"), Sync()),
        (Parse("DEALLOCATE v"), Describe("S"), Bind(), Execute(), Sync()),
        (Parse("DEALLOCATE ALL"), Bind(), Execute(), Sync()),
        "EXECUTE x(1)",
    ]), "extended protocol")


if __name__ == "__main__":
    raise SystemExit(main())
