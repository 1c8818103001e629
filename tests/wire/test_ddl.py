#!/usr/bin/python3
"""test_ddl.py: DDL end to end (DESIGN §2, §7; issue 3): CREATE / DROP of tables, views,
materialized views, indexes, schemas and databases committed to the catalog and visible to the
next statement; SELECT from a relation binds (Describe as PostgreSQL) and answers 0A000 until the
dataflow engine exists; SHOW objects / COLUMNS / CREATE. Where the behaviour is PostgreSQL's
(errors, notices, 2BP01 details, positions, result columns) it is compared with PostgreSQL 15.

Every case works in a schema of its own, so runs against the shared servers never collide."""
import os

from pgw import Bind, Describe, Execute, Parse, Query, Sync, case, connect, errors, main, rows, shorts

RUN = "%d_%d" % (os.getpid(), id(object()) % 10000)


def schema(name):
    return "ddl_%s_%s" % (name, RUN)


def outcome(msgs):
    """What a client sees of a statement: notices and errors with their fields, and the tags."""
    out = []
    for m in msgs:
        if m.t in "NE":
            f = m.fields()
            out.append((m.t, f.get("C"), f.get("M"), f.get("D"), f.get("H"), f.get("P")))
        elif m.t == "C":
            out.append(("C", m.text()))
    return out


def script(port, sch, stmts, keep=False):
    """Runs stmts one Query each inside a fresh schema; returns each one's outcome."""
    with connect(port) as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s" % sch)
        c.q("SET search_path = %s" % sch)
        got = [outcome(c.q(s)) for s in stmts]
        if not keep:
            c.q("DROP SCHEMA %s CASCADE" % sch)
        return got


def describe(c, sql):
    """RowDescription of a statement as (name, type oid, typmod), or the error's SQLSTATE."""
    c.send(Parse(sql) + Describe("S") + Sync())
    msgs = c.until_rfq(1)
    for m in msgs:
        if m.t == "T":
            return [(col[0], col[3], col[5]) for col in m.columns()]
        if m.t == "E":
            return m.sqlstate()
    return None


@case
def create_table_duplicate_and_if_not_exists_as_postgres(t):
    stmts = ["CREATE TABLE t (a int NOT NULL, b text DEFAULT 'x', c varchar(10), PRIMARY KEY (a))",
             "CREATE TABLE t (a int)",
             "CREATE TABLE IF NOT EXISTS t (a int)",
             "CREATE TABLE u (a int, a text)",
             "CREATE TABLE u (a nosuchtype)",
             "CREATE TABLE u (a int, PRIMARY KEY (b))",
             "CREATE VIEW t AS SELECT 1",
             "CREATE VIEW v AS SELECT * FROM nosuch",
             "CREATE VIEW v (x, y) AS SELECT 1",
             "CREATE SCHEMA %s" % schema("dup")]
    t.same_as_ref(lambda p: script(p, schema("create"), stmts), "CREATE outcomes")


@case
def drop_restrict_and_cascade_as_postgres(t):
    stmts = ["CREATE TABLE t (a int, b text)",
             "CREATE VIEW v AS SELECT a, b FROM t",
             "CREATE MATERIALIZED VIEW mv AS SELECT a + 1 AS x FROM v",
             "CREATE VIEW w AS SELECT x FROM mv",
             "DROP TABLE t",
             "DROP VIEW v",
             "DROP TABLE v",
             "DROP VIEW IF EXISTS nosuch, nosuch2",
             "DROP TABLE nosuch",
             "DROP MATERIALIZED VIEW mv CASCADE",
             "DROP TABLE IF EXISTS nosuch, t CASCADE",
             "DROP TABLE t"]
    # PostgreSQL tags CREATE MATERIALIZED VIEW with its row count; eddy (as Materialize) with the command.
    norm = lambda got: [[("C", "CREATE MATERIALIZED VIEW") if x == ("C", "SELECT 0") else x for x in o] for o in got]
    t.same_as_ref(lambda p: script(p, schema("drop"), stmts), "DROP outcomes", norm)


@case
def drop_schema_with_objects_as_postgres(t):
    sub = schema("sub")

    def run(p):
        with connect(p) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sub)
            got = [outcome(c.q(s)) for s in (
                "CREATE SCHEMA %s" % sub,
                "CREATE SCHEMA %s" % sub,
                "CREATE SCHEMA IF NOT EXISTS %s" % sub,
                "CREATE TABLE %s.t (a int)" % sub,
                "CREATE VIEW %s.v AS SELECT a FROM %s.t" % (sub, sub),
                "DROP SCHEMA %s" % sub,
                "DROP SCHEMA %s CASCADE" % sub,
                "DROP SCHEMA %s" % sub,
                "DROP SCHEMA IF EXISTS %s" % sub)]
            return got
    t.same_as_ref(run, "schema outcomes")


