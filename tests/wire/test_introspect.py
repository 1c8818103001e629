#!/usr/bin/python3
"""test_introspect.py: eddy_internal's view of the dataflow engine, as a user reads it. On servers of
our own (INTROSPECT_TARGETS: eddy --workers 1 and 2, where nothing else runs; else the shared one):
a materialized view's operators and their inputs, built on every worker; the arrangements of a
table, of a view's operators and of its result, on every worker, whose records follow inserts;
which operators share an arrangement; each worker's frontier and catalog index moving with writes
and DDL; and a DROP taking the view's operators and arrangements away."""
import os
import time

from pgw import TARGET_PORT, case, connect, errors, main, rows

SCHEMA = "wireintro_%d" % os.getpid()
PRIVATE = [int(p) for p in os.environ.get("INTROSPECT_TARGETS", "").split() if p]
PORTS = PRIVATE or [TARGET_PORT]


def q(c, sql):
    got = c.q(sql)
    assert not errors(got), (sql, errors(got)[0].fields())
    return [[None if v is None else v.decode() for v in r] for r in rows(got)]


def one(c, sql):
    return q(c, sql)[0][0]


def name(rel):
    return "eddy.%s.%s" % (SCHEMA, rel)


def fresh(c):
    for s in ["DROP SCHEMA IF EXISTS %s CASCADE" % SCHEMA, "CREATE SCHEMA %s" % SCHEMA,
              "SET search_path = %s" % SCHEMA]:
        q(c, s)
    return int(one(c, "SELECT count(*) FROM eddy_internal.frontiers"))


def records(c, rel, arrangement):
    """Per worker, the records of one arrangement of rel (worker order)."""
    return [int(r[1]) for r in q(c, "SELECT worker, records FROM eddy_internal.arrangements WHERE dataflow = '%s' "
                                    "AND arrangement = '%s' ORDER BY worker" % (name(rel), arrangement))]


def frontiers(c):
    return [(int(f), int(i)) for f, i in q(c, "SELECT frontier, catalog_index FROM eddy_internal.frontiers "
                                              "ORDER BY worker")]


@case
def operators_of_a_view(t):
    for port in PORTS:
        at = "port %d: " % port
        with connect(port) as c:
            n = fresh(c)
            q(c, "CREATE TABLE t (a int PRIMARY KEY, b int)")
            q(c, "CREATE MATERIALIZED VIEW g AS SELECT b, count(*), max(a) FROM t GROUP BY b")
            q(c, "CREATE MATERIALIZED VIEW j AS SELECT t.a, g.count FROM t JOIN g ON t.b = g.b WHERE t.a > 3")
            q(c, "CREATE MATERIALIZED VIEW k AS SELECT a FROM t ORDER BY a DESC LIMIT 3")
            ops = q(c, "SELECT dataflow, operator_id, kind, detail, inputs, workers FROM "
                       "eddy_internal.dataflow_operators WHERE dataflow LIKE 'eddy.%s.%%' "
                       "ORDER BY dataflow, operator_id" % SCHEMA)
            byview = {}
            for v, opid, kind, detail, inputs, workers in ops:
                byview.setdefault(v.split(".")[-1], []).append((int(opid), kind, detail, inputs, int(workers)))
            t.eq(byview.get("g"), [(1, "Get", name("t"), "{}", n),
                                   (2, "Reduce", "recomputing group_by=1 aggregates=2", "{1}", n)],
                 at + "a GROUP BY with max: a Get and a recomputing Reduce on every worker")
            j = byview.get("j", [])
            t.eq(sorted(k for _, k, _, _, _ in j), ["Filter", "Get", "Get", "Join", "Project", "Project"],
                 at + "the join's operators")
            join = [o for o in j if o[1] == "Join"]
            if t.ok(len(join) == 1, at + "one Join"):
                ins = [int(x) for x in join[0][3].strip("{}").split(",")]
                t.ok(len(ins) == 2 and all(i < join[0][0] for i in ins), at + "a join's two inputs come before it")
            t.eq(sorted(o[2] for o in j if o[1] == "Get"), sorted([name("t"), name("g")]),
                 at + "the join reads the table and the view")
            k = [o[1] for o in byview.get("k", [])]
            t.ok(k[:1] == ["Get"] and k[-2:] == ["Pass", "TopK"], at + "ORDER BY ... LIMIT is a TopK over its sort: %r" % k)
            t.eq(set(o[4] for v in byview.values() for o in v), {n}, at + "every worker built every operator")
            q(c, "DROP MATERIALIZED VIEW j")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.dataflow_operators WHERE dataflow = '%s'" % name("j")),
                 "0", at + "DROP takes the view's operators away")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.dataflow_operators WHERE dataflow = '%s'" % name("g")),
                 "2", at + "the views it read keep theirs")


