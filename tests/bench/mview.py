#!/usr/bin/python3
"""mview.py: freshness of a materialized view, eddy beside PostgreSQL 15 (make bench).

  mview.py EDDY_PORT EDDY_PID PG_PORT

For each size (BENCH_MV_ROWS, default 10000 and 1000000) a table t(a int, b int) gets that many
rows in 1,000 groups (b = a % 1000), then the view SELECT b, sum(a), count(*) FROM t GROUP BY b.
Freshness is the time from sending a one-row INSERT until a read of the affected group from
the view shows the row (eddy: the Peek after the Write sees it; PostgreSQL: INSERT, then
REFRESH MATERIALIZED VIEW, then the read, for contrast). Prints p50/p99 per size, the
1M/10k ratio of eddy's p50 (target <= 1.5, p50 under 1 ms), the durability settings of each side
and eddy's RSS growth per row (table and view). BENCH_MV_FRESH sizes the sample
(default 200; PostgreSQL's REFRESH gets a tenth of it)."""
import os
import sys
import time

import psycopg


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def q(c, sql):
    with c.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall() if cur.description else None


def load(c, table, n):
    q(c, "CREATE TABLE %s (a int, b int)" % table)
    step = 20000
    for lo in range(0, n, step):
        q(c, "INSERT INTO %s SELECT g, g %% 1000 FROM generate_series(%d, %d) AS g" % (table, lo, min(n, lo + step) - 1))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def fresh(c, table, view, n, samples, refresh):
    times = []
    for i in range(samples):
        a = n + i
        g = a % 1000
        r = q(c, "SELECT count FROM %s WHERE b = %d" % (view, g))
        want = (r[0][0] if r else 0) + 1
        t0 = time.perf_counter()
        q(c, "INSERT INTO %s VALUES (%d, %d)" % (table, a, g))
        if refresh:
            q(c, "REFRESH MATERIALIZED VIEW %s" % view)
        while True:
            r = q(c, "SELECT count FROM %s WHERE b = %d" % (view, g))
            if r and r[0][0] >= want:
                break
        times.append((time.perf_counter() - t0) * 1000.0)
    return times


def main():
    eport, epid, pport = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    sizes = [int(x) for x in os.environ.get("BENCH_MV_ROWS", "10000 1000000").split()]
    samples = int(os.environ.get("BENCH_MV_FRESH", "200"))
    e = psycopg.connect(host="127.0.0.1", port=eport, user="postgres", dbname="eddy", autocommit=True)
    p = psycopg.connect(host="127.0.0.1", port=pport, user="postgres", dbname="postgres", autocommit=True)
    settings = ", ".join("%s=%s" % (s, q(p, "SHOW %s" % s)[0][0]) for s in ("fsync", "synchronous_commit", "wal_level"))
    print("materialized view freshness: t(a int, b int), 1000 groups, "
          "VIEW SELECT b, sum(a), count(*) FROM t GROUP BY b; %d one-row INSERTs per size" % samples)
    print("durability: eddy keeps tables and views in memory only (no log); PostgreSQL %s" % settings)
    print("%-10s %12s %12s %12s %12s %16s %12s" % ("rows", "eddy p50 ms", "eddy p99 ms", "PG p50 ms", "PG p99 ms",
                                                 "eddy load+view s", "eddy B/row"))
    p50 = {}
    for n in sizes:
        table, view = "bench_t%d" % n, "bench_v%d" % n
        for c in (e, p):
            q(c, "DROP MATERIALIZED VIEW IF EXISTS %s" % view)
            q(c, "DROP TABLE IF EXISTS %s" % table)
        r0 = rss_kb(epid)
        t0 = time.perf_counter()
        load(e, table, n)
        q(e, "CREATE MATERIALIZED VIEW %s AS SELECT b, sum(a), count(*) FROM %s GROUP BY b" % (view, table))
        t_load = time.perf_counter() - t0
        per_row = (rss_kb(epid) - r0) * 1024.0 / n
        load(p, table, n)
        q(p, "CREATE MATERIALIZED VIEW %s AS SELECT b, sum(a), count(*) FROM %s GROUP BY b" % (view, table))
        q(p, "ANALYZE %s" % table)
        fresh(e, table, view, n, 20, False)   # warm-up, unmeasured
        et = fresh(e, table, view, n + 20, samples, False)
        pt = fresh(p, table, view, n, max(5, samples // 10), True)
        p50[n] = pct(et, 0.5)
        print("%-10d %12.3f %12.3f %12.3f %12.3f %16.1f %12.1f" % (n, pct(et, 0.5), pct(et, 0.99), pct(pt, 0.5),
                                                               pct(pt, 0.99), t_load, per_row))
        for c in (e, p):
            q(c, "DROP MATERIALIZED VIEW %s" % view)
            q(c, "DROP TABLE %s" % table)
    if len(sizes) >= 2:
        lo, hi = sizes[0], sizes[-1]
        ratio = p50[hi] / p50[lo] if p50[lo] > 0 else float("nan")
        print("eddy p50 freshness %d rows / %d rows: %.2f (target <= 1.5); p50 at %d rows %.3f ms (target < 1 ms)"
              % (hi, lo, ratio, hi, p50[hi]))
    e.close()
    p.close()


if __name__ == "__main__":
    main()
