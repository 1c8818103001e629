#!/usr/bin/python3
"""recursive.py: what a write costs a WITH RECURSIVE materialized view (not in make bench).

  recursive.py EDDY_PORT [NODES]

A binary tree of NODES nodes (default 20000) as rows e(c, p) of child -> parent, loaded by COPY,
and the view of every (node, ancestor) pair: WITH RECURSIVE a(c, p) AS (SELECT c, p FROM e
UNION SELECT a.c, e.p FROM a JOIN e ON a.p = e.c). Prints the view's rows and the CREATE's
time (hydration), then the median time of 20 single-row INSERTs of a new leaf (the new
derivations only) and of the 20 DELETEs of those leaves (deleted and rederived: the rows that
depended on the leaf), each until its statement returned, when the view already shows it."""
import statistics
import sys
import time

import psycopg


def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    c = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="eddy", autocommit=True)
    cur = c.cursor()
    cur.execute("DROP SCHEMA IF EXISTS bench_rec CASCADE")
    cur.execute("CREATE SCHEMA bench_rec")
    cur.execute("SET search_path = bench_rec")
    cur.execute("CREATE TABLE e (c int PRIMARY KEY, p int)")
    with cur.copy("COPY e FROM STDIN") as cp:
        cp.write("".join("%d\t%d\n" % (i, i // 2) for i in range(2, n + 1)))
    t0 = time.time()
    cur.execute("CREATE MATERIALIZED VIEW anc AS WITH RECURSIVE a(c, p) AS (SELECT c, p FROM e UNION "
                "SELECT a.c, e.p FROM a JOIN e ON a.p = e.c) SELECT c, p FROM a")
    hydrate = time.time() - t0
    cur.execute("SELECT count(*) FROM anc")
    rows = cur.fetchone()[0]
    ins, dele = [], []
    for i in range(20):
        t = time.time()
        cur.execute("INSERT INTO e VALUES (%d, %d)" % (n + 1 + i, n // 2 + i))
        ins.append(time.time() - t)
    for i in range(20):
        t = time.time()
        cur.execute("DELETE FROM e WHERE c = %d" % (n + 1 + i))
        dele.append(time.time() - t)
    cur.execute("SELECT count(*) FROM anc")
    back = cur.fetchone()[0]
    print("nodes %d: view rows %d (after the writes %d), CREATE %.0f ms; leaf INSERT p50 %.2f ms, leaf DELETE p50 %.2f ms"
          % (n, rows, back, hydrate * 1000, statistics.median(ins) * 1000, statistics.median(dele) * 1000))
    cur.execute("DROP SCHEMA bench_rec CASCADE")
    return 0 if back == rows else 1


if __name__ == "__main__":
    sys.exit(main())
