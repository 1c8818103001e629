#!/usr/bin/python3
"""test_auth_delay.py: failed-login throttling (--auth-fail-delay-ms BASE
--auth-fail-delay-max-ms MAX) on an eddy with --auth password and one event loop, whose users
file has root (password "root pw"). Clients connect from different loopback addresses
(127.0.0.1, .2, .3). After a failed login, an address's next attempt is answered only once its
delay has passed since that failure: BASE after the first failure, doubling, never more than
MAX; another address is not slowed; while an attempt waits, the loop serves other sessions;
a success forgets the address, and so does time: once the delay has passed, an attempt is not
held at all. Every failure is 28P01 as without the delay.
  AUTH_DELAY_PORT  the server; AUTH_DELAY_BASE_MS, AUTH_DELAY_MAX_MS  its two options"""
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgw  # noqa: E402

PORT = int(os.environ["AUTH_DELAY_PORT"])
BASE = int(os.environ["AUTH_DELAY_BASE_MS"]) / 1000.0
MAX = int(os.environ["AUTH_DELAY_MAX_MS"]) / 1000.0
# A wait the server imposed ends at most this much before the client sees the
# previous answer plus the delay (the failure is recorded just before it is sent).
SLACK = 0.1
failed = 0


def check(name, ok, detail=""):
    global failed
    print(("ok auth_delay_%s" if ok else "not ok auth_delay_%s") % name)
    if not ok:
        failed += 1
        print("  " + detail)


def begin(src):
    """Connects from src and sends the startup packet; the password request comes later."""
    c = pgw.Conn(PORT, source=src, timeout=10)
    c.send(pgw.startup({"user": "root", "database": "eddy"}))
    return c


def finish(c, password):
    """Waits for the password request, answers it: ("ok" | sqlstate, when the answer came)."""
    m = c.recv()
    if m.t != "R":
        return ("unexpected %s" % m.short(), time.monotonic())
    c.send(pgw.PasswordMessage(password))
    msgs = c.until("ZE")
    t = time.monotonic()
    last = msgs[-1]
    out = ("ok" if last.t == "Z" else last.sqlstate(), t)
    if last.t == "Z":
        c.send(pgw.Terminate())
    c.close()
    return out


def attempt(src, password):
    """(outcome, seconds from connecting to the answer, when the answer came)."""
    t0 = time.monotonic()
    outcome, t = finish(begin(src), password)
    return outcome, t - t0, t


# 1. A first failure is answered at once.
r, took, last = attempt("127.0.0.1", "guess 1")
check("first_failure_not_delayed", r == "28P01" and took < BASE / 2, "%r after %.3f s" % (r, took))
# 2, 3, 4. Each further failure: the wait doubles, up to MAX.
for i, want in enumerate([BASE, 2 * BASE, MAX, MAX]):
    r, took, t = attempt("127.0.0.1", "guess %d" % (i + 2))
    gap = t - last
    last = t
    ok = r == "28P01" and want - SLACK <= gap < want * 1.5
    check("failure_%d_waits_%dms" % (i + 2, want * 1000), ok,
          "%r: %.3f s after the previous failure, expected %.3f s" % (r, gap, want))
# 5. Another address is not slowed by the first one's failures.
r, took, _ = attempt("127.0.0.2", "other guess")
check("other_address_not_slowed", r == "28P01" and took < BASE / 2, "%r after %.3f s" % (r, took))
# 6. While an attempt from .1 waits its MAX, a session from .3 logs in and runs
# statements on the same (only) event loop; the waiting client has had no answer yet.
waiting = begin("127.0.0.1")
t0 = time.monotonic()
other = pgw.Conn(PORT, source="127.0.0.3", timeout=10)
other.send(pgw.startup({"user": "root", "database": "eddy"}))
other.recv()
other.send(pgw.PasswordMessage("root pw"))
logged_in = other.until("ZE")[-1].t == "Z"
answers = [pgw.rows(other.q("SELECT %d" % i)) for i in range(20)]
served = time.monotonic() - t0
still_waiting = select.select([waiting.sock], [], [], 0)[0] == []
check("loop_serves_others_meanwhile",
      logged_in and answers == [[[str(i).encode()]] for i in range(20)] and still_waiting and served < MAX / 2,
      "login %s, answers %r, waiting client answered already: %s, %.3f s" %
      (logged_in, answers[:2], not still_waiting, served))
other.close()
# 7. The waiting attempt goes on; the right password then logs in, and the address is forgotten.
r, t = finish(waiting, "root pw")
check("success_after_wait", r == "ok" and t - last >= MAX - SLACK, "%r after %.3f s" % (r, t - last))
r, took, last = attempt("127.0.0.1", "guess after success")
check("success_forgets_address", r == "28P01" and took < BASE / 2, "%r after %.3f s" % (r, took))
# 8. Time forgets too: once the delay has passed, the next attempt is not held.
time.sleep(BASE + SLACK)
r, took, last = attempt("127.0.0.1", "guess later")
check("delay_passes_with_time", r == "28P01" and took < BASE / 2, "%r after %.3f s" % (r, took))
sys.exit(0)
