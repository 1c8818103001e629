"""pgw.py: a small PostgreSQL v3 wire library for eddy's wire-level tests.

It frames and parses messages over a raw socket, so a test can send exactly
the bytes it wants (including broken ones) and see exactly what comes back.
It also holds the tiny test runner every tests/wire/test_*.py uses: one
"ok NAME" / "not ok NAME" line per case, diagnostics indented by two spaces.

Where the servers are (environment):
  TARGET_PORT  the server under test (default $EDDY_PORT)
  REF_PORT     a PostgreSQL 15 to compare with (default $PG_PORT)
  PGW_USER / PGW_DB   startup user and database (default postgres / eddy; the
               harness's PostgreSQL has a database named eddy for this)
To validate the tests themselves, point TARGET_PORT at PostgreSQL.
"""
import os
import select
import socket
import struct
import sys
import time
import traceback

HOST = "127.0.0.1"
TARGET_PORT = int(os.environ.get("TARGET_PORT") or os.environ.get("EDDY_PORT") or 0)
REF_PORT = int(os.environ.get("REF_PORT") or os.environ.get("PG_PORT") or 0)
USER = os.environ.get("PGW_USER", "postgres")
DB = os.environ.get("PGW_DB", "eddy")
# Set when the tests themselves are being validated against PostgreSQL: the few
# cases where eddy deliberately differs (no GSSAPI, say) then expect PostgreSQL.
TARGET_IS_PG = bool(os.environ.get("TARGET_IS_PG")) or (TARGET_PORT and TARGET_PORT == REF_PORT)

PROTO_30 = 196608
SSL_CODE = 80877103
GSS_CODE = 80877104
CANCEL_CODE = 80877102


class Timeout(Exception):
    pass


class Closed(Exception):
    pass


# ------------------------------------------------------------------ framing

def cstr(s):
    if isinstance(s, str):
        s = s.encode()
    return s + b"\0"


def frame(t, body=b""):
    """A typed message: type byte, length counting itself, body."""
    return t.encode() + struct.pack("!i", len(body) + 4) + body


def startup(params=None, version=PROTO_30):
    """A StartupMessage (untyped): length, protocol version, name/value pairs, NUL."""
    if params is None:
        params = {"user": USER, "database": DB}
    body = struct.pack("!i", version)
    for k, v in params.items():
        body += cstr(k) + cstr(v)
    body += b"\0"
    return struct.pack("!i", len(body) + 4) + body


def ssl_request():
    return struct.pack("!ii", 8, SSL_CODE)


def gss_request():
    return struct.pack("!ii", 8, GSS_CODE)


def cancel_request(pid, key):
    return struct.pack("!iiii", 16, CANCEL_CODE, pid, key)


def Query(sql):
    return frame("Q", cstr(sql))


def Parse(sql, name="", oids=()):
    return frame("P", cstr(name) + cstr(sql) + struct.pack("!h", len(oids)) +
                 b"".join(struct.pack("!I", o) for o in oids))


def Bind(stmt="", portal="", values=(), pfmts=(), rfmts=()):
    body = cstr(portal) + cstr(stmt)
    body += struct.pack("!h", len(pfmts)) + b"".join(struct.pack("!h", f) for f in pfmts)
    body += struct.pack("!h", len(values))
    for v in values:
        if v is None:
            body += struct.pack("!i", -1)
        else:
            if isinstance(v, str):
                v = v.encode()
            body += struct.pack("!i", len(v)) + v
    body += struct.pack("!h", len(rfmts)) + b"".join(struct.pack("!h", f) for f in rfmts)
    return frame("B", body)


def Describe(kind, name=""):
    return frame("D", kind.encode() + cstr(name))


def Execute(portal="", max_rows=0):
    return frame("E", cstr(portal) + struct.pack("!i", max_rows))


def Close(kind, name=""):
    return frame("C", kind.encode() + cstr(name))


def Sync():
    return frame("S")


def Flush():
    return frame("H")


def Terminate():
    return frame("X")


def PasswordMessage(pw):
    return frame("p", cstr(pw))


# ------------------------------------------------------------------ messages

