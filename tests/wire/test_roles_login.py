#!/usr/bin/python3
"""test_roles_login.py: logging in as the catalog's roles, on an eddy started with
--auth scram --users FILE where FILE has root's verifier (password "root pw"): the file's
user became a superuser role; a role created with a password logs in with it (psycopg,
libpq's SCRAM), not with another; NOLOGIN is 28000 `role "x" is not permitted to log in`
and an expired VALID UNTIL fails as a wrong password (28P01), as PostgreSQL 15 answers;
ALTER ROLE ... PASSWORD takes effect for the next login; a role seen by pg_authid holds a
verifier, never the password.
  ROLES_PORT   the server"""
import os
import sys

import psycopg

PORT = int(os.environ["ROLES_PORT"])
failed = 0


def check(name, ok, detail=""):
    global failed
    if ok:
        print("ok roles_login_%s" % name)
    else:
        failed += 1
        print("not ok roles_login_%s %s" % (name, detail))


def connect(user, password):
    return psycopg.connect(host="127.0.0.1", port=PORT, user=user, password=password, dbname="eddy",
                           connect_timeout=10, autocommit=True)


def refused(user, password):
    try:
        connect(user, password).close()
        return None
    except psycopg.OperationalError as e:
        d = e.diag if hasattr(e, "diag") else None
        return (d.sqlstate if d else None, str(e))


try:
    root = connect("root", "root pw")
except Exception as e:
    check("seeded_superuser", False, repr(e))
    sys.exit(0)
r = root.execute("SELECT rolsuper, rolcanlogin FROM pg_roles WHERE rolname = 'root'").fetchall()
check("seeded_superuser", r == [(True, True)], repr(r))
root.execute("CREATE ROLE app LOGIN PASSWORD 'app pw'")
root.execute("CREATE ROLE nolog PASSWORD 'x pw'")
root.execute("CREATE ROLE old LOGIN PASSWORD 'old pw' VALID UNTIL '2001-01-01'")
pw = root.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'app'").fetchone()[0]
check("verifier_stored", pw.startswith("SCRAM-SHA-256$4096:") and "app pw" not in pw, pw)
with connect("app", "app pw") as c:
    who = c.execute("SELECT current_user, session_user").fetchone()
    check("password_login", who == ("app", "app"), repr(who))
e = refused("app", "wrong")
check("wrong_password", e is not None and 'password authentication failed for user "app"' in e[1], repr(e))
e = refused("nolog", "x pw")
check("nologin", e is not None and 'role "nolog" is not permitted to log in' in e[1], repr(e))
e = refused("old", "old pw")
check("expired", e is not None and 'password authentication failed for user "old"' in e[1], repr(e))
root.execute("ALTER ROLE app PASSWORD 'changed'")
e = refused("app", "app pw")
with connect("app", "changed") as c:
    check("password_changed", e is not None and c.execute("SELECT 1").fetchone() == (1,), repr(e))
root.execute("ALTER ROLE old VALID UNTIL 'infinity'")
with connect("old", "old pw") as c:
    check("valid_until_extended", c.execute("SELECT current_user").fetchone() == ("old",))
root.close()
sys.exit(0)
