// JdbcTest.java: pgJDBC against a server (port in args[0]): connecting (which runs
// pgJDBC's start-up checks and queries), PreparedStatement with typed setters,
// server-side prepared binary execution past prepareThreshold, ResultSetMetaData,
// Statement.cancel(), SQLSTATEs, and SUBSCRIBE read through a cursor with FETCH. One
// "ok NAME" / "not ok NAME" line per case.
//
// The meta_* cases run pgJDBC's catalog introspection (DatabaseMetaData, the
// ResultSetMetaData lookups by table OID and column number, the TypeInfoCache
// queries behind arrays) against the server and against the PostgreSQL 15 on
// args[1], over the same objects in schema jdbcmeta, and compare what a user sees.
// Where eddy differs by design the case asserts eddy's answer and says why.
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

public class JdbcTest {
    static String url;
    static String pgUrl;   // the reference PostgreSQL 15; null when not given
    static List<String> failures = new ArrayList<>();
    static int failed = 0;

    interface Case {
        void run(Connection c) throws Exception;
    }

    static void check(boolean cond, String what) {
        if (!cond) failures.add(what);
    }

    static void eq(Object got, Object want, String what) {
        if (got == null ? want != null : !got.equals(want))
            failures.add(what + ": got " + got + ", want " + want);
    }

    static Connection connect() throws SQLException {
        return connectTo(url);
    }

