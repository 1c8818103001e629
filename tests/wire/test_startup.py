#!/usr/bin/python3
"""test_startup.py: connection start-up as a raw client sees it (pgwire.md 1.2, 1.3, 1.5)."""
import struct

from pgw import (Conn, GSS_CODE, PROTO_30, case, connect, frame, gss_request, main,
                 shorts, ssl_request, startup, USER, DB, TARGET_IS_PG)


@case
def ssl_request_gets_N_then_startup_on_same_socket(t):
    with Conn() as c:
        c.send(ssl_request())
        t.eq(c.recv_bytes(1), b"N", "reply to SSLRequest without TLS")
        msgs = c.login()
        t.eq(msgs[-1].short(), "Z:I", "login after 'N' ends with ReadyForQuery")


@case
def gssenc_request_gets_N(t):
    with Conn() as c:
        c.send(gss_request())
        # PostgreSQL built with GSSAPI says 'G' on TCP; eddy has no GSSAPI.
        if TARGET_IS_PG:
            return
        t.eq(c.recv_bytes(1), b"N", "reply to GSSENCRequest")
        c.send(ssl_request())
        t.eq(c.recv_bytes(1), b"N", "then SSLRequest on the same socket")
        msgs = c.login()
        t.eq(msgs[-1].short(), "Z:I", "login after both refusals")


@case
def startup_sequence(t):
    with Conn() as c:
        msgs = c.login()
        kinds = [m.t for m in msgs]
        t.eq(kinds[0], "R", "first message is Authentication")
        t.eq(msgs[0].body, struct.pack("!i", 0), "AuthenticationOk under trust")
        t.eq(kinds[-1], "Z", "last message is ReadyForQuery")
        t.eq(msgs[-1].text(), "I", "status idle")
        t.eq(kinds.count("K"), 1, "exactly one BackendKeyData")
        t.ok(kinds.index("K") > max(i for i, k in enumerate(kinds) if k == "S"),
             "BackendKeyData after the ParameterStatus messages")
        k = [m for m in msgs if m.t == "K"][0]
        t.eq(len(k.body), 8, "BackendKeyData is pid + key")


@case
def parameter_status_set(t):
    with connect() as c:
        p = c.params
    for name in ("server_version", "server_encoding", "client_encoding", "DateStyle",
                 "integer_datetimes", "standard_conforming_strings", "TimeZone", "IntervalStyle",
                 "application_name", "is_superuser", "session_authorization"):
        t.ok(name in p, "ParameterStatus %s sent" % name)
    t.ok(p.get("server_version", "").startswith("15"), "server_version starts with 15: %r"
         % p.get("server_version"))
    t.eq(p.get("server_encoding"), "UTF8", "server_encoding")
    t.eq(p.get("client_encoding"), "UTF8", "client_encoding")
    t.eq(p.get("DateStyle"), "ISO, MDY", "DateStyle")
    t.eq(p.get("integer_datetimes"), "on", "integer_datetimes")
    t.eq(p.get("standard_conforming_strings"), "on", "standard_conforming_strings")
    t.eq(p.get("IntervalStyle"), "postgres", "IntervalStyle")
    t.eq(p.get("session_authorization"), USER, "session_authorization is the user")


@case
def startup_options_are_echoed(t):
    with connect(params={"user": USER, "database": DB, "application_name": "wiretest",
                         "DateStyle": "ISO, DMY"}) as c:
        t.eq(c.params.get("application_name"), "wiretest", "application_name echoed")
        t.eq(c.params.get("DateStyle"), "ISO, DMY", "DateStyle from startup applied")
        msgs = c.q("SHOW application_name")
        t.eq(shorts(msgs), ["T:application_name/25/0", "D:wiretest", "C:SHOW", "Z:I"],
             "SHOW application_name")


@case
def unsupported_protocol_version(t):
    # Versions below 3 get their error in the old protocol's format from
    # PostgreSQL; above 3 it is a v3 ErrorResponse.
    for major in (4, 0x1234):
        with Conn() as c:
            c.send(startup(version=(major << 16) | 0))
            m = c.recv()
            t.eq(m.t, "E", "ErrorResponse for protocol %d.0" % major)
            t.eq(m.fields().get("S"), "FATAL", "severity")
            t.eq(m.sqlstate(), "0A000", "SQLSTATE")
            t.ok(c.closed_soon(), "connection closed after FATAL")
    t.served()


@case
def newer_minor_version_negotiated(t):
    with Conn() as c:
        msgs = c.login(version=(3 << 16) | 5)
        v = [m for m in msgs if m.t == "v"]
        t.eq(len(v), 1, "one NegotiateProtocolVersion for 3.5")
        if v:
            minor, n = struct.unpack_from("!ii", v[0].body, 0)
            # PostgreSQL sends its whole newest version word (3.0), as libpq expects.
            t.eq(minor, PROTO_30, "server's newest version")
            t.eq(n, 0, "no unrecognised options")
        t.eq(msgs[-1].short(), "Z:I", "login continues")


