#!/usr/bin/python3
"""diff.py: differential test of constant queries, eddy against PostgreSQL 15.

  diff.py TARGET_PORT REF_PORT [FILE.sql]   (default: queries.sql)

Runs each line of queries.sql in order on one connection per server, through
libpq (psycopg's pq layer) in the simple protocol and, for queries, again in
the extended protocol. For every line the two servers must agree on column
names, type OIDs and each value as text, or on the SQLSTATE and position of the error, or
on the command tag. One "ok"/"not ok" line per query line."""
import os
import sys

from psycopg import pq

from pq_answer import conninfo

DIAG_SQLSTATE = pq.DiagnosticField.SQLSTATE


def signature(res):
    """What a user sees of a result, as a comparable value."""
    st = res.status
    if st == pq.ExecStatus.TUPLES_OK:
        cols = [(res.fname(i).decode(), res.ftype(i)) for i in range(res.nfields)]
        rows = [[None if res.get_value(r, c) is None else res.get_value(r, c).decode()
                 for c in range(res.nfields)] for r in range(res.ntuples)]
        return ("rows", cols, rows)
    if st == pq.ExecStatus.COMMAND_OK:
        return ("command", (res.command_status or b"").decode())
    if st == pq.ExecStatus.EMPTY_QUERY:
        return ("empty",)
    if st == pq.ExecStatus.FATAL_ERROR:
        pos = res.error_field(pq.DiagnosticField.STATEMENT_POSITION)
        return ("error", (res.error_field(DIAG_SQLSTATE) or b"?").decode(),
                "position " + pos.decode() if pos else "no position")
    return ("status", str(st))


def message(res):
    m = res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY)
    return m.decode() if m else ""


def main():
    if len(sys.argv) < 3 or not sys.argv[1] or not sys.argv[2]:
        print("not ok diff: needs the target and the reference port (eddy and PostgreSQL)")
        return 1
    tport, rport = int(sys.argv[1]), int(sys.argv[2])
    path = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__),
                                                               "queries.sql")
    with open(path, encoding="utf-8") as f:
        lines = [(i + 1, l.rstrip("\n")) for i, l in enumerate(f)]
    queries = [(n, l) for n, l in lines if l.strip() and not l.lstrip().startswith("--")]
    conns = []
    for port in (tport, rport):
        c = pq.PGconn.connect(conninfo(port))
        if c.status != pq.ConnStatus.OK:
            print("not ok diff: cannot connect to port %d: %s" % (port, c.error_message.decode()))
            return 1
        conns.append(c)
    target, ref = conns
    failed = 0
    for n, sql in queries:
        q = sql.encode()
        diffs = []
        rt, rr = target.exec_(q), ref.exec_(q)
        st, sr = signature(rt), signature(rr)
        if st != sr:
            diffs.append("simple protocol: eddy %r\n    PostgreSQL %r" % (st, sr))
            if sr[0] == "error" or st[0] == "error":
                diffs.append("messages: eddy %r / PostgreSQL %r" % (message(rt), message(rr)))
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head in ("SELECT", "VALUES", "WITH"):
            et, er = target.exec_params(q, []), ref.exec_params(q, [])
            se, sre = signature(et), signature(er)
            if se != sre:
                diffs.append("extended protocol: eddy %r\n    PostgreSQL %r" % (se, sre))
        name = "%s:%d %s" % (os.path.basename(path), n, sql[:60])
        if diffs:
            failed += 1
            print("not ok %s" % name)
            for d in diffs:
                print("  " + d)
        else:
            print("ok %s" % name)
        for c in conns:
            if c.status != pq.ConnStatus.OK:
                print("not ok diff: connection lost after line %d" % n)
                return 1
    for c in conns:
        c.finish()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
