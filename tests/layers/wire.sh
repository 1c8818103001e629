#!/usr/bin/env bash
# wire.sh: the wire-level tests (tests/wire/test_*.py) against the shared eddy,
# compared with the shared PostgreSQL 15 where behaviour should match.
# Servers with special settings (auth, connection limit) are in wire_config.sh.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
for f in startup simple extended sql_prepare prepared_statements nasty cancel ddl explain rowdesc robust interrupt dml tables copy_out; do
    echo "# tests/wire/test_$f.py"
    /usr/bin/python3 tests/wire/test_$f.py
done
# run_own TARGETS_VAR TEST N...: TEST on the shared eddy and on eddy servers of its own with
# --workers N each (their ports in TARGETS_VAR), where nothing else runs to move its counts.
shared_port=$EDDY_PORT shared_pid=$EDDY_PID
run_own() {
    local var=$1 test=$2 extra="" pids="" n p
    shift 2
    for n in "$@"; do
        if eddy_start --workers "$n"; then extra="$extra $EDDY_PORT"; pids="$pids $EDDY_PID"; fi
    done
    EDDY_PORT=$shared_port EDDY_PID=$shared_pid
    echo "# tests/wire/$test (and on eddy --workers $*:$extra)"
    env "$var=$extra" /usr/bin/python3 "tests/wire/$test"
    for p in $pids; do eddy_stop "$p"; done
}
# Writes across shards: the eddy-only cases also run on one worker and on four.
run_own WRITES_TARGETS test_writes.py 1 4
# Lookups by key: the rows they ship are counted on servers of their own, where nothing else reads.
run_own LOOKUP_TARGETS test_lookups.py 1 2 4
# Reads the workers compute: the rows they ship are counted on servers of their own.
run_own COMPUTED_TARGETS test_computed.py 1 2 4
# Inserts from many sessions at once (group commit): on one worker and on four as well.
run_own GROUP_TARGETS test_group_commit.py 1 4
# SUBSCRIBE and its cursors: on one worker and on four as well (a query's dataflow exchanges rows).
run_own SUBSCRIBE_TARGETS test_subscribe.py 1 4
run_own SUBSCRIBE_TARGETS test_subscribe_cursor.py 1 4
# The engine's introspection: counts are checked on servers of their own.
run_own INTROSPECT_TARGETS test_introspect.py 1 2
# Reads answered from the workers' published shards: next to a slow worker (with those reads on
# and off), and on 2 and 4 workers while other sessions write.
snap_ports="" snap_pids=""
for args in "--workers 2 --fault-worker-delay-ms 300" "--workers 2 --fault-worker-delay-ms 300 --snapshot-reads off" \
            "--workers 2" "--workers 4"; do
    # shellcheck disable=SC2086 # the arguments are words
    if eddy_start $args; then snap_ports="$snap_ports $EDDY_PORT"; snap_pids="$snap_pids $EDDY_PID"; fi
done
EDDY_PORT=$shared_port EDDY_PID=$shared_pid
set -- $snap_ports
echo "# tests/wire/test_snapshot_reads.py (eddy on$snap_ports)"
SLOW_PORT=${1:-} SLOW_OFF_PORT=${2:-} CONSISTENT_PORTS="${3:-} ${4:-}" /usr/bin/python3 tests/wire/test_snapshot_reads.py
for p in $snap_pids; do eddy_stop "$p"; done
exit 0