class Msg:
    """One backend message: t is the type character, body the raw bytes after the length."""

    def __init__(self, t, body):
        self.t = t
        self.body = body

    def __repr__(self):
        return "Msg(%r, %r)" % (self.t, self.body[:60])

    # Decoders for the message types tests look into.
    def fields(self):
        """ErrorResponse / NoticeResponse: {code char: value}."""
        out, i, b = {}, 0, self.body
        while i < len(b) and b[i] != 0:
            code = chr(b[i])
            j = b.index(b"\0", i + 1)
            out[code] = b[i + 1:j].decode("utf-8", "replace")
            i = j + 1
        return out

    def sqlstate(self):
        return self.fields().get("C")

    def param(self):
        """ParameterStatus: (name, value)."""
        parts = self.body.split(b"\0")
        return parts[0].decode(), parts[1].decode()

    def columns(self):
        """RowDescription: list of (name, table oid, attnum, type oid, typlen, typmod, format)."""
        b = self.body
        n = struct.unpack_from("!h", b, 0)[0]
        i, out = 2, []
        for _ in range(n):
            j = b.index(b"\0", i)
            name = b[i:j].decode()
            tab, att, oid, tlen, tmod, fmt = struct.unpack_from("!IhIhih", b, j + 1)
            out.append((name, tab, att, oid, tlen, tmod, fmt))
            i = j + 1 + 18
        return out

    def row(self):
        """DataRow: list of bytes (None for NULL)."""
        b = self.body
        n = struct.unpack_from("!h", b, 0)[0]
        i, out = 2, []
        for _ in range(n):
            ln = struct.unpack_from("!i", b, i)[0]
            i += 4
            if ln < 0:
                out.append(None)
            else:
                out.append(b[i:i + ln])
                i += ln
        return out

    def text(self):
        """CommandComplete tag, ReadyForQuery status, or a C string body."""
        return self.body.rstrip(b"\0").decode("utf-8", "replace")

    def param_types(self):
        """ParameterDescription: list of type OIDs."""
        n = struct.unpack_from("!h", self.body, 0)[0]
        return list(struct.unpack_from("!%dI" % n, self.body, 2))

    def short(self):
        """A compact string for comparing message sequences between servers."""
        t = self.t
        if t in "EN":
            f = self.fields()
            return "%s:%s:%s" % (t, f.get("V", f.get("S")), f.get("C"))
        if t == "C":
            return "C:" + self.text()
        if t == "Z":
            return "Z:" + self.text()
        if t == "T":
            return "T:" + ",".join("%s/%d/%d" % (c[0], c[3], c[6]) for c in self.columns())
        if t == "D":
            return "D:" + ",".join(_show(v) for v in self.row())
        if t == "t":
            return "t:" + ",".join(str(o) for o in self.param_types())
        return t


def _show(v):
    """A value for comparisons: text as is, binary as hex; long ones as a digest with
    their length, so that a mismatch report stays readable."""
    if v is None:
        return "NULL"
    s = v.hex() if _binary(v) else v.decode()
    if len(s) > 64:
        import hashlib
        return "%s...(%d bytes, sha1 %s)" % (s[:16], len(v), hashlib.sha1(v).hexdigest()[:12])
    return s


def _binary(v):
    try:
        s = v.decode()
    except UnicodeDecodeError:
        return True
    return any(ord(c) < 32 for c in s)


# ------------------------------------------------------------------ connection

