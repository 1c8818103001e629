// TlsTest.java: pgJDBC over TLS against eddy (tests/layers/tls.sh): sslmode
// require, verify-ca and verify-full with the test CA as a PEM root, and
// verify-full failing for a host name the certificate does not name.
// usage: java TlsTest PORT CA_FILE
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

public class TlsTest {
    static String showSsl(String host, int port, String mode, String ca) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("ssl", "true");
        p.setProperty("sslmode", mode);
        p.setProperty("sslrootcert", ca);
        p.setProperty("connectTimeout", "10");
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/eddy", p);
             ResultSet rs = c.createStatement().executeQuery("SHOW ssl")) {
            rs.next();
            return rs.getString(1);
        }
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        String ca = args[1];
        for (String mode : new String[] {"require", "verify-ca", "verify-full"}) {
            try {
                String v = showSsl("localhost", port, mode, ca);
                System.out.println(v.equals("on") ? "ok jdbc_sslmode_" + mode : "not ok jdbc_sslmode_" + mode + ": SHOW ssl = " + v);
            } catch (SQLException e) {
                System.out.println("not ok jdbc_sslmode_" + mode + ": " + e.getMessage());
            }
        }
        // The certificate names "localhost" only: 127.0.0.1 is a name it does not have.
        try {
            showSsl("127.0.0.1", port, "verify-full", ca);
            System.out.println("not ok jdbc_verify_full_wrong_host: connected");
        } catch (SQLException e) {
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause())
                all.append(t.getMessage()).append(" / ");
            String m = all.toString();
            System.out.println(m.contains("hostname") || m.contains("host name") ? "ok jdbc_verify_full_wrong_host"
                               : "not ok jdbc_verify_full_wrong_host: " + m);
        }
    }
}
