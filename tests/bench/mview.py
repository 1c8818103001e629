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
(default 200; PostgreSQL's REFRESH gets a tenth of it). Every size is loaded first on both
servers, and eddy's samples are taken in BENCH_MV_ROUNDS rounds (default 4) that go through the
sizes in turn (the order alternating), once both servers are quiet (PostgreSQL checkpointed and
without autovacuum at work, eddy 2 s after its last load): a size is never measured while the
machine is still busy with another size's load, and a drift of the machine falls on every size.

Then, eddy alone, the same for views that recompute (BENCH_MV_OPS=0 skips it): a MIN/MAX view
while a group's current minimum is deleted again and again, and a global top-10 (ORDER BY a DESC
LIMIT 10) while a new largest row arrives, with their 1M/10k ratios (the same rounds over the sizes).

Then a join: fact(id, dim, amount) with the largest BENCH_MV_ROWS rows joined to dim(id, region)
of 10,000 rows on fact.dim = dim.id, in two views maintained together: the join itself and the
join under GROUP BY dim.region (100 groups; what the freshness reads, so a read is one group,
not a scan of the join). Prints single-row UPDATE and INSERT rates on the fact side over
BENCH_MV_JOIN_SECONDS (default 3) with BENCH_MV_JOIN_CLIENTS connections (default 4), on eddy
with the views and without them, beside PostgreSQL's plain rates of the same statements (no
view: PostgreSQL does not maintain one),
the freshness p50 (INSERT until the group's count shows it) beside PostgreSQL's INSERT +
REFRESH of the grouped view (a tenth of the sample), as ratios."""
import os
import sys
import threading
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


def load(c, table, n, key=False):
    q(c, "CREATE TABLE %s (a int%s, b int)" % (table, " PRIMARY KEY" if key else ""))
    step = 20000
    for lo in range(0, n, step):
        q(c, "INSERT INTO %s SELECT g, g %% 1000 FROM generate_series(%d, %d) AS g" % (table, lo, min(n, lo + step) - 1))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def rounds():
    return max(1, int(os.environ.get("BENCH_MV_ROUNDS", "4")))


def interleaved(sizes, samples, measure):
    """measure(n, k) -> k timings for size n; samples per size taken in rounds over the sizes."""
    times = {n: [] for n in sizes}
    r = rounds()
    for i in range(r):
        k = samples // r + (1 if i < samples % r else 0)
        for n in (sizes if i % 2 == 0 else list(reversed(sizes))):
            times[n] += measure(n, k)
    return times


def quiet(p):
    """PostgreSQL checkpointed and no autovacuum worker running (up to 60 s), then 2 s for eddy's
    workers to compact what the loads left (their idle merging)."""
    q(p, "CHECKPOINT")
    deadline = time.time() + 60
    while time.time() < deadline and q(p, "SELECT count(*) FROM pg_stat_activity "
                                          "WHERE backend_type = 'autovacuum worker'")[0][0] > 0:
        time.sleep(0.2)
    time.sleep(2.0)


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


def fresh_min_deleted(c, table, view, samples, first=0):
    """The group's current minimum deleted again and again: DELETE until the view shows the next one."""
    times = []
    for i in range(first, first + samples):
        g = (i * 7) % 1000
        m = q(c, "SELECT min FROM %s WHERE b = %d" % (view, g))[0][0]
        t0 = time.perf_counter()
        q(c, "DELETE FROM %s WHERE a = %d" % (table, m))
        while True:
            r = q(c, "SELECT min FROM %s WHERE b = %d" % (view, g))
            if not r or r[0][0] != m:
                break
        times.append((time.perf_counter() - t0) * 1000.0)
    return times


def delete_min_alone(c, table, samples, first=0):
    """The same DELETEs with no view: what the statement itself costs. Each group is touched once
    (first + samples <= 1000), so its minimum is still its first row, a = g (rows are a, a % 1000):
    no read of the table comes between the DELETEs."""
    times = []
    for i in range(first, first + samples):
        g = (i * 7 + 3) % 1000
        m = g
        t0 = time.perf_counter()
        q(c, "DELETE FROM %s WHERE a = %d" % (table, m))
        times.append((time.perf_counter() - t0) * 1000.0)
    return times


def fresh_topk(c, table, view, n, samples):
    """A new largest a: INSERT until the top-10 view shows it."""
    times = []
    for i in range(samples):
        a = 10 * n + i
        t0 = time.perf_counter()
        q(c, "INSERT INTO %s VALUES (%d, %d)" % (table, a, a % 1000))
        while q(c, "SELECT max(a) FROM %s" % view)[0][0] != a:
            pass
        times.append((time.perf_counter() - t0) * 1000.0)
    return times


def operators(e, p, sizes, samples):
    """Freshness of views that keep their groups' rows: MIN/MAX under deletes of the minimum, a global top-10."""
    print("operators (eddy): t(a int PRIMARY KEY, b int); MIN/MAX view SELECT b, min(a), max(a) FROM t GROUP BY b while a group's minimum is "
          "deleted (DELETE alone: the same statements without the view); top-10 view SELECT a, b FROM t ORDER BY a DESC LIMIT 10 while a new largest a arrives; "
          "%d changes each" % samples)
    print("%-10s %16s %16s %16s %16s %16s" % ("rows", "DELETE alone p50", "min/max p50 ms", "min/max p99 ms",
                                             "top-10 p50 ms", "top-10 p99 ms"))
    tables = {n: ("bench_o%d" % n, "bench_om%d" % n, "bench_ot%d" % n) for n in sizes}
    for n in sizes:
        table, vm, vt = tables[n]
        for v in (vm, vt):
            q(e, "DROP MATERIALIZED VIEW IF EXISTS %s" % v)
        q(e, "DROP TABLE IF EXISTS %s" % table)
        load(e, table, n, key=True)   # a keyed DELETE goes to its row's shard: the view's work is what is timed
    quiet(p)
    # Each round deletes minimums of other groups ((i * 7 + offset) % 1000): no group runs dry.
    offset = {n: 0 for n in sizes}

    def deletes_alone(n, k):
        offset[n] += k
        return delete_min_alone(e, tables[n][0], k, offset[n] - k)

    dt = interleaved(sizes, samples, deletes_alone)
    for n in sizes:
        q(e, "CREATE MATERIALIZED VIEW %s AS SELECT b, min(a), max(a) FROM %s GROUP BY b" % (tables[n][1], tables[n][0]))
        fresh_min_deleted(e, tables[n][0], tables[n][1], 10, 500)   # warm-up, unmeasured
    quiet(p)

    def min_deleted(n, k):
        offset[n] += k
        return fresh_min_deleted(e, tables[n][0], tables[n][1], k, offset[n] - k)

    mt = interleaved(sizes, samples, min_deleted)
    top = {n: n for n in sizes}
    for n in sizes:
        q(e, "DROP MATERIALIZED VIEW %s" % tables[n][1])
        q(e, "CREATE MATERIALIZED VIEW %s AS SELECT a, b FROM %s ORDER BY a DESC LIMIT 10" % (tables[n][2], tables[n][0]))
        fresh_topk(e, tables[n][0], tables[n][2], top[n], 10)   # warm-up, unmeasured
        top[n] += 10
    quiet(p)

    def topk(n, k):
        top[n] += k
        return fresh_topk(e, tables[n][0], tables[n][2], top[n] - k, k)

    tt = interleaved(sizes, samples, topk)
    p50 = {}
    for n in sizes:
        q(e, "DROP MATERIALIZED VIEW %s" % tables[n][2])
        q(e, "DROP TABLE %s" % tables[n][0])
        p50[n] = (pct(mt[n], 0.5), pct(tt[n], 0.5))
        print("%-10d %16.3f %16.3f %16.3f %16.3f %16.3f" % (n, pct(dt[n], 0.5), pct(mt[n], 0.5), pct(mt[n], 0.99),
                                                            pct(tt[n], 0.5), pct(tt[n], 0.99)))
    if len(sizes) >= 2:
        lo, hi = sizes[0], sizes[-1]
        r = [p50[hi][k] / p50[lo][k] if p50[lo][k] > 0 else float("nan") for k in (0, 1)]
        print("eddy p50 %d rows / %d rows: min/max %.2f (a group of %d rows), top-10 %.2f (target <= 1.5)"
              % (hi, lo, r[0], hi // 1000, r[1]))


def join_load(c, n, pg):
    q(c, "CREATE TABLE bench_dim (id int PRIMARY KEY, region int)")
    q(c, "INSERT INTO bench_dim SELECT g, g % 100 FROM generate_series(0, 9999) AS g")
    q(c, "CREATE TABLE bench_fact (id int PRIMARY KEY, dim int, amount int)")
    step = 20000
    for lo in range(0, n, step):
        q(c, "INSERT INTO bench_fact SELECT g, g %% 10000, g %% 97 FROM generate_series(%d, %d) AS g"
          % (lo, min(n, lo + step) - 1))
    kind = "MATERIALIZED VIEW"
    q(c, "CREATE %s bench_jv AS SELECT f.id, f.amount, d.id AS dim, d.region FROM bench_fact f "
         "JOIN bench_dim d ON f.dim = d.id" % kind)
    q(c, "CREATE %s bench_jg AS SELECT d.region, count(*) AS c, sum(f.amount) AS s FROM bench_fact f "
         "JOIN bench_dim d ON f.dim = d.id GROUP BY d.region" % kind)
    if pg:
        q(c, "ANALYZE bench_fact")
        q(c, "ANALYZE bench_dim")


def join_rate(port, dbname, kind, n, seconds, clients, base):
    """Single-row statements per second on the fact side from `clients` connections."""
    done = [0] * clients
    stop = time.perf_counter() + seconds

    def work(i):
        c = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname=dbname, autocommit=True)
        k = 0
        while time.perf_counter() < stop:
            if kind == "UPDATE":
                q(c, "UPDATE bench_fact SET amount = amount + 1 WHERE id = %d" % ((i * 7919 + k * 104729) % n))
            else:
                fid = base + i + k * clients
                q(c, "INSERT INTO bench_fact VALUES (%d, %d, 1)" % (fid, fid % 10000))
            k += 1
        done[i] = k
        c.close()

    ts = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(done) / (time.perf_counter() - t0)


def join_fresh(c, base, samples, refresh):
    times = []
    for i in range(samples):
        fid = base + i
        region = (fid % 10000) % 100
        want = q(c, "SELECT c FROM bench_jg WHERE region = %d" % region)[0][0] + 1
        t0 = time.perf_counter()
        q(c, "INSERT INTO bench_fact VALUES (%d, %d, 1)" % (fid, fid % 10000))
        if refresh:
            q(c, "REFRESH MATERIALIZED VIEW bench_jg")
        while q(c, "SELECT c FROM bench_jg WHERE region = %d" % region)[0][0] < want:
            pass
        times.append((time.perf_counter() - t0) * 1000.0)
    return times


def join_bench(e, epid, p, eport, pport, n, samples):
    seconds = float(os.environ.get("BENCH_MV_JOIN_SECONDS", "3"))
    clients = int(os.environ.get("BENCH_MV_JOIN_CLIENTS", "4"))
    print()
    print("materialized view of a join: fact(id, dim, amount) %d rows JOIN dim(id, region) 10000 rows "
          "ON fact.dim = dim.id; views: the join, and the join GROUP BY region; %d clients, %.0f s per rate"
          % (n, clients, seconds))
    for c in (e, p):
        for v in ("bench_jg", "bench_jv"):
            q(c, "DROP MATERIALIZED VIEW IF EXISTS %s" % v)
        q(c, "DROP TABLE IF EXISTS bench_fact")
        q(c, "DROP TABLE IF EXISTS bench_dim")
    r0 = rss_kb(epid)
    t0 = time.perf_counter()
    join_load(e, n, False)
    t_load = time.perf_counter() - t0
    per_row = (rss_kb(epid) - r0) * 1024.0 / n
    join_load(p, n, True)
    base = n + 1000000
    join_fresh(e, base, 20, False)   # warm-up, unmeasured
    base += 100
    et = join_fresh(e, base, samples, False)
    base += samples
    pt = join_fresh(p, n, max(5, samples // 10), True)
    # Rates with eddy's views maintained, then of the tables alone on both (PostgreSQL's views
    # are refreshed, not maintained, so its rate is always the table's).
    rates = {}
    for kind in ("UPDATE", "INSERT"):
        rates[kind] = [join_rate(eport, "eddy", kind, n, seconds, clients, base + 10000000)]
    for c in (e, p):
        for v in ("bench_jg", "bench_jv"):
            q(c, "DROP MATERIALIZED VIEW %s" % v)
    for kind in ("UPDATE", "INSERT"):
        rates[kind].append(join_rate(eport, "eddy", kind, n, seconds, clients, base + 20000000))
        rates[kind].append(join_rate(pport, "postgres", kind, n, seconds, clients, base + 10000000))
    print("%-22s %12s %16s %14s %10s" % ("", "eddy views", "eddy no views", "PostgreSQL", "eddy/PG"))
    for kind in ("UPDATE", "INSERT"):
        ev, en, pv = rates[kind]
        print("%-22s %12.0f %16.0f %14.0f %10.2f" % ("%s/s (one row)" % kind, ev, en, pv,
                                                     ev / pv if pv else float("nan")))
    e50, p50 = pct(et, 0.5), pct(pt, 0.5)
    print("%-22s %12.3f %16s %14.3f %10.4f   (PostgreSQL: INSERT + REFRESH of the grouped view)"
          % ("freshness p50 ms", e50, "", p50, e50 / p50 if p50 else float("nan")))
    print("%-22s %12.3f %16s %14.3f" % ("freshness p99 ms", pct(et, 0.99), "", pct(pt, 0.99)))
    print("eddy load + both views %.1f s, %.1f B per fact row (table, both joins' arrangements, results)"
          % (t_load, per_row))
    for c in (e, p):
        q(c, "DROP TABLE bench_fact")
        q(c, "DROP TABLE bench_dim")


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
    loaded = {}
    for n in sizes:
        table, view = "bench_t%d" % n, "bench_v%d" % n
        for c in (e, p):
            q(c, "DROP MATERIALIZED VIEW IF EXISTS %s" % view)
            q(c, "DROP TABLE IF EXISTS %s" % table)
        r0 = rss_kb(epid)
        t0 = time.perf_counter()
        load(e, table, n)
        q(e, "CREATE MATERIALIZED VIEW %s AS SELECT b, sum(a), count(*) FROM %s GROUP BY b" % (view, table))
        loaded[n] = (time.perf_counter() - t0, (rss_kb(epid) - r0) * 1024.0 / n)
        load(p, table, n)
        q(p, "CREATE MATERIALIZED VIEW %s AS SELECT b, sum(a), count(*) FROM %s GROUP BY b" % (view, table))
        q(p, "ANALYZE %s" % table)
    quiet(p)
    next_a = {}
    for n in sizes:
        fresh(e, "bench_t%d" % n, "bench_v%d" % n, n, 20, False)   # warm-up, unmeasured
        next_a[n] = n + 20

    def eddy_fresh(n, k):
        next_a[n] += k
        return fresh(e, "bench_t%d" % n, "bench_v%d" % n, next_a[n] - k, k, False)

    et = interleaved(sizes, samples, eddy_fresh)
    p50 = {}
    for n in sizes:
        table, view = "bench_t%d" % n, "bench_v%d" % n
        pt = fresh(p, table, view, n, max(5, samples // 10), True)
        p50[n] = pct(et[n], 0.5)
        print("%-10d %12.3f %12.3f %12.3f %12.3f %16.1f %12.1f" % (n, pct(et[n], 0.5), pct(et[n], 0.99), pct(pt, 0.5),
                                                               pct(pt, 0.99), loaded[n][0], loaded[n][1]))
        for c in (e, p):
            q(c, "DROP MATERIALIZED VIEW %s" % view)
            q(c, "DROP TABLE %s" % table)
    if len(sizes) >= 2:
        lo, hi = sizes[0], sizes[-1]
        ratio = p50[hi] / p50[lo] if p50[lo] > 0 else float("nan")
        print("eddy p50 freshness %d rows / %d rows: %.2f (target <= 1.5); p50 at %d rows %.3f ms (target < 1 ms)"
              % (hi, lo, ratio, hi, p50[hi]))
    if os.environ.get("BENCH_MV_OPS", "1") != "0":
        operators(e, p, sizes, samples)
    if os.environ.get("BENCH_MV_JOIN", "1") != "0":
        join_bench(e, epid, p, eport, pport, max(sizes), samples)
    e.close()
    p.close()


if __name__ == "__main__":
    main()