class Conn:
    """A raw client connection with an input buffer that yields whole messages."""

    def __init__(self, port=None, host=HOST, timeout=5.0, source=None):
        """source: the local address to connect from (another loopback address, say)."""
        self.port = port or TARGET_PORT
        self.sock = socket.create_connection((host, self.port), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.timeout = timeout
        self.buf = b""
        self.params = {}
        self.pid = self.key = None
        self.eof = False

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Timeout("no reply within %.1f s" % self.timeout)
        r, _, _ = select.select([self.sock], [], [], left)
        if not r:
            raise Timeout("no reply within %.1f s (have %d bytes)" % (self.timeout, len(self.buf)))
        try:
            data = self.sock.recv(65536)
        except (ConnectionResetError, ConnectionAbortedError):
            data = b""
        if not data:
            self.eof = True
            raise Closed("server closed the connection")
        self.buf += data

    def recv_bytes(self, n, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while len(self.buf) < n:
            self._fill(deadline)
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self, timeout=None):
        """The next whole message; raises Closed on EOF, Timeout when nothing comes."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while len(self.buf) < 5:
            self._fill(deadline)
        t = chr(self.buf[0])
        ln = struct.unpack_from("!i", self.buf, 1)[0]
        if ln < 4:
            raise AssertionError("server sent message %r with length %d" % (t, ln))
        while len(self.buf) < 1 + ln:
            self._fill(deadline)
        body, self.buf = self.buf[5:1 + ln], self.buf[1 + ln:]
        m = Msg(t, body)
        if t == "S":
            k, v = m.param()
            self.params[k] = v
        elif t == "K":
            self.pid, self.key = struct.unpack("!ii", body)
        return m

    def until(self, types="Z", timeout=None):
        """Messages up to and including the first one whose type is in `types`."""
        out = []
        while True:
            m = self.recv(timeout)
            out.append(m)
            if m.t in types:
                return out

    def until_rfq(self, n=1, timeout=None):
        """Messages up to and including the n-th ReadyForQuery."""
        out = []
        for _ in range(n):
            out += self.until("Z", timeout)
        return out

    def closed_soon(self, timeout=3.0):
        """True if the server closes the connection within `timeout` (reading whatever comes)."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                self._fill(deadline)
        except Closed:
            return True
        except Timeout:
            return False
        except OSError:
            return True

    def login(self, params=None, version=PROTO_30):
        """Sends a StartupMessage and reads up to ReadyForQuery (or an error)."""
        self.send(startup(params, version))
        return self.until("ZE")

    def q(self, sql, timeout=None):
        """Simple query: the messages up to ReadyForQuery."""
        self.send(Query(sql))
        return self.until_rfq(1, timeout)


def connect(port=None, params=None, timeout=5.0):
    """A logged-in connection (trust auth); raises if the login did not reach ReadyForQuery."""
    c = Conn(port, timeout=timeout)
    msgs = c.login(params)
    if msgs[-1].t != "Z":
        c.close()
        raise AssertionError("login failed: %s" % ", ".join(m.short() for m in msgs))
    return c


def shorts(msgs, skip="SKN"):
    """Compact forms of messages, leaving out the asynchronous kinds in `skip`."""
    return [m.short() for m in msgs if m.t not in skip]


def rows(msgs):
    return [m.row() for m in msgs if m.t == "D"]


def errors(msgs):
    return [m for m in msgs if m.t == "E"]


def script_runner(steps):
    """A function of a port that runs steps (SQL strings, or tuples of messages for the
    extended protocol) on a fresh connection and returns what came back, errors in full."""
    def run(port):
        out = []
        with connect(port) as c:
            for s in steps:
                msgs = (Query(s),) if isinstance(s, str) else s
                c.send(b"".join(msgs))
                n = sum(1 for m in msgs if m == Sync() or m[:1] == b"Q")
                got = []
                for m in c.until_rfq(n):
                    if m.t in "EN":
                        f = m.fields()
                        got.append("%s:%s:%s|%s|%s|%s" % (m.t, f.get("C"), f.get("M"), f.get("D"),
                                                          f.get("H"), f.get("P")))
                    elif m.t not in "SK":
                        got.append(m.short())
                out.append((s if isinstance(s, str) else "extended", got))
        return out
    return run


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


# ------------------------------------------------------------------ runner

class Check:
    """What a test case gets: assertions that record failures and keep going."""

    def __init__(self, name):
        self.name = name
        self.failures = []

    def ok(self, cond, what):
        if not cond:
            self.failures.append(what)
        return cond

    def eq(self, got, want, what):
        if got != want:
            self.failures.append("%s: got %r, want %r" % (what, got, want))
            return False
        return True

    def served(self, port=None, what="another client is still served"):
        """A fresh client can log in and run SELECT 1."""
        try:
            with connect(port) as c:
                got = rows(c.q("SELECT 1"))
            return self.eq(got, [[b"1"]], what)
        except Exception as e:  # noqa: BLE001 - any failure here is the finding
            self.failures.append("%s: %s: %s" % (what, type(e).__name__, e))
            return False

    def same_as_ref(self, fn, what, norm=None):
        """Runs fn(port) against the target and the reference PostgreSQL; results must match."""
        if not REF_PORT:
            self.failures.append("%s: no reference PostgreSQL (REF_PORT/PG_PORT unset)" % what)
            return None
        got = fn(TARGET_PORT)
        want = fn(REF_PORT)
        if norm:
            got, want = norm(got), norm(want)
        self.eq(got, want, what + " (target vs PostgreSQL)")
        return got


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def main():
    only = sys.argv[1:]
    if not TARGET_PORT:
        for fn in CASES:
            print("not ok %s" % fn.__name__)
        print("  no server to test: TARGET_PORT / EDDY_PORT unset")
        return 1
    failed = 0
    for fn in CASES:
        if only and fn.__name__ not in only:
            continue
        c = Check(fn.__name__)
        t0 = time.monotonic()
        try:
            fn(c)
        except Exception as e:  # noqa: BLE001 - a crashing case is a failing case
            c.failures.append("%s: %s" % (type(e).__name__, e))
            tb = traceback.extract_tb(sys.exc_info()[2])
            if tb:
                c.failures.append("at %s:%d" % (os.path.basename(tb[-1].filename), tb[-1].lineno))
        dt = time.monotonic() - t0
        if c.failures:
            failed += 1
            print("not ok %s" % fn.__name__)
            for f in c.failures:
                print("  " + f.replace("\n", "\n  "))
        else:
            print("ok %s (%.2f s)" % (fn.__name__, dt))
        sys.stdout.flush()
    return 1 if failed else 0
