#!/usr/bin/env bash
# diff.sh: the differential query test: every line of tests/diff/queries.sql on
# eddy and on PostgreSQL 15, compared (names, type OIDs, text values or SQLSTATEs).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
/usr/bin/python3 tests/diff/diff.py "${EDDY_PORT:-}" "${PG_PORT:-}"
exit 0
