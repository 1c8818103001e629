"""test_tls.py: TLS as a client sees it, against an eddy started with
--tls-cert/--tls-key/--tls-ca --tls-mode require (tests/layers/tls.sh).

psycopg (libpq) in sslmode require, verify-ca and verify-full; a wrong host
name failing verify-full; a client in clear refused; direct TLS (ALPN
"postgresql", no SSLRequest); clear bytes behind an SSLRequest refused; and
handshakes cut, garbled and stalled at every byte of the client's flights,
after which the server still serves others and the stalled ones are closed
by the authentication timeout.

usage: test_tls.py PORT CERT_DIR AUTH_TIMEOUT_MS [PG_PORT]
  (PG_PORT: a PostgreSQL 15 with the same certificate and hostssl-only
   pg_hba, whose refusal of a client in clear is compared with eddy's)
"""
import resource
import select
import socket
import ssl
import struct
import sys
import time
import warnings

import psycopg

warnings.simplefilter("ignore", DeprecationWarning)   # TLS 1.1 is asked for on purpose

PORT = int(sys.argv[1])
CERTS = sys.argv[2]
AUTH_TIMEOUT = int(sys.argv[3]) / 1000.0
PG_PORT = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
CA = CERTS + "/ca.crt"

failures = 0


def report(name, ok, detail=""):
    global failures
    if ok:
        print("ok %s" % name)
    else:
        failures += 1
        print("not ok %s: %s" % (name, detail))


def conninfo(port, **kw):
    base = {"host": "127.0.0.1", "port": str(port), "user": "postgres", "dbname": "eddy",
            "connect_timeout": "10"}
    base.update(kw)
    return " ".join("%s=%s" % (k, v) for k, v in base.items())


def query_one(sql, port=PORT, **kw):
    with psycopg.connect(conninfo(port, **kw), autocommit=True) as c:
        return c.execute(sql).fetchone()[0]


def serving():
    """A fresh TLS client gets an answer."""
    try:
        return query_one("SELECT 40 + 2", sslmode="require") == 42
    except Exception as e:  # noqa: BLE001 - any failure means not serving
        print("  # not serving: %s" % e)
        return False


SSL_REQUEST = struct.pack("!II", 8, 80877103)
GSS_REQUEST = struct.pack("!II", 8, 80877104)


def startup_message(user="postgres"):
    body = struct.pack("!I", 196608) + b"user\0" + user.encode() + b"\0database\0eddy\0\0"
    return struct.pack("!I", len(body) + 4) + body


def read_messages_until(sock, types, limit=5.0):
    """Reads backend messages until one of `types` arrives; returns the list of (type, body)."""
    buf = b""
    out = []
    deadline = time.time() + limit
    while time.time() < deadline:
        while len(buf) >= 5:
            t = buf[0:1]
            n = struct.unpack("!I", buf[1:5])[0]
            if len(buf) < 1 + n:
                break
            out.append((t, buf[5:1 + n]))
            buf = buf[1 + n:]
            if t in types:
                return out
        try:
            chunk = sock.recv(65536)
        except (ssl.SSLError, OSError):
            return out
        if not chunk:
            return out
        buf += chunk
    return out


def client_context(alpn=("postgresql",)):
    ctx = ssl.create_default_context(cafile=CA)
    ctx.check_hostname = True
    if alpn is not None:
        ctx.set_alpn_protocols(list(alpn))
    return ctx


# ------------------------------------------------------------ libpq modes

def test_modes():
    for mode in ("require", "verify-ca", "verify-full"):
        try:
            v = query_one("SHOW ssl", host="localhost", sslmode=mode, sslrootcert=CA)
            report("psycopg_sslmode_%s" % mode, v == "on", "SHOW ssl = %r" % v)
        except Exception as e:  # noqa: BLE001
            report("psycopg_sslmode_%s" % mode, False, str(e))
    try:
        query_one("SELECT 1", host="wrong.example", hostaddr="127.0.0.1", sslmode="verify-full", sslrootcert=CA)
        report("verify_full_wrong_host", False, "connected")
    except psycopg.OperationalError as e:
        report("verify_full_wrong_host", "does not match host name" in str(e), str(e))
    # The server's certificate is not signed by the roots the client trusts.
    try:
        query_one("SELECT 1", host="localhost", sslmode="verify-ca", sslrootcert=CERTS + "/other_ca.crt")
        report("verify_ca_unknown_root", False, "connected")
    except psycopg.OperationalError as e:
        report("verify_ca_unknown_root", "certificate verify failed" in str(e), str(e))


