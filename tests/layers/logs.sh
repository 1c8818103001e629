#!/usr/bin/env bash
# logs.sh: the log is one line per event with a timestamp, a level and
# key=value fields (--log-format text), or one JSON object per line
# (--log-format json); --log-slow-statements-ms logs a statement that took
# that long with its duration and text, and none faster.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
tmp=$(mktemp -d /tmp/eddy-logs.XXXXXX)
trap 'servers_stop_all; rm -rf "$tmp"' EXIT

run() {   # run FORMAT SLOW_MS: an eddy logging to $tmp/FORMAT.log, two statements, SIGTERM
    local port pid
    port=$(free_port)
    "$EDDY_BIN" --listen 127.0.0.1:"$port" --log-level info --log-format "$1" \
        --log-slow-statements-ms "$2" --workers 1 2>"$tmp/$1.log" &
    pid=$!
    wait_port "$port" 20
    psql -X -qAt -h 127.0.0.1 -p "$port" -U eddy eddy -c 'SELECT pg_sleep(0.3), 1 AS "a b"' >/dev/null
    psql -X -qAt -h 127.0.0.1 -p "$port" -U eddy eddy -c 'SELECT 2' >/dev/null
    kill -TERM "$pid"; wait "$pid"
}

run text 200
if [ -s "$tmp/text.log" ] && ! grep -vE '^ts=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z level=(error|warn|info|debug) msg=("([^"\\]|\\.)*"|[^ ]+)( [a-z_]+=("([^"\\]|\\.)*"|[^ "]*))*$' "$tmp/text.log" >/dev/null; then
    echo "ok logs_text: $(wc -l <"$tmp/text.log") lines, each ts=... level=... msg=... key=value"
else
    echo "not ok logs_text: a line is not ts= level= msg= key=value:"; sed 's/^/  /' "$tmp/text.log" | head
fi
slow=$(grep 'msg="slow statement"' "$tmp/text.log")
if [ "$(grep -c . <<<"$slow")" -eq 1 ] && grep -qE 'duration_ms=[0-9.]+ .*statement="SELECT pg_sleep\(0.3\), 1 AS \\"a b\\""' <<<"$slow"; then
    echo "ok logs_slow_statement: the 300 ms statement is logged with --log-slow-statements-ms 200, the fast one not: $slow"
else
    echo "not ok logs_slow_statement: want one slow statement line, have: $slow"
fi

run json -1
if /usr/bin/python3 - "$tmp/json.log" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, 'no lines'
msgs = []
for ln in lines:
    o = json.loads(ln)
    assert set(('ts', 'level', 'msg')) <= set(o), ln
    assert o['level'] in ('error', 'warn', 'info', 'debug'), ln
    msgs.append(o['msg'])
assert any('listening' in m for m in msgs), msgs
assert not any(m == 'slow statement' for m in msgs), msgs
PY
then
    echo "ok logs_json: every line is a JSON object with ts, level and msg; -1 logs no slow statement"
else
    echo "not ok logs_json:"; sed 's/^/  /' "$tmp/json.log" | head
fi
