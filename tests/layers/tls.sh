#!/usr/bin/env bash
# tls.sh: TLS on the wire. The test makes its own CA, server and client
# certificates with the openssl CLI, starts eddy with --tls-cert/--tls-key/
# --tls-ca --tls-mode require, and a PostgreSQL 15 with the same certificate
# and a hostssl-only pg_hba to compare refusals with. Clients: psql, psycopg
# (libpq), pgJDBC and node-postgres in sslmode require / verify-ca /
# verify-full, direct TLS and broken handshakes (tests/clients/test_tls.py),
# client-certificate authentication (--auth cert), SCRAM channel binding,
# and a certificate reload on SIGHUP that keeps open sessions.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
WORK=$(mktemp -d /tmp/eddy-tls.XXXXXX)
trap 'servers_stop_all; [ -n "${PG_OWNED:-}" ] && pg_stop; rm -rf "$WORK"' EXIT
: "${LOG_DIR:=$WORK}"
B=${BUILD:-build}
AUTH_TIMEOUT_MS=2000

if ! eddy_is_server; then echo "not ok tls: $EDDY_BIN is not the server yet"; exit 0; fi

# ------------------------------------------------------------ certificates
C=$WORK/certs
mkdir -p "$C"
mk_ca() {   # mk_ca NAME CN
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$C/$1.key" \
        -out "$C/$1.crt" -days 2 -subj "/CN=$2" 2>>"$WORK/openssl.log"
}
mk_cert() {   # mk_cert NAME CN CA [SAN]
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$C/$1.key" -out "$C/$1.csr" \
        -subj "/CN=$2" 2>>"$WORK/openssl.log"
    if [ -n "${4:-}" ]; then printf 'subjectAltName=%s\n' "$4" >"$C/$1.ext"; else : >"$C/$1.ext"; fi
    openssl x509 -req -in "$C/$1.csr" -CA "$C/$3.crt" -CAkey "$C/$3.key" -CAcreateserial -days 2 \
        -extfile "$C/$1.ext" -out "$C/$1.crt" 2>>"$WORK/openssl.log"
    chmod 600 "$C/$1.key"
}
if ! { mk_ca ca "eddy test CA" && mk_ca other_ca "another CA" &&
       mk_cert server localhost ca "DNS:localhost" &&
       mk_cert server2 localhost ca "DNS:localhost" &&
       mk_cert alice alice ca && mk_cert mallory alice other_ca; }; then
    echo "not ok tls_certificates: openssl failed: $(tail -3 "$WORK/openssl.log")"
    exit 0
fi
# The server reads its files from here; SIGHUP re-reads them.
cp "$C/server.crt" "$C/live.crt"; cp "$C/server.key" "$C/live.key"; chmod 600 "$C/live.key"

# ------------------------------------------------------------ PostgreSQL 15 with TLS
P=$WORK/pg
mkdir -p "$P"; cp "$C/server.crt" "$C/server.key" "$C/ca.crt" "$P/"
[ "$(id -u)" -eq 0 ] && chown -R postgres: "$P" && chmod 755 "$WORK" "$C"
unset PG_PORT PG_DATA PG_PID PG_DIR
if pg_start -c ssl=on -c ssl_cert_file="$P/server.crt" -c ssl_key_file="$P/server.key" -c ssl_ca_file="$P/ca.crt"; then
    printf 'hostssl all all 127.0.0.1/32 trust\n' >"$PG_DATA/pg_hba.conf"
    pg__as "$PG_BIN/pg_ctl" -D "$PG_DATA" reload >/dev/null 2>&1
    sleep 0.5
else
    echo "# PostgreSQL 15 with TLS did not start; refusals are compared with the documented text"
    PG_PORT=
fi

psql_q() {   # psql_q CONNINFO SQL: one value, errors on stdout
    PGCONNECT_TIMEOUT=10 psql -X -q -A -t -d "$1" -c "$2" 2>&1
}