    static Connection connectTo(String u) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("connectTimeout", "5");
        p.setProperty("socketTimeout", "30");
        return DriverManager.getConnection(u, p);
    }

    static void run(String name, Case k) {
        failures.clear();
        try (Connection c = connect()) {
            k.run(c);
        } catch (Exception e) {
            failures.add(e.getClass().getSimpleName() + ": " + e.getMessage()
                + (e instanceof SQLException ? " [" + ((SQLException) e).getSQLState() + "]" : ""));
        }
        if (failures.isEmpty()) {
            System.out.println("ok " + name);
        } else {
            failed++;
            System.out.println("not ok " + name);
            for (String f : failures) System.out.println("  " + f);
        }
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/eddy";
        pgUrl = args.length > 1 && !args[1].isEmpty() ? "jdbc:postgresql://127.0.0.1:" + args[1] + "/eddy" : null;

        run("connect", c -> {
            check(c.isValid(5), "isValid (an empty query)");
            eq(c.getMetaData().getDatabaseMajorVersion(), 15, "database major version");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                check(rs.next(), "a row");
                eq(rs.getInt(1), 1, "value");
            }
        });

        run("prepared_statement_setters", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT ?::int4 + 1, ?::text || '!', ?::numeric * 2, ?::timestamp, ?::int8, ?::bool")) {
                ps.setInt(1, 41);
                ps.setString(2, "héllo");
                ps.setBigDecimal(3, new BigDecimal("12345678901234567890.125"));
                ps.setTimestamp(4, Timestamp.valueOf("2024-03-01 12:34:56.789"));
                ps.setLong(5, Long.MIN_VALUE);
                ps.setBoolean(6, true);
                try (ResultSet rs = ps.executeQuery()) {
                    check(rs.next(), "a row");
                    eq(rs.getInt(1), 42, "int4");
                    eq(rs.getString(2), "héllo!", "text");
                    eq(rs.getBigDecimal(3), new BigDecimal("24691357802469135780.250"), "numeric");
                    eq(rs.getTimestamp(4), Timestamp.valueOf("2024-03-01 12:34:56.789"), "timestamp");
                    eq(rs.getLong(5), Long.MIN_VALUE, "int8");
                    eq(rs.getBoolean(6), true, "bool");
                    check(!rs.next(), "one row only");
                }
            }
        });

        run("null_parameters", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::int4 IS NULL, ?::text")) {
                ps.setNull(1, Types.INTEGER);
                ps.setNull(2, Types.VARCHAR);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    eq(rs.getBoolean(1), true, "NULL int");
                    eq(rs.getString(2), null, "NULL text");
                    check(rs.wasNull(), "wasNull");
                }
            }
        });

        run("server_prepared_after_threshold", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT ?::int4 * 2, ?::float8, ?::numeric, ?::timestamp, ?::text")) {
                for (int i = 0; i < 12; i++) {
                    ps.setInt(1, i);
                    ps.setDouble(2, i + 0.5);
                    ps.setBigDecimal(3, new BigDecimal(i + ".25"));
                    ps.setTimestamp(4, Timestamp.valueOf("2020-01-0" + (1 + i % 9) + " 00:00:01"));
                    ps.setString(5, "s" + i);
                    try (ResultSet rs = ps.executeQuery()) {
                        check(rs.next(), "row " + i);
                        eq(rs.getInt(1), i * 2, "int4 in execution " + i);
                        eq(rs.getDouble(2), i + 0.5, "float8 in execution " + i);
                        eq(rs.getBigDecimal(3), new BigDecimal(i + ".25"), "numeric in execution " + i);
                        eq(rs.getTimestamp(4), Timestamp.valueOf("2020-01-0" + (1 + i % 9) + " 00:00:01"),
                            "timestamp in execution " + i);
                        eq(rs.getString(5), "s" + i, "text in execution " + i);
                    }
                }
            }
        });

        run("result_set_metadata", c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 1::int2 AS a, 2::int4 AS b, 3::int8 AS c, 1.5::float8 AS d,"
                     + " 2.5::numeric AS e, 'x'::text AS f, 'y'::varchar AS g, true AS h,"
                     + " '2024-01-01'::date AS i, '2024-01-01 00:00'::timestamp AS j,"
                     + " '2024-01-01 00:00+00'::timestamptz AS k, '\\x01'::bytea AS l")) {
                ResultSetMetaData md = rs.getMetaData();
                eq(md.getColumnCount(), 12, "column count");
                int[] want = {Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.NUMERIC,
                    Types.VARCHAR, Types.VARCHAR, Types.BIT, Types.DATE, Types.TIMESTAMP, Types.TIMESTAMP,
                    Types.BINARY};
                String[] names = {"int2", "int4", "int8", "float8", "numeric", "text", "varchar", "bool",
                    "date", "timestamp", "timestamptz", "bytea"};
                for (int i = 0; i < 12; i++) {
                    eq(md.getColumnType(i + 1), want[i], "column " + (i + 1) + " type");
                    eq(md.getColumnTypeName(i + 1), names[i], "column " + (i + 1) + " type name");
                }
                eq(md.getColumnLabel(1), "a", "label");
            }
        });

        run("cancel", c -> {
            try (Statement s = c.createStatement()) {
                Thread t = new Thread(() -> {
                    try {
                        Thread.sleep(300);
                        s.cancel();
                    } catch (Exception e) {
                        failures.add("cancel threw " + e);
                    }
                });
                long t0 = System.nanoTime();
                t.start();
                try {
                    s.executeQuery("SELECT pg_sleep(10)");
                    failures.add("pg_sleep(10) was not cancelled");
                } catch (SQLException e) {
                    eq(e.getSQLState(), "57014", "SQLSTATE");
                }
                t.join();
                double dt = (System.nanoTime() - t0) / 1e9;
                check(dt < 1.5, "cancelled quickly (" + dt + " s)");
                try (ResultSet rs = s.executeQuery("SELECT 3")) {
                    rs.next();
                    eq(rs.getInt(1), 3, "usable after cancel");
                }
            }
        });

        run("sqlstates", c -> {
            String[][] cases = {{"SELECT 1/0", "22012"}, {"SELEC 1", "42601"},
                {"SELECT 'abc'::int4", "22P02"}, {"SELECT 9223372036854775807::int8 + 1", "22003"}};
            for (String[] k : cases) {
                try (Statement s = c.createStatement()) {
                    s.executeQuery(k[0]);
                    failures.add(k[0] + " did not fail");
                } catch (SQLException e) {
                    eq(e.getSQLState(), k[1], k[0]);
                }
            }
        });

        run("transactions", c -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1").close();
                try {
                    s.executeQuery("SELECT 1/0");
                } catch (SQLException e) {
                    eq(e.getSQLState(), "22012", "error");
                }
                try {
                    s.executeQuery("SELECT 1");
                    failures.add("statement in a failed transaction succeeded");
                } catch (SQLException e) {
                    eq(e.getSQLState(), "25P02", "failed transaction");
                }
                c.rollback();
                try (ResultSet rs = s.executeQuery("SELECT 5")) {
                    rs.next();
                    eq(rs.getInt(1), 5, "after rollback");
                }
                c.commit();
            }
        });

        run("fetch_size_uses_portal_suspension", c -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(3);
                StringBuilder b = new StringBuilder();
                try (ResultSet rs = s.executeQuery("VALUES (1),(2),(3),(4),(5),(6),(7)")) {
                    while (rs.next()) b.append(rs.getInt(1));
                }
                eq(b.toString(), "1234567", "all rows through 3-row fetches");
            }
            c.commit();
        });

        run("batch_pipelined", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::int4")) {
                for (int i = 0; i < 3; i++) {
                    ps.setInt(1, i);
                    ps.execute();
                    try (ResultSet rs = ps.getResultSet()) {
                        rs.next();
                        eq(rs.getInt(1), i, "execution " + i);
                    }
                }
            }
        });

        // SUBSCRIBE as pgJDBC reads it (Materialize's way): a cursor in a transaction, FETCH with a
        // timeout in a loop (from the sixth run on, a server-prepared statement), a change made by
        // another session coming back through it, then a cursor of the same name over other columns.
        run("subscribe_through_a_cursor", c -> {
            try (Connection w = connect(); Statement ws = w.createStatement()) {
                ws.execute("DROP TABLE IF EXISTS jdbcsub");
                ws.execute("CREATE TABLE jdbcsub (a int, b text)");
                ws.execute("INSERT INTO jdbcsub VALUES (1, 'x'), (2, 'y')");
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.execute("DECLARE c CURSOR FOR SUBSCRIBE jdbcsub");
                    List<String> seen = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        if (i == 3)
                            ws.execute("INSERT INTO jdbcsub VALUES (3, 'z')");
                        try (ResultSet rs = s.executeQuery("FETCH ALL c WITH (timeout = '100ms')")) {
                            eq(rs.getMetaData().getColumnName(2), "mz_diff", "FETCH's second column");
                            while (rs.next())
                                seen.add(rs.getLong(2) + ":" + rs.getInt(3) + ":" + rs.getString(4));
                        }
                    }
                    Collections.sort(seen);
                    eq(seen, List.of("1:1:x", "1:2:y", "1:3:z"), "the snapshot, then the insert");
                    s.execute("CLOSE c");
                    s.execute("DECLARE c CURSOR FOR SUBSCRIBE (SELECT count(*) AS n FROM jdbcsub)");
                    try (ResultSet rs = s.executeQuery("FETCH ALL c WITH (timeout = '2s')")) {
                        eq(rs.getMetaData().getColumnCount(), 3, "the new cursor's columns");
                        check(rs.next(), "a row");
                        eq(rs.getLong(3), 3L, "count(*)");
                    }
                }
                c.commit();
                ws.execute("DROP TABLE jdbcsub");
            }
        });

        metaCases();
        System.exit(failed == 0 ? 0 : 1);
    }


    // ------------------------------------------------------------ catalog introspection

    // The objects both servers get: every type eddy has as a column (with typmods, NOT NULL and
    // defaults), a view, a materialized view, an index, and PRIMARY KEY's index.
    static final String[] META_DDL = {
        "DROP SCHEMA IF EXISTS jdbcmeta CASCADE",
        "CREATE SCHEMA jdbcmeta",
        "CREATE TABLE jdbcmeta.t (id int4 PRIMARY KEY, c_bool bool NOT NULL DEFAULT true, c_bytea bytea,"
            + " c_char \"char\", c_name name, c_int8 int8 DEFAULT 42, c_int2 int2 DEFAULT -1, c_text text DEFAULT 'x',"
            + " c_oid oid, c_json json, c_float4 float4 DEFAULT 1.5, c_float8 float8, c_bpchar char(5), c_bpchar1 char,"
            + " c_varchar varchar(20) DEFAULT 'abc',"
            + " c_varchar_any varchar, c_date date, c_time time, c_time3 time(3), c_ts timestamp DEFAULT now(),"
            + " c_ts0 timestamp(0), c_tstz timestamptz DEFAULT current_timestamp, c_tstz3 timestamptz(3),"
            + " c_interval interval, c_interval2 interval(2), c_numeric numeric, c_numeric10_2 numeric(10,2) DEFAULT 0.5,"
            + " c_numeric5 numeric(5), c_regclass regclass, c_regtype regtype, c_regproc regproc, c_uuid uuid,"
            + " c_jsonb jsonb, a_bool bool[], a_bytea bytea[], a_name name[], a_int2 int2[], a_int4 int4[] NOT NULL,"
            + " a_text text[], a_bpchar char(3)[], a_varchar varchar(10)[], a_int8 int8[], a_float4 float4[],"
            + " a_float8 float8[], a_oid oid[], a_ts timestamp[], a_date date[], a_time time[], a_tstz timestamptz[],"
            + " a_interval interval[], a_numeric numeric(8,3)[], a_regtype regtype[], a_uuid uuid[], a_json json[],"
            + " a_jsonb jsonb[])",
        "CREATE VIEW jdbcmeta.v AS SELECT id, c_text, c_numeric10_2 + 1 AS c_plus FROM jdbcmeta.t",
        "CREATE MATERIALIZED VIEW jdbcmeta.mv AS SELECT id, c_varchar FROM jdbcmeta.t",
        "CREATE INDEX t_text_varchar ON jdbcmeta.t (c_text, c_varchar)",
    };
    // A foreign table: an eddy source is one to pg_class (relkind 'f'); PostgreSQL's needs a wrapper and a server.
    static final String[] META_EDDY = {"CREATE SOURCE jdbcmeta.src FROM LOAD GENERATOR COUNTER"};
    static final String[] META_PG_DROP = {"DROP SCHEMA IF EXISTS jdbcmeta CASCADE",
        "DROP SERVER IF EXISTS jdbcmeta_srv CASCADE", "DROP FOREIGN DATA WRAPPER IF EXISTS jdbcmeta_fdw CASCADE"};
    static final String[] META_PG = {"CREATE FOREIGN DATA WRAPPER jdbcmeta_fdw",
        "CREATE SERVER jdbcmeta_srv FOREIGN DATA WRAPPER jdbcmeta_fdw",
        "CREATE FOREIGN TABLE jdbcmeta.src (counter bigint) SERVER jdbcmeta_srv"};

    interface Meta {
        ResultSet get(DatabaseMetaData md) throws SQLException;
    }

    interface MetaCase {
        void run(Connection c, Connection pg) throws Exception;
    }

    static void exec(Connection c, String... sqls) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sqls) s.execute(q);
        }
    }

    // A result set as rows of strings (the column labels first), leaving out the columns in `skip`.
    static List<List<String>> table(ResultSet rs, String... skip) throws SQLException {
        Set<String> drop = new HashSet<>(Arrays.asList(skip));
        List<List<String>> out = new ArrayList<>();
        try (ResultSet r = rs) {
            ResultSetMetaData md = r.getMetaData();
            List<String> head = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++)
                if (!drop.contains(md.getColumnLabel(i).toUpperCase())) head.add(md.getColumnLabel(i).toUpperCase());
            out.add(head);
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++)
                    if (!drop.contains(md.getColumnLabel(i).toUpperCase())) row.add(r.getString(i));
                out.add(row);
            }
        }
        return out;
    }

    // The first difference between two tables, as a user would spot it.
    static void sameRows(List<List<String>> got, List<List<String>> want, String what) {
        for (int i = 0; i < Math.max(got.size(), want.size()); i++) {
            List<String> g = i < got.size() ? got.get(i) : null, w = i < want.size() ? want.get(i) : null;
            if (g == null ? w != null : !g.equals(w)) {
                failures.add(what + ", row " + i + " of " + got.size() + "/" + want.size() + ": eddy " + g
                    + "\n    PostgreSQL " + w);
                return;
            }
        }
    }

    // The same metadata call on eddy and on PostgreSQL, compared; eddy's rows are returned.
    static List<List<String>> same(Connection c, Connection pg, String what, Meta m, String... skip)
            throws SQLException {
        List<List<String>> got = table(m.get(c.getMetaData()), skip);
        sameRows(got, table(m.get(pg.getMetaData()), skip), what);
        return got;
    }

    static List<String> column(List<List<String>> t, String name) {
        int at = t.get(0).indexOf(name);
        List<String> out = new ArrayList<>();
        for (List<String> row : t.subList(1, t.size())) out.add(at < 0 ? "no column " + name : row.get(at));
        return out;
    }

    static void meta(String name, MetaCase k) {
        run(name, c -> {
            if (pgUrl == null) {
                failures.add("no reference PostgreSQL (args[1])");
                return;
            }
            try (Connection pg = connectTo(pgUrl)) {
                k.run(c, pg);
            }
        });
    }

    static void metaCases() {
        meta("meta_setup", (c, pg) -> {
            exec(c, META_DDL);
            exec(c, META_EDDY);
            exec(pg, META_PG_DROP);
            exec(pg, META_DDL);
            exec(pg, META_PG);
        });

        meta("meta_get_tables", (c, pg) -> {
            String[][] kinds = {{"TABLE"}, {"VIEW"}, {"MATERIALIZED VIEW"}, {"FOREIGN TABLE"}, null,
                {"TABLE", "VIEW", "MATERIALIZED VIEW"}, {"INDEX"}};
            for (String[] k : kinds) {
                List<List<String>> got = same(c, pg, "getTables " + Arrays.toString(k),
                    md -> md.getTables(null, "jdbcmeta", "%", k));
                if (k != null && k.length == 1 && k[0].equals("FOREIGN TABLE"))
                    eq(column(got, "TABLE_NAME"), List.of("src"), "a source is a foreign table");
            }
            List<List<String>> all = same(c, pg, "getTables null pattern", md -> md.getTables(null, "jdbc%", null, null));
            eq(column(all, "TABLE_NAME"), List.of("src", "t_pkey", "t_text_varchar", "mv", "t", "v"), "every relation");
            eq(column(all, "TABLE_TYPE"), List.of("FOREIGN TABLE", "INDEX", "INDEX", "MATERIALIZED VIEW", "TABLE",
                "VIEW"), "their types");
            same(c, pg, "getTables of one name", md -> md.getTables(null, "jdbcmeta", "t", new String[] {"TABLE"}));
        });

        meta("meta_get_columns", (c, pg) -> {
            List<List<String>> got = same(c, pg, "getColumns", md -> md.getColumns(null, "jdbcmeta", "%", null));
            eq(got.size() - 1, 55 + 3 + 2 + 1, "one row per column of t, v, mv and src");
            List<List<String>> one = same(c, pg, "getColumns of one column",
                md -> md.getColumns(null, "jdbcmeta", "t", "c\\_numeric10\\_2"));
            eq(column(one, "TYPE_NAME"), List.of("numeric"), "its type");
            eq(column(one, "COLUMN_SIZE"), List.of("10"), "its precision");
            eq(column(one, "DECIMAL_DIGITS"), List.of("2"), "its scale");
            eq(column(one, "COLUMN_DEF"), List.of("0.5"), "its default");
            eq(column(one, "ORDINAL_POSITION"), List.of("27"), "its position");
            same(c, pg, "getColumns of a view", md -> md.getColumns(null, "jdbcmeta", "v", "%"));
        });

        meta("meta_get_schemas", (c, pg) -> {
            same(c, pg, "getSchemas jdbcmeta", md -> md.getSchemas(null, "jdbcmeta"));
            same(c, pg, "getSchemas information_schema", md -> md.getSchemas(null, "information\\_schema"));
            same(c, pg, "getSchemas public", md -> md.getSchemas(null, "public"));
            // eddy has no TOAST (so no pg_toast schema) and keeps its own catalog in eddy_catalog / eddy_internal.
            eq(column(table(c.getMetaData().getSchemas(null, "pg%")), "TABLE_SCHEM"), List.of("pg_catalog"),
                "pg_ schemas");
            eq(column(table(c.getMetaData().getSchemas(null, "eddy%")), "TABLE_SCHEM"),
                List.of("eddy_catalog", "eddy_internal"), "eddy's system schemas");
            List<String> all = column(table(c.getMetaData().getSchemas()), "TABLE_SCHEM");
            check(all.containsAll(List.of("information_schema", "jdbcmeta", "pg_catalog", "public")),
                "getSchemas() lists the schemas: " + all);
        });

        meta("meta_get_catalogs_types_keywords", (c, pg) -> {
            // PostgreSQL's clusters also have postgres and template1; eddy has the databases made in it.
            List<String> dbs = column(table(c.getMetaData().getCatalogs()), "TABLE_CAT");
            List<String> want = new ArrayList<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT datname FROM pg_database ORDER BY 1")) {
                while (rs.next()) want.add(rs.getString(1));
            }
            check(dbs.contains("eddy"), "getCatalogs lists eddy: " + dbs);
            eq(dbs, want, "getCatalogs lists pg_database");
            same(c, pg, "getTableTypes", md -> md.getTableTypes());
            DatabaseMetaData md = c.getMetaData(), ref = pg.getMetaData();
            eq(md.getSQLKeywords(), ref.getSQLKeywords(), "getSQLKeywords (pg_get_keywords)");
            check(md.getSQLKeywords().contains("analyze"), "getSQLKeywords lists analyze");
            eq(md.getIdentifierQuoteString(), ref.getIdentifierQuoteString(), "getIdentifierQuoteString");
            eq(md.getMaxColumnNameLength(), ref.getMaxColumnNameLength(), "getMaxColumnNameLength");
        });

        meta("meta_primary_keys", (c, pg) -> {
            List<List<String>> got = same(c, pg, "getPrimaryKeys", md -> md.getPrimaryKeys(null, "jdbcmeta", "t"));
            eq(got.subList(1, got.size()), List.of(Arrays.asList(null, "jdbcmeta", "t", "id", "1", "t_pkey")),
                "the key");
            same(c, pg, "getPrimaryKeys of a view", md -> md.getPrimaryKeys(null, "jdbcmeta", "v"));
            same(c, pg, "getBestRowIdentifier", md -> md.getBestRowIdentifier(null, "jdbcmeta", "t",
                DatabaseMetaData.bestRowSession, true));
            // No foreign keys on either side: pgJDBC reads max_index_keys from pg_settings, then pg_constraint.
            same(c, pg, "getImportedKeys", md -> md.getImportedKeys(null, "jdbcmeta", "t"));
            same(c, pg, "getExportedKeys", md -> md.getExportedKeys(null, "jdbcmeta", "t"));
            same(c, pg, "getCrossReference", md -> md.getCrossReference(null, "jdbcmeta", "t", null, "jdbcmeta", "v"));
        });

        meta("meta_index_info", (c, pg) -> {
            // CARDINALITY and PAGES are pg_class.reltuples and relpages: eddy keeps no storage statistics,
            // so an index has -1 (never counted) and 0 pages, where PostgreSQL's new btree has 0 and 1.
            for (boolean unique : new boolean[] {false, true}) {
                List<List<String>> got = same(c, pg, "getIndexInfo unique=" + unique,
                    md -> md.getIndexInfo(null, "jdbcmeta", "t", unique, false), "CARDINALITY", "PAGES");
                eq(column(got, "INDEX_NAME"), unique ? List.of("t_pkey") : List.of("t_pkey", "t_text_varchar",
                    "t_text_varchar"), "indexes");
                eq(column(got, "COLUMN_NAME"), unique ? List.of("id") : List.of("id", "c_text", "c_varchar"),
                    "their columns");
            }
            List<List<String>> stats = table(c.getMetaData().getIndexInfo(null, "jdbcmeta", "t", false, false));
            eq(new HashSet<>(column(stats, "CARDINALITY")), Set.of("-1"), "eddy's CARDINALITY");
            eq(new HashSet<>(column(stats, "PAGES")), Set.of("0"), "eddy's PAGES");
        });

        meta("meta_type_info", (c, pg) -> {
            // Every type eddy has is listed as PostgreSQL lists it; PostgreSQL has more types.
            List<List<String>> got = table(c.getMetaData().getTypeInfo());
            List<List<String>> want = table(pg.getMetaData().getTypeInfo());
            eq(got.get(0), want.get(0), "columns");
            Map<String, List<String>> pgByName = new LinkedHashMap<>();
            for (List<String> r : want.subList(1, want.size())) pgByName.put(r.get(0), r);
            Set<String> names = new HashSet<>();
            for (List<String> r : got.subList(1, got.size())) {
                names.add(r.get(0));
                eq(r, pgByName.get(r.get(0)), "getTypeInfo row of " + r.get(0));
            }
            Set<String> types = new HashSet<>();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT typname FROM pg_type WHERE typrelid = 0")) {
                while (rs.next()) types.add(rs.getString(1));
            }
            types.addAll(List.of("smallserial", "serial", "bigserial"));   // pgJDBC adds these itself
            eq(names, types, "one row per type of pg_type");
            check(names.containsAll(List.of("int4", "_int4", "numeric", "jsonb", "uuid", "timestamptz", "_text")),
                "the common types: " + names);
        });

        meta("meta_procedures_and_functions", (c, pg) -> {
            // eddy's functions are built in; like PostgreSQL's own they are not a schema's routines.
            eq(same(c, pg, "getProcedures", md -> md.getProcedures(null, "jdbcmeta", "%")).size(), 1, "none");
            eq(same(c, pg, "getFunctions", md -> md.getFunctions(null, "jdbcmeta", "%")).size(), 1, "none");
            same(c, pg, "getProcedureColumns", md -> md.getProcedureColumns(null, "jdbcmeta", "%", "%"));
            same(c, pg, "getFunctionColumns", md -> md.getFunctionColumns(null, "jdbcmeta", "%", "%"));
        });

        meta("meta_privileges", (c, pg) -> {
            // The owner (the one superuser) holds every privilege: pgJDBC reads them from the NULL ACLs.
            List<List<String>> t = same(c, pg, "getTablePrivileges",
                md -> md.getTablePrivileges(null, "jdbcmeta", "%"));
            check(column(t, "PRIVILEGE").contains("SELECT"), "SELECT is listed: " + t);
            same(c, pg, "getColumnPrivileges", md -> md.getColumnPrivileges(null, "jdbcmeta", "t", "c\\_%"));
        });

        meta("meta_result_set_metadata", (c, pg) -> {
            // pgJDBC asks pg_attribute, pg_class and pg_attrdef by the table OID and column number each
            // RowDescription field carries. Described only: reading the tables needs eddy's dataflow engine.
            String q = "SELECT t.id, t.c_text, c_numeric10_2, a_int4, v.c_plus, t.id + 1 AS e, mv.c_varchar, x.n"
                + " FROM jdbcmeta.t JOIN jdbcmeta.v USING (id) JOIN jdbcmeta.mv ON mv.id = t.id,"
                + " (SELECT c_int8 AS n FROM jdbcmeta.t) x";
            List<List<String>> got = describeColumns(c, q), want = describeColumns(pg, q);
            sameRows(got, want, "ResultSetMetaData");
            eq(got.get(0), List.of("id", "id", "t", "jdbcmeta", "0", "false", "int4", "10", "0", "11",
                "java.lang.Integer", "t", "id"), "a key column of a table");
            eq(got.get(5).subList(0, 6), List.of("e", "e", "", "", "2", "false"), "an expression");
        });

        meta("meta_arrays_and_type_cache", (c, pg) -> sameRows(arrayRoundTrips(c), arrayRoundTrips(pg),
            "arrays through pgJDBC's TypeInfoCache"));

        meta("meta_cleanup", (c, pg) -> {
            exec(c, "DROP SCHEMA jdbcmeta CASCADE");
            exec(pg, META_PG_DROP);
        });
    }

    // What ResultSetMetaData says of each column of a described (not executed) query.
    static List<List<String>> describeColumns(Connection c, String q) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(q)) {
            ResultSetMetaData md = ps.getMetaData();
            org.postgresql.PGResultSetMetaData pmd = md.unwrap(org.postgresql.PGResultSetMetaData.class);
            for (int i = 1; i <= md.getColumnCount(); i++)
                out.add(Arrays.asList(md.getColumnName(i), md.getColumnLabel(i), md.getTableName(i),
                    pmd.getBaseSchemaName(i), String.valueOf(md.isNullable(i)), String.valueOf(md.isAutoIncrement(i)),
                    md.getColumnTypeName(i), String.valueOf(md.getPrecision(i)), String.valueOf(md.getScale(i)),
                    String.valueOf(md.getColumnDisplaySize(i)), md.getColumnClassName(i), pmd.getBaseTableName(i),
                    pmd.getBaseColumnName(i)));
        }
        return out;
    }

    // Arrays in and out: createArrayOf and setObject look the element type up by name, getArray the
    // element type by OID (pgJDBC's TypeInfoCache queries over pg_type, pg_namespace and current_schemas).
    static List<List<String>> arrayRoundTrips(Connection c) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        Object[][] cases = {
            {"uuid", new Object[] {UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")}},
            {"jsonb", new Object[] {"{\"a\": 1}"}}, {"interval", new Object[] {"1 day"}},
            {"numeric", new Object[] {new BigDecimal("1.5"), null}}, {"varchar", new Object[] {"x", "y z"}},
            {"timestamptz", new Object[] {"2024-01-01 00:00:00+00"}}, {"int2", new Object[] {(short) 3}},
            {"name", new Object[] {"n"}}, {"bool", new Object[] {true, false}}, {"float8", new Object[] {0.25}},
        };
        for (Object[] k : cases) {
            String type = (String) k[0];
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::" + type + "[]")) {
                ps.setArray(1, c.createArrayOf(type, (Object[]) k[1]));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Array a = rs.getArray(1);
                    List<String> row = new ArrayList<>(List.of(type, rs.getString(1), a.getBaseTypeName(),
                        String.valueOf(a.getBaseType()), Arrays.deepToString((Object[]) a.getArray()),
                        rs.getMetaData().getColumnTypeName(1)));
                    try (ResultSet e = a.getResultSet()) {
                        while (e.next()) row.add(e.getInt(1) + "=" + e.getString(2));
                    }
                    out.add(row);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT ?, ?::int8[]")) {
            ps.setObject(1, new String[] {"a", "b"});
            ps.setObject(2, new long[] {1, 2});
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                out.add(List.of("setObject", rs.getString(1), rs.getMetaData().getColumnTypeName(1),
                    Arrays.toString((Object[]) rs.getArray(2).getArray())));
            }
        }
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT '{1,2}'::oid[], ARRAY['{\"a\":1}'::json], ARRAY[1.5::float4],"
                 + " ARRAY['12:00'::time], ARRAY['2024-01-01'::date], ARRAY['x'::bpchar], ARRAY['\\x01'::bytea],"
                 + " ARRAY['int4'::regtype], ARRAY[[1, 2], [3, 4]]")) {
            rs.next();
            for (int i = 1; i <= 9; i++) {
                Array a = rs.getArray(i);
                out.add(List.of(rs.getMetaData().getColumnTypeName(i), a.getBaseTypeName(),
                    String.valueOf(a.getBaseType()), Arrays.deepToString((Object[]) a.getArray())));
            }
        }
        return out;
    }
}
