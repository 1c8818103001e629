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

from pgw import (Bind, Closed, Execute, Parse, Query, Sync, TARGET_PORT, case, connect, errors, frame, main,
                 rows, script_runner)

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


def CopyData(b):
    return frame("d", b.encode() if isinstance(b, str) else b)


def CopyDone():
    return frame("c")


def CopyFail(msg):
    return frame("f", msg.encode() + b"\0")


def copy_runner(*steps):
    """Like steps(), with COPY: a tuple is messages sent at once (a Query or Parse ... Sync and
    its CopyData); every answer is kept, errors with their CONTEXT."""
    def run(port):
        out = []
        with connect(port) as c:
            for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
                      "SET search_path = %s" % SCHEMA] + list(steps):
                msgs = (Query(s),) if isinstance(s, str) else s
                c.send(b"".join(msgs))
                # A Query's COPY takes what follows it as its data (another Query ends it, answered
                # by the COPY's error); a Parse's is answered at each Sync.
                n = 1 if msgs[0][:1] == b"Q" else sum(1 for m in msgs if m == Sync())
                got = []
                for m in c.until_rfq(n):
                    if m.t in "EN":
                        f = m.fields()
                        got.append("%s:%s:%s|%s|%s|%s" % (m.t, f.get("C"), f.get("M"), f.get("D"), f.get("H"),
                                                          f.get("W")))
                    elif m.t == "G":
                        got.append("G:" + m.body.hex())
                    elif m.t not in "SK":
                        got.append(m.short())
                out.append((s if isinstance(s, str) else repr(s[0][:40]), got))
        return out
    return run


def copy(sql, *data):
    return (Query(sql),) + tuple(CopyData(d) for d in data) + (CopyDone(),)


CT = "CREATE TABLE ct (a int PRIMARY KEY, b text NOT NULL DEFAULT 'dflt', c int CHECK (c > 0), d varchar(3))"
CALL = "SELECT * FROM ct ORDER BY a"


@case
def copy_text(t):
    t.same_as_ref(copy_runner(
        CT, copy("COPY ct FROM STDIN", "1\tone\t1\tx\n2\tt", "wo\t\\N\t\\N\n3\ta\\tb\\n\\101\\x41\\\\\t3\tyy\n"), CALL,
        copy("COPY ct (c, a) FROM STDIN", "5\t10\n", "\\N\t11\n\\.\n12\tjunk after the end\n"), CALL,
        copy("COPY ct FROM STDIN"), copy("COPY ct (a, b) FROM STDIN (DELIMITER '|', NULL 'nil')", "20|nil\n21|x\n"),
        copy("COPY ct (a, b) FROM STDIN (DELIMITER '|', NULL 'nil')", "22|y\r\n23|z\r\n"), CALL,
        "SELECT count(*) FROM ct"), "COPY FROM STDIN, text")


@case
def copy_csv(t):
    t.same_as_ref(copy_runner(
        CT, copy("COPY ct FROM STDIN (FORMAT csv, HEADER)", 'a,b,c,d\n1,"one, two",1,\n2,"multi\nline",,""\n',
                 '3,"q""uote",3,""\n'), CALL,
        copy("COPY ct (a, b, d) FROM STDIN (FORMAT csv, HEADER match, QUOTE '''', ESCAPE '\\', NULL 'N')",
             "a,b,d\n4,'it\\'s',N\n5,'N',''\n"), CALL,
        copy("COPY ct (a, b, d) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (d), FORCE_NULL (b))", '6,"",\n7,x,""\n'),
        copy("COPY ct (a, b, d) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (d))", "8,x,\n"), CALL,
        copy("COPY ct (a, b) FROM STDIN (FORMAT csv, DELIMITER ';')", '9;"a;b"\n'), CALL), "COPY FROM STDIN, csv")


@case
def copy_errors(t):
    t.same_as_ref(copy_runner(
        CT, "INSERT INTO ct VALUES (1, 'one', 1)",
        copy("COPY ct FROM STDIN", "2\tx\t1\t\\N\n3\tx\t1\t\\N\n1\ty\t2\t\\N\n"),
        copy("COPY ct FROM STDIN", "2\tx\t1\t\\N\n1\ty\t2\t\\N\n3\tx\tzz\t\\N\n"),
        copy("COPY ct FROM STDIN", "2\t\\N\t1\t\\N\n"), copy("COPY ct FROM STDIN", "2\tx\t0\tq\n"),
        copy("COPY ct FROM STDIN", "2\tx\t1\tlong\n"), copy("COPY ct FROM STDIN", "2\tx\n"),
        copy("COPY ct FROM STDIN", "2\tx\t1\t\\N\textra\n"),
        copy("COPY ct FROM STDIN", "2\tx\t1\t\\N\r\n3\tx\t1\t\\N\n"),
        copy("COPY ct FROM STDIN", "2\tx\t1\t\\N\n3\tx\r\t1\t\\N\n"),
        copy("COPY ct (a, b) FROM STDIN (FORMAT csv, HEADER match)", "a,x\n"),
        copy("COPY ct (a, b) FROM STDIN (FORMAT csv, HEADER match)", "a\n"),
        copy("COPY ct (a, b) FROM STDIN (FORMAT csv)", '2,"open\n'),
        (Query("COPY ct FROM STDIN"), CopyData("2\tx\t1\t\\N\n"), CopyFail("client gave up")),
        CALL), "COPY FROM STDIN errors change nothing")