@case
def unknown_protocol_option_negotiated(t):
    with Conn() as c:
        msgs = c.login({"user": USER, "database": DB, "_pq_.frobnicate": "1"})
        v = [m for m in msgs if m.t == "v"]
        t.eq(len(v), 1, "one NegotiateProtocolVersion for _pq_.frobnicate")
        if v:
            minor, n = struct.unpack_from("!ii", v[0].body, 0)
            t.eq(minor, PROTO_30, "server's newest version")
            t.eq(n, 1, "one unrecognised option")
            t.eq(v[0].body[8:], b"_pq_.frobnicate\0", "its name")
        t.eq(msgs[-1].short(), "Z:I", "login continues")


@case
def missing_user(t):
    with Conn() as c:
        c.send(startup({"database": DB}))
        m = c.recv()
        t.eq(m.t, "E", "ErrorResponse")
        t.eq(m.fields().get("S"), "FATAL", "severity")
        t.eq(m.sqlstate(), "28000", "SQLSTATE")
        t.ok(c.closed_soon(), "closed")
    with Conn() as c:
        c.send(startup({"user": "", "database": DB}))
        m = c.recv()
        t.eq(m.sqlstate(), "28000", "empty user refused too")
    t.served()


@case
def startup_layout_without_terminator(t):
    body = struct.pack("!i", PROTO_30) + b"user\0" + USER.encode() + b"\0"   # no final NUL
    with Conn() as c:
        c.send(struct.pack("!i", len(body) + 4) + body)
        m = c.recv()
        t.eq(m.t, "E", "ErrorResponse for a startup packet without its final NUL")
        t.eq(m.fields().get("S"), "FATAL", "severity")
        t.eq(m.sqlstate(), "08P01", "SQLSTATE")
    t.served()


@case
def startup_too_short_or_too_long_is_dropped(t):
    for what, pkt in (("length 4", struct.pack("!i", 4)),
                      ("length 7", struct.pack("!i", 7) + b"abc"),
                      ("length 10001+4", struct.pack("!ii", 10005, PROTO_30) + b"x" * 10001),
                      ("negative length", struct.pack("!i", -8) + b"\0" * 4),
                      ("length 2^31-1", struct.pack("!i", 0x7fffffff) + b"\0" * 100)):
        with Conn() as c:
            try:
                c.send(pkt)
            except OSError:
                pass
            t.ok(c.closed_soon(), "%s: connection dropped" % what)
            t.eq(c.buf, b"", "%s: nothing sent back" % what)
    t.served()


@case
def garbage_before_startup(t):
    with Conn() as c:
        c.send(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        t.ok(c.closed_soon(), "HTTP request dropped")
    with Conn() as c:
        c.send(bytes(range(256)) * 4)
        t.ok(c.closed_soon(), "binary garbage dropped")
    t.served()


@case
def truncated_startup_then_close(t):
    full = startup()
    for cut in (1, 3, 4, 7, len(full) - 1):
        c = Conn()
        c.send(full[:cut])
        c.close()
    t.served()


@case
def unknown_message_before_startup_completes_in_session(t):
    with connect() as c:
        c.send(frame("@", b"xyz"))
        m = c.recv()
        t.eq(m.t, "E", "ErrorResponse for message type '@'")
        t.eq(m.fields().get("S"), "FATAL", "severity")
        t.eq(m.sqlstate(), "08P01", "SQLSTATE")
        t.ok(c.closed_soon(), "closed")
    t.served()


@case
def terminate_closes(t):
    with connect() as c:
        c.send(frame("X"))
        t.ok(c.closed_soon(), "Terminate closes the connection")
        t.eq(c.buf, b"", "and sends nothing")


@case
def startup_matches_postgres(t):
    def seq(port):
        with Conn(port) as c:
            return [m.t for m in c.login() if m.t not in "S"]
    t.same_as_ref(seq, "message kinds of a trust login")

    def bad_version(port):
        with Conn(port) as c:
            c.send(startup(version=(7 << 16) | 0))
            m = c.recv()
            return m.t, m.fields().get("S"), m.sqlstate()
    t.same_as_ref(bad_version, "protocol 7.0 refusal")

    def negotiate(port):
        with Conn(port) as c:
            msgs = c.login({"user": USER, "database": DB, "_pq_.a": "1", "_pq_.b": "2"},
                           version=(3 << 16) | 9)
            return [m.body for m in msgs if m.t == "v"], msgs[-1].short()
    t.same_as_ref(negotiate, "NegotiateProtocolVersion for 3.9 with two options")


if __name__ == "__main__":
    raise SystemExit(main())
