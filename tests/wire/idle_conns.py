#!/usr/bin/python3
"""idle_conns.py: opens N idle, logged-in connections to a server and reports how much
its resident memory (VmRSS of PID) grew per connection; the growth must stay below
LIMIT KiB. All connections must still answer a query afterwards.

  idle_conns.py PORT PID [N=1000] [LIMIT_KIB=64]"""
import resource
import sys
import time

import pgw
from pgw import Conn, Query, rss_kib, startup


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 64.0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, n + 100))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    pgw.TARGET_PORT = port
    # Warm up: one connection and query, so one-time allocations are not counted.
    with pgw.connect(port) as c:
        c.q("SELECT 1")
    time.sleep(0.3)
    before = rss_kib(pid)
    conns = []
    try:
        for i in range(n):
            c = Conn(port, timeout=10)
            c.send(startup())
            conns.append(c)
            if len(conns) % 50 == 0:      # finish logins in batches, keeping them idle
                for x in conns[-50:]:
                    x.until("ZE")
        for x in conns[len(conns) - len(conns) % 50:]:
            x.until("ZE")
        time.sleep(0.5)
        after = rss_kib(pid)
        per = (after - before) / n
        print("  RSS before %d KiB, after %d idle connections %d KiB: %.1f KiB per connection"
              % (before, n, after, per))
        print("%s idle_rss_per_connection %.1f KiB (limit %.0f)" % ("ok" if per < limit else "not ok",
                                                                  per, limit))
        bad = 0
        for x in conns[::10]:
            x.send(Query("SELECT 1"))
        for x in conns[::10]:
            m = [y.t for y in x.until_rfq()]
            bad += "D" not in m
        print("%s idle_connections_still_answer (%d of %d sampled failed)"
              % ("ok" if bad == 0 else "not ok", bad, len(conns[::10])))
    except Exception as e:  # noqa: BLE001
        print("not ok idle_connections: %s after %d connections" % (e, len(conns)))
    finally:
        for x in conns:
            x.close()
    with pgw.connect(port) as c:
        ok = pgw.rows(c.q("SELECT 1")) == [[b"1"]]
    print("%s served_after_closing_all" % ("ok" if ok else "not ok"))


if __name__ == "__main__":
    main()
