#!/usr/bin/python3
"""test_psycopg.py: psycopg 3 against a server (DSN from $EDDY_PORT, or argv[1]).

Parameterised queries with many Python types and their typed results, binary
cursors, server-side prepared statements, cancel from another thread, errors
with SQLSTATE. Everything asserted here holds for PostgreSQL 15 too.

The catalog cases (TypeInfo.fetch and the other type introspection psycopg's
adapters do, conn.info) compare with the PostgreSQL 15 on argv[2] ($PG_PORT)."""
import datetime
import decimal
import os
import sys
import threading
import time
import traceback
import uuid

import psycopg
from psycopg import errors as pgerr

PORT = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("EDDY_PORT") or 0)
PG_PORT = int((sys.argv[2] if len(sys.argv) > 2 else os.environ.get("PG_PORT")) or 0)
DSN = "host=127.0.0.1 port=%d user=postgres dbname=eddy connect_timeout=5" % PORT

CASES = []
failures = []


def case(fn):
    CASES.append(fn)
    return fn


def eq(got, want, what):
    if got != want or type(got) is not type(want):
        failures.append("%s: got %r (%s), want %r (%s)" % (what, got, type(got).__name__, want,
                                                           type(want).__name__))


def ok(cond, what):
    if not cond:
        failures.append(what)


def connect(**kw):
    return psycopg.connect(DSN, autocommit=True, **kw)


@case
def connect_and_server_info(conn):
    ok(conn.info.server_version >= 150000, "server_version %d" % conn.info.server_version)
    eq(conn.info.parameter_status("client_encoding"), "UTF8", "client_encoding")
    eq(conn.info.encoding, "utf-8", "python encoding")
    eq(conn.execute("SELECT 1").fetchone(), (1,), "SELECT 1")


TZ = datetime.timezone(datetime.timedelta(hours=2))
PARAMS = [
    (42, "int"), (-2 ** 40, "bigint"), (1.5, "float"), (-0.1, "float"),
    (decimal.Decimal("12345678901234567890.000001"), "Decimal"),
    (decimal.Decimal("-0.5"), "Decimal neg"), ("héllo ☃", "str"), ("", "empty str"),
    (b"\x00\x01\xff", "bytes"), (True, "bool"), (False, "bool false"),
    (datetime.date(2024, 2, 29), "date"),
    (datetime.datetime(2024, 3, 1, 12, 34, 56, 789000), "naive datetime"),
    (datetime.datetime(2024, 3, 1, 12, 34, 56, tzinfo=TZ), "datetime with tz"),
    (datetime.time(23, 59, 59), "time"), (datetime.timedelta(days=3, seconds=5), "timedelta"),
    (uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), "UUID"),
]


def same_value(got, want):
    if isinstance(want, datetime.datetime) and want.tzinfo is not None:
        return isinstance(got, datetime.datetime) and got == want   # tz may differ in display
    if isinstance(want, bytes):
        return bytes(got) == want
    return got == want and type(got) is type(want)


@case
def parameters_of_many_types_round_trip(conn):
    for v, what in PARAMS:
        got = conn.execute("SELECT %s", (v,)).fetchone()[0]
        ok(same_value(got, v), "%s: %r came back as %r" % (what, v, got))


@case
def parameters_in_binary_round_trip(conn):
    for v, what in PARAMS:
        got = conn.execute("SELECT %b", (v,)).fetchone()[0]
        ok(same_value(got, v), "binary %s: %r came back as %r" % (what, v, got))


@case
def None_parameter(conn):
    eq(conn.execute("SELECT %s::int IS NULL, %s::text", (None, None)).fetchone(), (True, None),
       "NULL")


@case
def typed_results(conn):
    cur = conn.execute("SELECT 1::int2, 2::int4, 3::int8, 1.25::float4, 2.5::float8, 1.10::numeric,"
                       " 'x'::text, 'y'::varchar, true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid,"
                       " '2024-01-02'::date, '2024-01-02 03:04:05'::timestamp,"
                       " '2024-01-02 03:04:05+00'::timestamptz, '\\x0102'::bytea, NULL::int")
    row = cur.fetchone()
    want = (1, 2, 3, 1.25, 2.5, decimal.Decimal("1.10"), "x", "y", True,
            uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), datetime.date(2024, 1, 2),
            datetime.datetime(2024, 1, 2, 3, 4, 5),
            datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc), b"\x01\x02", None)
    for i, (g, w) in enumerate(zip(row, want)):
        ok(same_value(g, w), "column %d: %r, want %r" % (i, g, w))
    oids = [d.type_code for d in cur.description]
    eq(oids, [21, 23, 20, 700, 701, 1700, 25, 1043, 16, 2950, 1082, 1114, 1184, 17, 23], "type OIDs")