@case
def select_from_relation_binds_as_postgres(t):
    sch = schema("select")
    setup = ["CREATE TABLE t (a int NOT NULL, b text, c varchar(10), d numeric(10,2))",
             "CREATE VIEW v AS SELECT a, b || 'y' AS bb, 1, d * 2 FROM t",
             "CREATE VIEW v2 (x) AS SELECT a FROM t"]
    queries = ["SELECT * FROM t", "SELECT * FROM v", "SELECT x FROM v2", "SELECT t.a, q.bb FROM t JOIN v AS q ON t.a = q.a",
               "SELECT * FROM t AS z (p, q)", "SELECT nope FROM t", "SELECT * FROM nosuch",
               "SELECT * FROM %s.t" % sch, "SELECT * FROM nosuchschema.t", "SELECT count(*) FROM t"]

    def run(p):
        with connect(p) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            c.q("CREATE SCHEMA %s" % sch)
            c.q("SET search_path = %s" % sch)
            for s in setup:
                c.q(s)
            got = [describe(c, q) for q in queries]
            errs = [(e[1], e[2], e[5]) for q in ("SELECT * FROM nosuch", "SELECT 1 FROM t, nosuch2",
                                                 "SELECT nope FROM t")
                    for e in outcome(c.q(q)) if e[0] == "E"]
            c.q("DROP SCHEMA %s CASCADE" % sch)
            return got, errs
    t.same_as_ref(run, "RowDescription and name errors")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        # Read your writes inside one Query string: the view exists for the next statement.
        got = outcome(c.q("CREATE TABLE t (a int); CREATE VIEW v AS SELECT 1 AS a; SELECT * FROM v; SELECT 1 / 0"))
        t.eq(got, [("C", "CREATE TABLE"), ("C", "CREATE VIEW"), ("C", "SELECT 1"),
                   ("E", "22012", "division by zero", None, None, None)],
             "SELECT from a view created earlier in the string reads its query, then an error")
        # That error ended the string's implicit transaction: its DDL is gone, as in PostgreSQL.
        t.eq(outcome(c.q("DROP TABLE t")), [("E", "42P01", 'table "t" does not exist', None, None, None)],
             "the failed string's CREATE TABLE rolled back")
        c.q("CREATE TABLE t (a int)")
        # Extended protocol: Parse and Describe succeed, Bind raises it.
        c.send(Parse("SELECT a FROM t") + Describe("S") + Sync())
        t.eq(shorts(c.until_rfq(1), skip="SKN"), ["1", "t:", "T:a/23/0", "Z:I"], "Describe of a table read")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def show_objects_columns_create(t):
    sch = schema("show")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s" % sch)
        c.q("SET search_path = %s" % sch)
        for s in ("CREATE TABLE zeta (a int NOT NULL, b text DEFAULT 'x')",
                  "CREATE TABLE alpha (k bigint)",
                  "CREATE VIEW v AS SELECT a, b FROM zeta",
                  "CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM alpha",
                  "CREATE INDEX ON zeta (a)",
                  "CREATE DEFAULT INDEX ON alpha"):
            t.eq([m.t for m in c.q(s) if m.t in "CE"], ["C"], s)
        msgs = c.q("SHOW TABLES")
        t.eq(shorts(msgs), ["T:name/25/0", "D:alpha", "D:zeta", "C:SELECT 2", "Z:I"], "SHOW TABLES sorted by name")
        t.eq(rows(c.q("SHOW TABLES LIKE 'z%'")), [[b"zeta"]], "SHOW TABLES LIKE")
        t.eq(rows(c.q("SHOW TABLES WHERE name <> 'zeta'")), [[b"alpha"]], "SHOW TABLES WHERE")
        t.eq(rows(c.q("SHOW VIEWS")), [[b"v"]], "SHOW VIEWS")
        t.eq(rows(c.q("SHOW MATERIALIZED VIEWS")), [[b"mv"]], "SHOW MATERIALIZED VIEWS")
        t.eq(rows(c.q("SHOW OBJECTS")),
             [[b"alpha", b"table"], [b"alpha_primary_idx", b"index"], [b"mv", b"materialized view"],
              [b"v", b"view"], [b"zeta", b"table"], [b"zeta_a_idx", b"index"]], "SHOW OBJECTS")
        t.eq(rows(c.q("SHOW INDEXES ON zeta")), [[b"zeta_a_idx", b"zeta", b"{a}"]], "SHOW INDEXES ON")
        t.eq(rows(c.q("SHOW TABLES FROM public LIKE 'no such %'")), [], "SHOW TABLES FROM public")
        t.eq(rows(c.q("SHOW SCHEMAS LIKE '%s'" % sch)), [[sch.encode()]], "SHOW SCHEMAS")
        t.ok([b"eddy"] in rows(c.q("SHOW DATABASES")), "SHOW DATABASES lists eddy")
        msgs = c.q("SHOW COLUMNS FROM zeta")
        t.eq(shorts(msgs), ["T:name/25/0,nullable/16/0,type/25/0", "D:a,f,integer", "D:b,t,text",
                            "C:SELECT 2", "Z:I"], "SHOW COLUMNS in column order")
        t.eq(rows(c.q("SHOW CREATE VIEW v")),
             [[b"eddy.%s.v" % sch.encode(), b"CREATE VIEW eddy.%s.v AS SELECT a, b FROM eddy.%s.zeta" % (sch.encode(), sch.encode())]],
             "SHOW CREATE VIEW: fully qualified")
        t.eq([m.sqlstate() for m in errors(c.q("SHOW CREATE VIEW zeta"))], ["42809"], "SHOW CREATE VIEW of a table")
        t.eq([m.sqlstate() for m in errors(c.q("SHOW COLUMNS FROM nosuch"))], ["42P01"], "SHOW COLUMNS of nothing")
        t.eq([m.sqlstate() for m in errors(c.q("SELECT * FROM zeta_a_idx"))], ["42809"], "an index is not read")
        t.eq(outcome(c.q("DROP TABLE zeta")),
             [("E", "2BP01", "cannot drop table zeta because other objects depend on it",
               "view v depends on table zeta", "Use DROP ... CASCADE to drop the dependent objects too.", None)],
             "indexes go with their table; views hold it")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def databases_and_other_sessions(t):
    db = "ddl_db_%s" % RUN
    sch = schema("other")
    with connect() as a, connect() as b:
        t.eq(outcome(a.q("CREATE DATABASE %s" % db)), [("C", "CREATE DATABASE")], "CREATE DATABASE")
        t.eq([m.sqlstate() for m in errors(a.q("CREATE DATABASE %s" % db))], ["42P04"], "again: 42P04")
        t.ok([db.encode()] in rows(b.q("SHOW DATABASES")), "another session sees the database")
        t.eq(outcome(a.q("DROP DATABASE %s" % db)), [("C", "DROP DATABASE")], "DROP DATABASE")
        a.q("CREATE SCHEMA %s; CREATE TABLE %s.t (a int)" % (sch, sch))
        t.eq(describe(b, "SELECT * FROM %s.t" % sch), [("a", 23, -1)], "another session binds the new table")
        # The same statement committed twice from two sessions at once: one wins, one hears 42P07.
        a.send(Query("CREATE TABLE %s.race (a int)" % sch))
        b.send(Query("CREATE TABLE %s.race (a int)" % sch))
        got = sorted(tuple(m.text() if m.t == "C" else m.sqlstate() for m in c.until_rfq(1) if m.t in "CE")
                     for c in (a, b))
        t.eq(got, [("42P07",), ("CREATE TABLE",)], "a race: one commit, one 42P07")
        a.q("DROP SCHEMA %s CASCADE" % sch)


@case
def extended_protocol_ddl(t):
    sch = schema("ext")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.send(Parse("CREATE SCHEMA %s" % sch) + Describe("S") + Sync())
        t.eq(shorts(c.until_rfq(1), skip="SK"), ["1", "t:", "n", "Z:I"], "DDL describes as NoData")
        from pgw import Bind, Execute
        c.send(Bind() + Execute() + Sync())
        t.eq(shorts(c.until_rfq(1), skip="SK"), ["2", "C:CREATE SCHEMA", "Z:I"], "Execute commits")
        c.send(Parse("CREATE TABLE %s.t (a int)" % sch) + Bind() + Execute() +
               Parse("SELECT a FROM %s.t" % sch) + Describe("S") + Sync())
        t.eq(shorts(c.until_rfq(1), skip="SK"), ["1", "2", "C:CREATE TABLE", "1", "t:", "T:a/23/0", "Z:I"],
             "a pipeline: the next Parse sees the table")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def create_source_validated_and_committed(t):
    sch = schema("source")
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.csv")
        with open(path, "w") as f:
            f.write("1,a\n")
        missing = os.path.join(d, "nosuch")
        bad = [("CREATE SOURCE e FROM FILE '%s' FORMAT TEXT" % missing, "58P01",
                'could not open file "%s" for reading: No such file or directory' % missing),
               ("CREATE SOURCE e FROM FILE '%s' FORMAT CSV WITH 0 COLUMNS" % path, "22023", None),
               ("CREATE SOURCE e FROM FILE '%s' FORMAT REGEX '(a'" % path, "2201B", None),
               ("CREATE SOURCE e FROM FILE '%s' WITH (bogus = 1) FORMAT TEXT" % path, "22023",
                'unrecognized FILE option "bogus"'),
               ("CREATE SOURCE e FROM FILE '%s' WITH (tail = 'maybe') FORMAT TEXT" % path, "22023",
                "tail requires a Boolean value"),
               ("CREATE SOURCE e FROM LOAD GENERATOR COUNTER (SCALE FACTOR 1)", "22023",
                'unrecognized LOAD GENERATOR COUNTER option "scale factor"'),
               ("CREATE SOURCE e FROM LOAD GENERATOR TPCH (SCALE FACTOR 0)", "22023", None),
               ("CREATE SOURCE e FROM KAFKA BROKER '' TOPIC 't' FORMAT BYTES", "22023", None)]
        good = ["CREATE SOURCE txt FROM FILE '%s' WITH (tail = true) FORMAT TEXT" % path,
                "CREATE SOURCE csv FROM FILE '%s' FORMAT CSV WITH 2 COLUMNS" % path,
                "CREATE SOURCE named (x, y) FROM FILE '%s' FORMAT CSV WITH 2 COLUMNS" % path,
                "CREATE SOURCE re FROM FILE '%s' FORMAT REGEX '(?P<num>[0-9]+),([a-z]+)'" % path,
                "CREATE SOURCE cnt FROM LOAD GENERATOR COUNTER (TICK INTERVAL '1s')",
                "CREATE SOURCE kf FROM KAFKA BROKER 'localhost:9092' TOPIC 't' FORMAT BYTES"]
        with connect() as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
            for sql, code, msg in bad:
                got = [(e[1], e[2]) for e in outcome(c.q(sql)) if e[0] == "E"]
                t.eq([g[0] for g in got], [code], sql)
                if msg:
                    t.eq(got[0][1], msg, "message of " + sql)
            for sql in good:
                t.eq(outcome(c.q(sql)), [("C", "CREATE SOURCE")], sql)
            t.eq([m.sqlstate() for m in errors(c.q(good[0]))], ["42P07"], "a second CREATE SOURCE: 42P07")
            t.eq(outcome(c.q(good[0].replace("SOURCE", "SOURCE IF NOT EXISTS", 1))),
                 [("N", "42P07", 'relation "txt" already exists, skipping', None, None, None),
                  ("C", "CREATE SOURCE")], "IF NOT EXISTS")
            t.eq([r[0] for r in rows(c.q("SHOW SOURCES"))], [b"cnt", b"csv", b"kf", b"named", b"re", b"txt"],
                 "SHOW SOURCES")
            cols = lambda rel: [r[0] + b" " + r[2] for r in rows(c.q("SHOW COLUMNS FROM " + rel))]
            t.eq(cols("txt"), [b"text text"], "FORMAT TEXT: one text column")
            t.eq(cols("csv"), [b"column1 text", b"column2 text"], "CSV WITH 2 COLUMNS")
            t.eq(cols("named"), [b"x text", b"y text"], "CSV with declared columns")
            t.eq(cols("re"), [b"num text", b"column2 text"], "REGEX: named groups, then columnN")
            t.eq(cols("cnt"), [b"counter bigint"], "COUNTER")
            t.eq(describe(c, "SELECT * FROM cnt"), [("counter", 20, -1)], "SELECT from a source binds")
            t.eq([m.sqlstate() for m in errors(c.q("SELECT * FROM txt"))], ["0A000"], "reading it: 0A000")
            t.eq(outcome(c.q("DROP SOURCE txt")), [("C", "DROP SOURCE")], "DROP SOURCE")
            c.q("DROP SCHEMA %s CASCADE" % sch)


