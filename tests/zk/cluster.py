#!/usr/bin/python3
"""cluster.py: the zk_cluster layer: eddy with its catalog in a real ZooKeeper.

Run by tests/layers/zk_cluster.sh, which starts a standalone ZooKeeper
(ZK_ADDR, ZK_PID, ZK_DIR) and a 3-node ensemble (ZK_ENS_ADDR, ZK_ENS_PIDS,
ZK_ENS_DIR) from Debian's package. Each test starts its own eddy processes on
free loopback ports, in a chroot of its own, and stops them. The catalog in
ZooKeeper is checked with build/tools/zk_catalog_check (contiguous log indexes,
replay equals the objects snapshot) and each acknowledged statement is looked
up in the log. Prints one "ok NAME" / "not ok NAME: why" line per test.
"""
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import psycopg
from psycopg import pq

BUILD = os.environ.get("BUILD", "build")
EDDY = os.environ["EDDY_BIN"]
ZK_ADDR = os.environ["ZK_ADDR"]
ZK_PID = int(os.environ["ZK_PID"])
ZK_DIR = os.environ["ZK_DIR"]
ZK_JAR = os.environ.get("ZK_JAR", "/usr/share/java/zookeeper.jar")
ENS_ADDR = os.environ.get("ZK_ENS_ADDR", "")
ENS_PIDS = [int(p) for p in os.environ.get("ZK_ENS_PIDS", "").split(",") if p]
ENS_DIR = os.environ.get("ZK_ENS_DIR", "")
CHECK = os.path.join(BUILD, "tools", "zk_catalog_check")
LOG_DIR = os.environ.get("LOG_DIR", "/tmp")
ONLY = os.environ.get("ZK_CLUSTER_ONLY", "")
RUN = "zc%d" % os.getpid()

failures = 0
children = []   # processes this script started and must stop


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_port(port, seconds):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


def four(port, word):
    try:
        s = socket.create_connection(("127.0.0.1", port), 1)
        s.sendall(word.encode())
        out = b""
        s.settimeout(2)
        while True:
            b = s.recv(4096)
            if not b:
                break
            out += b
        s.close()
        return out.decode(errors="replace")
    except OSError:
        return ""


class Eddy:
    """One eddy process on a free port with its catalog at zk/chroot."""

    seq = 0

    def __init__(self, zk, chroot, *args):
        self.zk, self.chroot, self.args = zk, chroot, list(args)
        # Processes on one catalog are independent replicas unless a test puts
        # them in one cluster (then one owns it and the others stand by).
        if "--cluster" not in self.args:
            Eddy.seq += 1
            self.args += ["--cluster", "r%d" % Eddy.seq]
        self.proc = None
        self.start()

    def start(self, wait=True):
        self.port = free_port()
        self.log = open(os.path.join(LOG_DIR, "eddy-zk-%s.log" % self.chroot.strip("/").replace("/", "-")), "ab")
        self.t0 = time.time()
        self.proc = subprocess.Popen([EDDY, "--listen", "127.0.0.1:%d" % self.port, "--io-threads", "2",
                                      "--zookeeper", self.zk + self.chroot] + self.args,
                                     stdout=self.log, stderr=self.log)
        children.append(self.proc)
        if wait and not wait_port(self.port, 20):
            raise AssertionError("eddy did not start on %s%s" % (self.zk, self.chroot))

    def conn(self):
        return psycopg.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="eddy",
                               autocommit=True, connect_timeout=10)

    def kill(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def sql(e, q):
    with e.conn() as c:
        cur = c.execute(q)
        return cur.fetchall() if cur.description else None


def names(e, kind="TABLES"):
    return {r[0] for r in sql(e, "SHOW %s" % kind)}


def check_catalog(zk, chroot):
    """Runs the checker; returns the log entries as (index, tag, sql) and raises on a broken catalog."""
    out = subprocess.run([CHECK, zk + chroot], capture_output=True, text=True, timeout=60)
    entries = []
    for line in out.stdout.splitlines():
        m = re.match(r"entry (\d+) (\S+(?: \S+)*?) ((?:CREATE|DROP|ALTER) .*)$", line)
        if m:
            entries.append((int(m.group(1)), m.group(2), m.group(3)))
    if out.returncode != 0:
        raise AssertionError("catalog check failed: %s" % (out.stdout.strip().splitlines() or [out.stderr])[-1])
    return entries


def count_in_log(entries, pattern):
    rx = re.compile(pattern, re.I)
    return sum(1 for e in entries if rx.search(e[2]))


def test(name):
    def wrap(fn):
        def run():
            global failures
            if ONLY and not re.search(ONLY, name):
                return
            t0 = time.time()
            try:
                note = fn()
                print("ok %s%s (%.1f s)" % (name, (": " + note) if note else "", time.time() - t0), flush=True)
            except Exception as ex:  # a failed assertion or anything unexpected fails the test
                failures += 1
                print("not ok %s: %s" % (name, ex), flush=True)
        run.__name__ = fn.__name__
        TESTS.append(run)
        return run
    return wrap


TESTS = []


def storm(e, sessions, seconds, prefix, stop_event=None, drop_every=0):
    """DDL from `sessions` connections: CREATE TABLE <prefix>s<k>_<i>, and every drop_every-th
    statement a DROP of that session's previous table. Returns (acked, failed, times) where
    acked/failed are lists of (kind, name) and times the wall-clock time of each ack."""
    acked, failed, times = [], [], []
    storm.times = times   # watched by the ensemble test while the storm runs
    lock = threading.Lock()
    end = time.time() + seconds

    def worker(k):
        try:
            c = e.conn()
        except Exception:
            return
        i = 0
        last = None
        while time.time() < end and not (stop_event and stop_event.is_set()):
            if drop_every and last and i % drop_every == 0:
                stmt, item = "DROP TABLE %s" % last, ("DROP", last)
                last = None
            else:
                n = "%ss%d_%d" % (prefix, k, i)
                stmt, item = "CREATE TABLE %s (a int)" % n, ("CREATE", n)
                last = n
            i += 1
            try:
                c.execute(stmt)
                with lock:
                    acked.append(item)
                    times.append(time.time())
            except psycopg.OperationalError:
                with lock:
                    failed.append(item)
                break   # the server went away
            except psycopg.Error:
                with lock:
                    failed.append(item)
                if item[0] == "CREATE":
                    last = None
        try:
            c.close()
        except Exception:
            pass

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(sessions)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return acked, failed, times


def verify_storm(e, zk, chroot, acked, failed):
    """Every acknowledged statement is in the log exactly once; an unacknowledged one at most once;
    the server's catalog agrees with the acknowledged ones."""
    entries = check_catalog(zk, chroot)
    seen = {}
    for _, _, text in entries:
        m = re.match(r"(CREATE|DROP) TABLE (\w+)", text)
        if m:
            seen[(m.group(1), m.group(2))] = seen.get((m.group(1), m.group(2)), 0) + 1
    for kind, n in acked:
        k = seen.get((kind, n), 0)
        if k != 1:
            raise AssertionError("acknowledged %s %s is in the log %d times" % (kind, n, k))
    for kind, n in failed:
        k = seen.get((kind, n), 0)
        if k > 1:
            raise AssertionError("unacknowledged %s %s is in the log %d times" % (kind, n, k))
    # The server's catalog is what the log says (an unacknowledged statement cut off by a
    # failure may or may not be in it; when it is, it took effect).
    have = names(e)
    want = set()
    for _, _, text in entries:
        m = re.match(r"(CREATE|DROP) TABLE (\w+)", text)
        if m and m.group(1) == "CREATE":
            want.add(m.group(2))
        elif m:
            want.discard(m.group(2))
    if have != want:
        raise AssertionError("the server's tables differ from the log: only on the server %s, only in the log %s"
                             % (sorted(have - want), sorted(want - have)))
    return len(entries)


def until(cond, what, seconds=5.0):
    """Polls cond every 10 ms; returns the seconds it took, fails after `seconds`."""
    t0 = time.time()
    while not cond():
        if time.time() - t0 > seconds:
            raise AssertionError("%s: not after %.1f s" % (what, seconds))
        time.sleep(0.01)
    return time.time() - t0


# ---------------------------------------------------------------- tests

@test("two eddy processes on one catalog see each other's DDL within 1 s")
def t_two_processes():
    ch = "/%s/two" % RUN
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)
    try:
        worst = 0.0
        for i, (x, y) in enumerate([(a, b), (b, a), (a, b)]):
            sql(x, "CREATE TABLE seen_%d (a int)" % i)
            took = until(lambda: "seen_%d" % i in names(y), "seen_%d visible on the other server" % i, 1.0)
            worst = max(worst, took)
        sql(b, "DROP TABLE seen_0")
        until(lambda: "seen_0" not in names(a), "DROP visible on the other server", 1.0)
        return "slowest %.0f ms" % (worst * 1000)
    finally:
        a.kill()
        b.kill()


