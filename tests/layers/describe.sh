#!/usr/bin/env bash
# describe.sh: the differential Describe test (issue 3): the tables and views of
# tests/describe/setup.sql on eddy and on PostgreSQL 15, then Parse + Describe of every
# query in tests/describe/queries.sql compared (column names, type OIDs, typmods,
# parameter types, or the SQLSTATE and whether Parse or Describe raised it).
# tests/describe/pending.sql (missing features) and known_bugs.sql print neutral
# "# pending" / "# known bug" lines; DESCRIBE_STRICT=1 counts the known bugs as failures.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
/usr/bin/python3 tests/describe/describe.py "${EDDY_PORT:-}" "${PG_PORT:-}"
exit 0
