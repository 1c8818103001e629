#!/usr/bin/env bash
# diff.sh: the differential query test: every line of each tests/diff/*.sql on
# eddy and on PostgreSQL 15, compared (names, type OIDs, text values or SQLSTATEs).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
for f in tests/diff/*.sql; do
    /usr/bin/python3 tests/diff/diff.py "${EDDY_PORT:-}" "${PG_PORT:-}" "$f"
done
exit 0