# ------------------------------------------------------------ eddy, require
if ! eddy_start --tls-cert "$C/live.crt" --tls-key "$C/live.key" --tls-ca "$C/ca.crt" --tls-mode require \
        --auth-timeout-ms "$AUTH_TIMEOUT_MS"; then
    echo "not ok tls_start: eddy did not start with TLS: $(tail -3 "${LOG_DIR}/eddy.log")"
    exit 0
fi
E="host=localhost port=$EDDY_PORT user=postgres dbname=eddy sslrootcert=$C/ca.crt"
for mode in require verify-ca verify-full; do
    out=$(psql_q "$E sslmode=$mode" "SHOW ssl")
    if [ "$out" = on ]; then echo "ok psql_sslmode_$mode"; else echo "not ok psql_sslmode_$mode: $out"; fi
done
out=$(psql_q "host=wrong.example hostaddr=127.0.0.1 port=$EDDY_PORT user=postgres dbname=eddy sslrootcert=$C/ca.crt sslmode=verify-full" "SELECT 1")
if grep -q 'does not match host name' <<<"$out"; then echo "ok psql_verify_full_wrong_host"; else echo "not ok psql_verify_full_wrong_host: $out"; fi
out=$(psql_q "host=127.0.0.1 port=$EDDY_PORT user=postgres dbname=eddy sslmode=disable" "SELECT 1")
if [ -n "$PG_PORT" ]; then
    want=$(psql_q "host=127.0.0.1 port=$PG_PORT user=postgres dbname=eddy sslmode=disable" "SELECT 1")
else
    want='psql: error: connection to server at "127.0.0.1", port PORT failed: FATAL:  no pg_hba.conf entry for host "127.0.0.1", user "postgres", database "eddy", no encryption'
fi
if [ "${out//$EDDY_PORT/PORT}" = "${want//${PG_PORT:-PORT}/PORT}" ]; then echo "ok psql_plaintext_refused"; else
    echo "not ok psql_plaintext_refused: eddy: $out"; echo "  PostgreSQL: $want"; fi
# SHOW ssl as PostgreSQL's over TLS.
if [ -n "$PG_PORT" ]; then
    a=$(psql_q "$E sslmode=verify-full" "SHOW ssl"); b=$(psql_q "host=localhost port=$PG_PORT user=postgres dbname=eddy sslrootcert=$C/ca.crt sslmode=verify-full" "SHOW ssl")
    if [ "$a" = "$b" ]; then echo "ok show_ssl_as_postgres"; else echo "not ok show_ssl_as_postgres: eddy $a, PostgreSQL $b"; fi
fi

echo "# tests/clients/test_tls.py"
/usr/bin/python3 tests/clients/test_tls.py "$EDDY_PORT" "$C" "$AUTH_TIMEOUT_MS" "${PG_PORT:-}"

# pgJDBC: verify-full against the test CA (PEM root, as libpq's sslrootcert).
JAR=/usr/share/java/postgresql.jar
out_dir=$B/java
mkdir -p "$out_dir"
if [ ! -f "$out_dir/TlsTest.class" ] || [ tests/clients/TlsTest.java -nt "$out_dir/TlsTest.class" ]; then
    javac -d "$out_dir" -cp "$JAR" tests/clients/TlsTest.java 2>"$WORK/javac.log" || echo "not ok jdbc_tls: javac failed: $(head -3 "$WORK/javac.log")"
fi
[ -f "$out_dir/TlsTest.class" ] && timeout 120 java -cp "$out_dir:$JAR" TlsTest "$EDDY_PORT" "$C/ca.crt"

# node-postgres: installed from the npm registry into the build directory once.
NODE_DIR=$B/node
if [ ! -d "$NODE_DIR/node_modules/pg" ] && command -v npm >/dev/null; then
    mkdir -p "$NODE_DIR"
    (cd "$NODE_DIR" && timeout 300 npm install --no-audit --no-fund --loglevel=error pg@8.23.1 >"$WORK/npm.log" 2>&1)
fi
if [ -d "$NODE_DIR/node_modules/pg" ]; then
    NODE_PATH=$NODE_DIR/node_modules timeout 60 node tests/clients/test_tls_node.js "$EDDY_PORT" "$C/ca.crt"