def refusal(port):
    try:
        query_one("SELECT 1", port=port, sslmode="disable")
        return None
    except psycopg.OperationalError as e:
        return str(e).strip().splitlines()[-1]


def test_plain_refused():
    got = refusal(PORT)
    want = 'FATAL:  no pg_hba.conf entry for host "127.0.0.1", user "postgres", database "eddy", no encryption'
    if PG_PORT is not None:
        want = refusal(PG_PORT)
    report("plaintext_refused_under_require", got is not None and got.endswith(want or "?"),
           "eddy: %r, PostgreSQL: %r" % (got, want))
    # A cancel request in clear is still taken (PostgreSQL allows it without TLS).
    s = socket.create_connection(("127.0.0.1", PORT))
    s.sendall(struct.pack("!IIII", 16, 80877102, 1, 2))
    s.settimeout(5)
    report("cancel_request_in_clear", s.recv(10) == b"", "the server answered a CancelRequest")
    s.close()


def test_gss_and_extra_bytes():
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(5)
    s.sendall(GSS_REQUEST)
    report("gssenc_request_refused", s.recv(1) == b"N", "no 'N'")
    s.sendall(SSL_REQUEST)
    a = s.recv(1)
    ctx = client_context()
    t = ctx.wrap_socket(s, server_hostname="localhost")
    t.sendall(startup_message())
    msgs = read_messages_until(t, {b"Z", b"E"})
    report("gssenc_then_ssl", a == b"S" and msgs and msgs[-1][0] == b"Z", "answer %r, %r" % (a, msgs[-1:]))
    t.close()
    # Bytes in clear sent behind the SSLRequest, before 'S', could be injected into the session.
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(5)
    s.sendall(SSL_REQUEST + startup_message())
    data = b""
    while True:
        try:
            chunk = s.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    report("unencrypted_data_after_ssl_request",
           data.startswith(b"S") and b"received unencrypted data after SSL request" in data, repr(data[:120]))
    s.close()


def test_direct():
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(5)
    t = client_context().wrap_socket(s, server_hostname="localhost")
    t.sendall(startup_message())
    msgs = read_messages_until(t, {b"Z", b"E"})
    report("direct_tls_alpn", t.selected_alpn_protocol() == "postgresql" and msgs and msgs[-1][0] == b"Z",
           "alpn %r, %r" % (t.selected_alpn_protocol(), msgs[-1:]))
    t.close()
    # Without ALPN a direct connection might be another protocol: refused after the handshake.
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(5)
    try:
        t = client_context(alpn=None).wrap_socket(s, server_hostname="localhost")
        t.sendall(startup_message())
        msgs = read_messages_until(t, {b"Z", b"E"})
        report("direct_tls_without_alpn_refused", not msgs, repr(msgs))
        t.close()
    except (ssl.SSLError, OSError):
        report("direct_tls_without_alpn_refused", True)
    # Another protocol's ALPN fails the handshake.
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(5)
    try:
        t = client_context(alpn=("http/1.1",)).wrap_socket(s, server_hostname="localhost")
        report("direct_tls_other_alpn_refused", False, "handshake completed")
        t.close()
    except ssl.SSLError as e:
        report("direct_tls_other_alpn_refused", "no application protocol" in str(e).lower(), str(e))