TPCH_COLUMNS = {
    "region": "r_regionkey bigint, r_name text, r_comment text",
    "nation": "n_nationkey bigint, n_name text, n_regionkey bigint, n_comment text",
    "supplier": "s_suppkey bigint, s_name text, s_address text, s_nationkey bigint, s_phone text, "
                "s_acctbal numeric, s_comment text",
    "customer": "c_custkey bigint, c_name text, c_address text, c_nationkey bigint, c_phone text, "
                "c_acctbal numeric, c_mktsegment text, c_comment text",
    "part": "p_partkey bigint, p_name text, p_mfgr text, p_brand text, p_type text, p_size integer, "
            "p_container text, p_retailprice numeric, p_comment text",
    "partsupp": "ps_partkey bigint, ps_suppkey bigint, ps_availqty integer, ps_supplycost numeric, ps_comment text",
    "orders": "o_orderkey bigint, o_custkey bigint, o_orderstatus text, o_totalprice numeric, o_orderdate date, "
              "o_orderpriority text, o_clerk text, o_shippriority integer, o_comment text",
    "lineitem": "l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber integer, l_quantity numeric, "
                "l_extendedprice numeric, l_discount numeric, l_tax numeric, l_returnflag text, l_linestatus text, "
                "l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct text, l_shipmode text, "
                "l_comment text",
}
AUCTION_COLUMNS = {
    "accounts": "id bigint, org_id bigint, balance bigint",
    "auctions": "id bigint, seller bigint, item text, end_time timestamp with time zone",
    "bids": "id bigint, buyer bigint, auction_id bigint, amount integer, bid_time timestamp with time zone",
    "organizations": "id bigint, name text",
    "users": "id bigint, org_id bigint, name text",
}


