#!/usr/bin/env bash
# wire.sh: the wire-level tests (tests/wire/test_*.py) against the shared eddy,
# compared with the shared PostgreSQL 15 where behaviour should match.
# Servers with special settings (auth, connection limit) are in wire_config.sh.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
for f in startup simple extended sql_prepare prepared_statements nasty cancel ddl explain rowdesc robust interrupt dml tables; do
    echo "# tests/wire/test_$f.py"
    /usr/bin/python3 tests/wire/test_$f.py
done
# Writes across shards: the eddy-only cases also run on one worker and on four.
shared_port=$EDDY_PORT shared_pid=$EDDY_PID extra="" pids=""
for n in 1 4; do
    if eddy_start --workers $n; then extra="$extra $EDDY_PORT"; pids="$pids $EDDY_PID"; fi
done
EDDY_PORT=$shared_port EDDY_PID=$shared_pid
echo "# tests/wire/test_writes.py (and on eddy --workers 1, 4:$extra)"
WRITES_TARGETS="$extra" /usr/bin/python3 tests/wire/test_writes.py
for p in $pids; do eddy_stop "$p"; done
# Lookups by key: the rows they ship are counted on servers of their own, where nothing else reads.
extra="" pids=""
for n in 1 2 4; do
    if eddy_start --workers $n; then extra="$extra $EDDY_PORT"; pids="$pids $EDDY_PID"; fi
done
EDDY_PORT=$shared_port EDDY_PID=$shared_pid
echo "# tests/wire/test_lookups.py (and on eddy --workers 1, 2, 4:$extra)"
LOOKUP_TARGETS="$extra" /usr/bin/python3 tests/wire/test_lookups.py
for p in $pids; do eddy_stop "$p"; done
# The engine's introspection: counts are checked on servers of their own, where nothing else runs.
extra="" pids=""
for n in 1 2; do
    if eddy_start --workers $n; then extra="$extra $EDDY_PORT"; pids="$pids $EDDY_PID"; fi
done
EDDY_PORT=$shared_port EDDY_PID=$shared_pid
echo "# tests/wire/test_introspect.py (on eddy --workers 1, 2:$extra)"
INTROSPECT_TARGETS="$extra" /usr/bin/python3 tests/wire/test_introspect.py
for p in $pids; do eddy_stop "$p"; done
exit 0
