#!/usr/bin/env bash
# readme.sh: `make run` as a user runs it, and README.md's first five minutes,
# as written, against the server it started (tests/readme/tour.py says how the
# section is read). make run must say on its first lines where to connect and
# how to stop; stopping it as it says (a signal to its process group, as
# Ctrl-C sends) ends the server with status 0.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
BUILD=${BUILD:-build}
port=$(free_port)
out=$(mktemp /tmp/eddy-makerun.XXXXXX)
setsid env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory BUILD="$BUILD" RUN_LISTEN=127.0.0.1:"$port" run >"$out" 2>&1 &
pid=$!
trap 'kill -TERM -- -$pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$out"' EXIT
if ! wait_port "$port" 120; then
    echo "not ok readme_make_run: make run did not serve 127.0.0.1:$port"
    sed 's/^/  /' "$out" | tail -20
    exit 0
fi
if head -2 "$out" | grep -q "psql postgres://eddy@127.0.0.1:$port/eddy" &&
   head -2 "$out" | grep -qi 'stop.*Ctrl-C'; then
    echo "ok readme_make_run: make run serves psql and its first lines say where to connect and how to stop"
else
    echo "not ok readme_make_run: make run's first lines do not say where to connect and how to stop"
    head -5 "$out" | sed 's/^/  /'
fi
/usr/bin/python3 tests/readme/tour.py README.md "$port"
kill -INT -- -"$pid"
wait "$pid"
rc=$?
if [ $rc -eq 0 ]; then
    echo "ok readme_make_run_stop: Ctrl-C stops make run's server with status 0"
else
    echo "not ok readme_make_run_stop: make run ended with status $rc"
    tail -5 "$out" | sed 's/^/  /'
fi
trap 'rm -f "$out"' EXIT
