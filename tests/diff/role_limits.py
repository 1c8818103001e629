#!/usr/bin/python3
"""role_limits.py: what a role's CONNECTION LIMIT and its ALTER ROLE ... SET defaults do to
logins, on eddy and on PostgreSQL 15 (trust authentication on both), the same steps on each
and every answer compared: a role at its limit is refused with 53300 `too many connections
for role "x"` and gets in again once a session closed, a superuser is not held to its limit,
CONNECTION LIMIT 0 refuses every login, a raised limit lets more in; a role's setting is the
value its sessions start with and RESET returns to, a startup option wins over it, and a
bad parameter or value in ALTER ROLE SET is refused as PostgreSQL refuses it.
Usage: role_limits.py EDDY_PORT PG_PORT. Roles are named rl_* and dropped at the end."""
import sys
import time

from psycopg import pq

from pq_answer import answer

CLEANUP = "DROP ROLE IF EXISTS rl_one, rl_two, rl_super, rl_none, rl_set, rl_other"


def conninfo(port, user, options=""):
    return ("host=127.0.0.1 port=%d user=%s dbname=eddy connect_timeout=5 %s"
            % (port, user, ("options='%s'" % options) if options else "")).encode()


class Server:
    def __init__(self, port, is_pg):
        self.port = port
        self.is_pg = is_pg
        self.admin = pq.PGconn.connect(conninfo(port, "postgres"))
        if self.admin.status != pq.ConnStatus.OK:
            raise SystemExit("not ok role_limits: cannot connect to %d: %s"
                             % (port, self.admin.error_message.decode()))
        self.open = {}   # name -> PGconn
        # How many sessions the server counts for a role: eddy's count is CONNECTION LIMIT's own.
        self.sessions_sql = ("SELECT count(*) FROM pg_stat_activity WHERE usename = '%s'" if is_pg else
                             "SELECT coalesce(sum(sessions), 0) FROM eddy_internal.role_sessions"
                             " WHERE role_id = (SELECT id FROM eddy_catalog.roles WHERE name = '%s')")

    def sql(self, s):
        return answer(self.admin, s)

    def login(self, name, user, options=""):
        """ "ok", or the refusal's message (as libpq shows the server's FATAL)."""
        c = pq.PGconn.connect(conninfo(self.port, user, options))
        if c.status != pq.ConnStatus.OK:
            msg = c.error_message.decode()
            c.finish()
            return ("refused", msg[msg.find("FATAL:"):].strip() if "FATAL:" in msg else msg.strip())
        self.open[name] = c
        return ("ok",)

    def on(self, name, s):
        return answer(self.open[name], s)

    def close(self, name, user):
        """Closes a session and waits until the server no longer counts it (both servers
        count a session until they have noticed its end)."""
        self.open.pop(name).finish()
        want = sum(1 for c in self.open.values() if c.user.decode() == user)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            got = self.sql(self.sessions_sql % user)
            if got[0] == "rows" and int(got[2][0][0]) == want:
                return ("closed",)
            time.sleep(0.02)
        return ("still counted", got)

    def finish(self):
        for c in self.open.values():
            c.finish()
        self.open.clear()


