#!/usr/bin/python3
"""test_auth.py: password authentication (pgwire.md 1.4) against a server started with
cleartext-password or SCRAM-SHA-256 authentication.

  AUTH_PORT      the server (eddy --auth password|scram --users FILE, or a PostgreSQL
                 whose pg_hba.conf asks for password / scram-sha-256)
  AUTH_METHOD    password | scram
  AUTH_USER, AUTH_PASSWORD   a user the server knows, and its password
The SCRAM client here is written from RFC 5802/7677."""
import base64
import hashlib
import hmac
import os
import struct

import pgw
from pgw import Conn, PasswordMessage, case, frame, main, rows, startup

PORT = int(os.environ.get("AUTH_PORT") or 0)
METHOD = os.environ.get("AUTH_METHOD", "scram")
USER = os.environ.get("AUTH_USER", "alice")
PASSWORD = os.environ.get("AUTH_PASSWORD", "s3cret pw")
pgw.TARGET_PORT = PORT


def auth_code(m):
    return struct.unpack_from("!i", m.body, 0)[0]


def login(user, password, method=None, tamper=None):
    """Logs in; returns (messages, scram-info). tamper: a function to break the client-final."""
    method = method or METHOD
    c = Conn(PORT)
    msgs = []
    info = {}
    try:
        c.send(startup({"user": user, "database": "eddy"}))
        m = c.recv()
        msgs.append(m)
        if m.t != "R":
            return msgs, info, c
        code = auth_code(m)
        info["code"] = code
        if code == 3:
            c.send(PasswordMessage(password))
        elif code == 10:
            mechs = [x.decode() for x in m.body[4:].split(b"\0") if x]
            info["mechs"] = mechs
            nonce = base64.b64encode(os.urandom(18)).decode()
            first_bare = "n=,r=" + nonce
            first = "n,," + first_bare
            c.send(frame("p", b"SCRAM-SHA-256\0" + struct.pack("!i", len(first)) + first.encode()))
            m = c.recv()
            msgs.append(m)
            if m.t != "R" or auth_code(m) != 11:
                return msgs, info, c
            server_first = m.body[4:].decode()
            attrs = dict(kv.split("=", 1) for kv in server_first.split(","))
            info["server_first"] = attrs
            if not attrs["r"].startswith(nonce):
                info["bad_nonce"] = True
            salt = base64.b64decode(attrs["s"])
            iters = int(attrs["i"])
            salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iters)
            client_key = hmac.new(salted, b"Client Key", "sha256").digest()
            stored_key = hashlib.sha256(client_key).digest()
            final_wo_proof = "c=biws,r=" + attrs["r"]
            auth_msg = ",".join((first_bare, server_first, final_wo_proof)).encode()
            sig = hmac.new(stored_key, auth_msg, "sha256").digest()
            proof = bytes(a ^ b for a, b in zip(client_key, sig))
            final = final_wo_proof + ",p=" + base64.b64encode(proof).decode()
            if tamper:
                final = tamper(final)
            c.send(frame("p", final.encode()))
            m = c.recv()
            msgs.append(m)
            if m.t == "R" and auth_code(m) == 12:
                server_key = hmac.new(salted, b"Server Key", "sha256").digest()
                want = base64.b64encode(hmac.new(server_key, auth_msg, "sha256").digest()).decode()
                info["server_signature_ok"] = m.body[4:].decode() == "v=" + want
            elif m.t == "E":
                return msgs, info, c
        msgs += c.until("ZE")
    except pgw.Closed:
        info["closed"] = True
    return msgs, info, c


@case
def right_password_logs_in(t):
    msgs, info, c = login(USER, PASSWORD)
    with c:
        t.eq(info.get("code"), 3 if METHOD == "password" else 10, "authentication request")
        t.eq(msgs[-1].short() if msgs else None, "Z:I", "logged in")
        if METHOD == "scram":
            t.eq(info.get("mechs"), ["SCRAM-SHA-256"], "mechanisms offered without TLS")
            t.ok(info.get("server_signature_ok"), "server proved it knows the password")
            sf = info.get("server_first", {})
            t.ok(int(sf.get("i", 0)) >= 4096, "iterations >= 4096")
            t.eq(len(base64.b64decode(sf.get("s", ""))) >= 16, True, "salt of 16+ bytes")
        ok = [m for m in msgs if m.t == "R" and auth_code(m) == 0]
        t.eq(len(ok), 1, "one AuthenticationOk")
        if msgs and msgs[-1].t == "Z":
            t.eq(rows(c.q("SELECT 1")), [[b"1"]], "query after login")
            t.eq(c.params.get("session_authorization"), USER, "session_authorization")


def failure(t, msgs, c, what):
    e = [m for m in msgs if m.t == "E"]
    t.eq(len(e), 1, "%s: one ErrorResponse" % what)
    if e:
        f = e[0].fields()
        t.eq(f.get("S"), "FATAL", "%s: severity" % what)
        t.eq(f.get("C"), "28P01", "%s: SQLSTATE" % what)
        t.ok(c.closed_soon(), "%s: connection closed" % what)
        return f.get("M")
    return None


@case
def wrong_password_is_refused(t):
    msgs, info, c = login(USER, PASSWORD + "x")
    with c:
        m = failure(t, msgs, c, "wrong password")
        t.eq(m, 'password authentication failed for user "%s"' % USER, "message")


@case
def unknown_user_gets_the_same_answer(t):
    m1 = m2 = None
    msgs, info1, c = login(USER, "nope")
    with c:
        m1 = failure(t, msgs, c, "wrong password")
    msgs, info2, c = login("nosuchuser", "nope")
    with c:
        m2 = failure(t, msgs, c, "unknown user")
    t.eq(info2.get("code"), info1.get("code"), "same authentication request for an unknown user")
    t.eq(m2, 'password authentication failed for user "nosuchuser"', "same message text")
    t.eq(m1 and m1.replace(USER, "U"), m2 and m2.replace("nosuchuser", "U"), "same text")


@case
def tampered_proof_is_refused(t):
    if METHOD != "scram":
        msgs, info, c = login(USER, "")
        with c:
            e = [m for m in msgs if m.t == "E"]
            t.eq(len(e), 1, "empty password refused")
        return
    def flip(final):
        head, proof = final.rsplit("p=", 1)
        raw = bytearray(base64.b64decode(proof))
        raw[0] ^= 1
        return head + "p=" + base64.b64encode(bytes(raw)).decode()
    msgs, info, c = login(USER, PASSWORD, tamper=flip)
    with c:
        failure(t, msgs, c, "proof with one bit flipped")
    msgs, info, c = login(USER, PASSWORD, tamper=lambda f: f.replace("r=", "r=X", 1))
    with c:
        e = [m for m in msgs if m.t == "E"]
        t.eq(len(e), 1, "wrong nonce refused")
        t.ok(c.closed_soon(), "closed")


@case
def client_closing_at_password_prompt_is_harmless(t):
    for _ in range(5):
        c = Conn(PORT)
        c.send(startup({"user": USER, "database": "eddy"}))
        c.recv()
        c.close()
    msgs, info, c = login(USER, PASSWORD)
    with c:
        t.eq(msgs[-1].short() if msgs else None, "Z:I", "login still works")


if __name__ == "__main__":
    raise SystemExit(main())
