#!/usr/bin/python3
"""test_group_commit.py: one-row writes from many sessions at once. INSERTs into a table without
a key may share a step (group commit); each statement must still get exactly its own outcome:
its tag, or its own error as PostgreSQL words it (NOT NULL and CHECK failing in the middle of
other sessions' inserts, a key taken by another session at the same moment), and a session must
read its write right after it was acknowledged. Nothing may be lost or applied twice: the table
holds exactly the acknowledged rows, and a materialized view over it agrees with them; so while
another session changes the catalog around the table (views, renames). Run on the
shared eddy and on eddy servers of our own (GROUP_TARGETS: --workers 1 and 4)."""
import os
import threading
import time

from pgw import REF_PORT, TARGET_IS_PG, TARGET_PORT, case, connect, errors, main, rows

SCHEMA = "wiregroup_%d" % os.getpid()
PRIVATE = [int(p) for p in os.environ.get("GROUP_TARGETS", "").split() if p]
SESSIONS = 8
STATEMENTS = 60

SETUP = [
    "CREATE TABLE g (a int NOT NULL, b int CHECK (b >= 0))",
    "CREATE MATERIALIZED VIEW gv AS SELECT b % 10 AS k, count(*) AS n, sum(a) AS s FROM g GROUP BY b % 10",
    "CREATE TABLE u (a int PRIMARY KEY, who int)",
]


def outcome(msgs):
    """The statement's tag, or its error's (SQLSTATE, message, detail)."""
    e = errors(msgs)
    if e:
        f = e[0].fields()
        return ("E", f.get("C"), f.get("M"), f.get("D"))
    tags = [m.body[:-1].decode() for m in msgs if m.t == "C"]
    return ("C", tags[0] if tags else None)


def statements(s):
    """Session s's statements, each with the rows of g it adds when it succeeds."""
    out = []
    for i in range(STATEMENTS):
        a = s * 10000 + i * 10
        kind = i % 6
        if kind == 3:
            out.append(("INSERT INTO g VALUES (%d, -1)" % a, []))              # CHECK fails
        elif kind == 4:
            out.append(("INSERT INTO g VALUES (NULL, %d)" % i, []))            # NOT NULL fails
        elif kind == 5:
            out.append(("INSERT INTO u VALUES (%d, %d)" % (i, s), None))       # one session wins each key
        elif kind == 2:
            out.append(("INSERT INTO g VALUES (%d, %d), (%d, %d)" % (a, i, a + 1, i + 1), [(a, i), (a + 1, i + 1)]))
        else:
            out.append(("INSERT INTO g VALUES (%d, %d)" % (a, i), [(a, i)]))
    return out


def session(port, s, got):
    with connect(port, timeout=30.0) as c:
        assert not errors(c.q("SET search_path = %s" % SCHEMA))
        for sql, adds in statements(s):
            res = outcome(c.q(sql))
            seen = None
            if res[0] == "C" and adds:
                # Acknowledged: this session reads it at once (read your writes).
                seen = rows(c.q("SELECT count(*) FROM g WHERE a = %d" % adds[0][0]))
            got.append((sql, adds, res, seen))


def reference_errors():
    """PostgreSQL's own outcome for each kind of failing statement."""
    with connect(REF_PORT) as c:
        for sql in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                    "SET search_path = %s" % SCHEMA] + SETUP + ["INSERT INTO u VALUES (5, 0)"]:
            c.q(sql)
        want = {k: outcome(c.q(sql)) for k, sql in [
            ("check", "INSERT INTO g VALUES (7, -1)"), ("null", "INSERT INTO g VALUES (NULL, 4)"),
            ("dup", "INSERT INTO u VALUES (5, 1)")]}
        c.q("DROP SCHEMA %s CASCADE" % SCHEMA)
    return want


