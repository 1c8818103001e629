// JdbcTest.java: pgJDBC against a server (port in args[0]): connecting (which runs
// pgJDBC's start-up checks and queries), PreparedStatement with typed setters,
// server-side prepared binary execution past prepareThreshold, ResultSetMetaData,
// Statement.cancel() and SQLSTATEs. One "ok NAME" / "not ok NAME" line per case.
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

public class JdbcTest {
    static String url;
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
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("connectTimeout", "5");
        p.setProperty("socketTimeout", "30");
        return DriverManager.getConnection(url, p);
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

        System.exit(failed == 0 ? 0 : 1);
    }
}