def test_versions():
    for ver, name in ((ssl.TLSVersion.TLSv1_1, "tls_1_1_refused"), (ssl.TLSVersion.TLSv1_2, "tls_1_2_accepted")):
        ctx = client_context()
        ctx.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
        ctx.maximum_version = ver
        if ver == ssl.TLSVersion.TLSv1_1:
            ctx.set_ciphers("ALL:@SECLEVEL=0")
        s = socket.create_connection(("127.0.0.1", PORT))
        s.settimeout(5)
        s.sendall(SSL_REQUEST)
        s.recv(1)
        try:
            t = ctx.wrap_socket(s, server_hostname="localhost")
            ok = t.version() == "TLSv1.2" and ver == ssl.TLSVersion.TLSv1_2
            report(name, ok, "negotiated %s" % t.version())
            t.close()
        except ssl.SSLError as e:
            report(name, ver == ssl.TLSVersion.TLSv1_1, str(e))


# ------------------------------------------------------------ broken handshakes

def client_hello():
    """The first bytes a real client sends: its ClientHello."""
    ctx = client_context()
    inc, outg = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = ctx.wrap_bio(inc, outg, server_hostname="localhost")
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outg.read()


def live_second_flight(sock):
    """Runs a handshake over sock up to the client's last flight, which is returned unsent."""
    ctx = client_context()
    inc, outg = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = ctx.wrap_bio(inc, outg, server_hostname="localhost")
    sock.sendall(SSL_REQUEST)
    if sock.recv(1) != b"S":
        return None
    while True:
        try:
            obj.do_handshake()
            return outg.read()
        except ssl.SSLWantReadError:
            data = outg.read()
            if data:
                sock.sendall(data)
            chunk = sock.recv(65536)
            if not chunk:
                return None
            inc.write(chunk)


def open_many(payloads):
    socks = []
    for p in payloads:
        s = socket.create_connection(("127.0.0.1", PORT))
        s.sendall(SSL_REQUEST)
        if p:
            s.sendall(p)
        socks.append(s)
    return socks


def wait_all_closed(socks, limit):
    """True when the server closed every socket within `limit` seconds."""
    open_ = set(socks)
    deadline = time.time() + limit
    while open_ and time.time() < deadline:
        r, _, _ = select.select(list(open_), [], [], 0.2)
        for s in r:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                open_.discard(s)
    return len(open_)


def test_broken_handshakes():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    hello = client_hello()
    n = len(hello)
    # Stalled at every byte: each connection sends k bytes of the ClientHello and waits.
    socks = open_many([hello[:k] for k in range(n)])
    ok_serving = serving()
    left = wait_all_closed(socks, AUTH_TIMEOUT + 3.0)
    report("handshake_stalled_every_byte_serving", ok_serving, "not serving with %d stalled handshakes" % n)
    report("handshake_stalled_bounded_by_auth_timeout", left == 0,
           "%d of %d stalled handshakes still open after the timeout" % (left, n))
    for s in socks:
        s.close()
    # Cut at every byte: k bytes, then the client goes away.
    for s in open_many([hello[:k] for k in range(n)]):
        s.close()
    report("handshake_cut_every_byte", serving(), "not serving after %d cut handshakes" % n)
    # Garbled at every byte: the whole ClientHello with byte k inverted.
    garbled = [hello[:k] + bytes([hello[k] ^ 0xFF]) + hello[k + 1:] for k in range(n)]
    socks = open_many(garbled)
    ok_serving = serving()
    left = wait_all_closed(socks, AUTH_TIMEOUT + 3.0)
    for s in socks:
        s.close()
    report("handshake_garbled_every_byte", ok_serving and left == 0,
           "serving %s, %d garbled handshakes still open" % (ok_serving, left))
    # The client's second flight (after the server's answer), cut and garbled at every byte.
    bad = 0
    second_len = 0
    k = 0
    while True:
        s = socket.create_connection(("127.0.0.1", PORT))
        s.settimeout(10)
        flight = live_second_flight(s)
        if flight is None:
            bad += 1
            s.close()
            break
        second_len = len(flight)
        if k >= second_len:
            s.close()
            break
        s.sendall(flight[:k] + bytes([flight[k] ^ 0x55]))
        s.close()
        k += 1
    report("handshake_second_flight_every_byte", bad == 0 and second_len > 0 and serving(),
           "%d failed live handshakes, flight of %d bytes" % (bad, second_len))


def main():
    test_modes()
    test_plain_refused()
    test_gss_and_extra_bytes()
    test_direct()
    test_versions()
    test_broken_handshakes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
