#!/usr/bin/python3
"""dml.py: differential test of writes (INSERT, UPDATE, DELETE, COPY FROM STDIN, TRUNCATE),
eddy against PostgreSQL 15.

  dml.py TARGET_PORT REF_PORT FILE.sql...
  dml.py --print REF_PORT FILE.sql      PostgreSQL's answers only (to draft new lines)

Each line of a file is one statement, run in order on one connection per server through
libpq (psycopg's pq layer). Lines before the first "-- writes" line set the objects up
and must succeed on both. After it, every line is a statement whose binding is compared:

  * simple protocol: the statement runs on eddy, then on PostgreSQL inside a transaction
    that commits only if eddy's statement succeeded, so both servers' tables keep the same
    rows. When PostgreSQL raises an error, eddy must raise the same: SQLSTATE, position,
    message, detail and hint. When PostgreSQL succeeds, or fails only while executing (an
    integrity constraint, class 23), eddy must answer the same (the tag, and RETURNING's
    columns and rows, compared as multisets), or 0A000 "... needs the dataflow engine, which
    is not built yet": the statement bound as PostgreSQL binds it and only its execution is
    missing (such lines print "ok ... # bound, execution pending"). A COPY FROM STDIN that
    PostgreSQL accepts is ended at once (no rows).
  * extended protocol: Parse and Describe of the unnamed statement must agree on the
    parameter types and the result columns (names and type OIDs), or on the error
    (SQLSTATE, message, detail, hint, and whether Parse or Describe raised it). Nothing runs.

A line ending in "-- eddy: 0A000" is a form eddy refuses by design for now (ON CONFLICT, WITH
before a write): eddy must answer 0A000 in both protocols, whatever PostgreSQL does.

Comparing messages as well as SQLSTATEs makes this stricter than diff.py: a write's errors
are its whole interface until the engine runs it."""
import os
import re
import sys

from psycopg import pq

from pq_answer import conninfo

F = pq.DiagnosticField
PENDING = "needs the dataflow engine, which is not built yet"


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?([+-]\d\d(:\d\d)?)?")


def error_of(res):
    def f(code):
        v = res.error_field(code)
        return TIMESTAMP.sub("<timestamp>", v.decode()) if v else None
    return ("error", f(F.SQLSTATE), f(F.STATEMENT_POSITION), f(F.MESSAGE_PRIMARY),
            f(F.MESSAGE_DETAIL), f(F.MESSAGE_HINT))


def finish(conn, res):
    """A result as a comparable value; a COPY IN is ended without rows first."""
    st = res.status
    if st == pq.ExecStatus.COPY_IN:
        conn.put_copy_end()
        res = conn.get_result()
        while conn.get_result() is not None:
            pass
        st = res.status
    if st == pq.ExecStatus.TUPLES_OK:
        cols = [(res.fname(i).decode(), res.ftype(i)) for i in range(res.nfields)]
        vals = sorted(tuple(res.get_value(r, i) for i in range(res.nfields)) for r in range(res.ntuples))
        return ("rows", (res.command_status or b"").decode(), cols, vals)
    if st == pq.ExecStatus.COMMAND_OK:
        return ("command", (res.command_status or b"").decode())
    if st == pq.ExecStatus.FATAL_ERROR:
        return error_of(res)
    return ("status", str(st))


def run(conn, sql, wrap, keep=False):
    """The statement's result; wrap: inside a transaction, committed only when keep."""
    if wrap:
        conn.exec_(b"BEGIN")
    r = finish(conn, conn.exec_(sql.encode()))
    if wrap:
        conn.exec_(b"COMMIT" if keep else b"ROLLBACK")
    return r


def describe(conn, sql):
    r = conn.prepare(b"", sql.encode())
    if r.status == pq.ExecStatus.FATAL_ERROR:
        return ("Parse",) + error_of(r)
    r = conn.describe_prepared(b"")
    if r.status == pq.ExecStatus.FATAL_ERROR:
        return ("Describe",) + error_of(r)
    params = tuple(r.param_type(i) for i in range(r.nparams))
    cols = tuple((r.fname(i).decode(), r.ftype(i)) for i in range(r.nfields))
    return ("described", params, cols)


def read(path):
    setup, writes, in_writes = [], [], False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if s.startswith("-- writes"):
                in_writes = True
            if s and not s.startswith("--"):
                (writes if in_writes else setup).append((n, s))
    return setup, writes


def connect(port):
    c = pq.PGconn.connect(conninfo(port))
    if c.status != pq.ConnStatus.OK:
        print("not ok dml: cannot connect to port %d: %s" % (port, c.error_message.decode()))
        sys.exit(1)
    return c


def do_setup(conns, setup, base):
    ok = True
    for n, sql in setup:
        for name, c in conns:
            r = finish(c, c.exec_(sql.encode()))
            if r[0] not in ("command", "rows"):
                print("not ok %s:%d setup on %s: %s" % (base, n, name, r))
                ok = False
    return ok


def draft(port, path):
    ref = connect(port)
    setup, writes = read(path)
    do_setup([("PostgreSQL", ref)], setup, os.path.basename(path))
    for n, sql in writes:
        print("%d %s\n  simple   %r\n  extended %r" % (n, sql, run(ref, sql, True), describe(ref, sql)))
    return 0


def compare(tport, rport, path):
    target, ref = connect(tport), connect(rport)
    base = os.path.basename(path)
    setup, writes = read(path)
    if not do_setup([("eddy", target), ("PostgreSQL", ref)], setup, base):
        return 1
    failed = 0
    for n, sql in writes:
        diffs, note = [], ""
        st = run(target, sql, False)
        sr = run(ref, sql, True, keep=st[0] in ("command", "rows"))
        dt, dr = describe(target, sql), describe(ref, sql)
        if sql.rstrip().endswith("-- eddy: 0A000"):
            note = " # 0A000 in eddy by design"
            if st[0] != "error" or st[1] != "0A000":
                diffs.append("simple protocol: eddy %r, expected 0A000" % (st,))
            if dt[0] != "Parse" or dt[2] != "0A000":
                diffs.append("extended protocol: eddy %r, expected 0A000 at Parse" % (dt,))
        else:
            if st != sr:
                runs = sr[0] in ("command", "rows") or (sr[0] == "error" and (sr[1] or "").startswith("23"))
                pending = (runs and st[0] == "error" and st[1] == "0A000" and PENDING in (st[3] or ""))
                if pending:
                    note = " # bound, execution pending"
                else:
                    diffs.append("simple protocol: eddy %r\n    PostgreSQL %r" % (st, sr))
            if dt != dr:
                diffs.append("extended protocol: eddy %r\n    PostgreSQL %r" % (dt, dr))
        name = "%s:%d %s" % (base, n, sql if len(sql) <= 70 else sql[:67] + "...")
        if diffs:
            failed += 1
            print("not ok %s" % name)
            for d in diffs:
                print("  " + d)
        else:
            print("ok %s%s" % (name, note))
        for c in (target, ref):
            if c.status != pq.ConnStatus.OK:
                print("not ok dml: connection lost after line %d" % n)
                return 1
    return 1 if failed else 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--print":
        return draft(int(sys.argv[2]), sys.argv[3])
    if len(sys.argv) < 4 or not sys.argv[1] or not sys.argv[2]:
        print("not ok dml: needs the target and the reference port (eddy and PostgreSQL)")
        return 1
    rc = 0
    for path in sys.argv[3:]:
        rc |= compare(int(sys.argv[1]), int(sys.argv[2]), path)
    return rc


if __name__ == "__main__":
    sys.exit(main())