@case
def binary_cursor(conn):
    cur = conn.cursor(binary=True)
    cur.execute("SELECT %s::int4 * 2, %s::text, %s::numeric, %s::timestamptz, %s::float8",
                (21, "bin", decimal.Decimal("3.14159"),
                 datetime.datetime(2020, 5, 6, 7, 8, 9, tzinfo=datetime.timezone.utc), 0.25))
    row = cur.fetchone()
    eq(row[0], 42, "int4")
    eq(row[1], "bin", "text")
    eq(row[2], decimal.Decimal("3.14159"), "numeric")
    ok(row[3] == datetime.datetime(2020, 5, 6, 7, 8, 9, tzinfo=datetime.timezone.utc), "timestamptz")
    eq(row[4], 0.25, "float8")
    eq(cur.pgresult.fformat(0), 1, "result in binary format")
    cur.execute("VALUES (1, 'a'), (2, 'b'), (3, NULL)")
    eq(cur.fetchall(), [(1, "a"), (2, "b"), (3, None)], "rows")


@case
def prepared_statements(conn):
    for i in range(8):
        row = conn.execute("SELECT %s::int8 + 1, %s::text", (i, "p%d" % i), prepare=True).fetchone()
        eq(row, (i + 1, "p%d" % i), "prepared execution %d" % i)
    # Automatic preparation after prepare_threshold executions, binary too.
    conn.prepare_threshold = 2
    cur = conn.cursor(binary=True)
    for i in range(6):
        cur.execute("SELECT %s::int4 * 3", (i,))
        eq(cur.fetchone(), (i * 3,), "auto-prepared binary execution %d" % i)


@case
def prepared_statements_listed_in_catalog(conn):
    conn.execute("SELECT %s::int4", (1,), prepare=True)
    names = conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()
    ok(names and names[0] >= 1, "pg_prepared_statements lists the statement: %r" % (names,))


@case
def executemany_and_rowcount(conn):
    cur = conn.cursor()
    cur.execute("VALUES (1), (2), (3)")
    eq(cur.rowcount, 3, "rowcount")
    eq(cur.fetchall(), [(1,), (2,), (3,)], "rows")
    eq(cur.statusmessage, "SELECT 3", "status")


@case
def multi_statement_without_parameters(conn):
    cur = conn.execute("SELECT 1; SELECT 2 AS two")
    eq(cur.fetchone(), (1,), "first result")
    ok(cur.nextset(), "second result set")
    eq(cur.fetchone(), (2,), "second result")
    eq(cur.description[0].name, "two", "its column name")


@case
def errors_with_sqlstate(conn):
    for sql, params, state, cls in (
            ("SELECT 1/0", None, "22012", pgerr.DivisionByZero),
            ("SELECT %s::int4", ("abc",), "22P02", pgerr.InvalidTextRepresentation),
            ("SELEC 1", None, "42601", pgerr.SyntaxError),
            ("SELECT 2147483647::int4 + 1", None, "22003", pgerr.NumericValueOutOfRange)):
        try:
            conn.execute(sql, params)
            failures.append("%s did not fail" % sql)
        except psycopg.Error as e:
            eq(e.sqlstate, state, "%s sqlstate" % sql)
            ok(isinstance(e, cls), "%s raises %s, got %s" % (sql, cls.__name__, type(e).__name__))
    eq(conn.execute("SELECT 'still here'").fetchone(), ("still here",), "usable after errors")


@case
def transactions(conn):
    conn.autocommit = False
    try:
        conn.execute("SELECT 1")
        eq(conn.info.transaction_status, psycopg.pq.TransactionStatus.INTRANS, "in transaction")
        try:
            conn.execute("SELECT 1/0")
        except pgerr.DivisionByZero:
            pass
        eq(conn.info.transaction_status, psycopg.pq.TransactionStatus.INERROR, "failed")
        try:
            conn.execute("SELECT 1")
            failures.append("statement in a failed transaction succeeded")
        except pgerr.InFailedSqlTransaction as e:
            eq(e.sqlstate, "25P02", "25P02")
        conn.rollback()
        eq(conn.info.transaction_status, psycopg.pq.TransactionStatus.IDLE, "idle after rollback")
    finally:
        conn.autocommit = True


@case
def cancel_from_a_thread(conn):
    def later():
        time.sleep(0.3)
        conn.cancel()
    th = threading.Thread(target=later)
    th.start()
    t0 = time.monotonic()
    try:
        conn.execute("SELECT pg_sleep(10)")
        failures.append("pg_sleep(10) was not cancelled")
    except pgerr.QueryCanceled as e:
        eq(e.sqlstate, "57014", "sqlstate")
    dt = time.monotonic() - t0
    th.join()
    ok(dt < 1.5, "cancelled quickly (%.2f s)" % dt)
    eq(conn.execute("SELECT 7").fetchone(), (7,), "usable after cancel")


@case
def pipeline_mode(conn):
    with conn.pipeline():
        c1 = conn.execute("SELECT %s::int4", (1,))
        c2 = conn.execute("SELECT %s::text", ("two",))
        c3 = conn.execute("SELECT 3.0::numeric")
    eq(c1.fetchone(), (1,), "first")
    eq(c2.fetchone(), ("two",), "second")
    eq(c3.fetchone(), (decimal.Decimal("3.0"),), "third")


@case
def large_result(conn):
    cur = conn.execute("SELECT repeat('ab', 500000)")
    eq(len(cur.fetchone()[0]), 1000000, "1 MB text value")