@case
def tables_from_load_generator_sources(t):
    """Materialize's CREATE TABLE t FROM SOURCE src (REFERENCE ref): one table per relation of a
    multi-relation load generator, typed as the TPC-H specification / the auction generator."""
    sch = schema("fromsrc")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        cols = lambda rel: ", ".join(r[0].decode() + " " + r[2].decode() for r in rows(c.q("SHOW COLUMNS FROM " + rel)))
        t.eq(outcome(c.q("CREATE SOURCE tpch FROM LOAD GENERATOR TPCH (SCALE FACTOR 0.01)")),
             [("C", "CREATE SOURCE")], "CREATE SOURCE ... TPCH")
        t.eq(cols("tpch"), "offset bigint", "the TPCH source itself is its progress")
        for rel, want in TPCH_COLUMNS.items():
            sql = "CREATE TABLE %s FROM SOURCE tpch (REFERENCE %s)" % (rel, rel)
            t.eq(outcome(c.q(sql)), [("C", "CREATE TABLE")], sql)
            t.eq(cols(rel), want, "columns of " + rel)
        t.eq([r[1] for r in rows(c.q("SHOW COLUMNS FROM region"))], [b"f", b"f", b"f"], "generated columns are NOT NULL")
        t.eq(rows(c.q("SHOW CREATE TABLE lineitem")),
             [[b"eddy.%s.lineitem" % sch.encode(),
               b"CREATE TABLE eddy.%s.lineitem FROM SOURCE eddy.%s.tpch (REFERENCE lineitem)" % (sch.encode(), sch.encode())]],
             "SHOW CREATE TABLE: both names qualified")
        t.eq(describe(c, "SELECT l_shipdate FROM lineitem"), [("l_shipdate", 1082, -1)], "the table binds")
        t.eq(outcome(c.q("CREATE TABLE li2 FROM SOURCE tpch (REFERENCE nosuch)")),
             [("E", "42P01", 'reference "nosuch" not found in source "tpch"', None, None, "46")],
             "unknown reference, at the reference")
        t.eq([e[1] for e in outcome(c.q("CREATE TABLE x FROM SOURCE nosrc (REFERENCE region)")) if e[0] == "E"],
             ["42P01"], "missing source")
        t.eq(outcome(c.q("CREATE TABLE x FROM SOURCE region (REFERENCE region)")),
             [("E", "42809", '"region" is not a source', None, None, "28")], "a table is not a source")
        c.q("CREATE SOURCE cnt FROM LOAD GENERATOR COUNTER")
        t.eq([e[1:3] for e in outcome(c.q("CREATE TABLE x FROM SOURCE cnt (REFERENCE counter)")) if e[0] == "E"],
             [("42809", 'source "cnt" has no references')], "COUNTER has no references")
        t.eq([e[1] for e in outcome(c.q("CREATE TABLE region FROM SOURCE tpch (REFERENCE region)")) if e[0] == "E"],
             ["42P07"], "the table name is taken")
        t.eq(outcome(c.q("CREATE TABLE IF NOT EXISTS region FROM SOURCE tpch (REFERENCE nation)")),
             [("N", "42P07", 'relation "region" already exists, skipping', None, None, None), ("C", "CREATE TABLE")],
             "IF NOT EXISTS")
        got = outcome(c.q("DROP SOURCE tpch"))
        t.eq([(g[0], g[1], g[2]) for g in got],
             [("E", "2BP01", "cannot drop source tpch because other objects depend on it")],
             "DROP SOURCE with tables on it: 2BP01")
        t.ok("table lineitem depends on source tpch" in (got[0][3] or ""), "2BP01 detail names the tables")
        c.q("ALTER SOURCE tpch RENAME TO tpch2")
        t.eq(rows(c.q("SHOW CREATE TABLE region"))[0][1],
             b"CREATE TABLE eddy.%s.region FROM SOURCE eddy.%s.tpch2 (REFERENCE region)" % (sch.encode(), sch.encode()),
             "renaming the source rewrites the tables")
        t.eq([e[1] for e in outcome(c.q("ALTER TABLE region RENAME COLUMN r_name TO name")) if e[0] == "E"],
             ["0A000"], "a generated table's columns are the generator's")
        t.eq(outcome(c.q("DROP SOURCE tpch2 CASCADE"))[-1], ("C", "DROP SOURCE"), "DROP SOURCE ... CASCADE")
        t.eq(rows(c.q("SHOW TABLES")), [], "CASCADE dropped the tables")

        c.q("CREATE SOURCE auction FROM LOAD GENERATOR AUCTION")
        t.eq(cols("auction"), AUCTION_COLUMNS["bids"], "AUCTION's own relation stays its bids")
        for rel, want in AUCTION_COLUMNS.items():
            sql = "CREATE TABLE %s FROM SOURCE auction (REFERENCE %s)" % (rel, rel)
            t.eq(outcome(c.q(sql)), [("C", "CREATE TABLE")], sql)
            t.eq(cols(rel), want, "columns of auction's " + rel)
        t.eq([e[1] for e in outcome(c.q("CREATE TABLE x FROM SOURCE auction (REFERENCE lineitem)")) if e[0] == "E"],
             ["42P01"], "TPC-H's relations are not auction's")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def alter_rename_as_postgres(t):
    stmts = ["CREATE TABLE t (a int, b text DEFAULT 'x')",
             "CREATE TABLE other (a int)",
             "CREATE VIEW v AS SELECT 1 AS one",
             "CREATE MATERIALIZED VIEW mv AS SELECT 2 AS two",
             "ALTER TABLE t RENAME TO u",
             "ALTER TABLE u RENAME TO other",
             "ALTER TABLE nosuch RENAME TO x",
             "ALTER TABLE IF EXISTS nosuch RENAME TO x",
             "ALTER VIEW u RENAME TO w",
             "ALTER VIEW v RENAME TO vv",
             "ALTER MATERIALIZED VIEW vv RENAME TO w",
             "ALTER MATERIALIZED VIEW mv RENAME TO mv2",
             "ALTER INDEX u RENAME TO w",
             "SELECT * FROM t",
             "ALTER TABLE vv RENAME TO v3"]
    norm = lambda got: [[("C", "CREATE MATERIALIZED VIEW") if x == ("C", "SELECT 1") else x for x in o] for o in got]
    t.same_as_ref(lambda p: script(p, schema("rename"), stmts), "ALTER ... RENAME outcomes", norm)
    sch = schema("rename2")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        c.q("CREATE TABLE t (a int); CREATE VIEW v AS SELECT a FROM t; CREATE TABLE k (a int); CREATE INDEX ON k (a)")
        c.q("CREATE SOURCE s FROM LOAD GENERATOR COUNTER")
        t.eq(outcome(c.q("ALTER INDEX k_a_idx RENAME TO kx")), [("C", "ALTER INDEX")], "ALTER INDEX")
        t.eq(outcome(c.q("ALTER SOURCE s RENAME TO s2")), [("C", "ALTER SOURCE")], "ALTER SOURCE")
        t.eq(outcome(c.q("ALTER VIEW v RENAME TO w")), [("C", "ALTER VIEW")], "ALTER VIEW")
        t.eq([m.sqlstate() for m in errors(c.q("ALTER SOURCE w RENAME TO x"))], ["42809"], "ALTER SOURCE of a view")
        q = sch.encode()
        t.eq(rows(c.q("SHOW CREATE VIEW w")), [[b"eddy.%s.w" % q, b"CREATE VIEW eddy.%s.w AS SELECT a FROM eddy.%s.t" % (q, q)]],
             "SHOW CREATE under the new name")
        t.eq(rows(c.q("SHOW CREATE INDEX kx")), [[b"eddy.%s.kx" % q, b"CREATE INDEX kx ON eddy.%s.k (a)" % q]],
             "an index renamed")
        t.eq([r[0] for r in rows(c.q("SHOW SOURCES"))], [b"s2"], "SHOW SOURCES")
        with connect() as other:
            t.eq(describe(other, "SELECT * FROM %s.s2" % sch), [("counter", 20, -1)], "another session binds the new name")
            t.eq(describe(other, "SELECT * FROM %s.s" % sch), "42P01", "and not the old one")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def rename_with_dependents_as_postgres(t):
    """Renaming what others read: the outcomes (tags, errors, notices) as PostgreSQL's, and each
    dependent's stored SQL rewritten so that it names the new objects and keeps its column names."""
    stmts = ["CREATE TABLE t (a int, b text)",
             "CREATE VIEW v AS SELECT a FROM t",
             "CREATE VIEW w AS SELECT x.a FROM (SELECT a FROM t) x",
             "CREATE INDEX ON t (a)",
             "ALTER TABLE t RENAME TO t",
             "ALTER TABLE t RENAME TO t2",
             "ALTER TABLE t2 RENAME COLUMN a TO c",
             "ALTER TABLE t2 RENAME COLUMN c TO b",
             "ALTER TABLE t2 RENAME COLUMN c TO c",
             "ALTER TABLE t2 RENAME COLUMN zz TO y",
             "ALTER TABLE nosuch RENAME COLUMN a TO b",
             "ALTER TABLE IF EXISTS nosuch RENAME COLUMN a TO b",
             "ALTER VIEW v RENAME COLUMN a TO x",
             "ALTER VIEW v RENAME COLUMN zz TO a",
             "ALTER TABLE v RENAME COLUMN x TO y",
             "ALTER MATERIALIZED VIEW v RENAME COLUMN y TO x",
             "ALTER SCHEMA nosuch RENAME TO x",
             "ALTER SCHEMA %s RENAME TO pg_x" % schema("rdep"),
             "ALTER SCHEMA %s RENAME TO public" % schema("rdep"),
             "ALTER DATABASE eddy RENAME TO e2",
             "ALTER DATABASE nosuch RENAME TO e2"]

    def run(p):
        got = script(p, schema("rdep"), stmts, keep=True)
        with connect(p) as c:
            # What a reader of the renamed relations binds to (rows need the dataflow engine).
            got += [describe(c, "SELECT * FROM %s.%s" % (schema("rdep"), r)) for r in ("v", "w", "t2")]
            c.q("DROP SCHEMA %s CASCADE" % schema("rdep"))
        return got
    t.same_as_ref(run, "rename outcomes")
    sch, sch2 = schema("rsql"), schema("rsql2")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE; DROP SCHEMA IF EXISTS %s CASCADE" % (sch, sch2))
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        c.q("CREATE TABLE t (a int, b text); CREATE VIEW v AS SELECT a FROM t; CREATE VIEW s AS SELECT * FROM t")
        c.q("CREATE VIEW w AS SELECT x.a FROM (SELECT a FROM t) x; CREATE VIEW vv AS SELECT a FROM v")
        c.q("CREATE INDEX ON t (a); CREATE MATERIALIZED VIEW mv AS SELECT a + 1 AS n FROM t GROUP BY a")
        t.eq(outcome(c.q("ALTER TABLE t RENAME TO t2")), [("C", "ALTER TABLE")], "a table views and an index read")
        t.eq(outcome(c.q("ALTER TABLE t2 RENAME COLUMN a TO c")), [("C", "ALTER TABLE")], "RENAME COLUMN")
        t.eq(outcome(c.q("ALTER VIEW v RENAME COLUMN a TO x")), [("C", "ALTER VIEW")], "a view's column")
        q = sch.encode()

        def create(kind, name):
            return rows(c.q("SHOW CREATE %s %s" % (kind, name)))[0][1].replace(q, b"S")
        t.eq(create("VIEW", "v"), b"CREATE VIEW eddy.S.v AS SELECT c AS x FROM eddy.S.t2", "v keeps its own name")
        t.eq(create("VIEW", "s"), b"CREATE VIEW eddy.S.s (a, b) AS SELECT * FROM eddy.S.t2", "* keeps its names")
        t.eq(create("VIEW", "w"), b"CREATE VIEW eddy.S.w AS SELECT x.a FROM (SELECT c AS a FROM eddy.S.t2) AS x",
             "a subquery keeps its names")
        t.eq(create("VIEW", "vv"), b"CREATE VIEW eddy.S.vv AS SELECT x AS a FROM eddy.S.v", "a reader of v")
        t.eq(create("MATERIALIZED VIEW", "mv"),
             b"CREATE MATERIALIZED VIEW eddy.S.mv AS SELECT (c + 1) AS n FROM eddy.S.t2 GROUP BY c", "GROUP BY")
        t.eq(create("INDEX", "t_a_idx"), b"CREATE INDEX t_a_idx ON eddy.S.t2 (c)", "the index")
        t.eq(create("TABLE", "t2"), b"CREATE TABLE eddy.S.t2 (c int4, b text)", "the table")
        t.eq([r[0] for r in rows(c.q("SHOW COLUMNS FROM vv"))], [b"a"], "a reader's columns do not change")
        t.eq(rows(c.q("EXPLAIN VIEW vv"))[0:1] != [], True, "EXPLAIN VIEW binds the rewritten SQL")
        t.eq(outcome(c.q("ALTER SCHEMA %s RENAME TO %s" % (sch, sch2))), [("C", "ALTER SCHEMA")], "ALTER SCHEMA")
        c.q("SET search_path = %s" % sch2)
        t.eq(create("VIEW", "vv").replace(sch2.encode(), b"S2"), b"CREATE VIEW eddy.S2.vv AS SELECT x AS a FROM eddy.S2.v",
             "a schema rename rewrites what lives in it")
        with connect() as other:
            t.eq(describe(other, "SELECT * FROM %s.vv" % sch2), [("a", 23, -1)], "another session binds the new schema")
            t.eq(describe(other, "SELECT * FROM %s.vv" % sch), "42P01", "and not the old one")
        db, db2 = "rdb_%s" % RUN, "rdb2_%s" % RUN
        c.q("DROP DATABASE IF EXISTS %s" % db)
        c.q("DROP DATABASE IF EXISTS %s" % db2)
        c.q("CREATE DATABASE %s" % db)
        c.q("CREATE TABLE %s.public.dt (a int)" % db)
        t.eq(outcome(c.q("ALTER DATABASE %s RENAME TO %s" % (db, db2))), [("C", "ALTER DATABASE")], "ALTER DATABASE")
        t.eq(rows(c.q("SHOW CREATE TABLE %s.public.dt" % db2)),
             [[b"%s.public.dt" % db2.encode(), b"CREATE TABLE %s.public.dt (a int4)" % db2.encode()]],
             "a database rename rewrites what lives in it")
        t.eq([m.sqlstate() for m in errors(c.q("SHOW CREATE TABLE %s.public.dt" % db))], ["42P01"], "old name gone")
        t.eq([m.sqlstate() for m in errors(c.q("ALTER DATABASE %s RENAME TO eddy" % db2))], ["42P04"], "42P04")
        c.q("DROP DATABASE %s" % db2)
        c.q("DROP SCHEMA %s CASCADE" % sch2)


