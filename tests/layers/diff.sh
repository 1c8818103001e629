#!/usr/bin/env bash
# diff.sh: the differential query test: every line of each tests/diff/*.sql on
# eddy and on PostgreSQL 15, compared (names, type OIDs, text values or SQLSTATEs), and those
# reading (VALUES ...) again over tables holding the same rows (tests/diff/tables.py); then
# the writes of tests/diff/dml/*.sql, bound on both (tests/diff/dml.py: errors in full,
# Describe's parameters and RETURNING columns; eddy does not run writes yet).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
for f in tests/diff/*.sql; do
    /usr/bin/python3 tests/diff/diff.py "${EDDY_PORT:-}" "${PG_PORT:-}" "$f"
done
# The same constant queries over tables holding their VALUES' rows (tests/diff/tables.py),
# ad hoc and as materialized views filled and emptied by writes.
for f in tests/diff/*.sql; do
    /usr/bin/python3 tests/diff/tables.py "${EDDY_PORT:-}" "${PG_PORT:-}" "$f"
done
for f in tests/diff/dml/*.sql; do
    /usr/bin/python3 tests/diff/dml.py "${EDDY_PORT:-}" "${PG_PORT:-}" "$f"
done
exit 0