# Each step: (what, args). The same steps run on both servers.
STEPS = [
    ("sql", CLEANUP),
    ("sql", "CREATE ROLE rl_one LOGIN CONNECTION LIMIT 1"),
    ("sql", "CREATE ROLE rl_two LOGIN CONNECTION LIMIT 2"),
    ("sql", "CREATE ROLE rl_super SUPERUSER LOGIN CONNECTION LIMIT 1"),
    ("sql", "CREATE ROLE rl_none LOGIN CONNECTION LIMIT 0"),
    ("sql", "CREATE ROLE rl_other LOGIN"),
    ("login", "a", "rl_one"),
    ("login", "b", "rl_one"),
    ("login", "o", "rl_other"),
    ("login", "c", "rl_two"),
    ("login", "d", "rl_two"),
    ("login", "e", "rl_two"),
    ("login", "s1", "rl_super"),
    ("login", "s2", "rl_super"),
    ("login", "n", "rl_none"),
    ("close", "a", "rl_one"),
    ("login", "a2", "rl_one"),
    ("login", "a3", "rl_one"),
    ("sql", "ALTER ROLE rl_one CONNECTION LIMIT 2"),
    ("login", "a4", "rl_one"),
    ("login", "a5", "rl_one"),
    ("sql", "ALTER ROLE rl_one CONNECTION LIMIT -1"),
    ("login", "a6", "rl_one"),
    ("sql", "ALTER ROLE rl_none CONNECTION LIMIT 1"),
    ("login", "n2", "rl_none"),
    # Role defaults.
    ("sql", "CREATE ROLE rl_set LOGIN"),
    ("sql", "ALTER ROLE rl_set SET statement_timeout = '1234'"),
    ("sql", "ALTER ROLE rl_set SET DateStyle TO 'SQL, DMY'"),
    ("sql", "ALTER ROLE rl_set SET extra_float_digits = 2"),
    ("sql", "ALTER ROLE rl_set RESET extra_float_digits"),
    ("sql", "ALTER ROLE rl_set SET no_such_parameter = 1"),
    ("sql", "ALTER ROLE rl_set SET statement_timeout = 'soon'"),
    ("sql", "ALTER ROLE rl_set SET server_version = '9'"),
    ("sql", "ALTER ROLE rl_nobody SET statement_timeout = 1"),
    ("sql", "ALTER USER rl_set SET application_name = 'from role'"),
    ("login", "t1", "rl_set"),
    ("on", "t1", "SHOW statement_timeout"),
    ("on", "t1", "SHOW DateStyle"),
    ("on", "t1", "SHOW extra_float_digits"),
    ("on", "t1", "SHOW application_name"),
    ("on", "t1", "SET statement_timeout = '5s'"),
    ("on", "t1", "RESET statement_timeout"),
    ("on", "t1", "SHOW statement_timeout"),
    ("on", "t1", "SET statement_timeout = '6s'"),
    ("on", "t1", "RESET ALL"),
    ("on", "t1", "SHOW statement_timeout"),
    ("on", "t1", "SHOW DateStyle"),
    ("on", "t1", "ALTER ROLE rl_set SET statement_timeout = '2s'"),
    ("on", "t1", "ALTER ROLE rl_other SET statement_timeout = '2s'"),
    ("login", "t2", "rl_set", "-c statement_timeout=7s"),
    ("on", "t2", "SHOW statement_timeout"),
    ("on", "t2", "SHOW DateStyle"),
    ("on", "t2", "RESET statement_timeout"),
    ("on", "t2", "SHOW statement_timeout"),
    ("sql", "ALTER ROLE rl_set RESET statement_timeout"),
    ("login", "t3", "rl_set"),
    ("on", "t3", "SHOW statement_timeout"),
    ("on", "t3", "SHOW DateStyle"),
    ("sql", "ALTER ROLE rl_set RESET ALL"),
    ("login", "t4", "rl_set"),
    ("on", "t4", "SHOW DateStyle"),
    ("on", "t4", "SHOW application_name"),
]


def run(port, is_pg):
    srv = Server(port, is_pg)
    out = []
    for step in STEPS:
        kind = step[0]
        if kind == "sql":
            out.append(srv.sql(step[1]))
        elif kind == "login":
            out.append(srv.login(step[1], step[2], step[3] if len(step) > 3 else ""))
        elif kind == "on":
            out.append(srv.on(step[1], step[2]) if step[1] in srv.open else ("no session",))
        elif kind == "close":
            out.append(srv.close(step[1], step[2]) if step[1] in srv.open else ("no session",))
    srv.finish()
    answer(srv.admin, CLEANUP)
    srv.admin.finish()
    return out


def main():
    eddy_port, pg_port = int(sys.argv[1]), int(sys.argv[2])
    got = run(eddy_port, False)
    want = run(pg_port, True)
    failed = refused = 0
    for step, a, b in zip(STEPS, got, want):
        if b[0] in ("refused", "error"):
            refused += 1
        if a != b:
            failed += 1
            print("not ok role_limits: %s\n  eddy:       %r\n  PostgreSQL: %r" % (" ".join(step), a, b))
    if failed == 0:
        print("ok role_limits: %d steps (%d refused) as on PostgreSQL 15" % (len(STEPS), refused))


if __name__ == "__main__":
    main()
