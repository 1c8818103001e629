#!/usr/bin/env bash
# idle.sh: 1000 idle connections to an eddy of its own; RSS growth per connection
# (VmRSS from /proc/PID/status) must stay under 64 KiB. Prints the measured number.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
N=${IDLE_CONNECTIONS:-1000}
if ! eddy_is_server; then echo "not ok idle_rss_per_connection: $EDDY_BIN is not the server yet"; exit 0; fi
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"
args=()
knob=$("$EDDY_BIN" --help 2>&1 | grep -oE -- '--max[-_a-z]*conn[-_a-z]*' | head -1)
[ -n "$knob" ] && args=("$knob" $((N + 50)))
eddy_start "${args[@]}" || { echo "not ok idle_rss_per_connection: eddy did not start"; exit 0; }
/usr/bin/python3 tests/wire/idle_conns.py "$EDDY_PORT" "$EDDY_PID" "$N" 64
exit 0