def zk_requests_by_session():
    """{session id: requests ZooKeeper received on it} from the server's `cons`."""
    out = {}
    for m in re.finditer(r"recved=(\d+),.*?sid=(0x[0-9a-f]+)", four(int(ZK_ADDR.rsplit(":", 1)[1]), "cons")):
        out[m.group(2)] = out.get(m.group(2), 0) + int(m.group(1))
    return out


@test("a DDL costs ZooKeeper its commit and the head watch's re-arm; another process follows it with one log read")
def t_requests_per_ddl():
    ch = "/%s/cost" % RUN
    # Two pgwire loops each and a sequencer: three log readers per process.
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)
    try:
        sql(a, "CREATE VIEW cost_warm AS SELECT 1 AS x")
        until(lambda: "cost_warm" in names(b, "VIEWS"), "the other process sees cost_warm", 2)
        time.sleep(0.3)
        before = zk_requests_by_session()
        n = 100
        for i in range(n // 2):
            sql(a, "CREATE VIEW cost_%d AS SELECT %d AS x" % (i, i))
            sql(a, "DROP VIEW cost_%d" % i)
        sql(a, "CREATE VIEW cost_last AS SELECT 1 AS x")
        until(lambda: "cost_last" in names(b, "VIEWS"), "the other process sees cost_last", 2)
        after = zk_requests_by_session()
        per = sorted((after[k] - before[k]) for k in after if k in before)
        total = sum(per)
        # Per DDL, at most: the committer's multi, its watch re-arm and a head
        # read when the statement's connection is on a loop that did not make
        # the last commit (sql() connects anew each time; 2 loops); the
        # follower's re-arm, head read and entry read. Plus pings and the
        # coalesced /applied writes. (Before reads were merged: over 10 each.)
        limit = 6 * (n + 1) + 60
        if total > limit:
            raise AssertionError("%d ZooKeeper requests for %d DDL (limit %d; per session %s)" % (total, n + 1, limit, per))
        return "%d requests for %d DDL on 2 processes (%s)" % (total, n + 1, per)
    finally:
        a.kill()
        b.kill()


@test("concurrent CREATEs of one name on two processes: one succeeds, the other gets 42P07")
def t_conflict():
    ch = "/%s/conflict" % RUN
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)
    try:
        ca, cb = a.conn(), b.conn()
        for i in range(10):
            results = {}
            barrier = threading.Barrier(2)

            def go(tag, c):
                barrier.wait()
                try:
                    c.execute("CREATE VIEW race_%d AS SELECT %d AS x" % (i, i))
                    results[tag] = "ok"
                except psycopg.Error as ex:
                    results[tag] = ex.sqlstate
            ts = [threading.Thread(target=go, args=("a", ca)), threading.Thread(target=go, args=("b", cb))]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            if sorted(results.values()) != ["42P07", "ok"]:
                raise AssertionError("round %d: %s" % (i, results))
        entries = check_catalog(ZK_ADDR, ch)
        for i in range(10):
            if count_in_log(entries, r"^CREATE VIEW race_%d\b" % i) != 1:
                raise AssertionError("race_%d is not in the log exactly once" % i)
        ca.close()
        cb.close()
    finally:
        a.kill()
        b.kill()


@test("kill -9 during a DDL storm from 8 sessions: acknowledged DDL present exactly once, log contiguous")
def t_kill9():
    ch = "/%s/kill9" % RUN
    e = Eddy(ZK_ADDR, ch)
    try:
        killer = threading.Timer(1.5, lambda: e.proc.send_signal(signal.SIGKILL))
        killer.start()
        acked, failed, _ = storm(e, 8, 5, "k", drop_every=4)
        killer.join()
        e.proc.wait()
        if len(acked) < 20:
            raise AssertionError("only %d statements acknowledged before the kill" % len(acked))
        e.log.close()
        e.start()
        n = verify_storm(e, ZK_ADDR, ch, acked, failed)
        return "%d acknowledged, %d cut off, %d log entries" % (len(acked), len(failed), n)
    finally:
        e.kill()


def ens_ports():
    return [int(a.rsplit(":", 1)[1]) for a in ENS_ADDR.split(",")]


def ens_mode(port):
    m = re.search(r"Mode: (\w+)", four(port, "srvr"))
    return m.group(1) if m else None


