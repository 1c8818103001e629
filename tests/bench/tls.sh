#!/usr/bin/env bash
# tls.sh: the TLS part of make bench (tests/bench/run.sh runs it; BENCH_TLS=0 skips it).
# A test CA and an ECDSA P-256 server certificate made here with the openssl CLI; an
# eddy with --tls-cert/--tls-key (other settings default) and a PostgreSQL 15 of its
# own with ssl=on and the same certificate (other settings as tests/lib/servers.sh).
# pgbench "SELECT 1;" in the simple protocol with sslmode=require (one handshake per
# client, then queries), and pgbench -C (a new TLS connection, startup and trust
# authentication for every transaction), whose TPS is handshakes per second.
#   BENCH_SECONDS BENCH_CLIENTS BENCH_THREADS as run.sh; BENCH_TLS_CONNECT_CLIENTS (default 4).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
export EDDY_BIN=${EDDY_BIN:-$PWD/$BUILD/eddy}
W=$(mktemp -d /tmp/eddy-bench-tls.XXXXXX)
: "${LOG_DIR:=$W}"
export LOG_DIR
source tests/lib/servers.sh
trap 'servers_stop_all; [ -n "${PG_OWNED:-}" ] && pg_stop; rm -rf "$W"' EXIT
unset PG_PORT PG_DATA PG_PID PG_DIR PG_OWNED EDDY_PORT EDDY_PID
T=${BENCH_SECONDS:-10} C=${BENCH_CLIENTS:-8} J=${BENCH_THREADS:-2} CC=${BENCH_TLS_CONNECT_CLIENTS:-4}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$W/ca.key" -out "$W/ca.crt" \
    -days 2 -subj "/CN=bench CA" 2>/dev/null &&
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$W/server.key" -out "$W/server.csr" \
    -subj "/CN=localhost" 2>/dev/null &&
openssl x509 -req -in "$W/server.csr" -CA "$W/ca.crt" -CAkey "$W/ca.key" -CAcreateserial -days 2 \
    -out "$W/server.crt" 2>/dev/null || { echo "bench tls: openssl failed"; exit 1; }
chmod 600 "$W/server.key"
[ "$(id -u)" -eq 0 ] && chown postgres: "$W/server.crt" "$W/server.key" && chmod 755 "$W"

eddy_start --tls-cert "$W/server.crt" --tls-key "$W/server.key" || { echo "bench tls: eddy did not start"; exit 1; }
pg_start -c ssl=on -c ssl_cert_file="$W/server.crt" -c ssl_key_file="$W/server.key" ||
    { echo "bench tls: PostgreSQL did not start"; exit 1; }

negotiated() {   # negotiated PORT: the protocol and cipher a default client gets
    /usr/bin/python3 - "$1" <<'PY'
import socket, ssl, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(struct.pack("!II", 8, 80877103)); s.recv(1)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
t = ctx.wrap_socket(s)
print("%s %s" % (t.version(), t.cipher()[0]))
PY
}

run_pgbench() {   # run_pgbench PORT EXTRA...: prints the TPS (0 on failure)
    local port=$1; shift
    local out tps
    out=$(PGSSLMODE=require pgbench -n -f tests/bench/select1.sql "$@" -T "$T" -M simple \
          -h 127.0.0.1 -p "$port" -U postgres eddy 2>&1)
    tps=$(sed -nE 's/^tps = ([0-9.]+) \((without initial connection time|including reconnection times)\)/\1/p' <<<"$out" | head -1)
    if [ -z "$tps" ]; then echo "bench tls: pgbench $* on port $port failed: $(tail -2 <<<"$out")" >&2; echo 0; else echo "$tps"; fi
}

echo "TLS: ECDSA P-256 certificate; eddy negotiates $(negotiated "$EDDY_PORT"), PostgreSQL $(negotiated "$PG_PORT")"
echo "pgbench -n -f select1.sql -M simple, PGSSLMODE=require, -T $T; eddy --tls-cert/--tls-key (defaults otherwise); PostgreSQL 15 ssl=on"
e1=$(run_pgbench "$EDDY_PORT" -c "$C" -j "$J"); p1=$(run_pgbench "$PG_PORT" -c "$C" -j "$J")
p2=$(run_pgbench "$PG_PORT" -C -c "$CC" -j "$J"); e2=$(run_pgbench "$EDDY_PORT" -C -c "$CC" -j "$J")
printf '\n%-28s %12s %12s %8s\n' "TLS" "eddy" "PG15" "eddy/PG"
row() { printf '%-28s %12.0f %12.0f %8s\n' "$1" "$2" "$3" "$(awk -v e="$2" -v p="$3" 'BEGIN { if (p > 0) printf "%.2f", e / p; else print "n/a" }')"; }
row "SELECT 1 TPS (-c $C)" "$e1" "$p1"
row "handshakes/s (-C -c $CC)" "$e2" "$p2"