@case
def concurrent_inserts_each_get_their_own_outcome(t):
    ref = reference_errors()
    for port in [TARGET_PORT] + PRIVATE:
        at = "port %d: " % port
        with connect(port) as c:
            for sql in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                        "SET search_path = %s" % SCHEMA] + SETUP:
                assert not errors(c.q(sql)), sql
        results = [[] for _ in range(SESSIONS)]
        threads = [threading.Thread(target=session, args=(port, s, results[s])) for s in range(SESSIONS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        want_g = []
        winners = {}
        for s in range(SESSIONS):
            t.eq(len(results[s]), STATEMENTS, at + "session %d ran every statement" % s)
            for sql, adds, res, seen in results[s]:
                if adds:
                    if t.eq(res, ("C", "INSERT 0 %d" % len(adds)), at + sql):
                        t.eq(seen, [[b"1"]], at + "read right after its acknowledgement: " + sql)
                        want_g.extend(adds)
                elif adds is not None:
                    kind = "check" if ", -1)" in sql else "null"
                    t.eq(res[:3], ref[kind][:3], at + sql + " fails as on PostgreSQL")
                    # PostgreSQL's detail names the failing row, which differs by statement.
                    t.ok(res[3] is not None and res[3].startswith("Failing row contains ("), at + sql + " detail")
                elif res == ("C", "INSERT 0 1"):
                    key = int(sql.split("(")[1].split(",")[0])
                    t.ok(key not in winners, at + "key %d taken by one session only" % key)
                    winners[key] = s
                else:
                    key = int(sql.split("(")[1].split(",")[0])
                    t.eq(res, ("E", "23505", ref["dup"][2], "Key (a)=(%d) already exists." % key), at + sql)
        with connect(port) as c:
            c.q("SET search_path = %s" % SCHEMA)
            held = sorted((int(a), int(b)) for a, b in rows(c.q("SELECT a, b FROM g")))
            t.eq(held, sorted(want_g), at + "the table holds exactly the acknowledged rows")
            view = sorted((int(k), int(n), int(s)) for k, n, s in rows(c.q("SELECT k, n, s FROM gv")))
            groups = {}
            for a, b in want_g:
                n, s = groups.get(b % 10, (0, 0))
                groups[b % 10] = (n + 1, s + a)
            if not TARGET_IS_PG:   # PostgreSQL's materialized view waits for REFRESH
                t.eq(view, sorted((k, n, s) for k, (n, s) in groups.items()), at + "the view agrees with the rows")
            keys = sorted((int(a), int(w)) for a, w in rows(c.q("SELECT a, who FROM u")))
            t.eq(keys, sorted(winners.items()), at + "each key holds the session that was told it won")
            t.eq(sorted(winners), list(range(5, STATEMENTS, 6)), at + "every key was taken once")
            c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


cycles = [0]   # rounds of catalog changes ddl_session made so far


def ddl_session(port, stop, done):
    """Catalog changes on the table the others insert into, as fast as they go."""
    with connect(port, timeout=30.0) as c:
        assert not errors(c.q("SET search_path = %s" % SCHEMA))
        i = 0
        while not stop.is_set():
            for sql in ["CREATE MATERIALIZED VIEW dv%d AS SELECT count(*) FROM d" % i, "ALTER TABLE d RENAME TO d_moved",
                        "ALTER TABLE d_moved RENAME TO d", "DROP MATERIALIZED VIEW dv%d" % i]:
                assert not errors(c.q(sql)), sql
            i += 1
            cycles[0] = i
        done.append(i)


def inserting_session(port, s, stop, acked):
    """400 INSERTs at least, and on until the catalog changed twice meanwhile (30 s at most): on a
    busy machine 400 INSERTs may all be answered before one round of DDL is through."""
    with connect(port, timeout=30.0) as c:
        assert not errors(c.q("SET search_path = %s" % SCHEMA))
        first = cycles[0]
        deadline = time.time() + 30
        i = 0
        while i < 400 or (cycles[0] - first < 2 and time.time() < deadline):
            i += 1
            res = outcome(c.q("INSERT INTO d VALUES (%d)" % (s * 1000000 + i)))
            if res == ("C", "INSERT 0 1"):
                acked.append(s * 1000000 + i)
            else:   # renamed away at that moment: it names no table
                assert res[:2] == ("E", "42P01"), res
        stop.set()


@case
def acknowledged_inserts_survive_catalog_changes(t):
    """An INSERT into a table without a key is answered once it holds its place among the steps;
    catalog changes on its table (views created and dropped over it, renames) are numbered after
    the writes answered before them, so none of those is lost or fails on the workers."""
    for port in [TARGET_PORT] + PRIVATE:
        at = "port %d: " % port
        with connect(port) as c:
            for sql in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                        "SET search_path = %s" % SCHEMA, "CREATE TABLE d (a int)"]:
                assert not errors(c.q(sql)), sql
        stop = threading.Event()
        cycles[0] = 0
        acked = [[] for _ in range(4)]
        done = []
        threads = [threading.Thread(target=inserting_session, args=(port, s, stop, acked[s])) for s in range(4)]
        threads.append(threading.Thread(target=ddl_session, args=(port, stop, done)))
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        want = sorted(a for got in acked for a in got)
        t.ok(len(done) == 1 and done[0] > 0, at + "the catalog changed while the inserts ran")
        t.ok(len(want) > 0, at + "some inserts were acknowledged")
        with connect(port) as c:
            c.q("SET search_path = %s" % SCHEMA)
            held = sorted(int(a) for a, in rows(c.q("SELECT a FROM d")))
            t.eq(held, want, at + "the table holds exactly the acknowledged rows")
            if not TARGET_IS_PG:
                c.q("CREATE MATERIALIZED VIEW dn AS SELECT count(*) FROM d")
                t.eq(rows(c.q("SELECT * FROM dn")), [[str(len(want)).encode()]], at + "a view over it counts them")
            c.q("DROP SCHEMA %s CASCADE" % SCHEMA)


if __name__ == "__main__":
    main()