@case
def create_or_replace_view_as_postgres(t):
    stmts = ["CREATE TABLE t (a int, b text, n numeric(10,2))",
             "CREATE VIEW v AS SELECT a, b FROM t",
             "CREATE VIEW w AS SELECT a FROM v",
             "CREATE OR REPLACE VIEW v AS SELECT a FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT b, a FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT a, b::varchar FROM t",
             "CREATE OR REPLACE VIEW v (a, bb) AS SELECT a, b, 1 AS c FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT a, b, 1 AS c FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT a, b, c FROM (SELECT a, b, 1 AS c FROM t) x",
             "CREATE OR REPLACE VIEW v AS SELECT a::bigint, b, 1 AS c FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT a, b, 1 AS c, n FROM t",
             "CREATE OR REPLACE VIEW v AS SELECT a, b, 1 AS c, n::numeric(12,2) AS n FROM t",
             "CREATE OR REPLACE VIEW t AS SELECT 1",
             "CREATE OR REPLACE VIEW nv AS SELECT 1 AS x",
             "CREATE OR REPLACE VIEW w AS SELECT a, b FROM v",
             "DROP VIEW v",
             "DROP TABLE t CASCADE"]

    def run(p):
        got = script(p, schema("replace"), stmts[:-2], keep=True)
        with connect(p) as c:
            got.append(describe(c, "SELECT * FROM %s.w" % schema("replace")))
            c.q("SET search_path = %s" % schema("replace"))
            got += [outcome(c.q(s)) for s in stmts[-2:]]
            c.q("DROP SCHEMA %s CASCADE" % schema("replace"))
        return got
    t.same_as_ref(run, "CREATE OR REPLACE VIEW outcomes")
    sch = schema("replace2")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        c.q("CREATE TABLE t (a int); CREATE VIEW v AS SELECT a FROM t; CREATE VIEW w AS SELECT a FROM v")
        # PostgreSQL accepts a view that reads itself and fails on every read; eddy refuses the cycle.
        for stmt in ("CREATE OR REPLACE VIEW v AS SELECT a FROM v", "CREATE OR REPLACE VIEW v AS SELECT a FROM w"):
            t.eq([(e[1], e[2]) for e in outcome(c.q(stmt)) if e[0] == "E"],
                 [("42P17", 'infinite recursion detected in rules for relation "v"')], stmt)
        t.eq([m.sqlstate() for m in errors(c.q("CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1"))], ["42601"],
             "OR REPLACE with IF NOT EXISTS")
        # Materialize's CREATE OR REPLACE MATERIALIZED VIEW, with the view rules.
        t.eq(outcome(c.q("CREATE MATERIALIZED VIEW mv AS SELECT a FROM t")), [("C", "CREATE MATERIALIZED VIEW")], "mv")
        t.eq(outcome(c.q("CREATE OR REPLACE MATERIALIZED VIEW mv AS SELECT a, a + 1 AS b FROM t")),
             [("C", "CREATE MATERIALIZED VIEW")], "replaced with a column more")
        t.eq([m.sqlstate() for m in errors(c.q("CREATE OR REPLACE MATERIALIZED VIEW mv AS SELECT 1 AS x"))],
             ["42P16"], "the column rules hold")
        t.eq([m.sqlstate() for m in errors(c.q("CREATE OR REPLACE MATERIALIZED VIEW v AS SELECT a FROM t"))],
             ["42809"], "a view is not a materialized view")
        t.eq(rows(c.q("SHOW CREATE MATERIALIZED VIEW mv"))[0][1].replace(sch.encode(), b"S"),
             b"CREATE MATERIALIZED VIEW eddy.S.mv AS SELECT a, (a + 1) AS b FROM eddy.S.t", "stored as a CREATE")
        # The replaced view's reads are its dependencies now: t can go once nothing reads it.
        c.q("CREATE OR REPLACE VIEW v AS SELECT 1 AS a")
        c.q("DROP MATERIALIZED VIEW mv")
        t.eq(outcome(c.q("DROP TABLE t")), [("C", "DROP TABLE")], "dependencies follow the new definition")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def check_constraints_as_postgres(t):
    stmts = ["CREATE TABLE t (a int CHECK (a > 0), b int, CHECK (a > b), CHECK (b > 0), CONSTRAINT named CHECK (b < 100), CHECK (a < 1000))",
             "CREATE TABLE t2 (a int CHECK (a))",
             "CREATE TABLE t2 (a int CHECK (a + 1))",
             "CREATE TABLE t2 (a text CHECK (a))",
             "CREATE TABLE t2 (a int CHECK ((SELECT 1) = 1))",
             "CREATE TABLE t2 (a int CHECK (EXISTS (SELECT 1)))",
             "CREATE TABLE t2 (a int CHECK (count(*) > 0))",
             "CREATE TABLE t2 (a int CHECK (row_number() OVER () > 0))",
             "CREATE TABLE t2 (a int CHECK (zz > 0))",
             "CREATE TABLE t2 (a int CHECK (t.a > 0))",
             "CREATE TABLE t2 (a int CHECK ($1 > 0))",
             "CREATE TABLE t2 (a int CHECK (a > 'x'))",
             "CREATE TABLE t2 (a int DEFAULT 'x')",
             "CREATE TABLE t2 (a int, CONSTRAINT c CHECK (a > 0), CONSTRAINT c CHECK (a < 10))",
             "CREATE TABLE t2 (a int CHECK (t2.a > 0) CHECK (a < 10), CHECK (NULL), CHECK ('true'))",
             "CREATE TABLE t3 (a int, CONSTRAINT t3_a_check CHECK (a > 0), CHECK (a < 10), CHECK (a > 0 AND a < 5))"]
    t.same_as_ref(lambda p: script(p, schema("check"), stmts), "CHECK outcomes")
    sch = schema("check2")
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        for s in stmts[0], stmts[-2], stmts[-1]:
            c.q(s)
        q = sch.encode()

        def create(name):
            return rows(c.q("SHOW CREATE TABLE %s" % name))[0][1].replace(q, b"S")
        # The names PostgreSQL 15 gives (pg_constraint.conname), written into the definition.
        t.eq(create("t"), b"CREATE TABLE eddy.S.t (a int4 CONSTRAINT t_a_check CHECK ((a > 0)), b int4, "
             b"CONSTRAINT t_check CHECK ((a > b)), CONSTRAINT t_b_check CHECK ((b > 0)), CONSTRAINT named CHECK ((b < 100)), "
             b"CONSTRAINT t_a_check1 CHECK ((a < 1000)))", "auto names t_a_check, t_check, t_a_check1")
        t.eq(create("t2"), b"CREATE TABLE eddy.S.t2 (a int4 CONSTRAINT t2_a_check CHECK ((a > 0)) "
             b"CONSTRAINT t2_a_check1 CHECK ((a < 10)), CONSTRAINT t2_check CHECK (NULL), "
             b"CONSTRAINT t2_check1 CHECK ('true'))", "t2.a stored as a; constant checks")
        t.eq(create("t3"), b"CREATE TABLE eddy.S.t3 (a int4, CONSTRAINT t3_a_check CHECK ((a > 0)), "
             b"CONSTRAINT t3_a_check1 CHECK ((a < 10)), CONSTRAINT t3_a_check2 CHECK (((a > 0) AND (a < 5))))",
             "a given name is avoided")
        c.q("ALTER TABLE t RENAME COLUMN a TO x")
        t.eq(create("t"), b"CREATE TABLE eddy.S.t (x int4 CONSTRAINT t_a_check CHECK ((x > 0)), b int4, "
             b"CONSTRAINT t_check CHECK ((x > b)), CONSTRAINT t_b_check CHECK ((b > 0)), CONSTRAINT named CHECK ((b < 100)), "
             b"CONSTRAINT t_a_check1 CHECK ((x < 1000)))", "RENAME COLUMN rewrites the conditions")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def create_table_as_as_postgres(t):
    """CREATE TABLE AS and SELECT INTO: the new table's columns and rows, the tags and notices, and
    errors that leave no table behind, as PostgreSQL's."""
    sch = schema("ctas")
    stmts = ["CREATE TABLE src (a int, b varchar(10), n numeric(8,2))",
             "CREATE TABLE c1 AS SELECT a, b, n, a + 1 AS a1, 'x' AS lit, NULL AS nul, now() AS ts FROM src WITH NO DATA",
             "CREATE TABLE c2 (x, y) AS SELECT 1 AS a, 2 AS b WITH NO DATA",
             "CREATE TABLE c3 (x) AS SELECT 1 AS a, 2 AS b WITH NO DATA",
             "CREATE TABLE c4 (x, y, z) AS SELECT 1 AS a, 2 AS b",
             "CREATE TABLE c5 AS SELECT 1 AS a, 2 AS a WITH NO DATA",
             "CREATE TABLE c6 AS SELECT $1 AS a WITH NO DATA",
             "CREATE TABLE c7 AS VALUES (1, 'a') WITH NO DATA",
             "CREATE TABLE c8 AS SELECT 1 AS a WHERE false",
             "CREATE TABLE c9 AS SELECT a FROM src LIMIT 0 WITH DATA",
             "CREATE TABLE c1 AS SELECT 1 AS a WITH NO DATA",
             "CREATE TABLE IF NOT EXISTS c1 AS SELECT 1 AS a WITH NO DATA",
             "CREATE TABLE c10 AS SELECT 1 AS a WITH NO JUNK",
             # With rows: from a table, a view, a materialized view, constants; SELECT INTO.
             "INSERT INTO src VALUES (1, 'a', 1.5), (2, 'bb', NULL), (NULL, NULL, 3.25), (2, 'bb', 7)",
             "CREATE VIEW vw AS SELECT a, n FROM src WHERE a IS NOT NULL",
             "CREATE MATERIALIZED VIEW mv AS SELECT b, count(*) AS c, sum(n) AS s FROM src GROUP BY b",
             "CREATE TABLE d1 AS SELECT a, b, n * 2 AS n2 FROM src WHERE a IS NOT NULL",
             "CREATE TABLE d2 (k, total) AS SELECT b, sum(n) FROM src GROUP BY b",
             "CREATE TABLE d3 AS SELECT * FROM vw WHERE a > 1",
             "CREATE TABLE d4 AS SELECT * FROM mv WITH DATA",
             "CREATE TABLE d5 AS SELECT 1 AS one UNION ALL SELECT 2",
             "SELECT a, b INTO d6 FROM src WHERE n > 2",
             "SELECT * INTO TABLE d7 FROM src UNION ALL SELECT * FROM src",
             "SELECT INTO d8 FROM src",
             "CREATE TABLE IF NOT EXISTS d1 AS SELECT 1 AS a",
             "CREATE TABLE d9 AS SELECT 1 / a AS q FROM (VALUES (1), (0)) v(a)",
             "CREATE TABLE d9 AS SELECT 10 / a AS q FROM src",
             "SELECT 1 UNION SELECT 2 INTO d10",
             "SELECT * FROM (SELECT 1 INTO d10) s",
             "INSERT INTO d1 VALUES (9, 'z', 0)",
             "UPDATE d2 SET total = 0 WHERE k IS NULL",
             "BEGIN", "CREATE TABLE d11 AS SELECT 1 AS a WITH NO DATA", "COMMIT"]
    reads = ["SELECT * FROM d1 ORDER BY a, n2", "SELECT * FROM d2 ORDER BY k", "SELECT * FROM d3 ORDER BY n",
             "SELECT * FROM d4 ORDER BY b", "SELECT * FROM d5 ORDER BY one", "SELECT * FROM d6",
             "SELECT count(*), sum(n) FROM d7", "SELECT count(*) FROM d8", "SELECT * FROM d9 ORDER BY q",
             "SELECT relname FROM pg_class WHERE relnamespace = '%s'::regnamespace ORDER BY 1" % sch]

    def run(p):
        got = script(p, sch, stmts, keep=True)
        # PostgreSQL tags CREATE MATERIALIZED VIEW "SELECT n"; eddy names the statement, as Materialize does.
        mv = stmts.index([s for s in stmts if s.startswith("CREATE MATERIALIZED VIEW")][0])
        got[mv] = [o for o in got[mv] if o[0] != "C"]
        with connect(p) as c:
            c.q("SET search_path = %s" % sch)
            got += [describe(c, "SELECT * FROM %s.%s" % (sch, r))
                    for r in ("c1", "c2", "c3", "c7", "c8", "c9", "d1", "d2", "d4", "d6", "d8")]
            got += [rows(c.q(r)) for r in reads]
            c.q("DROP SCHEMA %s CASCADE" % sch)
        return got
    t.same_as_ref(run, "CREATE TABLE AS outcomes")
    # Rows are copied at one step outside a block; inside one eddy cannot yet (PostgreSQL can).
    with connect() as c:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        c.q(stmts[0])
        c.q("BEGIN")
        got = outcome(c.q("CREATE TABLE c9 AS SELECT a FROM src"))
        t.eq([(e[1], e[2], e[4]) for e in got if e[0] == "E"],
             [("0A000", 'CREATE TABLE AS copying the rows of table "src" is not supported in a transaction block yet',
               "Run it outside a transaction block, or use WITH NO DATA to create the table empty.")],
             "rows of a table in a block: 0A000")
        c.q("ROLLBACK")
        c.q("BEGIN")
        got = outcome(c.q("SELECT 1 AS a INTO c9"))
        t.eq([(e[1], e[2]) for e in got if e[0] == "E"],
             [("0A000", 'CREATE TABLE AS with rows is not supported in a transaction block yet (table "c9")')],
             "constant rows in a block: 0A000")
        c.q("ROLLBACK")
        t.eq([r[0] for r in rows(c.q("SHOW TABLES"))], [b"src"], "nothing created")
        c.q("CREATE TABLE c2 (x, y) AS SELECT 1 AS a, 'v'::varchar(3) AS b WITH NO DATA")
        t.eq(rows(c.q("SHOW CREATE TABLE c2"))[0][1].replace(sch.encode(), b"S"),
             b"CREATE TABLE eddy.S.c2 (x integer, y character varying(3))", "stored as a plain CREATE TABLE")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def prepared_statements_revalidate_after_ddl(t):
    """A prepared statement (SQL PREPARE or a named Parse) binds again after DDL, as PostgreSQL's plan
    cache revalidates: a relation gone is 42P01 (positioned in the text it came in), a result of another shape is 0A000,
    and putting things back makes it work again."""
    sch = schema("reval")

    def norm(got):
        # A statement that runs: PostgreSQL returns its (no) rows, eddy cannot read relations yet.
        out = []
        for o in got:
            runs = any((x[0] == "C" and x[1].startswith("SELECT")) or
                       (x[0] == "E" and "needs the dataflow engine" in (x[2] or "")) for x in o)
            out.append([("RUNS",)] if runs else o)
        return out

    def extended(c, msgs):
        c.send(msgs + Sync())
        return [(m.t,) + ((m.sqlstate(), m.fields().get("M"), None, None, None, m.fields().get("P")) if m.t == "E" else ())
                + ((m.text(),) if m.t == "C" else ()) for m in c.until_rfq(1) if m.t in "E12TC"]

    def run(p):
        with connect(p) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
            c.q("CREATE TABLE t (a int, b text); CREATE VIEW v AS SELECT a FROM t")
            c.q("PREPARE p AS SELECT * FROM t; PREPARE q AS SELECT a FROM v; PREPARE r(int) AS SELECT a FROM t WHERE a > $1")
            got = [extended(c, Parse("SELECT * FROM t", name="s1") + Parse("SELECT a FROM v", name="s2"))]
            for s in ("ALTER TABLE t RENAME COLUMN b TO c", "EXECUTE p", "EXECUTE r(1)", "EXECUTE q",
                      "CREATE OR REPLACE VIEW v AS SELECT a, 1 AS one FROM t", "EXECUTE q"):
                got.append(outcome(c.q(s)))
            got.append(extended(c, Bind(stmt="s1") + Execute()))
            got.append(extended(c, Bind(stmt="s2") + Execute()))
            got.append(outcome(c.q("DROP VIEW v")))
            got.append(outcome(c.q("EXECUTE q")))
            got.append(extended(c, Bind(stmt="s2") + Execute()))
            for s in ("ALTER TABLE t RENAME TO t2", "EXECUTE r(1)", "ALTER TABLE t2 RENAME TO t", "EXECUTE r(2)",
                      "ALTER TABLE t RENAME COLUMN c TO b", "EXECUTE p"):
                got.append(outcome(c.q(s)))
            got.append(extended(c, Bind(stmt="s1") + Execute()))
            # Inside a block, the block's own DDL counts.
            for s in ("BEGIN", "ALTER TABLE t RENAME COLUMN b TO bb", "EXECUTE p", "ROLLBACK", "EXECUTE p",
                      "BEGIN", "DROP TABLE t", "EXECUTE r(1)", "ROLLBACK", "EXECUTE r(1)"):
                got.append(outcome(c.q(s)))
            c.q("DROP SCHEMA %s CASCADE" % sch)
            return got
    t.same_as_ref(run, "revalidation outcomes", norm)


