#!/usr/bin/python3
"""copy_cpu.py: a 1M-row COPY with a view maintained on two eddy binaries, A/B (not in make bench).

  tests/bench/copy_cpu.py EDDY_A EDDY_B [ROUNDS] [ROWS]

engine.py's COPY (t(a int, b int), b = a % 1000, mv = SELECT b, sum(a), count(*) FROM t GROUP BY b)
on a fresh eddy --workers $W (default 2) per run, the binaries interleaved (which goes first
alternating), and per binary the median wall time and the median CPU time of the eddy process
across the COPY (utime + stime of all its threads, from /proc): on a shared machine wall time
follows the other jobs, CPU time much less."""
import os
import socket
import statistics
import subprocess
import sys
import time

import psycopg

HZ = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port):
    for _ in range(200):
        try:
            return psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="eddy", autocommit=True)
        except psycopg.OperationalError:
            time.sleep(0.05)
    raise RuntimeError("cannot connect to port %d" % port)


def cpu_ticks(pid):
    """utime + stime of every thread of pid."""
    total = 0
    for t in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, t)) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def one(binary, data, rows):
    """(wall s, CPU s) of one COPY on a fresh server."""
    port = free_port()
    p = subprocess.Popen([binary, "--listen", "127.0.0.1:%d" % port, "--workers", os.environ.get("W", "2")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        c = connect(port)
        c.execute("CREATE TABLE t (a int, b int)")
        c.execute("CREATE MATERIALIZED VIEW mv AS SELECT b, sum(a), count(*) FROM t GROUP BY b")
        c0, t0 = cpu_ticks(p.pid), time.perf_counter()
        with c.cursor() as cur:
            with cur.copy("COPY t FROM STDIN") as cp:
                for chunk in data:
                    cp.write(chunk)
        wall, cpu = time.perf_counter() - t0, (cpu_ticks(p.pid) - c0) / HZ
        got = c.execute("SELECT sum(count) FROM mv").fetchone()[0]
        if got != rows:
            raise RuntimeError("%s: the view counts %s rows, not %d" % (binary, got, rows))
        c.close()
        return wall, cpu
    finally:
        p.terminate()
        p.wait()


def main():
    bins = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 1000000
    data = ["".join("%d\t%d\n" % (a, a % 1000) for a in range(lo, min(rows, lo + 65536))).encode()
            for lo in range(0, rows, 65536)]
    got = {b: [] for b in bins}
    for r in range(rounds):
        for b in (bins if r % 2 == 0 else bins[::-1]):
            got[b].append(one(b, data, rows))
    for b in bins:
        print("%-50s wall p50 %.3f s (min %.3f)  CPU p50 %.3f s" % (
            b, statistics.median(w for w, _ in got[b]), min(w for w, _ in got[b]),
            statistics.median(c for _, c in got[b])))


if __name__ == "__main__":
    main()
