#!/usr/bin/python3
"""test_order.py: worker 0 delivers every catalog change to every worker in one order
(DESIGN §5), checked through eddy_internal on an eddy started with --workers N.

  SEQ_PORT     the server
  SEQ_WORKERS  its --workers
  SEQ_SESSIONS, SEQ_STATEMENTS  the DDL storm's size (default 8 x 200)
  SEQ_SEED     random seed (default: time; printed)

Prints one "ok NAME" / "not ok NAME" line per case."""
import os
import random
import sys
import threading
import time
import traceback

import psycopg

PORT = int(os.environ["SEQ_PORT"])
WORKERS = int(os.environ["SEQ_WORKERS"])
SESSIONS = int(os.environ.get("SEQ_SESSIONS", "8"))
STATEMENTS = int(os.environ.get("SEQ_STATEMENTS", "200"))
SEED = int(os.environ.get("SEQ_SEED") or time.time())


def connect():
    return psycopg.connect(host="127.0.0.1", port=PORT, user="seq", dbname="eddy", autocommit=True)


def rows(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


failures = 0


def case(fn):
    global failures
    try:
        fn()
        print(f"ok {fn.__name__}")
    except Exception as e:  # noqa: BLE001 - report any failure as the case's
        failures += 1
        print(f"not ok {fn.__name__}: {e}")
        for line in traceback.format_exc().splitlines()[-6:]:
            print(f"  {line}")
    sys.stdout.flush()


def check(cond, what):
    if not cond:
        raise AssertionError(what)


# ---------------------------------------------------------------- the storm

created = []      # (session, name) of every CREATE VIEW that succeeded
dropped = []      # names of every DROP VIEW that succeeded
storm_errors = []


def storm_session(s, rnd, names, lock):
    conn = connect()
    mine = []
    for k in range(STATEMENTS):
        with lock:
            pool = list(names)
        try:
            if not mine or rnd.random() < 0.6:
                name = f"v_{s}_{k}"
                dep = rnd.choice(pool) if pool and rnd.random() < 0.7 else "base"
                with conn.cursor() as cur:
                    cur.execute(f"CREATE VIEW {name} AS SELECT a FROM {dep}")
                mine.append(name)
                with lock:
                    names.add(name)
                    created.append((s, name))
            else:
                name = rnd.choice(mine)
                cascade = " CASCADE" if rnd.random() < 0.5 else ""
                with conn.cursor() as cur:
                    cur.execute(f"DROP VIEW {name}{cascade}")
                mine.remove(name)
                with lock:
                    names.discard(name)
                    dropped.append(name)
        except psycopg.errors.UndefinedTable:
            pass   # 42P01: another session dropped what we read or named
        except psycopg.errors.DependentObjectsStillExist:
            pass   # 2BP01: RESTRICT with dependents
        except psycopg.errors.SerializationFailure:
            pass   # 40001: lost the commit race too often (slow builds); nothing was committed
        except Exception as e:  # noqa: BLE001
            storm_errors.append(f"session {s} statement {k}: {e!r}")
            return
    conn.close()


def command_streams():
    c = connect()
    per_worker = {}
    for w, seq, epoch, idx, kind, obj in rows(
            c, "SELECT worker, seq, epoch, catalog_index, kind, object_id FROM eddy_internal.worker_commands"):
        per_worker.setdefault(w, []).append((seq, epoch, idx, kind, obj))
    seqd = rows(c, "SELECT seq, epoch, catalog_index, kind, object_id, statement, object_name "
                   "FROM eddy_internal.commands")
    c.close()
    return per_worker, seqd


def ddl_storm_one_order():
    c = connect()
    c.execute("CREATE TABLE base (a int)")
    rnd0 = random.Random(SEED)
    names, lock = set(), threading.Lock()
    threads = [threading.Thread(target=storm_session, args=(s, random.Random(rnd0.random()), names, lock))
               for s in range(SESSIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(not storm_errors, f"unexpected errors: {storm_errors[:3]}")
    # The last change: synchronous DDL means it is applied everywhere when this returns.
    c.execute("CREATE TABLE storm_done (a int)")
    per_worker, seqd = command_streams()
    check(sorted(per_worker) == list(range(WORKERS)), f"workers reporting: {sorted(per_worker)}")
    # Every worker applied the same sequence, gap-free, and it is the sequencer's.
    ref = [(s, e, i, k, o) for s, e, i, k, o, _, _ in seqd]
    for w, got in per_worker.items():
        check(got == ref, f"worker {w} applied a different sequence ({len(got)} vs {len(ref)} commands)")
    check([r[0] for r in ref] == list(range(1, len(ref) + 1)), "sequence numbers have gaps")
    check(len({r[1] for r in ref}) == 1, "more than one epoch")
    check(ref[0][3] == "bootstrap", f"first command is {ref[0][3]}")
    first = ref[0][2]
    check([r[2] for r in ref] == list(range(first, first + len(ref))), "catalog indexes are not consecutive")
    check(all(r[3] == "apply" for r in ref[1:]), "a command other than apply after bootstrap")
    # It matches the catalog log: the last entry is the last DDL, each CREATE VIEW command
    # carries the ID its entry created (= its index), and exactly the successful statements.
    check(seqd[-1][6] == "eddy.public.storm_done", f"last command is {seqd[-1][6]}")
    creates = [r for r in seqd if r[5] == "CREATE VIEW"]
    check(all(r[4] == r[2] for r in creates), "a CREATE VIEW whose object ID is not its index")
    check(sorted(r[6].split(".")[-1] for r in creates) == sorted(n for _, n in created),
          f"{len(creates)} CREATE VIEW commands for {len(created)} successful statements")
    drops = [r for r in seqd if r[5] == "DROP VIEW"]
    check(len(drops) == len(dropped), f"{len(drops)} DROP VIEW commands for {len(dropped)} successful drops")
    # Per-session order: a session's creates appear in the order it ran them.
    pos = {r[6].split(".")[-1]: r[0] for r in creates}
    for s in range(SESSIONS):
        mine = [pos[n] for ss, n in created if ss == s]
        check(mine == sorted(mine), f"session {s}'s creates out of order")
    # Every worker's installed dataflows are the catalog's relations.
    views = {r[0] for r in rows(c, "SHOW VIEWS")}
    tables = {r[0] for r in rows(c, "SHOW TABLES")}
    flows = {}
    for w, name, ops in rows(c, "SELECT worker, name, operators FROM eddy_internal.dataflows"):
        flows.setdefault(w, set()).add(name.split(".")[-1])
        # Each worker decoded each view's plan when it installed it; a table's is its one GET.
        short = name.split(".")[-1]
        check(ops is not None and (short in views or ops == 1), f"worker {w}: {name} with {ops} operators")
    for w in range(WORKERS):
        check(flows.get(w, set()) == views | tables,
              f"worker {w} has {len(flows.get(w, set()))} dataflows for {len(views | tables)} relations")
    status = rows(c, "SELECT worker, applied_seq, applied_index, duplicates, refused FROM eddy_internal.workers")
    check(all(r[1] == len(ref) and r[2] == ref[-1][2] and r[3] == 0 and r[4] == 0 for r in status),
          f"worker status {status}")
    print(f"# {SESSIONS} sessions x {STATEMENTS} statements, seed {SEED}: {len(ref)} commands, "
          f"{len(created)} views created, {len(dropped)} dropped")
    c.close()


def read_right_after_ddl():
    a, b = connect(), connect()
    for i in range(100):
        a.execute(f"CREATE VIEW after_{i} AS SELECT 1 AS x")
        n = rows(b, f"SELECT count(*) FROM eddy_internal.dataflows WHERE name = 'eddy.public.after_{i}'")[0][0]
        check(n == WORKERS, f"after_{i}: installed on {n} of {WORKERS} workers when read right after")
        check(rows(b, f"SHOW VIEWS LIKE 'after_{i}'") == [(f"after_{i}",)], f"SHOW VIEWS misses after_{i}")
        idx = rows(b, f"SELECT catalog_index FROM eddy_internal.commands WHERE object_name = 'eddy.public.after_{i}'")
        low = rows(b, "SELECT min(applied_index) FROM eddy_internal.workers")[0][0]
        check(len(idx) == 1 and low >= idx[0][0], f"after_{i}: workers at {low}, view at {idx}")
        b.execute(f"DROP VIEW after_{i}")
        n = rows(a, f"SELECT count(*) FROM eddy_internal.dataflows WHERE name = 'eddy.public.after_{i}'")[0][0]
        check(n == 0, f"after_{i}: still installed on {n} workers after its DROP")
    a.close()
    b.close()


def new_session_right_after_ddl():
    # A loop without connections is not woken by other loops' DDL (its store
    # handle is quiet); a client that connects to it sees every DDL acknowledged
    # before, in its first statement.
    a = connect()
    for i in range(60):
        a.execute(f"CREATE VIEW fresh_{i} AS SELECT {i} AS x")
        b = connect()
        check(rows(b, f"SHOW VIEWS LIKE 'fresh_{i}'") == [(f"fresh_{i}",)], f"a new session misses fresh_{i}")
        b.execute(f"DROP VIEW fresh_{i}")
        b.close()
        check(rows(a, f"SHOW VIEWS LIKE 'fresh_{i}'") == [], f"fresh_{i} still shown after its DROP")
    a.close()


def names_of_internal_relations():
    c = connect()
    check(len(rows(c, "SELECT * FROM eddy_internal.workers")) == WORKERS, "eddy_internal.workers rows")
    try:
        rows(c, "SELECT * FROM workers")
        raise AssertionError("unqualified workers found without eddy_internal in search_path")
    except psycopg.errors.UndefinedTable:
        pass
    c.execute("SET search_path = public, eddy_internal")
    check(len(rows(c, "SELECT worker FROM workers")) == WORKERS, "workers through search_path")
    try:
        rows(c, "SELECT * FROM eddy_internal.nothing")
        raise AssertionError("eddy_internal.nothing exists")
    except psycopg.errors.UndefinedTable:
        pass
    cols = rows(c, "SELECT * FROM eddy_internal.commands LIMIT 0")
    check(cols == [], "LIMIT 0")
    c.close()


def replace_reinstalls_in_place():
    c = connect()
    c.execute("CREATE VIEW replaced AS SELECT 1 AS x")
    before = rows(c, "SELECT worker, id, catalog_index, plan_bytes, operators FROM eddy_internal.dataflows "
                     "WHERE name = 'eddy.public.replaced' ORDER BY worker")
    c.execute("CREATE OR REPLACE VIEW replaced AS SELECT 1 AS x, 'longer' AS y")
    after = rows(c, "SELECT worker, id, catalog_index, plan_bytes, operators FROM eddy_internal.dataflows "
                    "WHERE name = 'eddy.public.replaced' ORDER BY worker")
    check(len(before) == WORKERS and len(after) == WORKERS, f"installed {len(before)} / {len(after)} times")
    for b, a in zip(before, after):
        check(a[1] == b[1] and a[2] > b[2] and a[3] > b[3] and b[4] >= 1 and a[4] >= 1, f"worker {a[0]}: {b} then {a}")
    c.execute("DROP VIEW replaced")
    c.close()


case(ddl_storm_one_order)
case(replace_reinstalls_in_place)
case(read_right_after_ddl)
case(new_session_right_after_ddl)
case(names_of_internal_relations)
sys.exit(1 if failures else 0)