@case
def database_ddl_outside_transaction_blocks_as_postgres(t):
    db = "txdb_%s" % RUN

    def run(p):
        with connect(p) as c:
            return [outcome(c.q(s)) for s in (
                "DROP DATABASE IF EXISTS %s" % db, "BEGIN", "CREATE DATABASE %s" % db, "ROLLBACK",
                "CREATE DATABASE %s; SELECT 1" % db, "SELECT 1; CREATE DATABASE %s" % db, "CREATE DATABASE %s" % db,
                "BEGIN", "DROP DATABASE %s" % db, "ROLLBACK", "DROP DATABASE IF EXISTS %s; SELECT 1" % db,
                "DROP DATABASE %s" % db)]
    t.same_as_ref(run, "CREATE/DROP DATABASE in transaction blocks")


@case
def ddl_in_a_query_string_of_several_statements_as_postgres(t):
    """A query string with several statements is one implicit transaction: its DDL is committed
    at its end, or not at all when a statement failed; COMMIT and ROLLBACK in it end it (with
    PostgreSQL's warning), BEGIN turns it into a block. Each element is one Query message; a DROP
    afterwards shows what exists."""
    stmts = ["CREATE VIEW v1 AS SELECT 1 AS a; SELECT 1/0",
             "DROP VIEW v1",
             "CREATE VIEW v2 AS SELECT 1 AS a; COMMIT; CREATE VIEW v3 AS SELECT 1 AS a; SELECT 1/0",
             "DROP VIEW v2",
             "DROP VIEW v3",
             "CREATE VIEW v4 AS SELECT 1 AS a; BEGIN; CREATE VIEW v5 AS SELECT 1 AS a; SELECT 1/0",
             "ROLLBACK",
             "DROP VIEW v4",
             "CREATE VIEW v6 AS SELECT 1 AS a; ROLLBACK; SELECT 1",
             "DROP VIEW v6",
             "CREATE TABLE t (a int); CREATE VIEW v7 AS SELECT a FROM t; CREATE VIEW v7 AS SELECT 2 AS a",
             "DROP TABLE t",
             "CREATE TABLE t (a int); CREATE VIEW v8 AS SELECT a FROM t; CREATE VIEW v9 AS SELECT a FROM v8",
             "DROP VIEW v8",
             "DROP VIEW v9; DROP VIEW v8; DROP TABLE t; DROP TABLE t",
             "DROP VIEW v9",
             "CREATE VIEW v10 AS SELECT 1 AS a; DROP VIEW v10; CREATE VIEW v10 AS SELECT 2 AS b",
             "DROP VIEW v10"]
    t.same_as_ref(lambda p: script(p, schema("multi"), stmts), "outcomes of multi-statement query strings")


