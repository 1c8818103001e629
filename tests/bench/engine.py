#!/usr/bin/python3
"""engine.py: the engine's load, read and write figures, eddy beside PostgreSQL 15 (make bench).

  engine.py EDDY_PORT EDDY_PID PG_PORT

On t(a int, b int) with b = a % 1000 (1000 groups) and the view
mv = SELECT b, sum(a), count(*) FROM t GROUP BY b, each printed with its ratio and target:
- COPY of BENCH_ENGINE_ROWS rows (default 1M) into t with mv maintained, against PostgreSQL's
  COPY into t then REFRESH MATERIALIZED VIEW mv (target eddy/PG <= 0.5);
- the same GROUP BY run ad hoc over t, p50 of BENCH_ENGINE_ADHOC runs (target <= 1.0);
- SELECT * FROM mv, and a point lookup on an index of mv (CREATE INDEX ON mv (b) on both sides):
  p50 of one pgbench client's prepared statements (C, libpq: what is timed is the server and the
  wire, not a Python driver's row decoding, which took 95 % of a 1000-row read), in
  BENCH_ENGINE_READ_ROUNDS rounds (default 4) of BENCH_ENGINE_READ_SECONDS (default 2) alternating
  between the servers (target <= 1.0); with psycopg as well, p50 of BENCH_ENGINE_READS reads
  alternating, for reference;
- one-row INSERTs from 8 pgbench clients for BENCH_ENGINE_SECONDS, mv maintained on eddy, into
  the plain table on PostgreSQL (target eddy/PG TPS >= 1.0);
- eddy's RSS growth per row of table and view, right after the COPY and once quiet (2 s later).
Then, with EDDY_BIN set, the same COPY and INSERTs on an eddy started here with --workers 1,
for the scaling ratio workers 2 / workers 1 (BENCH_ENGINE_SCALING=0 skips it).
Durability: eddy keeps tables and views in memory; PostgreSQL's settings are printed."""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

import psycopg

VIEW = "SELECT b, sum(a), count(*) FROM %s GROUP BY b"