@case
def arrangements_follow_writes(t):
    for port in PORTS:
        at = "port %d: " % port
        with connect(port) as c:
            n = fresh(c)
            q(c, "CREATE TABLE t (a int PRIMARY KEY, b int)")
            t.eq(records(c, "t", "table"), [0] * n, at + "an empty table's arrangement on every worker")
            q(c, "INSERT INTO t SELECT g, g % 10 FROM generate_series(1, 1000) g")
            got = records(c, "t", "table")
            t.eq((len(got), sum(got)), (n, 1000), at + "the table's records on its workers sum to its rows")
            if n > 1:
                t.ok(all(r > 0 for r in got), at + "every worker holds a shard: %r" % got)
            q(c, "CREATE MATERIALIZED VIEW g AS SELECT b, count(*) FROM t GROUP BY b")
            t.eq(sum(records(c, "g", "reduce groups")), 10, at + "an accumulating reduce keeps one state per group")
            t.eq(sum(records(c, "g", "result")), 10, at + "the view's result holds its ten rows")
            bytes0 = int(one(c, "SELECT sum(bytes) FROM eddy_internal.arrangements WHERE dataflow = '%s'" % name("t")))
            q(c, "INSERT INTO t SELECT g, 100 + g FROM generate_series(1001, 1005) g")
            t.eq(sum(records(c, "t", "table")), 1005, at + "an INSERT's rows are in the table's records at once")
            t.eq(sum(records(c, "g", "reduce groups")), 15, at + "new groups are counted at once")
            t.ok(sum(records(c, "g", "result")) >= 15, at + "the result's records hold the new groups")
            bytes1 = int(one(c, "SELECT sum(bytes) FROM eddy_internal.arrangements WHERE dataflow = '%s'" % name("t")))
            t.ok(bytes1 > bytes0, at + "the table's bytes grow with its rows (%d -> %d)" % (bytes0, bytes1))
            q(c, "CREATE MATERIALIZED VIEW m AS SELECT b, bool_and(a > 3) FROM t GROUP BY b")
            t.eq(sum(records(c, "m", "reduce input")), 1005, at + "a recomputing reduce arranges its input rows")
            t.eq(sum(records(c, "m", "reduce output")), 15, at + "and its output, one row per group")
            q(c, "DROP MATERIALIZED VIEW m")
            q(c, "CREATE MATERIALIZED VIEW m AS SELECT b, min(a), max(a) FROM t GROUP BY b")
            t.eq(sum(records(c, "m", "reduce input")), 2 * 1005 + 15,
                 at + "a reduce of min and max arranges each row's arguments and one record per group")
            q(c, "DROP MATERIALIZED VIEW m")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.arrangements WHERE dataflow = '%s'" % name("m")), "0",
                 at + "DROP takes the view's arrangements away")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.arrangement_sharing WHERE dataflow_id = "
                        "(SELECT id FROM eddy_catalog.items WHERE name = 'm') OR reader_dataflow = '%s'" % name("m")),
                 "0", at + "and its operators' reads of other arrangements")
            q(c, "DROP TABLE t CASCADE")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.arrangements WHERE dataflow LIKE 'eddy.%s.%%'" % SCHEMA),
                 "0", at + "DROP TABLE ... CASCADE leaves nothing arranged")


@case
def sharing_of_arrangements(t):
    for port in PORTS:
        at = "port %d: " % port
        with connect(port) as c:
            n = fresh(c)
            q(c, "CREATE TABLE t (a int, b int)")
            q(c, "CREATE MATERIALIZED VIEW g AS SELECT b, count(*) FROM t GROUP BY b")
            q(c, "CREATE MATERIALIZED VIEW h AS SELECT b FROM g WHERE count > 1")
            share = q(c, "SELECT dataflow_id, operator_id, arrangement, reader_dataflow, reader_operator_id FROM "
                         "eddy_internal.arrangement_sharing WHERE reader_dataflow LIKE 'eddy.%s.%%' "
                         "ORDER BY 1, 3, 4, 5" % SCHEMA)
            tid, gid, hid = [one(c, "SELECT i.id FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON "
                                    "s.id = i.schema_id WHERE s.name = '%s' AND i.name = '%s'" % (SCHEMA, r))
                             for r in ("t", "g", "h")]
            table = [(r[3], r[4]) for r in share if r[0] == tid and r[2] == "table"]
            t.eq(table, [(name("g"), "1")], at + "the table's arrangement is read by g's Get")
            gres = [(r[3], r[4]) for r in share if r[0] == gid and r[2] == "result"]
            last = one(c, "SELECT max(operator_id) FROM eddy_internal.dataflow_operators WHERE dataflow_id = %s" % gid)
            t.eq(gres, [(name("g"), last), (name("h"), "1")], at + "g's result: written by g's last operator, read by h's Get")
            t.eq(q(c, "SELECT DISTINCT sharing FROM eddy_internal.arrangements WHERE dataflow_id = %s AND "
                      "arrangement = 'result'" % gid), [["2"]], at + "arrangements.sharing counts them")
            t.eq(one(c, "SELECT count(*) FROM eddy_internal.arrangements WHERE dataflow_id = %s AND "
                        "arrangement = 'result'" % hid), str(n), at + "a result on every worker")