else
    echo "not ok node_pg_tls: node-postgres is not installed (npm install pg failed: $(tail -2 "$WORK/npm.log" 2>/dev/null))"
fi

# SIGHUP: a new certificate is served to new clients, open sessions go on.
fp() {   # the SHA-256 fingerprint of the certificate the server presents
    /usr/bin/python3 - "$EDDY_PORT" <<'EOF'
import hashlib, socket, ssl, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(struct.pack("!II", 8, 80877103)); s.recv(1)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
t = ctx.wrap_socket(s)
print(hashlib.sha256(t.getpeercert(binary_form=True)).hexdigest())
EOF
}
before=$(fp)
coproc HELD { psql -X -q -A -t -d "$E sslmode=verify-full" 2>&1; }
echo "SELECT 'held 1';" >&"${HELD[1]}"
read -r -t 10 h1 <&"${HELD[0]}"
cp "$C/server2.crt" "$C/live.crt"; cp "$C/server2.key" "$C/live.key"
kill -HUP "$EDDY_PID"
sleep 0.5
after=$(fp)
echo "SELECT 'held 2';" >&"${HELD[1]}"
read -r -t 10 h2 <&"${HELD[0]}"
exec {HELD[1]}>&-
want_after=$(openssl x509 -in "$C/server2.crt" -outform DER | sha256sum | cut -d' ' -f1)
if [ "$before" != "$after" ] && [ "$after" = "$want_after" ] && [ "$h1" = "held 1" ] && [ "$h2" = "held 2" ]; then
    echo "ok sighup_reload_keeps_sessions"
else
    echo "not ok sighup_reload_keeps_sessions: before $before after $after (want $want_after), session: '$h1' '$h2'"
fi
# A reload that fails keeps the previous files in use.
echo garbage >"$C/live.crt"
kill -HUP "$EDDY_PID"
sleep 0.5
out=$(psql_q "$E sslmode=verify-full" "SELECT 'still'")
if [ "$out" = still ] && grep -q "TLS files not reloaded" "$LOG_DIR/eddy.log"; then echo "ok sighup_bad_files_keep_old"; else
    echo "not ok sighup_bad_files_keep_old: $out"; fi
eddy_stop "$EDDY_PID"

# ------------------------------------------------------------ client certificates
if eddy_start --tls-cert "$C/server.crt" --tls-key "$C/server.key" --tls-ca "$C/ca.crt" --auth cert; then
    CE="host=localhost port=$EDDY_PORT dbname=eddy sslrootcert=$C/ca.crt sslmode=verify-full"
    out=$(psql_q "$CE user=alice sslcert=$C/alice.crt sslkey=$C/alice.key" "SELECT current_user")
    if [ "$out" = alice ]; then echo "ok cert_auth_cn_is_user"; else echo "not ok cert_auth_cn_is_user: $out"; fi
    # pg_stat_ssl as PostgreSQL's for the same certificates (the only session on each).
    q="SELECT ssl, version, cipher, bits, client_dn, client_serial, issuer_dn FROM pg_stat_ssl"
    a=$(psql_q "$CE user=alice sslcert=$C/alice.crt sslkey=$C/alice.key" "$q")
    if [ -n "$PG_PORT" ]; then
        b=$(psql_q "host=localhost port=$PG_PORT dbname=eddy user=postgres sslrootcert=$C/ca.crt sslmode=verify-full sslcert=$C/alice.crt sslkey=$C/alice.key" "$q")
    else
        b="t|TLSv1.3|TLS_AES_256_GCM_SHA384|256|/CN=alice|$(openssl x509 -in "$C/alice.crt" -noout -serial | cut -d= -f2 | /usr/bin/python3 -c 'print(int(input(),16))')|/CN=eddy test CA"
    fi
    if [ "$a" = "$b" ] && [ -n "$a" ]; then echo "ok pg_stat_ssl_as_postgres"; else echo "not ok pg_stat_ssl_as_postgres: eddy '$a', PostgreSQL '$b'"; fi
    out=$(psql_q "$CE user=bob sslcert=$C/alice.crt sslkey=$C/alice.key" "SELECT 1")
    if grep -q 'FATAL:  certificate authentication failed for user "bob"' <<<"$out"; then echo "ok cert_auth_other_user"; else
        echo "not ok cert_auth_other_user: $out"; fi
    out=$(psql_q "$CE user=alice sslcert=$WORK/none sslkey=$WORK/none" "SELECT 1")
    if grep -q 'FATAL:  connection requires a valid client certificate' <<<"$out"; then echo "ok cert_auth_no_certificate"; else
        echo "not ok cert_auth_no_certificate: $out"; fi
    out=$(psql_q "$CE user=alice sslcert=$C/mallory.crt sslkey=$C/mallory.key" "SELECT 1")
    if grep -qiE 'unknown ca|certificate verify failed|alert' <<<"$out"; then echo "ok cert_auth_unknown_issuer"; else
        echo "not ok cert_auth_unknown_issuer: $out"; fi
    out=$(psql_q "host=127.0.0.1 port=$EDDY_PORT dbname=eddy user=alice sslmode=disable" "SELECT 1")
    if grep -q 'no pg_hba.conf entry' <<<"$out"; then echo "ok cert_auth_needs_tls"; else echo "not ok cert_auth_needs_tls: $out"; fi
    eddy_stop "$EDDY_PID"