def ens_restart(i):
    d = os.path.join(ENS_DIR, "zk%d" % (i + 1))
    p = subprocess.Popen(["java", "-Xmx256m", "-cp", "%s:%s" % (d, ZK_JAR),
                          "org.apache.zookeeper.server.quorum.QuorumPeerMain", os.path.join(d, "zoo.cfg")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children.append(p)
    ENS_PIDS[i] = p.pid
    # Back only once the leader counts every follower as synced: a node that reports itself a
    # follower may still be loading the leader's state, and killing the other follower then
    # would leave no quorum.
    end = time.time() + 30
    while time.time() < end:
        if ens_mode(ens_ports()[i]) in ("leader", "follower"):
            leaders = [p for p in ens_ports() if ens_mode(p) == "leader"]
            m = re.search(r"zk_synced_followers\s+(\d+)", four(leaders[0], "mntr")) if leaders else None
            if m and int(m.group(1)) >= len(ens_ports()) - 1:
                return
        time.sleep(0.1)
    raise AssertionError("ensemble node %d did not rejoin" % (i + 1))


SESSION_MS = 8000


def ens_round(e, ch, role, prefix):
    ports = ens_ports()
    modes = [ens_mode(p) for p in ports]
    if role not in modes:
        raise AssertionError("no %s in the ensemble: %s" % (role, modes))
    victim = modes.index(role)
    killed_at = []

    def kill():
        os.kill(ENS_PIDS[victim], signal.SIGKILL)
        killed_at.append(time.time())
    timer = threading.Timer(1.0, kill)
    timer.start()
    # The storm runs until DDL has flowed again for a while after the kill (or the
    # session timeout is long past); the stall is the longest pause in acknowledgements.
    stop = threading.Event()
    result = []
    limit = 1.0 + SESSION_MS / 1000.0 + 3
    worker = threading.Thread(target=lambda: result.append(storm(e, 4, limit, prefix, stop)))
    worker.start()
    t_end = time.time() + limit
    while worker.is_alive() and time.time() < t_end:
        time.sleep(0.05)
        now = time.time()
        recent = [t for t in list(storm.times) if killed_at and t > killed_at[0]]
        if killed_at and now > killed_at[0] + 3 and len(recent) >= 20 and now - recent[-1] < 0.2:
            break
    stop.set()
    worker.join()
    timer.join()
    acked, failed, times = result[0]
    if not killed_at:
        raise AssertionError("the %s was not killed" % role)
    after = sorted(t for t in times if t > killed_at[0])
    points = [killed_at[0]] + after
    gap = max(b - a for a, b in zip(points, points[1:])) if after else time.time() - killed_at[0]
    if len(after) < 10:
        raise AssertionError("only %d DDL acknowledged after the %s was killed (longest pause %.1f s)"
                             % (len(after), role, gap))
    if gap > SESSION_MS / 1000.0:
        raise AssertionError("DDL stalled %.1f s after the %s was killed (session timeout %d ms)"
                             % (gap, role, SESSION_MS))
    n = verify_storm(e, ENS_ADDR, ch, acked, failed)
    return victim, gap, len(acked), n


@test("3-node ensemble: leader, then a follower, killed during a DDL storm: nothing lost, DDL resumes")
def t_ensemble():
    if not ENS_ADDR:
        raise AssertionError("no ensemble (ZK_ENS_ADDR)")
    ch = "/%s/ens" % RUN
    e = Eddy(ENS_ADDR, ch, "--zookeeper-session-timeout-ms", str(SESSION_MS), "--ddl-timeout-ms", "20000")
    try:
        v, gap_l, n_l, _ = ens_round(e, ch, "leader", "l")
        ens_restart(v)
        v, gap_f, n_f, entries = ens_round(e, ch, "follower", "f")
        return "leader kill: DDL stalled %.1f s at most (%d acknowledged); follower kill: %.1f s (%d); %d entries" % (
            gap_l, n_l, gap_f, n_f, entries)
    finally:
        e.kill()


@test("session expiry (SIGSTOP past the session timeout) is survived")
def t_expiry():
    ch = "/%s/expiry" % RUN
    a = Eddy(ZK_ADDR, ch, "--zookeeper-session-timeout-ms", "2000")
    b = None
    try:
        sql(a, "CREATE TABLE before_expiry (a int)")
        sids_before = set(re.findall(r"sid=(0x[0-9a-f]+)", four(int(ZK_ADDR.rsplit(":", 1)[1]), "cons")))
        a.proc.send_signal(signal.SIGSTOP)
        # Meanwhile another server changes the catalog: the expired one must catch up.
        b = Eddy(ZK_ADDR, ch)
        sql(b, "CREATE TABLE during_expiry (a int)")
        time.sleep(5)
        a.proc.send_signal(signal.SIGCONT)
        t0 = time.time()
        while True:
            try:
                sql(a, "CREATE TABLE after_expiry (a int)")
                break
            except psycopg.Error as ex:
                if time.time() - t0 > 20:
                    raise AssertionError("DDL does not work after the expiry: %s" % ex)
                time.sleep(0.2)
        took = time.time() - t0
        have = names(a)
        for n in ("before_expiry", "during_expiry", "after_expiry"):
            if n not in have:
                raise AssertionError("%s missing after the expiry: %s" % (n, sorted(have)))
        sids_after = set(re.findall(r"sid=(0x[0-9a-f]+)", four(int(ZK_ADDR.rsplit(":", 1)[1]), "cons")))
        if sids_before and sids_before <= sids_after:
            raise AssertionError("no session expired (sessions before %s, after %s)" % (sids_before, sids_after))
        check_catalog(ZK_ADDR, ch)
        return "DDL worked again %.1f s after SIGCONT" % took
    finally:
        a.proc.send_signal(signal.SIGCONT)
        a.kill()
        if b:
            b.kill()


class ZkProxy:
    """A loopback TCP proxy in front of ZooKeeper that, when armed, passes the next multi
    transaction to the server and then cuts the connection instead of passing its answer on:
    the commit happened, the client never heard. With `lag` (seconds) set, everything the
    server sends reaches the client that much later, in order: a process that follows the
    catalog behind the others."""

    def __init__(self, target):
        self.target = target
        self.ls = socket.socket()
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(16)
        self.port = self.ls.getsockname()[1]
        self.armed = False
        self.lag = 0.0
        self.dropped = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                c, _ = self.ls.accept()
            except OSError:
                return
            try:
                s = socket.create_connection(self.target)
            except OSError:
                c.close()
                continue
            st = {"drop_xid": None, "closed": False}
            threading.Thread(target=self.pump, args=(c, s, st, True), daemon=True).start()
            threading.Thread(target=self.pump, args=(s, c, st, False), daemon=True).start()

    def cut(self, a, b, st):
        st["closed"] = True
        for x in (a, b):
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            x.close()

    def pump(self, src, dst, st, to_server):
        buf = b""
        first = True
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                if not st["closed"]:
                    self.cut(src, dst, st)
                return
            buf += data
            out = b""
            while len(buf) >= 4:
                n = struct.unpack(">i", buf[:4])[0]
                if len(buf) < 4 + n:
                    break
                frame, buf = buf[:4 + n], buf[4 + n:]
                if first:
                    first = False   # the connect request or response
                elif to_server and len(frame) >= 12:
                    xid, op = struct.unpack(">ii", frame[4:12])
                    with self.lock:
                        if self.armed and op == 14:   # OpCode.multi
                            self.armed = False
                            st["drop_xid"] = xid
                elif not to_server and len(frame) >= 8:
                    xid = struct.unpack(">i", frame[4:8])[0]
                    if st["drop_xid"] is not None and xid == st["drop_xid"]:
                        with self.lock:
                            self.dropped += 1
                        if out:
                            dst.sendall(out)
                        self.cut(src, dst, st)
                        return
                out += frame
            if out and not to_server and self.lag > 0:
                time.sleep(self.lag)
            if out:
                try:
                    dst.sendall(out)
                except OSError:
                    return

    def close(self):
        self.ls.close()


@test("ambiguous commit (connection cut after the multi was sent): applied exactly once")
def t_ambiguous():
    ch = "/%s/ambiguous" % RUN
    host, port = ZK_ADDR.rsplit(":", 1)
    proxy = ZkProxy((host, int(port)))
    # A short session timeout: a reconnect through the proxy that stalls gives up sooner.
    e = Eddy("127.0.0.1:%d" % proxy.port, ch, "--ddl-timeout-ms", "15000", "--zookeeper-session-timeout-ms", "3000")
    try:
        c = e.conn()
        outcomes = []
        for i in range(3):
            with proxy.lock:
                proxy.armed = True
            try:
                c.execute("CREATE VIEW amb_%d AS SELECT %d AS x" % (i, i))
                outcomes.append("ok")
            except psycopg.Error as ex:
                outcomes.append("%s %s" % (ex.sqlstate, str(ex).strip()))
        if proxy.dropped != 3:
            raise AssertionError("the proxy cut %d answers, expected 3" % proxy.dropped)
        entries = check_catalog(ZK_ADDR, ch)
        for i in range(3):
            k = count_in_log(entries, r"^CREATE VIEW amb_%d\b" % i)
            if k != 1:
                raise AssertionError("amb_%d is in the log %d times (client got %s)" % (i, k, outcomes[i]))
        if outcomes != ["ok"] * 3:
            raise AssertionError("the client was told %s for statements that were applied" % outcomes)
        if not {"amb_0", "amb_1", "amb_2"} <= names(e, "VIEWS"):
            raise AssertionError("the views are not visible: %s" % sorted(names(e, "VIEWS")))
        c.close()
    finally:
        e.kill()
        proxy.close()


def zk_standalone_stop():
    global ZK_PID
    try:
        os.kill(ZK_PID, signal.SIGKILL)
    except ProcessLookupError:
        pass
    end = time.time() + 10
    while time.time() < end:
        try:
            os.kill(ZK_PID, 0)
        except ProcessLookupError:
            break
        try:
            if os.waitpid(ZK_PID, os.WNOHANG)[0]:
                break
        except ChildProcessError:
            pass
        time.sleep(0.05)
    port = int(ZK_ADDR.rsplit(":", 1)[1])
    while time.time() < end and four(port, "ruok") == "imok":
        time.sleep(0.05)


def zk_standalone_start():
    global ZK_PID
    p = subprocess.Popen(["java", "-Xmx256m", "-cp", "%s:%s" % (ZK_DIR, ZK_JAR),
                          "org.apache.zookeeper.server.quorum.QuorumPeerMain", os.path.join(ZK_DIR, "zoo.cfg")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children.append(p)
    ZK_PID = p.pid
    port = int(ZK_ADDR.rsplit(":", 1)[1])
    end = time.time() + 30
    while time.time() < end:
        if four(port, "ruok") == "imok":
            return
        time.sleep(0.05)
    raise AssertionError("ZooKeeper did not come back")


@test("ZooKeeper stopped: DDL fails after --ddl-timeout-ms with 57P03, reads work; restarted: DDL works")
def t_zk_down():
    ch = "/%s/down" % RUN
    e = Eddy(ZK_ADDR, ch, "--ddl-timeout-ms", "2000", "--zookeeper-session-timeout-ms", "4000")
    try:
        sql(e, "CREATE TABLE kept (a int, b text)")
        sql(e, "CREATE VIEW kept_v AS SELECT a FROM kept")
        c = e.conn()
        zk_standalone_stop()
        t0 = time.time()
        try:
            c.execute("CREATE TABLE lost (a int)")
            raise AssertionError("CREATE TABLE succeeded with ZooKeeper stopped")
        except psycopg.Error as ex:
            took = time.time() - t0
            if ex.sqlstate != "57P03" or 'catalog store "zookeeper"' not in str(ex):
                raise AssertionError("unexpected error %s: %s" % (ex.sqlstate, ex))
            if not 1.5 <= took <= 6:
                raise AssertionError("DDL failed after %.1f s; the timeout is 2 s" % took)
        # Reads of the catalog answer from the last known state.
        if names(e) != {"kept"} or names(e, "VIEWS") != {"kept_v"}:
            raise AssertionError("SHOW does not answer from the last known catalog")
        # Parse, Describe, Bind, Execute: a prepared statement over the catalog.
        cols = [r[0] for r in c.execute("SHOW COLUMNS FROM kept", prepare=True).fetchall()]
        if cols != ["a", "b"]:
            raise AssertionError("SHOW COLUMNS (prepared) answered %s" % cols)
        if not c.execute("EXPLAIN SELECT a FROM kept_v").fetchall():
            raise AssertionError("EXPLAIN answered nothing")
        zk_standalone_start()
        t1 = time.time()
        # While the session comes back a try can time out after its commit was sent: eddy then
        # answers 57P03 saying the change may or may not have been committed (or that it was,
        # but could not be read back in time), and if it was, the next try finds the name
        # taken. That 42P07 is the earlier try's success; a 42P07 after tries that all said
        # nothing was committed would be a wrong answer.
        maybe_applied = False
        while True:
            try:
                c.execute("CREATE TABLE back (a int)")
                break
            except psycopg.Error as ex:
                if ex.sqlstate == "42P07" and maybe_applied:
                    break
                detail = ex.diag.message_detail or ""
                if ex.sqlstate == "57P03" and ("may or may not have been" in detail or
                                               detail.startswith("The change was committed")):
                    maybe_applied = True
                if time.time() - t1 > 20:
                    raise AssertionError("DDL does not work after ZooKeeper came back: %s" % ex)
                time.sleep(0.2)
        back = time.time() - t1
        if names(e) != {"kept", "back"}:
            raise AssertionError("catalog after the outage: %s" % sorted(names(e)))
        check_catalog(ZK_ADDR, ch)
        c.close()
        return "DDL failed after %.1f s; worked again %.1f s after ZooKeeper restarted" % (took, back)
    finally:
        e.kill()
        if four(int(ZK_ADDR.rsplit(":", 1)[1]), "ruok") != "imok":
            zk_standalone_start()


@test("the catalog replaced under a running eddy: DDL refused with XX000 naming the store, reads still work")
def t_replaced():
    ch = "/%s/replaced" % RUN
    e = Eddy(ZK_ADDR, ch, "--ddl-timeout-ms", "3000")
    try:
        sql(e, "CREATE TABLE before_wipe (a int)")
        c = e.conn()
        # Someone wipes the chroot (ZooKeeper's own CLI); the next eddy to start there would
        # make a new, empty catalog: the running one must not follow it silently.
        cli = subprocess.run(["/usr/share/zookeeper/bin/zkCli.sh", "-server", ZK_ADDR, "deleteall", ch],
                             capture_output=True, text=True, timeout=60)
        if cli.returncode != 0:
            raise AssertionError("zkCli.sh deleteall failed: %s" % cli.stderr[-300:])
        other = Eddy(ZK_ADDR, ch)
        other.kill()
        t0 = time.time()
        while True:
            try:
                c.execute("CREATE TABLE after_wipe (a int)")
                raise AssertionError("DDL succeeded on a replaced catalog")
            except psycopg.Error as ex:
                if ex.sqlstate == "XX000" and "refuses to continue" in str(ex):
                    break
                if time.time() - t0 > 20:
                    raise AssertionError("no refusal after the wipe: %s %s" % (ex.sqlstate, ex))
                time.sleep(0.2)
        took = time.time() - t0
        if names(e) != {"before_wipe"}:
            raise AssertionError("SHOW after the wipe: %s" % sorted(names(e)))
        c.close()
        log = open(os.path.join(LOG_DIR, "eddy-zk-%s.log" % ch.strip("/").replace("/", "-"))).read()
        if "refuses to continue" not in log:
            raise AssertionError("the refusal is not in the server's log")
        return "refused %.1f s after the new catalog appeared" % took
    finally:
        e.kill()


@test("start-up with a 1000-object catalog in ZooKeeper under 2 s")
def t_startup():
    ch = "/%s/big" % RUN
    e = Eddy(ZK_ADDR, ch)
    try:
        with e.conn() as c:
            for i in range(100):
                c.execute("CREATE TABLE big_%d (a int, b text, c numeric(10,2))" % i)
            for i in range(900):
                c.execute("CREATE VIEW bigv_%d AS SELECT a, b FROM big_%d WHERE a > %d" % (i, i % 100, i))
        e.kill()
        e.start(wait=False)
        t0 = e.t0
        while True:
            try:
                with psycopg.connect(host="127.0.0.1", port=e.port, user="postgres", dbname="eddy",
                                     autocommit=True, connect_timeout=2) as c:
                    n = len(c.execute("SHOW OBJECTS").fetchall())
                    break
            except psycopg.OperationalError:
                if time.time() - t0 > 20:
                    raise
                time.sleep(0.005)
        took = time.time() - t0
        print("# start-up with a 1000-object catalog in ZooKeeper: %.0f ms to the first answer" % (took * 1000),
              flush=True)
        if n != 1000:
            raise AssertionError("SHOW OBJECTS lists %d objects after the restart" % n)
        if took >= 2.0:
            raise AssertionError("start-up took %.2f s" % took)
        return "%.0f ms" % (took * 1000)
    finally:
        e.kill()


def role(e):
    """(name, role, epoch, applied_index, published_index) of eddy_internal.cluster."""
    return sql(e, "SELECT name, role, epoch, applied_index, published_index FROM eddy_internal.cluster")[0]


def wait_role(e, want, seconds):
    t0 = time.time()
    while True:
        r = role(e)
        if r[1] == want:
            return r, time.time() - t0
        if time.time() - t0 > seconds:
            raise AssertionError("role is %s, not %s, after %.1f s" % (r[1], want, seconds))
        time.sleep(0.05)


def zk_get(zk, path):
    """The data of a znode, read with Debian's zkCli.sh (None: no node)."""
    out = subprocess.run(["/usr/share/zookeeper/bin/zkCli.sh", "-server", zk, "get", path],
                         capture_output=True, text=True, timeout=60)
    for line in out.stdout.splitlines():
        if line.startswith("{") or re.match(r"^\d+$", line):
            return line
    if "NoNode" in out.stdout + out.stderr:
        return None
    raise AssertionError("zkCli.sh get %s: %s" % (path, (out.stdout + out.stderr)[-300:]))


OWN_TIMEOUT = 2000   # ms: the session timeout of the ownership tests


@test("one cluster, two processes: one owner, one standby (57P03 for DDL); kill -9 the owner: the standby takes over with epoch+1")
def t_owner_takeover():
    ch = "/%s/owner" % RUN
    opts = ("--cluster", "x", "--zookeeper-session-timeout-ms", str(OWN_TIMEOUT))
    a = Eddy(ZK_ADDR, ch, *opts)
    b = None
    try:
        ra, _ = wait_role(a, "owner", 5)
        b = Eddy(ZK_ADDR, ch, *opts)
        rb, _ = wait_role(b, "standby", 5)
        if ra[0] != "x" or rb[0] != "x":
            raise AssertionError("cluster names %s, %s" % (ra[0], rb[0]))
        sql(a, "CREATE VIEW own_v1 AS SELECT 1 AS x")
        try:
            sql(b, "CREATE VIEW own_v2 AS SELECT 2 AS x")
            raise AssertionError("DDL on the standby was accepted")
        except psycopg.Error as ex:
            if ex.sqlstate != "57P03" or 'standby for cluster "x"' not in str(ex):
                raise AssertionError("DDL on the standby: %s %s" % (ex.sqlstate, ex))
        with b.conn() as cb:
            cb.execute("BEGIN")
            cb.execute("CREATE VIEW own_t AS SELECT 3 AS x")
            try:
                cb.execute("COMMIT")
                raise AssertionError("COMMIT of DDL on the standby was accepted")
            except psycopg.Error as ex:
                if ex.sqlstate != "57P03":
                    raise AssertionError("COMMIT of DDL on the standby: %s %s" % (ex.sqlstate, ex))
        # The standby still serves reads from its catalog.
        t0 = time.time()
        while "own_v1" not in names(b, "VIEWS"):
            if time.time() - t0 > 2:
                raise AssertionError("the standby does not see own_v1")
            time.sleep(0.05)
        epoch = ra[2]
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait()
        rb, took = wait_role(b, "owner", OWN_TIMEOUT / 1000 + 5)
        if rb[2] != epoch + 1:
            raise AssertionError("epoch after takeover %s, expected %d" % (rb[2], epoch + 1))
        sql(b, "CREATE VIEW own_v2 AS SELECT 2 AS x")
        cmds = sql(b, "SELECT DISTINCT epoch FROM eddy_internal.commands")
        if cmds != [(epoch + 1,)]:
            raise AssertionError("the new owner's commands carry epochs %s" % cmds)
        owner = zk_get(ZK_ADDR, ch + "/clusters/x/owner")
        if owner is None or '"epoch":%d' % (epoch + 1) not in owner:
            raise AssertionError("owner node %s" % owner)
        return "took over %.1f s after kill -9 (session timeout %d ms), epoch %d" % (took, OWN_TIMEOUT, epoch + 1)
    finally:
        a.kill()
        if b:
            b.kill()


@test("a paused owner (SIGSTOP past its session) resumes as a standby and sends and publishes nothing under its stale epoch")
def t_owner_paused():
    ch = "/%s/paused" % RUN
    opts = ("--cluster", "x", "--zookeeper-session-timeout-ms", str(OWN_TIMEOUT))
    a = Eddy(ZK_ADDR, ch, *opts)
    b = None
    try:
        ra, _ = wait_role(a, "owner", 5)
        old = ra[2]
        sql(a, "CREATE VIEW p_v1 AS SELECT 1 AS x")
        b = Eddy(ZK_ADDR, ch, *opts)
        wait_role(b, "standby", 5)
        before = sql(a, "SELECT count(*) FROM eddy_internal.commands WHERE epoch = %d" % old)[0][0]
        a.proc.send_signal(signal.SIGSTOP)
        rb, took = wait_role(b, "owner", OWN_TIMEOUT / 1000 + 5)
        if rb[2] != old + 1:
            raise AssertionError("new epoch %s, expected %d" % (rb[2], old + 1))
        # New catalog entries the paused owner will find in the log when it resumes.
        for i in range(3):
            sql(b, "CREATE VIEW p_new_%d AS SELECT %d AS x" % (i, i))
        a.proc.send_signal(signal.SIGCONT)
        ra2, back = wait_role(a, "standby", 20)
        # It follows the catalog (reads) but its sequencer sent nothing more under the old epoch.
        t0 = time.time()
        while "p_new_2" not in names(a, "VIEWS"):
            if time.time() - t0 > 5:
                raise AssertionError("the old owner does not see the new views")
            time.sleep(0.05)
        time.sleep(0.5)
        after = sql(a, "SELECT count(*) FROM eddy_internal.commands WHERE epoch = %d" % old)[0][0]
        if after != before:
            raise AssertionError("the old owner sequenced %d commands under epoch %d after it lost it"
                                 % (after - before, old))
        stale = sql(a, "SELECT count(*) FROM eddy_internal.worker_commands WHERE epoch = %d AND catalog_index > "
                       "(SELECT max(catalog_index) FROM eddy_internal.commands WHERE epoch = %d)" % (old, old))[0][0]
        if stale:
            raise AssertionError("the old owner's workers applied %d commands past its last" % stale)
        try:
            sql(a, "CREATE VIEW p_late AS SELECT 1 AS x")
            raise AssertionError("DDL on the old owner was accepted")
        except psycopg.Error as ex:
            if ex.sqlstate != "57P03":
                raise AssertionError("DDL on the old owner: %s %s" % (ex.sqlstate, ex))
        applied = zk_get(ZK_ADDR, ch + "/clusters/x/applied")
        if applied is None or '"epoch":%d' % (old + 1) not in applied:
            raise AssertionError("/clusters/x/applied is %s, not written by epoch %d" % (applied, old + 1))
        rb = role(b)
        if not rb[4]:
            raise AssertionError("the new owner published nothing: %s" % (rb,))
        return "takeover %.1f s after SIGSTOP; standby %.1f s after SIGCONT; applied %s" % (took, back, applied)
    finally:
        if a.proc.poll() is None:
            a.proc.send_signal(signal.SIGCONT)
        a.kill()
        if b:
            b.kill()


@test("an owner cut off from ZooKeeper past its session timeout steps down by itself; back, it owns again at epoch+1")
def t_owner_cut_off():
    ch = "/%s/cutoff" % RUN
    e = Eddy(ZK_ADDR, ch, "--zookeeper-session-timeout-ms", str(OWN_TIMEOUT), "--ddl-timeout-ms", "1000")
    try:
        (_, _, epoch, _, _), _ = wait_role(e, "owner", 10)
        sql(e, "CREATE TABLE before_cut (a int)")
        zk_standalone_stop()
        t0 = time.time()
        # Its own clock says the session is gone: it stops serving the epoch before ZooKeeper is back.
        r, _ = wait_role(e, "standby", 3 * OWN_TIMEOUT / 1000.0)
        stepped = time.time() - t0
        if stepped < OWN_TIMEOUT / 1000.0 * 0.5:
            raise AssertionError("stepped down %.1f s after the cut, before the session timeout" % stepped)
        # The restarted server restores the session, and the owner node it holds: the process
        # removes the node it left and claims again.
        zk_standalone_start()
        (_, _, epoch2, _, _), back = wait_role(e, "owner", 20)
        if int(epoch2) <= int(epoch):
            raise AssertionError("owner again at epoch %s, was %s" % (epoch2, epoch))
        sql(e, "CREATE TABLE after_cut (a int)")
        if names(e) != {"before_cut", "after_cut"}:
            raise AssertionError("tables after the cut: %s" % sorted(names(e)))
        return "stepped down %.1f s after the cut; owner again (epoch %s -> %s) %.1f s after the restart" % (
            stepped, epoch, epoch2, back)
    finally:
        e.kill()
        if four(int(ZK_ADDR.rsplit(":", 1)[1]), "ruok") != "imok":
            zk_standalone_start()


@test("two cluster names on one catalog: both own their cluster and both apply every DDL")
def t_two_clusters():
    ch = "/%s/twoclusters" % RUN
    a = Eddy(ZK_ADDR, ch, "--cluster", "one")
    b = Eddy(ZK_ADDR, ch, "--cluster", "two")
    try:
        wait_role(a, "owner", 5)
        wait_role(b, "owner", 5)
        sql(a, "CREATE VIEW tc_a AS SELECT 1 AS x")
        sql(b, "CREATE VIEW tc_b AS SELECT 2 AS x")
        t0 = time.time()
        while True:
            fa = {r[0] for r in sql(a, "SELECT DISTINCT name FROM eddy_internal.dataflows")}
            fb = {r[0] for r in sql(b, "SELECT DISTINCT name FROM eddy_internal.dataflows")}
            if all(any(n.endswith(v) for n in f) for v in ("tc_a", "tc_b") for f in (fa, fb)):
                break
            if time.time() - t0 > 3:
                raise AssertionError("dataflows: one %s, two %s" % (sorted(fa), sorted(fb)))
            time.sleep(0.05)
        for name in ("one", "two"):
            applied = zk_get(ZK_ADDR, ch + "/clusters/%s/applied" % name)
            if applied is None or '"applied":' not in applied:
                raise AssertionError("/clusters/%s/applied is %s" % (name, applied))
    finally:
        a.kill()
        b.kill()


@test("a view created on one process is never missing for the next statement on another (issue 5)")
def t_read_after_create():
    ch = "/%s/readafter" % RUN
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)
    try:
        ca, cb = a.conn(), b.conn()
        for i in range(100):
            ca.execute("CREATE VIEW rac_%d AS SELECT %d AS x" % (i, i))
            # No sleep: B may not have seen the entry yet; it must look before saying "does not exist".
            # Rounds rotate which statement comes first, so each meets a fresh name a third of the
            # time; "param" goes through the extended protocol (Parse binds the name).
            order = ("select", "show", "param")
            for q in order[i % 3:] + order[:i % 3]:
                if q == "param":
                    rows = cb.execute("SELECT * FROM rac_%d WHERE x = %%s" % i, (i,)).fetchall()
                    if rows != [(i,)]:
                        raise AssertionError("round %d: parameterized SELECT gave %s" % (i, rows))
                    continue
                if q == "show":
                    cols = [r[0] for r in cb.execute("SHOW COLUMNS FROM rac_%d" % i).fetchall()]
                    if cols != ["x"]:
                        raise AssertionError("round %d: SHOW COLUMNS gave %s" % (i, cols))
                    continue
                rows = cb.execute("SELECT * FROM rac_%d" % i).fetchall()
                if rows != [(i,)]:
                    raise AssertionError("round %d: SELECT from the view gave %s" % (i, rows))
        # A name that really is missing still fails, after at most the recheck, in both protocols.
        t0 = time.time()
        try:
            cb.execute("SELECT * FROM rac_missing")
            raise AssertionError("a missing view was found")
        except psycopg.errors.UndefinedTable:
            pass
        try:
            cb.execute("SELECT * FROM rac_missing WHERE 1 = %s", (1,))
            raise AssertionError("a missing view was found by Parse")
        except psycopg.errors.UndefinedTable:
            pass
        ca.close()
        cb.close()
        return "missing name answered in %.0f ms" % ((time.time() - t0) * 1000)
    finally:
        a.kill()
        b.kill()


@test("a prepared statement on one process, its table dropped and created again on another: Describe and Bind find it")
def t_prepared_after_recreate():
    ch = "/%s/prepared" % RUN
    host, port = ZK_ADDR.rsplit(":", 1)
    proxy = ZkProxy((host, int(port)))
    # B hears ZooKeeper 30 ms late: a CREATE acknowledged on A is not in B's catalog yet when
    # B's next message comes, while the DROP before it is.
    a, b = Eddy(ZK_ADDR, ch), Eddy("127.0.0.1:%d" % proxy.port, ch)
    try:
        ca, cb = a.conn(), b.conn()
        ca.execute("CREATE TABLE prt (a int)")
        until(lambda: cb.execute("SHOW TABLES LIKE 'prt'").fetchall() == [("prt",)], "B sees prt")
        pg = cb.pgconn
        r = pg.prepare(b"s", b"SELECT a FROM prt")
        if r.status != pq.ExecStatus.COMMAND_OK:
            raise AssertionError("Parse: %s" % (r.error_message or b"").decode())
        proxy.lag = 0.03
        for i in range(10):
            # B has seen the DROP; the CREATE is acknowledged before B's next message, which may
            # come before B has read it: B must look again before answering "does not exist".
            ca.execute("DROP TABLE prt")
            until(lambda: cb.execute("SHOW TABLES LIKE 'prt'").fetchall() == [], "B sees prt dropped")
            ca.execute("CREATE TABLE prt (a int)")
            r = pg.describe_prepared(b"s") if i % 2 == 0 else pg.exec_prepared(b"s", [])
            state = (r.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
            if i % 2 == 0 and (r.status != pq.ExecStatus.COMMAND_OK or r.fname(0) != b"a"):
                raise AssertionError("round %d: Describe gave %s %s" % (i, state, (r.error_message or b"").decode()))
            if i % 2 == 1 and (state != "" or r.status != pq.ExecStatus.TUPLES_OK):
                # Bind rebinds to the new table; Execute then reads B's replica of it (empty).
                raise AssertionError("round %d: Bind/Execute gave %s %s" % (i, state, (r.error_message or b"").decode()))
        # A table that really is gone still fails, after at most the recheck.
        ca.execute("DROP TABLE prt")
        until(lambda: cb.execute("SHOW TABLES LIKE 'prt'").fetchall() == [], "B sees prt dropped")
        r = pg.describe_prepared(b"s")
        if (r.error_field(pq.DiagnosticField.SQLSTATE) or b"") != b"42P01":
            raise AssertionError("Describe of a dropped table's statement: %s" % (r.error_message or b"").decode())
        ca.close()
        cb.close()
    finally:
        a.kill()
        b.kill()
        proxy.close()


@test("a transaction block and a query string of several statements each commit as one entry; a stale head is retried")
def t_transactions():
    ch = "/%s/txn" % RUN
    host, port = ZK_ADDR.rsplit(":", 1)
    proxy = ZkProxy((host, int(port)))
    # A hears ZooKeeper 30 ms late: when it commits right after B did, it guesses the head it
    # knows, loses the compare-and-swap, and must read the head and commit again.
    a, b = Eddy("127.0.0.1:%d" % proxy.port, ch), Eddy(ZK_ADDR, ch)
    try:
        ca, cb = a.conn(), b.conn()
        ca.execute("CREATE TABLE txt (a int)")
        until(lambda: cb.execute("SHOW TABLES LIKE 'txt'").fetchall() == [("txt",)], "B sees txt")
        proxy.lag = 0.03
        cb.execute("CREATE TABLE txb1 (a int)")
        ca.execute("BEGIN")
        ca.execute("CREATE VIEW txv1 AS SELECT a FROM txt")
        ca.execute("CREATE VIEW txv2 AS SELECT a FROM txv1")
        ca.execute("COMMIT")
        cb.execute("CREATE TABLE txb2 (a int)")
        ca.execute("CREATE VIEW txv3 AS SELECT a FROM txv2; CREATE VIEW txv4 AS SELECT a FROM txv3")
        try:
            ca.execute("CREATE VIEW txv5 AS SELECT 1 AS a; SELECT 1/0")
            raise AssertionError("1/0 succeeded")
        except psycopg.errors.DivisionByZero:
            pass
        proxy.lag = 0
        want = ["txv1", "txv2", "txv3", "txv4"]
        until(lambda: [r[0] for r in cb.execute("SHOW VIEWS").fetchall()] == want, "B shows %s" % want)
        got = [r[0] for r in ca.execute("SHOW VIEWS").fetchall()]
        if got != want:
            raise AssertionError("A shows %s" % got)
        entries = check_catalog(ZK_ADDR, ch)
        for pair in (("txv1", "txv2"), ("txv3", "txv4")):
            at = [e[0] for e in entries if re.search(r"\b%s\b" % pair[0], e[2]) and re.search(r"\b%s\b" % pair[1], e[2])]
            if len(at) != 1:
                raise AssertionError("%s and %s are not one entry: %s" % (pair[0], pair[1], entries))
        if count_in_log(entries, r"\btxv5\b") != 0:
            raise AssertionError("the failed string's view was committed: %s" % entries)
        ca.close()
        cb.close()
    finally:
        a.kill()
        b.kill()
        proxy.close()


@test("kill -9 with 50 views, restart with 4 workers: each bootstraps once, then applies every later entry once")
def t_restart_workers():
    ch = "/%s/restartw" % RUN
    # The killed process's session (and its ownership) lasts the session timeout: keep it short.
    e = Eddy(ZK_ADDR, ch, "--cluster", "rw", "--zookeeper-session-timeout-ms", str(OWN_TIMEOUT))
    try:
        with e.conn() as c:
            for i in range(50):
                c.execute("CREATE VIEW rw_%d AS SELECT %d AS x" % (i, i))
        before = check_catalog(ZK_ADDR, ch)
        e.kill(signal.SIGKILL)
        e.args += ["--workers", "4"]
        e.start()
        wait_role(e, "owner", 10)
        with e.conn() as c:
            for i in range(50, 55):
                c.execute("CREATE VIEW rw_%d AS SELECT %d AS x" % (i, i))
            c.execute("DROP VIEW rw_0, rw_1")
            c.execute("CREATE TABLE rw_t (a int)")
            c.execute("CREATE VIEW rw_on_t AS SELECT a FROM rw_t")
        entries = check_catalog(ZK_ADDR, ch)
        head = max(x[0] for x in before)
        logged = sorted(x[0] for x in entries)
        if len([i for i in logged if i > head]) != 8:
            raise AssertionError("%d log entries after the restart, expected 8" % len([i for i in logged if i > head]))
        rows = sql(e, "SELECT worker, catalog_index, kind FROM eddy_internal.worker_commands "
                      "WHERE kind IN ('bootstrap', 'apply') ORDER BY worker, seq")
        # Every view has a dataflow, and so does every table (its input).
        views = names(e, "VIEWS") | names(e, "TABLES")
        flows = sql(e, "SELECT worker, name FROM eddy_internal.dataflows")
        for w in range(4):
            mine = [(i, k) for (x, i, k) in rows if x == w]
            # One bootstrap from the snapshot the owner read (at the head or, if a DDL raced the
            # takeover, later), then each later log entry once, in order: none twice, none missed.
            boots = [i for (i, k) in mine if k == "bootstrap"]
            if len(boots) != 1 or not head <= boots[0] <= logged[-1]:
                raise AssertionError("worker %d bootstrapped at %s, expected once at %d or later" % (w, boots, head))
            applied = [i for (i, k) in mine if k == "apply"]
            later = [i for i in logged if i > boots[0]]
            if applied != later:
                raise AssertionError("worker %d applied %s, the log after %d is %s" % (w, applied, boots[0], later))
            installed = {n.rsplit(".", 1)[-1] for (x, n) in flows if x == w}
            if installed != views:
                raise AssertionError("worker %d: dataflows and SHOW VIEWS/TABLES differ in %s (%d relations)" %
                                     (w, sorted(installed ^ views), len(views)))
        return "bootstrap at %d (head %d), %d later entries applied by each of 4 workers, %d dataflows each" % (
            boots[0], head, len(later), len(views))
    finally:
        e.kill()


@test("a role's ALTER ROLE SET defaults and CONNECTION LIMIT reach the other process and survive a restart")
def t_role_settings():
    ch = "/%s/rolesettings" % RUN
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)

    def login_shows(e):
        with psycopg.connect(host="127.0.0.1", port=e.port, user="zr_app", dbname="eddy",
                             autocommit=True, connect_timeout=10) as c:
            return c.execute("SHOW statement_timeout").fetchone()[0]

    def limit_of(e):
        r = sql(e, "SELECT rolconnlimit FROM pg_roles WHERE rolname = 'zr_app'")
        return r[0][0] if r else None

    try:
        sql(a, "CREATE ROLE zr_app LOGIN CONNECTION LIMIT 3")
        sql(a, "ALTER ROLE zr_app SET statement_timeout = '4321'")
        until(lambda: limit_of(b) == 3, "the role on the other server", 2.0)
        until(lambda: login_shows(b) == "4321ms", "the role's setting on the other server", 2.0)
        b.kill()
        a.kill()
        a.start()
        got = (limit_of(a), login_shows(a))
        if got != (3, "4321ms"):
            raise AssertionError("after a restart: connection limit and setting %r, expected (3, '4321ms')" % (got,))
        sql(a, "ALTER ROLE zr_app RESET ALL")
        if login_shows(a) != "0":
            raise AssertionError("RESET ALL did not clear the role's setting")
        check_catalog(ZK_ADDR, ch)
    finally:
        a.kill()
        b.kill()


@test("owners, grants and a view's owner rights reach the other process and survive a restart")
def t_privileges():
    ch = "/%s/privileges" % RUN
    a, b = Eddy(ZK_ADDR, ch), Eddy(ZK_ADDR, ch)

    def as_reader(e, q):
        """The answer to q as role zp_r: rows, or the SQLSTATE and message of its error."""
        with psycopg.connect(host="127.0.0.1", port=e.port, user="zp_r", dbname="eddy",
                             autocommit=True, connect_timeout=10) as c:
            try:
                cur = c.execute(q)
                return cur.fetchall() if cur.description else cur.statusmessage
            except psycopg.Error as x:
                return (x.sqlstate, x.diag.message_primary)

    def state(e):
        return (sql(e, "SELECT c.relname, pg_get_userbyid(c.relowner), c.relacl::text FROM pg_class c"
                       " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'zp' ORDER BY 1"),
                sql(e, "SELECT nspacl::text FROM pg_namespace WHERE nspname = 'zp'"),
                as_reader(e, "SELECT a FROM zp.t WHERE a < 0"),
                as_reader(e, "INSERT INTO zp.t VALUES (9)"),
                as_reader(e, "SELECT a FROM zp.v ORDER BY a"))

    want = ([("t", "postgres", "{postgres=arwdDxt/postgres,zp_r=r/postgres}"),
             ("v", "zp_o", None)],
            [("{postgres=UC/postgres,zp_r=U/postgres,zp_o=U/postgres}",)],
            [],
            ("42501", "permission denied for table t"),
            ("42501", "permission denied for view v"))
    try:
        sql(a, "CREATE ROLE zp_r LOGIN")
        sql(a, "CREATE ROLE zp_o")
        sql(a, "CREATE SCHEMA zp")
        sql(a, "CREATE TABLE zp.t (a int)")
        sql(a, "GRANT SELECT ON zp.t TO zp_r")
        sql(a, "GRANT USAGE ON SCHEMA zp TO zp_r")
        sql(a, "GRANT USAGE ON SCHEMA zp TO zp_o")
        sql(a, "CREATE VIEW zp.v AS SELECT a FROM zp.t")
        sql(a, "ALTER VIEW zp.v OWNER TO zp_o")
        until(lambda: state(b) == want, "the owners and grants on the other server", 2.0)
        b.kill()
        a.kill()
        a.start()
        got = state(a)
        if got != want:
            raise AssertionError("after a restart: %r, expected %r" % (got, want))
        try:
            sql(a, "DROP ROLE zp_r")
            raise AssertionError("DROP ROLE of a role with privileges succeeded")
        except psycopg.Error as x:
            if x.sqlstate != "2BP01" or x.diag.message_detail != "privileges for schema zp\nprivileges for table zp.t":
                raise AssertionError("DROP ROLE zp_r: %s %s %r" % (x.sqlstate, x.diag.message_primary,
                                                                   x.diag.message_detail))
        check_catalog(ZK_ADDR, ch)
    finally:
        a.kill()
        b.kill()


def main():
    try:
        for t in TESTS:
            t()
    finally:
        for p in children:
            if p.poll() is None:
                try:
                    p.send_signal(signal.SIGCONT)
                    p.kill()
                    p.wait(10)
                except Exception:
                    pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