@case
def copy_in_transactions(t):
    t.same_as_ref(copy_runner(
        CT, "BEGIN", copy("COPY ct (a) FROM STDIN", "1\n2\n"), CALL, "INSERT INTO ct (a) VALUES (3)",
        copy("COPY ct (a) FROM STDIN", "3\n"), "SELECT 1", "ROLLBACK", CALL,
        "BEGIN", copy("COPY ct (a) FROM STDIN", "1\n2\n"), "UPDATE ct SET c = a", "COMMIT", CALL,
        (Parse("COPY ct (a, b) FROM STDIN"), Bind(), Execute(), CopyData("5\tfive\n"), CopyDone(), Sync()), CALL,
        (Parse("COPY ct (a, b) FROM STDIN"), Bind(), Execute(), CopyData("1\tdup\n"), CopyDone(), Sync()), CALL,
        copy("COPY ct (a) FROM STDIN; INSERT INTO ct (a) VALUES (7)", "6\n"), CALL,
        copy("COPY ct (a) FROM STDIN; INSERT INTO ct (a) VALUES (8)", "1\n"), CALL), "COPY in transactions")


@case
def copy_large_and_keys_in_batches(t):
    rows = "".join("%d\tr%d\t1\t\\N\n" % (i, i) for i in range(1, 20001))
    chunks = [rows[i:i + 7000] for i in range(0, len(rows), 7000)]
    dup_early = "".join("%d\tx\t1\t\\N\n" % (i if i != 500 else 3) for i in range(1, 1501)).replace(
        "1200\tx\t1", "1200\tx\tbad")
    dup_late = "".join("%d\tx\t1\t\\N\n" % (i if i != 1100 else 3) for i in range(1, 1501)).replace(
        "1200\tx\t1", "1200\tx\tbad")
    dup_at = "".join("%d\tx\t1\t\\N\n" % (i if i != 15000 else 7) for i in range(1, 20001))
    t.same_as_ref(copy_runner(
        CT, copy("COPY ct FROM STDIN", *chunks), "SELECT count(*), sum(a), min(b), max(b) FROM ct",
        "TRUNCATE ct", copy("COPY ct FROM STDIN", dup_early), copy("COPY ct FROM STDIN", dup_late),
        copy("COPY ct FROM STDIN", dup_at), "SELECT count(*) FROM ct"),
        "COPY of 20000 rows in chunks; keys checked as PostgreSQL's batches")


@case
def copy_large_without_key(t):
    """A table without a key takes a large COPY in chunks parsed while more comes: the rows, and
    the first error in line order, with its line, wherever the chunks were cut."""
    NK = "CREATE TABLE nk (a int, b text, c int NOT NULL)"
    NKALL = "SELECT count(*), sum(a), sum(c), min(b), max(b), count(DISTINCT b) FROM nk"

    def rows(n, bad=None, eol="\n"):
        bad = bad or {}
        return "".join(bad.get(i, "%d\tr%d\t%d" % (i, i % 977, i % 13)) + eol for i in range(1, n + 1))

    def chunks(text, size=50000):
        return [text[i:i + size] for i in range(0, len(text), size)]

    big = rows(60000)
    t.same_as_ref(copy_runner(
        NK, copy("COPY nk FROM STDIN", *chunks(big)), NKALL,
        copy("COPY nk FROM STDIN", *chunks(rows(60000, {45000: "45000\tx\tnope", 52000: "52000\tx\tnope2"}))),
        copy("COPY nk FROM STDIN", *chunks(rows(60000, {3: "3\tx\tearly", 52000: "52000\tx"}))),
        copy("COPY nk FROM STDIN", *chunks(rows(60000, {59999: "59999\tx\t\\N"}))),
        copy("COPY nk FROM STDIN", *chunks(rows(60000, {30001: "30001\tx\t1\textra"}))),
        copy("COPY nk FROM STDIN", *chunks(rows(60000, {40000: "\\.", 50000: "junk after the end"}))), NKALL,
        copy("COPY nk FROM STDIN (HEADER)", *chunks("a\tb\tc\n" + rows(30000))), NKALL,
        copy("COPY nk (c, a) FROM STDIN", *chunks("".join("%d\t%d\n" % (i % 7, i) for i in range(40000)))), NKALL,
        copy("COPY nk FROM STDIN", *chunks(rows(30000, eol="\r\n"))), NKALL,
        copy("COPY nk FROM STDIN", *chunks(rows(30000, {20000: "20000\tx\r\t1"}, eol="\r\n"))),
        copy("COPY nk FROM STDIN", *chunks(rows(30000, {25000: "25000\tx\t1"}, eol="\r\n").replace(
            "25000\tx\t1\r\n", "25000\tx\t1\n"))),
        (Query("COPY nk FROM STDIN"),) + tuple(CopyData(d) for d in chunks(rows(30000, {29000: "29000\tx\tbad"})))
        + (CopyFail("client gave up"),),
        (Query("COPY nk FROM STDIN"),) + tuple(CopyData(d) for d in chunks(rows(30000))) + (CopyFail("gave up"),),
        NKALL), "a large COPY into a table without a key: rows and the first error")


