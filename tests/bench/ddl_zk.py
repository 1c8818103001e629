#!/usr/bin/python3
"""ddl_zk.py: DDL latency of eddy with its catalog in ZooKeeper, next to eddy on the embedded
catalog and PostgreSQL 15 (issue 4's part of make bench).

  ddl_zk.py EDDY_PORT EDDY_ZK_PORT PG_PORT

One client per server, one connection each: BENCH_ZK_PAIRS pairs of CREATE VIEW + DROP VIEW
(simple protocol, autocommit), timed one statement at a time, the servers taking turns in
blocks so that all three see the same machine. Prints p50 / p99 per statement and per pair and
the ratios to PostgreSQL, with issue 4's targets: eddy on ZooKeeper within 3x PostgreSQL, eddy
embedded at most 0.5x (judged on the median pair)."""
import os
import sys
import time

from psycopg import pq

PAIRS = int(os.environ.get("BENCH_ZK_PAIRS", "300"))
# Unmeasured pairs first: ZooKeeper is a JVM started moments ago, and its first
# thousand requests run interpreted (a get takes 0.6 ms cold, 0.09 ms warm).
WARMUP = int(os.environ.get("BENCH_ZK_WARMUP", "1000"))
BLOCK = 25
TARGET_ZK = 3.0
TARGET_MEM = 0.5


class Failed(Exception):
    pass


def run(conn, sql):
    t0 = time.perf_counter()
    r = conn.exec_(sql.encode())
    ms = (time.perf_counter() - t0) * 1000.0
    if r.status != pq.ExecStatus.COMMAND_OK:
        raise Failed("%s: %s" % (sql, (r.error_message or b"").decode().strip()))
    return ms


def pct(xs, p):
    s = sorted(xs)
    k = max(0, min(len(s) - 1, -(-len(s) * p // 100) - 1))
    return s[int(k)]


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[3].strip())
        return 2
    servers = [("eddy embedded", int(sys.argv[1])), ("eddy zookeeper", int(sys.argv[2])), ("PG15", int(sys.argv[3]))]
    conns = {}
    for name, port in servers:
        c = pq.PGconn.connect(("host=127.0.0.1 port=%d user=postgres dbname=eddy connect_timeout=5" % port).encode())
        if c.status != pq.ConnStatus.OK:
            raise Failed("cannot connect to %s on port %d: %s" % (name, port, c.error_message.decode().strip()))
        conns[name] = c
    print("DDL latency, catalog in ZooKeeper: %d CREATE VIEW + DROP VIEW pairs, one client per server, "
          "one round trip each, after %d unmeasured pairs each" % (PAIRS, WARMUP))
    for name, _ in servers:
        for i in range(WARMUP):
            run(conns[name], "CREATE VIEW bench_zk_warm_%d AS SELECT %d AS x, 'v' AS y" % (i, i))
            run(conns[name], "DROP VIEW bench_zk_warm_%d" % i)
    lat = {name: {"create": [], "drop": [], "pair": []} for name, _ in servers}
    order = [name for name, _ in servers]
    for start in range(0, PAIRS, BLOCK):
        for name in order:
            for i in range(start, min(start + BLOCK, PAIRS)):
                a = run(conns[name], "CREATE VIEW bench_zk_%d AS SELECT %d AS x, 'v' AS y" % (i, i))
                b = run(conns[name], "DROP VIEW bench_zk_%d" % i)
                lat[name]["create"].append(a)
                lat[name]["drop"].append(b)
                lat[name]["pair"].append(a + b)
        order = order[1:] + order[:1]
    for c in conns.values():
        c.finish()
    fmt = "%-18s %14s %14s %14s %12s %12s"
    print()
    print(fmt % ("", "eddy embedded", "eddy zookeeper", "PG15", "embedded/PG", "zookeeper/PG"))
    for what in ("create", "drop", "pair"):
        for p in (50, 99):
            v = [pct(lat[name][what], p) for name, _ in servers]
            label = {"create": "CREATE VIEW", "drop": "DROP VIEW", "pair": "pair"}[what]
            print(fmt % ("%s p%d" % (label, p), "%.3f ms" % v[0], "%.3f ms" % v[1], "%.3f ms" % v[2],
                         "%.2f" % (v[0] / v[2]), "%.2f" % (v[1] / v[2])))
    med = [pct(lat[name]["pair"], 50) for name, _ in servers]
    zk, mem = med[1] / med[2], med[0] / med[2]
    print("targets (median pair): eddy on ZooKeeper %.2fx PostgreSQL (target <= %.1fx): %s; "
          "embedded %.2fx (target <= %.1fx): %s"
          % (zk, TARGET_ZK, "met" if zk <= TARGET_ZK else "MISSED", mem, TARGET_MEM,
             "met" if mem <= TARGET_MEM else "MISSED"))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failed as e:
        print("bench ddl_zk: %s" % e)
        sys.exit(1)