else
    echo "not ok cert_auth: eddy --auth cert did not start"
fi

# ------------------------------------------------------------ SCRAM with channel binding
printf 'alice:%s\n' "$(printf 'pw-alice\n' | "$EDDY_BIN" --hash-password)" >"$WORK/users"
if eddy_start --tls-cert "$C/server.crt" --tls-key "$C/server.key" --auth scram --users "$WORK/users"; then
    SE="host=localhost port=$EDDY_PORT dbname=eddy user=alice sslrootcert=$C/ca.crt sslmode=verify-full"
    out=$(PGPASSWORD=pw-alice psql_q "$SE channel_binding=require" "SELECT 'bound'")
    if [ "$out" = bound ]; then echo "ok scram_channel_binding"; else echo "not ok scram_channel_binding: $out"; fi
    out=$(PGPASSWORD=wrong psql_q "$SE channel_binding=require" "SELECT 1")
    if grep -q 'password authentication failed for user "alice"' <<<"$out"; then echo "ok scram_channel_binding_wrong_password"; else
        echo "not ok scram_channel_binding_wrong_password: $out"; fi
    out=$(PGPASSWORD=pw-alice psql_q "host=127.0.0.1 port=$EDDY_PORT dbname=eddy user=alice sslmode=disable" "SELECT 'clear'")
    if [ "$out" = clear ]; then echo "ok tls_mode_allow_takes_clear"; else echo "not ok tls_mode_allow_takes_clear: $out"; fi
    eddy_stop "$EDDY_PID"
else
    echo "not ok scram_channel_binding: eddy did not start"
fi

# ------------------------------------------------------------ refused configurations
chmod 644 "$C/server.key"
if "$EDDY_BIN" --listen 127.0.0.1:0 --tls-cert "$C/server.crt" --tls-key "$C/server.key" >"$WORK/perm.err" 2>&1; then
    echo "not ok tls_key_permissions: a world-readable key was accepted"
elif grep -q 'has group or world access' "$WORK/perm.err"; then echo "ok tls_key_permissions"; else
    echo "not ok tls_key_permissions: $(head -2 "$WORK/perm.err")"; fi
chmod 600 "$C/server.key"
if "$EDDY_BIN" --listen 127.0.0.1:0 --tls-cert "$C/server.crt" --tls-key "$C/alice.key" >"$WORK/mismatch.err" 2>&1; then
    echo "not ok tls_key_mismatch: accepted"
elif grep -q 'mismatch' "$WORK/mismatch.err"; then echo "ok tls_key_mismatch"; else
    echo "not ok tls_key_mismatch: $(head -2 "$WORK/mismatch.err")"; fi
if "$EDDY_BIN" --listen 127.0.0.1:0 --tls-mode require >"$WORK/nocert.err" 2>&1; then
    echo "not ok tls_require_needs_cert: accepted"
else echo "ok tls_require_needs_cert"; fi
exit 0