@case
def copy_interrupted_by_another_message(t):
    def run(port):
        with connect(port) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA)
            c.q("CREATE SCHEMA %s" % SCHEMA)
            c.q("CREATE TABLE %s.zz (a int)" % SCHEMA)
            c.send(Query("COPY %s.zz FROM STDIN" % SCHEMA) + CopyData("1\n") + Query("SELECT 1"))
            out = []
            try:
                while True:
                    m = c.recv()
                    f = m.fields() if m.t in "EN" else {}
                    out.append((m.t, f.get("S"), f.get("C"), f.get("M"), f.get("W")))
            except Closed:
                out.append("closed")
            return out
    t.same_as_ref(run, "a Query during COPY FROM STDIN: an error, then FATAL")


@case
def update_from_and_delete_using(t):
    compare(t, "UPDATE ... FROM, DELETE ... USING", T, SEED, "INSERT INTO t VALUES (3, 'three', 3)",
            "CREATE TABLE k (x int, y text)", "INSERT INTO k VALUES (1, 'a'), (1, 'b'), (2, 'c'), (2, 'c'), (2, 'c')",
            "CREATE TABLE m (id int, v text)", "INSERT INTO m VALUES (1, 'p'), (2, 'q'), (3, 'r')",
            "UPDATE t SET b = m.v FROM m WHERE m.id = t.a AND m.id < 3 RETURNING t.a, t.b, m.v", ALL,
            "UPDATE t SET c = t.c + 10 FROM k WHERE k.x = t.a RETURNING a, c", ALL,
            "UPDATE k SET y = 'z' FROM m WHERE m.id = k.x AND m.v = 'q' RETURNING *", "SELECT * FROM k ORDER BY x, y",
            "DELETE FROM k USING m WHERE m.id = k.x AND m.id = 2 RETURNING k.*, m.v", "SELECT * FROM k ORDER BY x, y",
            "BEGIN", "DELETE FROM t USING k WHERE k.x = t.a RETURNING t.a", ALL,
            "UPDATE m SET v = t.b FROM t WHERE t.a = m.id RETURNING m.*", "COMMIT", ALL, "SELECT * FROM m ORDER BY id",
            "INSERT INTO k SELECT id, v FROM m WHERE id > 1 RETURNING *", "SELECT * FROM k ORDER BY x, y")


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


@case
def query_string_commits_back_to_back(t):
    """A query string whose COMMIT is followed by a failing write: the COMMIT's job ends on the
    loop while the next one already runs, and each keeps its own outcome (the failure's SQLSTATE
    once lost to the COMMIT's clean-up, seen as XX000 with no message: a race, so many rounds)."""
    rounds = 2000

    def run(t, port, at):
        with prepared(port, T, SEED) as c:
            got = {}
            for i in range(rounds):
                r = q(c, "INSERT INTO t VALUES (%d, 'x', 1); COMMIT; INSERT INTO t VALUES (%d, 'dup', 1)" % (10 + i, 10 + i))
                got[r if isinstance(r, str) else "no error"] = got.get(r if isinstance(r, str) else "no error", 0) + 1
            t.eq(got, {"23505": rounds}, at + "every round's duplicate answers 23505")
            t.eq(q(c, "SELECT count(*) FROM t"), [(str(2 + rounds),)], at + "every round's first INSERT committed")
    each_target(t, run)


if __name__ == "__main__":
    main()
