#!/usr/bin/python3
"""test_writes.py: how writes behave in transactions, against PostgreSQL 15: a block's INSERT,
UPDATE, DELETE and TRUNCATE apply together at COMMIT and not at all after ROLLBACK or an error
(25P02 until its end), its reads see its own changes, a constraint fails at the statement that
breaks it; the implicit transaction of a query string with several statements and of the
extended protocol's messages up to Sync is all or nothing; TRUNCATE's tag and effect.
Then eddy only, where PostgreSQL would wait on a lock instead: a block whose rows another
session changed before its COMMIT fails there (23505, 40001) with nothing applied, and
concurrent UPDATEs of one row lose no increment. Every run works in a schema of its own.
WRITES_TARGETS may name more eddy ports (other --workers counts) to run the eddy-only cases on."""
import os
import threading

from pgw import (Bind, Execute, Parse, Sync, TARGET_PORT, case, connect, errors, main, rows,
                 script_runner)

SCHEMA = "wirewrites_%d" % os.getpid()
EXTRA = [int(p) for p in os.environ.get("WRITES_TARGETS", "").split() if p]


def steps(*sql):
    """The statements after a fresh schema of the case's own, run on one connection."""
    return script_runner(["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                          "SET search_path = %s" % SCHEMA] + list(sql))


def compare(t, what, *sql):
    t.same_as_ref(steps(*sql), what)


T = "CREATE TABLE t (a int PRIMARY KEY, b text NOT NULL, c int CHECK (c > 0))"
SEED = "INSERT INTO t VALUES (1, 'one', 1), (2, 'two', 2)"
ALL = "SELECT * FROM t ORDER BY a"


@case
def block_commits_all_at_once(t):
    compare(t, "BEGIN ... COMMIT", T, SEED, "BEGIN", "INSERT INTO t VALUES (3, 'three', 3)", ALL,
            "UPDATE t SET b = b || '!' WHERE a >= 2 RETURNING *", "DELETE FROM t WHERE a = 1 RETURNING a",
            ALL, "SELECT count(*), sum(c) FROM t", "INSERT INTO t SELECT a + 10, b, c FROM t", ALL,
            "COMMIT", ALL)


@case
def rollback_and_failed_blocks_apply_nothing(t):
    compare(t, "ROLLBACK and an error in a block", T, SEED,
            "BEGIN", "INSERT INTO t VALUES (3, 'x', 3)", "DELETE FROM t", ALL, "ROLLBACK", ALL,
            "BEGIN", "INSERT INTO t VALUES (4, 'x', 4)", "INSERT INTO t VALUES (1, 'dup', 1)", ALL,
            "UPDATE t SET c = 9", "COMMIT", ALL,
            "BEGIN", "UPDATE t SET c = 5 WHERE a = 1", "INSERT INTO t VALUES (5, NULL, 5)", "ROLLBACK", ALL,
            "BEGIN", "INSERT INTO t VALUES (6, 'x', 0)", "ROLLBACK", ALL)


@case
def constraints_count_the_blocks_own_rows(t):
    compare(t, "keys against committed rows plus the block's", T, SEED,
            "BEGIN", "DELETE FROM t WHERE a = 1", "INSERT INTO t VALUES (1, 'again', 1)", "UPDATE t SET a = a + 10",
            "INSERT INTO t VALUES (11, 'clash', 1)", "ROLLBACK", ALL,
            "BEGIN", "DELETE FROM t WHERE a = 1", "INSERT INTO t VALUES (1, 'again', 1)", "INSERT INTO t VALUES (3, 'x', 3)",
            "UPDATE t SET a = a + 10 WHERE a = 3", "INSERT INTO t VALUES (3, 'y', 3)", "COMMIT", ALL)


@case
def implicit_transactions(t):
    compare(t, "a query string is one transaction", T, SEED,
            "INSERT INTO t VALUES (3, 'x', 3); INSERT INTO t VALUES (1, 'dup', 1)", ALL,
            "INSERT INTO t VALUES (4, 'x', 4); SELECT * FROM t WHERE a > 2 ORDER BY a; DELETE FROM t WHERE a = 4", ALL,
            "INSERT INTO t VALUES (5, 'x', 5); COMMIT; INSERT INTO t VALUES (5, 'again', 5)", ALL,
            "BEGIN; INSERT INTO t VALUES (6, 'x', 6); COMMIT; SELECT count(*) FROM t", ALL,
            "INSERT INTO t VALUES (7, 'x', 7); ROLLBACK", ALL)


@case
def extended_protocol_up_to_sync(t):
    ins = Parse("INSERT INTO t VALUES ($1, 'e', 1)")
    compare(t, "Execute ... Sync is one transaction", T, SEED,
            (ins, Bind(values=["3"]), Execute(), Sync()), ALL,
            (ins, Bind(values=["4"]), Execute(), ins, Bind(values=["1"]), Execute(), Sync()), ALL,
            (ins, Bind(values=["5"]), Execute(), Parse("SELECT count(*) FROM t"), Bind(), Execute(), Sync()), ALL,
            "BEGIN", (ins, Bind(values=["6"]), Execute(), Sync()), "ROLLBACK", ALL)


@case
def truncate(t):
    compare(t, "TRUNCATE", T, SEED, "CREATE TABLE u (x int)", "INSERT INTO u VALUES (1), (1), (NULL)",
            "TRUNCATE t", ALL, SEED, "TRUNCATE TABLE t, u", ALL, "SELECT * FROM u", SEED,
            "INSERT INTO u VALUES (2)",
            "BEGIN", "INSERT INTO t VALUES (3, 'x', 3)", "TRUNCATE t", ALL, "INSERT INTO t VALUES (1, 'new', 1)",
            "ROLLBACK", ALL,
            "BEGIN", "TRUNCATE t, u", "INSERT INTO t VALUES (1, 'new', 1)", "INSERT INTO u VALUES (7)",
            "SELECT * FROM u", "COMMIT", ALL, "SELECT * FROM u")


def q(c, sql):
    """A statement's rows, or its error's SQLSTATE."""
    got = c.q(sql)
    e = errors(got)
    return e[0].sqlstate() if e else [tuple(v.decode() if v is not None else None for v in r) for r in rows(got)]


def prepared(port, *sql):
    c = connect(port)
    for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
              "SET search_path = %s" % SCHEMA] + list(sql):
        got = c.q(s)
        assert not errors(got), (s, errors(got)[0].fields())
    return c


def other(port):
    c = connect(port)
    c.q("SET search_path = %s" % SCHEMA)
    return c


def each_target(t, fn):
    for port in [TARGET_PORT] + EXTRA:
        fn(t, port, "port %d: " % port)


@case
def commit_conflicts_apply_nothing(t):
    def run(t, port, at):
        with prepared(port, T, SEED) as a, other(port) as b:
            q(a, "BEGIN")
            q(a, "INSERT INTO t VALUES (3, 'a', 3)")
            q(a, "INSERT INTO t VALUES (5, 'a', 5)")
            t.eq(q(b, "INSERT INTO t VALUES (5, 'b', 5)"), [], at + "another session takes key 5 first")
            t.eq(q(a, "COMMIT"), "23505", at + "the block's COMMIT finds the key taken")
            t.eq(q(a, ALL), [("1", "one", "1"), ("2", "two", "2"), ("5", "b", "5")],
                 at + "nothing of the block applied")
            q(a, "BEGIN")
            q(a, "UPDATE t SET c = c + 1 WHERE a = 1")
            q(a, "INSERT INTO t VALUES (6, 'a', 6)")
            t.eq(q(b, "UPDATE t SET c = 100 WHERE a = 1"), [], at + "another session changes row 1")
            t.eq(q(a, "COMMIT"), "40001", at + "the block's COMMIT finds the row it read gone")
            t.eq(q(a, ALL), [("1", "one", "100"), ("2", "two", "2"), ("5", "b", "5")],
                 at + "nothing of the block applied")
            t.eq(q(a, "SELECT 1"), [("1",)], at + "the session goes on")
    each_target(t, run)


@case
def concurrent_updates_lose_nothing(t):
    sessions, each = 4, 25

    def run(t, port, at):
        with prepared(port, "CREATE TABLE n (id int PRIMARY KEY, v int)", "INSERT INTO n VALUES (1, 0), (2, 0)") as c:
            errs = []

            def bump(k):
                with other(port) as s:
                    for _ in range(each):
                        r = q(s, "UPDATE n SET v = v + 1 WHERE id = %d" % (1 + k % 2))
                        if r != []:
                            errs.append(r)
            threads = [threading.Thread(target=bump, args=(k,)) for k in range(sessions)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            t.eq(errs, [], at + "every UPDATE succeeded")
            t.eq(q(c, "SELECT id, v FROM n ORDER BY id"),
                 [("1", str(sessions // 2 * each)), ("2", str(sessions // 2 * each))], at + "no increment lost")
    each_target(t, run)


if __name__ == "__main__":
    main()
