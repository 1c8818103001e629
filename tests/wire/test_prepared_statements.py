#!/usr/bin/python3
"""test_prepared_statements.py: the session view pg_prepared_statements as PostgreSQL 15
shows it: one row per named statement made by Parse or by PREPARE (the unnamed one is not
listed), the statement text, parameter types, from_sql and the generic/custom plan counts,
read when the query runs; usable as any relation (WHERE, count(*), ORDER BY, joins), found
unqualified through pg_catalog's place in search_path. Each case runs a script on eddy and
on the reference PostgreSQL and compares every message; prepare_time is never shown as a
value because it differs between the servers. A prepared statement's privileges are those of
the user that runs it, checked where PostgreSQL's executor starts (Bind or first Execute)."""
from pgw import Bind, Close, Describe, Execute, Parse, Sync, case, main, script_runner


# Every column but prepare_time, in an order that does not depend on hashing.
LIST = ("SELECT name, statement, parameter_types, from_sql, generic_plans, custom_plans "
        "FROM pg_prepared_statements ORDER BY name")


@case
def columns_as_postgres(t):
    t.same_as_ref(script_runner([
        "SELECT * FROM pg_prepared_statements",
        "SELECT * FROM pg_catalog.pg_prepared_statements",
        (Parse("SELECT * FROM pg_prepared_statements"), Describe("S"), Sync()),
        "SELECT p.name AS n, x.v FROM pg_prepared_statements AS p(v), (VALUES (1)) AS x(v)",
        "SELECT pg_typeof(parameter_types), pg_typeof(prepare_time) FROM pg_prepared_statements",
        "SELECT p.v, x.v FROM pg_prepared_statements AS p(v), (VALUES (1)) AS x(v)",
        "SELECT nosuch FROM pg_prepared_statements",
        "SELECT * FROM public.pg_prepared_statements",
    ]), "columns and names")


@case
def rows_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE q(int, text, timestamptz) AS SELECT $1, $2",
        "PREPARE r AS SELECT 1; PREPARE s(numeric) AS SELECT $1 + 1",
        (Parse("SELECT $1::int8 + $2", "proto", oids=(0, 23)), Sync()),
        (Parse("SELECT 'unnamed'"), Sync()),
        (Parse("", "empty"), Sync()),
        LIST,
        "SELECT count(*) FROM pg_prepared_statements",
        "SELECT name FROM pg_prepared_statements WHERE from_sql ORDER BY 1 DESC",
        "SELECT count(*) FROM pg_prepared_statements WHERE prepare_time <= now() AND prepare_time IS NOT NULL",
        "SELECT name, array_length(parameter_types, 1) FROM pg_catalog.pg_prepared_statements "
        "WHERE parameter_types <> '{}' ORDER BY 2, 1",
        "SELECT from_sql, count(*) FROM pg_prepared_statements GROUP BY from_sql ORDER BY 1",
        (Parse(LIST), Bind(rfmts=(1,)), Execute(), Sync()),
        "DEALLOCATE r", (Close("S", "proto"), Sync()), LIST,
        "DISCARD ALL", LIST,
    ]), "rows")


@case
def plan_counts_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE g AS SELECT 1", "PREPARE c(int) AS SELECT $1",
        "EXECUTE g", "EXECUTE g", "EXECUTE c(1)", "EXECUTE c(2)", LIST,
        "EXECUTE c(3); EXECUTE c(4); EXECUTE c(5); EXECUTE c(6); EXECUTE c(7)", LIST,
        (Parse("SELECT $1::int", "pc"), Parse("SELECT 2", "pg"), Sync()),
        (Bind("pc", values=["1"]), Execute(), Bind("pg"), Execute(), Bind("pg"), Execute(), Sync()),
        (Parse("EXECUTE c(8)", "pe"), Bind("pe"), Execute(), Sync()),
        LIST,
        # A failed EXECUTE plans nothing.
        "EXECUTE c('x')", "EXECUTE c(1, 2)", LIST,
    ]), "generic_plans and custom_plans")


@case
def read_when_run_as_postgres(t):
    t.same_as_ref(script_runner([
        "PREPARE me AS SELECT name, generic_plans FROM pg_prepared_statements ORDER BY name",
        "EXECUTE me", "PREPARE other AS SELECT 1", "EXECUTE me",
        (Parse("SELECT name, custom_plans FROM pg_prepared_statements ORDER BY 1", "mine"), Sync()),
        (Bind("mine"), Execute(), Sync()),
        "DEALLOCATE other",
        (Bind("mine"), Execute(), Sync()),
        (Parse("SELECT count(*) FROM pg_prepared_statements"), Bind(), Execute(), Sync()),
        (Parse("SELECT 1", "late"), Sync()),
        (Parse("SELECT count(*) FROM pg_prepared_statements"), Bind(), Execute(), Sync()),
        "SELECT count(*) FROM pg_prepared_statements WHERE name IN (SELECT name FROM pg_prepared_statements)",
    ]), "rows of the moment the query runs")


@case
def search_path_as_postgres(t):
    t.same_as_ref(script_runner([
        "CREATE SCHEMA pst",
        "CREATE TABLE pst.pg_prepared_statements (a int)",
        "SET search_path = pst",
        (Parse("SELECT * FROM pg_prepared_statements"), Describe("S"), Sync()),
        "SET search_path = pst, pg_catalog",
        (Parse("SELECT * FROM pg_prepared_statements"), Describe("S"), Sync()),
        (Parse("SELECT * FROM pg_catalog.pg_prepared_statements"), Describe("S"), Sync()),
        "SET search_path = pg_catalog, pst",
        (Parse("SELECT * FROM pg_prepared_statements"), Describe("S"), Sync()),
        "RESET search_path",
        "DROP SCHEMA pst CASCADE",
    ]), "pg_catalog first unless search_path lists it")


@case
def privileges_checked_as_the_user_that_runs_it(t):
    # PostgreSQL checks privileges when the executor starts: at Bind for a query, at the first
    # Execute for a write; as the current user then, whoever prepared the statement.
    t.same_as_ref(script_runner([
        "DROP SCHEMA IF EXISTS wire_priv CASCADE; DROP ROLE IF EXISTS wire_priv_r",
        "CREATE ROLE wire_priv_r; CREATE SCHEMA wire_priv; GRANT USAGE ON SCHEMA wire_priv TO wire_priv_r",
        "CREATE TABLE wire_priv.t (a int, b int); GRANT SELECT (a) ON wire_priv.t TO wire_priv_r",
        (Parse("SELECT a FROM wire_priv.t", "pa"), Parse("SELECT b FROM wire_priv.t", "pb"),
         Parse("INSERT INTO wire_priv.t VALUES (1, 2)", "pi"), Sync()),
        "SET ROLE wire_priv_r",
        (Bind("pa"), Execute(), Sync()),
        (Bind("pb"), Sync()),
        (Bind("pi"), Sync()),
        (Bind("pi"), Execute(), Sync()),
        "PREPARE pq AS SELECT b FROM wire_priv.t",
        "EXECUTE pq",
        "RESET ROLE",
        "EXECUTE pq",
        (Bind("pb"), Execute(), Bind("pi"), Execute(), Sync()),
        "DEALLOCATE ALL; DROP SCHEMA wire_priv CASCADE; DROP ROLE wire_priv_r",
    ]), "privileges at Bind and Execute")


if __name__ == "__main__":
    raise SystemExit(main())