@case
def frontiers_move(t):
    for port in PORTS:
        at = "port %d: " % port
        with connect(port) as c:
            n = fresh(c)
            q(c, "CREATE TABLE t (a int)")
            before = frontiers(c)
            t.eq(len(before), n, at + "a frontier per worker")
            q(c, "INSERT INTO t VALUES (1)")
            # An INSERT into a table without a key is answered once it holds its place in the order,
            # before the workers applied it: the frontiers show it within moments, not at once.
            deadline = time.time() + 5
            after = frontiers(c)
            while not all(a[0] > b[0] for a, b in zip(after, before)) and time.time() < deadline:
                time.sleep(0.005)
                after = frontiers(c)
            t.ok(all(a[0] > b[0] for a, b in zip(after, before)), at + "an INSERT advances every worker's frontier")
            t.ok(all(a[1] == b[1] for a, b in zip(after, before)) or not PRIVATE, at + "but not its catalog index")
            q(c, "CREATE VIEW v AS SELECT a FROM t")
            ddl = frontiers(c)
            t.ok(all(d[1] > a[1] and d[0] > a[0] for d, a in zip(ddl, after)),
                 at + "a DDL advances every worker's catalog index and frontier")
            if PRIVATE:
                t.eq(len(set(ddl)), 1, at + "every worker is at the same step after the answer: %r" % ddl)


ENGINE = {"dataflow_operators", "arrangements", "arrangement_sharing", "frontiers"}


@case
def system_relations_are_discoverable(t):
    """Every relation of eddy_internal and eddy_catalog is found as PostgreSQL's system relations
    are: information_schema.tables and SHOW VIEWS / SHOW TABLES list it, and information_schema.columns,
    pg_attribute and the RowDescription of reading it agree on its columns and their types.
    eddy_internal's are views (as pg_stat_*), eddy_catalog's tables (as pg_catalog's)."""
    with connect(PORTS[0]) as c:
        typoid = dict((n, o) for o, n in q(c, "SELECT oid::text, typname FROM pg_type"))
        for schema, kind, relkind, show in (("eddy_internal", "VIEW", "v", "VIEWS"),
                                             ("eddy_catalog", "BASE TABLE", "r", "TABLES")):
            listed = q(c, "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = '%s' "
                          "ORDER BY 1" % schema)
            names = [r[0] for r in listed]
            t.ok(len(names) >= 9 and set(r[1] for r in listed) == {kind},
                 "%s: information_schema.tables lists its relations: %r" % (schema, listed))
            if schema == "eddy_internal":
                t.ok(ENGINE | {"workers", "dataflows", "commands", "metrics"} <= set(names),
                     "eddy_internal: the engine's relations are listed: %r" % names)
            else:
                t.ok("constraints" in names, "eddy_catalog.constraints is listed")
            t.eq([r[0] for r in q(c, "SHOW %s FROM %s" % (show, schema))], names,
                 "%s: SHOW %s lists the same" % (schema, show))
            t.eq(q(c, "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE "
                      "n.nspname = '%s' AND c.relkind = '%s' ORDER BY 1" % (schema, relkind)), [[n] for n in names],
                 schema + ": pg_class lists the same")
            for rel in names:
                got = c.q("SELECT * FROM %s.%s LIMIT 0" % (schema, rel))
                desc = [m for m in got if m.t == "T"]
                if not t.ok(desc and not errors(got), "%s.%s reads" % (schema, rel)):
                    continue
                cols = [(name, str(oid)) for name, _, _, oid, _, _, _ in desc[0].columns()]
                info = [(n, typoid.get(u)) for n, u in q(c, "SELECT column_name, udt_name FROM "
                                               "information_schema.columns WHERE table_schema = '%s' AND "
                                               "table_name = '%s' ORDER BY ordinal_position" % (schema, rel))]
                att = [tuple(r) for r in q(c, "SELECT attname, atttypid::text FROM pg_attribute WHERE attrelid = "
                                              "'%s.%s'::regclass AND attnum > 0 ORDER BY attnum" % (schema, rel))]
                t.eq(info, cols, "%s.%s: information_schema.columns as it reads" % (schema, rel))
                t.eq(att, cols, "%s.%s: pg_attribute as it reads" % (schema, rel))
        q(c, "SET search_path = eddy_internal")
        t.eq(q(c, "SELECT count(*) FROM frontiers"), q(c, "SELECT count(*) FROM workers"),
             "found unqualified where search_path lists eddy_internal")
        got = c.q("INSERT INTO eddy_internal.frontiers VALUES (1, 1, 1, 1)")
        t.eq([m.sqlstate() for m in errors(got)], ["42501"], "writing one is refused as PostgreSQL refuses pg_class")


if __name__ == "__main__":
    main()
