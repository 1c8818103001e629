#!/usr/bin/python3
"""memory.py: an eddy's memory follows its live rows once it is quiet.

  memory.py EDDY_PORT EDDY_PID ROWS MAX_BYTES_PER_ROW

Loads ROWS rows (COPY) into t(a int, b int) under the view SELECT b, sum(a), count(*) FROM t
GROUP BY b, then waits (up to 20 s) for the server's RSS growth over its start to come under
MAX_BYTES_PER_ROW per row: the workers merge their batches and the memory the load used goes
back to the kernel once no command has come for a moment. Then DELETE of every row and DROP
must bring it back near the start (8 MiB), as memory follows the live rows, not the history.
Prints the figures it saw."""
import sys
import time

import psycopg


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def settle(pid, limit_kib, seconds=20.0):
    """RSS once it is at or under limit_kib (waiting up to seconds) and a moment more has
    passed for the last release; the last seen if it never comes under."""
    end = time.monotonic() + seconds
    while rss_kib(pid) > limit_kib and time.monotonic() < end:
        time.sleep(0.2)
    time.sleep(1.5)
    return rss_kib(pid)


def main():
    port, pid, rows, per_row = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    c = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="eddy", autocommit=True)
    c.execute("CREATE TABLE mem_t (a int, b int)")
    c.execute("CREATE MATERIALIZED VIEW mem_v AS SELECT b, sum(a), count(*) FROM mem_t GROUP BY b")
    time.sleep(1.0)
    base = rss_kib(pid)
    with c.cursor() as cur:
        with cur.copy("COPY mem_t FROM STDIN") as cp:
            for lo in range(0, rows, 50000):
                cp.write("".join("%d\t%d\n" % (a, a % 1000) for a in range(lo, min(rows, lo + 50000))))
    peak = rss_kib(pid)
    got = c.execute("SELECT sum(count) FROM mem_v").fetchone()[0]
    quiet = settle(pid, base + rows * per_row / 1024.0)
    grown = (quiet - base) * 1024.0 / rows
    name = "rss_per_row_quiet"
    if got != rows:
        print("not ok %s: the view counts %r rows, not %d" % (name, got, rows))
    elif grown > per_row:
        print("not ok %s: %.1f bytes per row once quiet (limit %.0f; start %d KiB, after the COPY %d KiB, "
              "quiet %d KiB)" % (name, grown, per_row, base, peak, quiet))
    else:
        print("ok %s: %.1f bytes per row of table and view once quiet (limit %.0f; start %d KiB, after the "
              "COPY %d KiB, quiet %d KiB)" % (name, grown, per_row, base, peak, quiet))
    c.execute("DELETE FROM mem_t")
    c.execute("DROP MATERIALIZED VIEW mem_v")
    c.execute("DROP TABLE mem_t")
    after = settle(pid, base + 8192)
    name = "rss_after_delete_and_drop"
    if after > base + 8192:
        print("not ok %s: %d KiB, started at %d KiB" % (name, after, base))
    else:
        print("ok %s: %d KiB, started at %d KiB" % (name, after, base))
    c.close()


if __name__ == "__main__":
    main()