def q(c, sql):
    with c.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall() if cur.description else None


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def p50(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def timed_pair(e, p, sql, n):
    """p50 milliseconds of sql on e and on p, the runs alternating between them (and which goes
    first), so that both see the same machine while it drifts."""
    q(e, sql)
    q(p, sql)
    te, tp = [], []
    for i in range(n):
        for c, ts in ((e, te), (p, tp)) if i % 2 == 0 else ((p, tp), (e, te)):
            t0 = time.perf_counter()
            q(c, sql)
            ts.append((time.perf_counter() - t0) * 1000.0)
    return p50(te), p50(tp)


def pgbench_p50(port, db, sql, seconds):
    """p50 latency in ms of sql from one pgbench client (prepared), from its per-transaction log."""
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "read.sql")
        with open(script, "w") as f:
            f.write(sql + ";\n")
        subprocess.run(["pgbench", "-n", "-M", "prepared", "-f", script, "-c", "1", "-T", str(seconds), "-l",
                        "--log-prefix", os.path.join(d, "lat"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", db], capture_output=True, text=True, timeout=seconds + 60, cwd=d)
        lat = []
        for name in os.listdir(d):
            if name.startswith("lat"):
                with open(os.path.join(d, name)) as f:
                    lat += [int(line.split()[2]) for line in f if line.strip()]
    return p50(lat) / 1000.0 if lat else float("nan")


def pgbench_pair(eport, pport, sql, rounds, seconds):
    """p50s of sql on eddy and on PostgreSQL over rounds that alternate (and which goes first)."""
    te, tp = [], []
    for i in range(rounds):
        pair = ((eport, "eddy", te), (pport, "postgres", tp))
        for port, db, ts in pair if i % 2 == 0 else tuple(reversed(pair)):
            ts.append(pgbench_p50(port, db, sql, seconds))
    return p50(te), p50(tp)


def copy_rows(c, table, data):
    with c.cursor() as cur:
        with cur.copy("COPY %s FROM STDIN" % table) as cp:
            for chunk in data:
                cp.write(chunk)


def copy_data(n):
    """The COPY text of rows (a, a % 1000) for a in 0..n-1, in chunks of 64k rows."""
    out = []
    for lo in range(0, n, 65536):
        out.append("".join("%d\t%d\n" % (a, a % 1000) for a in range(lo, min(n, lo + 65536))).encode())
    return out


def load_eddy(e, table, data):
    """Seconds for the COPY into table with its view maintained (the view exists first)."""
    q(e, "CREATE TABLE %s (a int, b int)" % table)
    q(e, "CREATE MATERIALIZED VIEW %s_mv AS %s" % (table, VIEW % table))
    t0 = time.perf_counter()
    copy_rows(e, table, data)
    return time.perf_counter() - t0


def load_pg(p, table, data):
    """Seconds for PostgreSQL's COPY then REFRESH of the view."""
    q(p, "CREATE TABLE %s (a int, b int)" % table)
    q(p, "CREATE MATERIALIZED VIEW %s_mv AS %s WITH NO DATA" % (table, VIEW % table))
    t0 = time.perf_counter()
    copy_rows(p, table, data)
    q(p, "REFRESH MATERIALIZED VIEW %s_mv" % table)
    return time.perf_counter() - t0


def pgbench_inserts(port, db, table, seconds):
    """TPS of one-row INSERTs into table from 8 clients (pgbench, simple protocol)."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write("\\set a random(1000000, 100000000)\nINSERT INTO %s VALUES (:a, :a %% 1000);\n" % table)
        script = f.name
    try:
        out = subprocess.run(["pgbench", "-n", "-f", script, "-c", "8", "-j", "2", "-T", str(seconds),
                              "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", db],
                             capture_output=True, text=True, timeout=seconds + 120).stdout
    finally:
        os.unlink(script)
    m = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", out)
    if not m:
        sys.stderr.write("engine.py: pgbench on port %d failed:\n%s\n" % (port, out[-500:]))
        return 0.0
    return float(m.group(1))


def ratio(a, b):
    return a / b if b > 0 else float("nan")


def drop(c, table):
    q(c, "DROP MATERIALIZED VIEW IF EXISTS %s_mv" % table)
    q(c, "DROP TABLE IF EXISTS %s" % table)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, db, tries=100):
    for _ in range(tries):
        try:
            return psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname=db, autocommit=True)
        except psycopg.OperationalError:
            time.sleep(0.1)
    raise RuntimeError("cannot connect to port %d" % port)


def scaling(data, seconds, two_workers):
    """COPY seconds and INSERT TPS on an eddy started with --workers 1, against the --workers 2 figures."""
    port = free_port()
    log = open(os.path.join(os.environ.get("LOG_DIR", "/tmp"), "eddy-workers1.log"), "ab")
    proc = subprocess.Popen([os.environ["EDDY_BIN"], "--listen", "127.0.0.1:%d" % port, "--workers", "1"],
                            stdout=log, stderr=log)
    try:
        e = connect(port, "eddy")
        t_copy = load_eddy(e, "bench_s", data)
        tps = pgbench_inserts(port, "eddy", "bench_s", seconds)
        e.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    n = sum(chunk.count(b"\n") for chunk in data)
    print("%-44s %12.0f %12.0f %10.2f" % ("COPY+view rows/s, workers 2 vs 1", n / two_workers[0], n / t_copy,
                                          ratio(t_copy, two_workers[0])))
    print("%-44s %12.0f %12.0f %10.2f" % ("INSERT TPS (8 clients), workers 2 vs 1", two_workers[1], tps,
                                          ratio(two_workers[1], tps)))


def main():
    eport, epid, pport = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    n = int(os.environ.get("BENCH_ENGINE_ROWS", "1000000"))
    nadhoc = int(os.environ.get("BENCH_ENGINE_ADHOC", "5"))
    nreads = int(os.environ.get("BENCH_ENGINE_READS", "200"))
    seconds = int(os.environ.get("BENCH_ENGINE_SECONDS", "10"))
    e = connect(eport, "eddy")
    p = connect(pport, "postgres")
    settings = ", ".join("%s=%s" % (s, q(p, "SHOW %s" % s)[0][0]) for s in ("fsync", "synchronous_commit", "wal_level"))
    print("engine: t(a int, b int), %d rows in 1000 groups, mv = %s (eddy --workers 2)" % (n, VIEW % "t"))
    print("durability: eddy keeps tables and views in memory only (no log); PostgreSQL %s" % settings)
    print("%-44s %12s %12s %10s  %s" % ("figure", "eddy", "PG15", "eddy/PG", "target"))
    data = copy_data(n)
    table = "bench_e"
    for c in (e, p):
        drop(c, table)
    r0 = rss_kb(epid)
    te = load_eddy(e, table, data)
    per_row = (rss_kb(epid) - r0) * 1024.0 / n
    time.sleep(2.0)   # quiet: the workers compact and give what the load used back
    per_row_quiet = (rss_kb(epid) - r0) * 1024.0 / n
    tp = load_pg(p, table, data)
    q(p, "ANALYZE %s" % table)
    print("%-44s %12.2f %12.2f %10.2f  <= 0.5" % ("COPY %d rows + view s (PG: + REFRESH)" % n, te, tp, ratio(te, tp)))
    ae, ap = timed_pair(e, p, VIEW % table, nadhoc)
    print("%-44s %12.1f %12.1f %10.2f  <= 1.0" % ("ad hoc GROUP BY p50 ms", ae, ap, ratio(ae, ap)))
    for c in (e, p):
        q(c, "CREATE INDEX %s_mv_b ON %s_mv (b)" % (table, table))
    q(p, "ANALYZE %s_mv" % table)
    rounds = int(os.environ.get("BENCH_ENGINE_READ_ROUNDS", "4"))
    rsec = int(os.environ.get("BENCH_ENGINE_READ_SECONDS", "2"))
    look = "SELECT * FROM %s_mv WHERE b = 517" % table
    for label, sql in (("SELECT * FROM mv (1000 rows)", "SELECT * FROM %s_mv" % table),
                       ("point lookup on the view's index", look)):
        be, bp = pgbench_pair(eport, pport, sql, rounds, rsec)
        print("%-44s %12.3f %12.3f %10.2f  <= 1.0" % (label + " p50 ms", be, bp, ratio(be, bp)))
        se, sp = timed_pair(e, p, sql, nreads)
        print("%-44s %12.3f %12.3f %10.2f" % ("  the same from psycopg p50 ms", se, sp, ratio(se, sp)))
    q(p, "DROP MATERIALIZED VIEW %s_mv" % table)   # PostgreSQL's INSERTs go to the plain table
    ie = pgbench_inserts(eport, "eddy", table, seconds)
    ip = pgbench_inserts(pport, "postgres", table, seconds)
    print("%-44s %12.0f %12.0f %10.2f  >= 1.0" % ("one-row INSERT TPS, 8 clients (eddy: + view)", ie, ip, ratio(ie, ip)))
    print("%-44s %12.1f" % ("eddy RSS growth per row right after the COPY, B", per_row))
    print("%-44s %12.1f %12s %10s  <= 96" % ("eddy RSS growth per row once quiet, B", per_row_quiet, "", ""))
    for c in (e, p):
        drop(c, table)
    e.close()
    p.close()
    if os.environ.get("BENCH_ENGINE_SCALING", "1") != "0" and os.environ.get("EDDY_BIN"):
        scaling(data, seconds, (te, ie))


if __name__ == "__main__":
    main()
