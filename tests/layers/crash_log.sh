#!/usr/bin/env bash
# crash_log.sh: a fatal signal is not silent. An eddy of its own (one I/O loop,
# so the statement runs on the thread the signal is delivered to) gets SIGSEGV
# while a statement computes; its log must name the signal and the statement's
# text, and it must die by that signal (the default action: a core dump where
# the system keeps them). Skipped under sanitizers, whose own handlers report.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
if [ -n "${BUILD:-}" ] && [[ $BUILD == *check* || $BUILD == *tsan* ]]; then
    echo "ok crash_log_names_the_statement # skip: sanitizer build"
    exit 0
fi
log=${LOG_DIR:-/tmp}/crash_log.eddy.log
: >"$log"
port=$(free_port)
"$EDDY_BIN" --listen 127.0.0.1:"$port" --io-threads 1 >"$log" 2>&1 &
pid=$!
if ! wait_port "$port" 10; then
    echo "not ok crash_log_names_the_statement: eddy did not start"
    kill "$pid" 2>/dev/null
    exit 0
fi
marker="crash-marker-$$"
/usr/bin/python3 - "$port" "$marker" <<'PY' &
import sys
from psycopg import pq
c = pq.PGconn.connect(b"host=127.0.0.1 port=%s user=postgres dbname=eddy" % sys.argv[1].encode())
c.exec_(("SELECT count(*), '%s' FROM generate_series(1, 2000000000)" % sys.argv[2]).encode())
PY
client=$!
# Signal only once the statement is running: the server has then spent a
# third of a second of CPU on it (an idle server spends none), however
# long a loaded machine took to start the client.
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
base=$(cpu)
for _ in $(seq 300); do
    (( $(cpu) - base >= 33 )) && break
    sleep 0.1
done
kill -SEGV "$pid"
wait "$pid"
rc=$?
wait "$client" 2>/dev/null
if grep -q "eddy: FATAL: SIGSEGV while running: SELECT count(\*), '$marker'" "$log" && [ "$rc" -eq $((128 + 11)) ]; then
    echo "ok crash_log_names_the_statement"
else
    echo "not ok crash_log_names_the_statement: exit status $rc"
    tail -5 "$log" | sed 's/^/  /'
fi
exit 0