def connect_pg():
    if not PG_PORT:
        raise RuntimeError("no reference PostgreSQL (argv[2] / PG_PORT)")
    return psycopg.connect(DSN.replace("port=%d" % PORT, "port=%d" % PG_PORT), autocommit=True)


def type_infos(conn, cls, names):
    """What cls.fetch finds for each name, as comparable values (None: no such type)."""
    out = []
    for n in names:
        t = cls.fetch(conn, n)
        out.append((n, t and {k: v for k, v in vars(t).items() if k not in ("python_type", "enum")}))
    return out


TYPE_NAMES = ["int4", "integer", "text[]", "_int4", "character varying", "varchar(10)", "numeric", "jsonb",
              "json[]", "uuid", "timestamptz", "timestamp without time zone", "interval", "bytea", "name",
              "pg_catalog.int8", '"char"', "record", "regclass", "oid", "no_such_type", "public.int4"]


@case
def typeinfo_fetch_as_postgres(conn):
    from psycopg.types import TypeInfo
    with connect_pg() as pg:
        eq(type_infos(conn, TypeInfo, TYPE_NAMES), type_infos(pg, TypeInfo, TYPE_NAMES), "TypeInfo.fetch")
    t = TypeInfo.fetch(conn, "text[]")
    eq((t.name, t.oid, t.array_oid, t.regtype), ("_text", 1009, 0, "text[]"), "text[]")
    t = TypeInfo.fetch(conn, "int4")
    eq((t.name, t.oid, t.array_oid, t.regtype, t.delimiter), ("int4", 23, 1007, "integer", ","), "int4")
    # Registered, it is what the connection loads that type's arrays with.
    t.register(conn)
    eq(conn.execute("SELECT '{1,NULL,3}'::int4[]").fetchone(), ([1, None, 3],), "an int4[] read back")


@case
def type_introspection_of_adapters(conn):
    from psycopg.types.composite import CompositeInfo
    from psycopg.types.enum import EnumInfo
    from psycopg.types.range import RangeInfo
    with connect_pg() as pg:
        names = ["int4", "text", "no_such_type"]
        eq(type_infos(conn, CompositeInfo, names), type_infos(pg, CompositeInfo, names), "CompositeInfo.fetch")
        eq(type_infos(conn, EnumInfo, ["no_such_enum"]), type_infos(pg, EnumInfo, ["no_such_enum"]),
           "EnumInfo.fetch")
        eq(type_infos(conn, RangeInfo, ["no_such_range", "int4"]), type_infos(pg, RangeInfo, ["no_such_range", "int4"]),
           "RangeInfo.fetch")
    # eddy has no range types: PostgreSQL's int4range is not there to find.
    eq(RangeInfo.fetch(conn, "int4range"), None, "int4range")


@case
def record_values_from_catalog_functions(conn):
    q = "SELECT information_schema._pg_expandarray(ARRAY['a', 'b']) AS k, (information_schema._pg_expandarray(ARRAY[7])).n"
    with connect_pg() as pg:
        eq(conn.execute(q).fetchall(), pg.execute(q).fetchall(), "records of _pg_expandarray")


@case
def conn_info_as_postgres(conn):
    i = conn.info
    with connect_pg() as pg:
        p = pg.info
        for name in ("client_encoding", "DateStyle", "IntervalStyle", "integer_datetimes",
                     "standard_conforming_strings", "is_superuser", "session_authorization", "server_encoding",
                     "TimeZone", "application_name"):
            eq(i.parameter_status(name), p.parameter_status(name), "parameter_status(%s)" % name)
        for attr in ("dbname", "user", "host", "hostaddr", "options", "encoding", "timezone", "status",
                     "transaction_status", "vendor", "error_message"):
            eq(getattr(i, attr), getattr(p, attr), "info.%s" % attr)
        eq({k: v for k, v in i.get_parameters().items() if k != "port"},
           {k: v for k, v in p.get_parameters().items() if k != "port"}, "get_parameters()")
    # eddy speaks PostgreSQL 15 and says which it is in server_version.
    eq(i.server_version, 150000, "server_version")
    ok(i.parameter_status("server_version").startswith("15.0 (eddy "), i.parameter_status("server_version"))
    ok(i.backend_pid > 0, "backend_pid %r" % i.backend_pid)
    eq(i.port, PORT, "port")


def main():
    if not PORT:
        print("not ok psycopg: no server (EDDY_PORT unset)")
        return 1
    nfail = 0
    for fn in CASES:
        del failures[:]
        try:
            with connect() as conn:
                fn(conn)
        except Exception as e:  # noqa: BLE001
            failures.append("%s: %s" % (type(e).__name__, str(e).strip()))
            tb = traceback.extract_tb(sys.exc_info()[2])
            failures.append("at line %d" % tb[-1].lineno)
        if failures:
            nfail += 1
            print("not ok %s" % fn.__name__)
            for f in failures:
                print("  " + f)
        else:
            print("ok %s" % fn.__name__)
        sys.stdout.flush()
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