@case
def ddl_in_an_extended_protocol_pipeline_as_postgres(t):
    """The extended protocol's messages up to Sync are one implicit transaction: DDL executed in
    it commits at Sync, or not at all when a later Execute failed."""
    sch = schema("pipe")

    def pipeline(c, *sqls):
        msgs = b"".join(Parse(s) + Bind() + Execute() for s in sqls) + Sync()
        c.send(msgs)
        return outcome(c.until_rfq(1))

    def run(p):
        with connect(p) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            c.q("CREATE SCHEMA %s" % sch)
            c.q("SET search_path = %s" % sch)
            got = [pipeline(c, "CREATE VIEW e1 AS SELECT 1 AS a", "SELECT 1/0"),
                   outcome(c.q("DROP VIEW e1")),
                   pipeline(c, "CREATE VIEW e2 AS SELECT 1 AS a", "CREATE VIEW e3 AS SELECT a FROM e2"),
                   outcome(c.q("DROP VIEW e2")),
                   pipeline(c, "DROP VIEW e3", "DROP VIEW e2"),
                   outcome(c.q("DROP VIEW e2")),
                   pipeline(c, "CREATE VIEW e4 AS SELECT 1 AS a", "CREATE VIEW e4 AS SELECT 2 AS a"),
                   outcome(c.q("DROP VIEW e4"))]
            c.q("DROP SCHEMA %s CASCADE" % sch)
            return got
    t.same_as_ref(run, "outcomes of extended-protocol pipelines")


