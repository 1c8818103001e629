#!/usr/bin/python3
"""describe.py: differential Describe test (issue 3), eddy against PostgreSQL 15.

  describe.py TARGET_PORT REF_PORT [FILE.sql ...]

Creates the tables and views of setup.sql in a fresh schema on both servers (one
connection each, search_path set to that schema), then prepares every query line
as the unnamed statement (Parse) and describes it (Describe of the statement),
through libpq (psycopg's pq layer). The two servers must agree on what a client
sees: the RowDescription (each column's name, type OID and type modifier, in
order) and the parameter types, or the SQLSTATE of the error and whether Parse
or Describe raised it. Nothing is executed: reading a table needs the dataflow
engine, which eddy does not have yet, but binding and typing must already be
PostgreSQL's.

The files (default: queries.sql, known_bugs.sql, pending.sql next to this one):
  queries.sql     one "ok"/"not ok" line per query;
  pending.sql     queries that need a feature eddy does not have yet, under
                  "-- pending: REASON" lines;
  known_bugs.sql  queries eddy claims to support but describes wrongly, under
                  "-- bug: TEXT" lines (reported, waiting for the fix).
Pending queries and known bugs print neutral "# pending" / "# known bug" lines,
counted neither as passed nor failed, and say so once they agree with PostgreSQL
(move them to queries.sql then). Each known bug also prints one indented line,
which make test shows. DESCRIBE_STRICT=1 turns the known bugs into "not ok"."""
import os
import sys

from psycopg import pq

SQLSTATE = pq.DiagnosticField.SQLSTATE
PRIMARY = pq.DiagnosticField.MESSAGE_PRIMARY
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = "describe_%d" % os.getpid()


def conninfo(port):
    return ("host=127.0.0.1 port=%d user=postgres dbname=eddy connect_timeout=5 "
            "options='-c TimeZone=UTC'" % port).encode()


def err(res):
    return ((res.error_field(SQLSTATE) or b"?").decode(),
            (res.error_field(PRIMARY) or b"").decode())


def describe(conn, sql):
    """What a client learns from Parse + Describe of sql, and the error message if any."""
    r = conn.prepare(b"", sql.encode())
    if r.status == pq.ExecStatus.FATAL_ERROR:
        code, msg = err(r)
        return ("error at Parse", code), msg
    if r.status != pq.ExecStatus.COMMAND_OK:
        return ("Parse status", str(r.status)), ""
    r = conn.describe_prepared(b"")
    if r.status == pq.ExecStatus.FATAL_ERROR:
        code, msg = err(r)
        return ("error at Describe", code), msg
    if r.status != pq.ExecStatus.COMMAND_OK:
        return ("Describe status", str(r.status)), ""
    params = tuple(r.param_type(i) for i in range(r.nparams))
    cols = tuple((r.fname(i).decode(), r.ftype(i), r.fmod(i)) for i in range(r.nfields))
    return ("columns", cols, params), ""


def show(sig):
    if sig[0] == "columns":
        cols = ", ".join("%s %d%s" % (n, o, "" if m == -1 else "(%d)" % m) for n, o, m in sig[1])
        params = " parameters %s" % ",".join(str(p) for p in sig[2]) if sig[2] else ""
        return (cols or "no columns") + params
    return " ".join(str(x) for x in sig)


def read_queries(path):
    """(line number, sql, reason) for every statement line of path; the reason is the text of
    the last "-- pending: REASON" or "-- bug: TEXT" line above it."""
    out, reason = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            for mark in ("-- pending:", "-- bug:"):
                if s.startswith(mark):
                    reason = s[len(mark):].strip()
            if s and not s.startswith("--"):
                out.append((n, s, reason))
    return out


def setup(conns):
    """Runs setup.sql on both servers in a fresh schema; returns the failures."""
    bad = []
    stmts = ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
             "SET search_path = %s" % SCHEMA]
    stmts += [s for _, s, _ in read_queries(os.path.join(HERE, "setup.sql"))]
    for name, c in conns:
        for s in stmts:
            r = c.exec_(s.encode())
            if r.status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK):
                bad.append("%s: %s: %s %s" % (name, s, *err(r)))
    return bad


def main():
    if len(sys.argv) < 3 or not sys.argv[1] or not sys.argv[2]:
        print("not ok describe: needs the target and the reference port (eddy and PostgreSQL)")
        return 1
    tport, rport = int(sys.argv[1]), int(sys.argv[2])
    files = sys.argv[3:] or [os.path.join(HERE, f)
                             for f in ("queries.sql", "known_bugs.sql", "pending.sql")]
    conns = []
    for name, port in (("eddy", tport), ("PostgreSQL", rport)):
        c = pq.PGconn.connect(conninfo(port))
        if c.status != pq.ConnStatus.OK:
            print("not ok describe: cannot connect to %s on port %d: %s"
                  % (name, port, c.error_message.decode().strip()))
            return 1
        conns.append((name, c))
    bad = setup(conns)
    if bad:
        print("not ok describe_setup")
        for b in bad:
            print("  " + b)
        return 1
    print("ok describe_setup (schema %s)" % SCHEMA)
    target, ref = conns[0][1], conns[1][1]
    strict = bool(os.environ.get("DESCRIBE_STRICT"))
    counts = dict.fromkeys(("passed", "failed", "pending", "known bugs", "now passing"), 0)
    bugs_seen = []
    for path in files:
        base = os.path.basename(path)
        kind = ("pending" if base.startswith("pending") else
                "bug" if base.startswith("known_bugs") and not strict else "check")
        for n, sql, reason in read_queries(path):
            st, mt = describe(target, sql)
            sr, mr = describe(ref, sql)
            name = "%s:%d %s" % (base, n, sql if len(sql) <= 90 else sql[:87] + "...")
            diff = ["eddy:       %s%s" % (show(st), " (%s)" % mt if mt else ""),
                    "PostgreSQL: %s%s" % (show(sr), " (%s)" % mr if mr else "")]
            if kind == "check" and st == sr:
                counts["passed"] += 1
                print("ok %s" % name)
            elif kind == "check":
                counts["failed"] += 1
                print("not ok %s%s" % (name, " (known bug: %s)" % reason if reason else ""))
                for d in diff:
                    print("  " + d)
            elif st == sr:
                counts["now passing"] += 1
                print("# %s now agrees with PostgreSQL, move it to queries.sql: %s"
                      % ("pending" if kind == "pending" else "known bug", name))
            else:
                counts["pending" if kind == "pending" else "known bugs"] += 1
                print("# %s %s: %s" % ("pending" if kind == "pending" else "known bug", reason, name))
                for d in diff:
                    print("#   " + d)
                if kind == "bug" and reason not in bugs_seen:
                    bugs_seen.append(reason)
            for cname, c in conns:
                if c.status != pq.ConnStatus.OK:
                    print("not ok describe: lost the connection to %s after %s:%d" % (cname, base, n))
                    return 1
    # Known bugs do not fail the run, but make test shows them (it prints indented lines).
    for b in bugs_seen:
        print("  known bug (tests/describe/known_bugs.sql, DESCRIBE_STRICT=1 fails it): %s" % b)
    for _, c in conns:
        c.exec_(b"DROP SCHEMA IF EXISTS " + SCHEMA.encode() + b" CASCADE")
        c.finish()
    print("# describe: %(passed)d passed, %(failed)d failed, %(pending)d pending, "
          "%(known bugs)d known bugs, %(now passing)d pending or known bugs that now agree" % counts)
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
