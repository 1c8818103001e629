#!/usr/bin/env bash
# privileges.sh: owners and object privileges. tests/diff/privileges.py runs the same roles,
# owners and statements on an eddy of its own (a fresh catalog) and on PostgreSQL 15, as
# several roles through SET ROLE and through their own logins, and compares every answer.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
servers_need pg
if ! eddy_is_server; then echo "not ok privileges: $EDDY_BIN is not the server yet"; exit 0; fi
eddy_start || { echo "not ok privileges: eddy did not start"; exit 0; }
/usr/bin/python3 tests/diff/privileges.py "$EDDY_PORT" "$PG_PORT"
eddy_stop "$EDDY_PID"
exit 0