@case
def transactional_ddl_as_postgres(t):
    """DDL inside BEGIN ... COMMIT is seen by the block's later statements only, committed at COMMIT,
    gone at ROLLBACK or after an error aborted the block."""
    sch = schema("txn")

    def run(p):
        with connect(p) as c, connect(p) as other:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            got = [outcome(c.q(s)) for s in ("CREATE SCHEMA %s" % sch, "SET search_path = %s" % sch)]

            def seen(conn, rel):
                return describe(conn, "SELECT * FROM %s.%s" % (sch, rel))
            for s in ("BEGIN", "CREATE TABLE t (a int)", "CREATE VIEW v AS SELECT * FROM t"):
                got.append(outcome(c.q(s)))
            got += [seen(c, "v"), seen(other, "t")]
            got.append(outcome(c.q("ROLLBACK")))
            got += [seen(c, "t"), seen(c, "v")]
            for s in ("BEGIN", "CREATE TABLE t (a int, b text)", "CREATE VIEW v AS SELECT a FROM t",
                      "CREATE INDEX ON t (a)", "ALTER TABLE t RENAME COLUMN b TO c", "CREATE TABLE gone (x int)",
                      "DROP TABLE gone", "DROP TABLE IF EXISTS gone"):
                got.append(outcome(c.q(s)))
            got += [seen(c, "t"), seen(other, "t")]
            got.append(outcome(c.q("COMMIT")))
            got += [seen(other, "t"), seen(other, "v"), seen(other, "gone")]
            for s in ("BEGIN", "DROP VIEW v", "CREATE TABLE u (a int)", "SELECT 1/0", "CREATE TABLE u2 (a int)",
                      "COMMIT"):
                got.append(outcome(c.q(s)))
            got += [seen(other, "v"), seen(other, "u")]
            for s in ("BEGIN", "CREATE TABLE t (a int)", "COMMIT", "START TRANSACTION",
                      "DROP VIEW v", "DROP TABLE t", "CREATE TABLE t (z int8)", "COMMIT"):
                got.append(outcome(c.q(s)))
            got += [seen(other, "t"), seen(other, "v")]
            # A view redefined so that it no longer reads t, then t dropped, in one block.
            for s in ("CREATE VIEW v AS SELECT z FROM t", "BEGIN", "CREATE OR REPLACE VIEW v AS SELECT 1::int8 AS z",
                      "DROP TABLE t", "COMMIT"):
                got.append(outcome(c.q(s)))
            got += [seen(other, "t"), seen(other, "v")]
            c.q("DROP SCHEMA %s CASCADE" % sch)
            return got
    t.same_as_ref(run, "transaction block outcomes")
    # A conflicting commit by another session in the meantime fails the COMMIT (PostgreSQL would make
    # the other session wait for this one instead), and nothing of the block stays.
    with connect() as c, connect() as other:
        c.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.q("CREATE SCHEMA %s; SET search_path = %s" % (sch, sch))
        c.q("BEGIN")
        c.q("CREATE TABLE mine (a int)")
        c.q("CREATE TABLE w (a int)")
        t.eq(outcome(other.q("CREATE TABLE %s.w (x text)" % sch)), [("C", "CREATE TABLE")], "the other session")
        msgs = c.q("COMMIT")
        t.eq([(e[1], e[2], e[5]) for e in outcome(msgs) if e[0] == "E"], [("42P07", 'relation "w" already exists', None)],
             "COMMIT fails with the conflict")
        t.eq([m.body for m in msgs if m.t == "Z"], [b"I"], "and the block is over")
        t.eq(describe(c, "SELECT * FROM mine"), "42P01", "nothing of the block stays")
        t.eq(describe(c, "SELECT * FROM w"), [("x", 25, -1)], "the other session's table")
        c.q("DROP SCHEMA %s CASCADE" % sch)


@case
def transactional_renames_as_postgres(t):
    """Renames of a schema and what lives in it inside one block, then the old names reused: the
    catalog's name index moves with the block's one commit."""
    a, b = schema("txa"), schema("txb")

    def run(p):
        with connect(p) as c, connect(p) as other:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE; DROP SCHEMA IF EXISTS %s CASCADE" % (a, b))
            c.q("CREATE SCHEMA %s; CREATE TABLE %s.t (a int); CREATE VIEW %s.v AS SELECT a FROM %s.t" % (a, a, a, a))
            got = [outcome(c.q(s)) for s in (
                "BEGIN", "ALTER SCHEMA %s RENAME TO %s" % (a, b), "CREATE TABLE %s.u (x int)" % b,
                "ALTER TABLE %s.t RENAME TO t2" % b, "CREATE OR REPLACE VIEW %s.v AS SELECT a, 1 AS one FROM %s.t2" % (b, b),
                "CREATE SCHEMA %s" % a, "CREATE TABLE %s.t (z text)" % a, "COMMIT")]
            got += [describe(other, "SELECT * FROM %s" % r) for r in
                    ("%s.t" % a, "%s.t2" % b, "%s.u" % b, "%s.v" % b, "%s.t" % b)]
            got += [outcome(other.q(s)) for s in ("CREATE TABLE %s.t (again int)" % b, "CREATE TABLE %s.t2 (no int)" % b)]
            c.q("DROP SCHEMA %s CASCADE; DROP SCHEMA %s CASCADE" % (a, b))
            return got
    t.same_as_ref(run, "renames in a block")


@case
def command_tags_as_postgres(t):
    """The CommandComplete tag of every DDL (and EXPLAIN, utility statements) PostgreSQL has,
    simple and extended protocol; CREATE MATERIALIZED VIEW keeps eddy's own tag (Materialize's)."""
    sch = schema("tags")
    stmts = ["CREATE SCHEMA %s" % sch, "SET search_path = %s" % sch,
             "CREATE TABLE t (a int)", "CREATE TABLE IF NOT EXISTS t (a int)", "CREATE VIEW v AS SELECT a FROM t",
             "CREATE INDEX i ON t (a)", "CREATE INDEX IF NOT EXISTS i ON t (a)",
             "EXPLAIN SELECT 1", "EXPLAIN SELECT a FROM t WHERE a > 1", "SHOW search_path",
             "ALTER TABLE t RENAME COLUMN a TO b", "ALTER VIEW v RENAME TO v2", "ALTER INDEX i RENAME TO i2",
             "ALTER TABLE v2 RENAME TO v3", "ALTER SCHEMA %s RENAME TO %s_r" % (sch, sch),
             "SET search_path = %s_r" % sch, "DROP INDEX i2", "DROP VIEW IF EXISTS nosuch", "DROP VIEW v3",
             "DROP TABLE t", "PREPARE p AS EXPLAIN SELECT 1", "EXECUTE p", "DEALLOCATE p",
             "BEGIN", "COMMIT", "DROP SCHEMA %s_r" % sch]

    def run(p):
        with connect(p) as c:
            c.q("DROP SCHEMA IF EXISTS %s CASCADE; DROP SCHEMA IF EXISTS %s_r CASCADE" % (sch, sch))
            got = [[m.text() for m in c.q(s) if m.t == "C"] for s in stmts]
            for s in ("EXPLAIN SELECT 1", "SELECT 1"):
                c.send(Parse(s) + Bind() + Execute() + Sync())
                got.append([m.text() for m in c.until_rfq(1) if m.t == "C"])
            return got
    t.same_as_ref(run, "command tags")



@case
def pg_catalog_sees_a_block_s_own_ddl_and_others_only_after_commit_as_postgres(t):
    sch = schema("catvis")

    def run(port):
        out = []
        with connect(port) as a, connect(port) as b:
            a.q("DROP SCHEMA IF EXISTS %s CASCADE" % sch)
            a.q("CREATE SCHEMA %s" % sch)
            look = ("SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = '%s' ORDER BY 1" % sch)
            a.q("BEGIN")
            a.q("CREATE TABLE %s.t (a int, b text)" % sch)
            a.q("CREATE VIEW %s.v AS SELECT a FROM %s.t" % (sch, sch))
            out.append(rows(a.q(look)))      # the block sees its own DDL
            out.append(rows(b.q(look)))      # another session does not, yet
            out.append(rows(a.q("SELECT attname FROM pg_attribute WHERE attrelid = '%s.t'::regclass "
                                "AND attnum > 0 ORDER BY attnum" % sch)))
            a.q("ROLLBACK")
            out.append(rows(a.q(look)))      # rolled back: gone
            a.q("CREATE TABLE %s.t (a int)" % sch)
            out.append(rows(b.q(look)))      # committed: everyone sees it
            a.q("DROP SCHEMA %s CASCADE" % sch)
        return out
    got = t.same_as_ref(run, "pg_class inside and outside a block")
    t.eq(got and got[0], [[b"t", b"r"], [b"v", b"v"]], "the block's own relations")


@case
def catalog_reads_refused_in_a_statement_run_off_the_loop(t):
    # A statement calling pg_sleep runs on a worker thread, where the loop's snapshot may change
    # under it: eddy refuses to read the catalog there (PostgreSQL has no such limit).
    with connect() as c:
        got = outcome(c.q("SELECT pg_sleep(0), count(*) FROM pg_class"))
        t.eq([(e[0], e[1]) for e in got], [("E", "0A000")], "pg_sleep with pg_class")
        t.eq(rows(c.q("SELECT count(*) > 0 FROM pg_class")), [[b"t"]], "the session goes on")

if __name__ == "__main__":
    main()
