#!/usr/bin/python3
"""roles.py: role statements run on eddy and on PostgreSQL 15 as the same sequence of
users, each answer compared (command tag, or SQLSTATE and message, and the notices and
warnings sent with it), then the roles both list. Usage: roles.py EDDY_PORT PG_PORT.
Roles are named rt_* and dropped at the end (PostgreSQL's roles are cluster-wide)."""
import sys

from psycopg import pq

from pq_answer import answer, conninfo

# (user the statement runs as (None: the connecting superuser), statement)
STEPS = [
    (None, "CREATE ROLE rt_alice LOGIN PASSWORD 'alice pw'"),
    (None, "CREATE ROLE rt_alice"),
    (None, "CREATE USER rt_bob"),
    (None, "CREATE ROLE rt_carol CREATEROLE NOLOGIN"),
    (None, "CREATE ROLE rt_dave WITH SUPERUSER CREATEDB CONNECTION LIMIT 5 VALID UNTIL '2031-02-03 04:05:06+00'"),
    (None, "CREATE ROLE rt_x PASSWORD 'SCRAM-SHA-256$4096:c2FsdHNhbHRzYWx0$c3RvcmVkc3RvcmVkc3RvcmVkc3RvcmVkc3RvcmVkMTI=:c2VydmVyc2VydmVyc2VydmVyc2VydmVyc2VydmVyMTI='"),
    (None, "CREATE ROLE pg_rt"),
    (None, "CREATE ROLE rt_e SUPERUSER NOSUPERUSER"),
    (None, "CREATE ROLE rt_e FOO"),
    (None, "CREATE ROLE rt_e CONNECTION LIMIT -2"),
    (None, "GRANT rt_alice TO rt_bob"),
    (None, "GRANT rt_alice TO rt_bob"),
    (None, "GRANT rt_bob TO rt_alice"),
    (None, "GRANT rt_alice TO rt_alice"),
    (None, "GRANT rt_nobody TO rt_bob"),
    (None, "GRANT rt_alice TO rt_nobody"),
    (None, "REVOKE rt_alice FROM rt_carol"),
    (None, "GRANT rt_alice, rt_carol TO rt_x"),
    (None, "REVOKE rt_carol FROM rt_x"),
    ("rt_bob", "CREATE ROLE rt_f"),
    ("rt_bob", "CREATE ROLE rt_f SUPERUSER"),
    ("rt_bob", "ALTER ROLE rt_bob PASSWORD 'new'"),
    ("rt_bob", "ALTER ROLE rt_bob CREATEDB"),
    ("rt_bob", "ALTER ROLE rt_alice PASSWORD 'x'"),
    ("rt_bob", "ALTER ROLE rt_dave NOLOGIN"),
    ("rt_bob", "DROP ROLE rt_alice"),
    ("rt_bob", "GRANT rt_alice TO rt_carol"),
    ("rt_bob", "SET ROLE rt_alice"),
    ("rt_bob", "SET ROLE rt_carol"),
    ("rt_bob", "SET ROLE rt_nobody"),
    ("rt_bob", "SET SESSION AUTHORIZATION rt_alice"),
    ("rt_carol", "CREATE ROLE rt_f LOGIN"),
    ("rt_carol", "CREATE ROLE rt_g SUPERUSER"),
    ("rt_carol", "ALTER ROLE rt_f CONNECTION LIMIT 2 NOLOGIN"),
    ("rt_carol", "ALTER ROLE rt_dave CONNECTION LIMIT 2"),
    ("rt_carol", "GRANT rt_f TO rt_bob"),
    ("rt_carol", "GRANT rt_dave TO rt_bob"),
    ("rt_carol", "DROP ROLE rt_dave"),
    ("rt_carol", "DROP ROLE rt_carol"),
    ("rt_carol", "DROP ROLE rt_f"),
    (None, "ALTER ROLE rt_nobody LOGIN"),
    (None, "ALTER USER rt_bob WITH NOLOGIN CONNECTION LIMIT 1 VALID UNTIL 'infinity'"),
    (None, "DROP ROLE rt_nobody"),
    (None, "DROP ROLE IF EXISTS rt_nobody, rt_none"),
    (None, "SET SESSION AUTHORIZATION rt_nobody"),
    (None, "SET ROLE rt_nobody"),
]

LISTING = ("SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin,"
           " r.rolconnlimit, r.rolvaliduntil, r.rolpassword,"
           " ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid"
           " WHERE m.member = r.oid ORDER BY 1) AS member_of"
           " FROM pg_roles r WHERE r.rolname LIKE 'rt%' ORDER BY 1")
WHO = "SELECT current_user, session_user"
CLEANUP = "DROP ROLE IF EXISTS rt_alice, rt_bob, rt_carol, rt_dave, rt_x, rt_e, rt_f, rt_g"


def connect(port):
    c = pq.PGconn.connect(conninfo(port))
    if c.status != pq.ConnStatus.OK:
        raise SystemExit("not ok roles: cannot connect to port %d: %s" % (port, c.error_message.decode()))
    notes = []

    def on_notice(res):
        notes.append(((res.error_field(pq.DiagnosticField.SEVERITY_NONLOCALIZED) or b"").decode(),
                      (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode(),
                      (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()))
    c.notice_handler = on_notice
    return c, notes


def run(port):
    c, notes = connect(port)
    answer(c, CLEANUP)
    out = []
    for who, sql in STEPS:
        if who:
            answer(c, "SET SESSION AUTHORIZATION " + who)
        del notes[:]
        a = answer(c, sql)
        out.append((who, sql, a, list(notes), answer(c, WHO)))
        answer(c, "RESET ROLE")
        answer(c, "RESET SESSION AUTHORIZATION")
    listing = answer(c, LISTING)
    answer(c, CLEANUP)
    c.finish()
    return out, listing


def main():
    eddy_port, pg_port = int(sys.argv[1]), int(sys.argv[2])
    got, got_list = run(eddy_port)
    want, want_list = run(pg_port)
    failed = 0
    allowed = denied = 0
    for (who, sql, a, n, w), (_, _, b, m, v) in zip(got, want):
        if b[0] == "error":
            denied += 1
        else:
            allowed += 1
        if (a, n, w) != (b, m, v):
            failed += 1
            print("not ok roles: as %s: %s\n  eddy:       %r %r %r\n  PostgreSQL: %r %r %r"
                  % (who or "superuser", sql, a, n, w, b, m, v))
    # The verifiers PostgreSQL makes differ by salt: compare only that one is there.
    def norm(listing):
        if listing[0] != "rows":
            return listing
        return [r[:8] + ("verifier" if r[8] and r[8] != "********" else r[8],) + r[9:] for r in listing[2]]
    if norm(got_list) != norm(want_list):
        failed += 1
        print("not ok roles: the roles listed differ\n  eddy:       %r\n  PostgreSQL: %r" % (got_list, want_list))
    if failed == 0:
        print("ok roles: %d statements (%d answered, %d refused) as on PostgreSQL 15, and pg_roles"
              % (len(STEPS), allowed, denied))


if __name__ == "__main__":
    main()
