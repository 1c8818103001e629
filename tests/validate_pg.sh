#!/usr/bin/env bash
# validate_pg.sh: runs the tests against PostgreSQL 15 in eddy's place, to check
# that they assert PostgreSQL's actual behaviour (every case should pass).
# Wire tests (incl. auth and connection limit) via tests/wire/validate_pg.sh, then
# the libpq, client and differential layers with EDDY_PORT pointing at PostgreSQL.
#   tests/validate_pg.sh        ends with "N passed, N failed"
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
out=$(mktemp /tmp/eddy-validate.XXXXXX)
tests/wire/validate_pg.sh 2>&1 | tee "$out"
pg_start || exit 1
export EDDY_PORT=$PG_PORT TARGET_IS_PG=1
unset EDDY_PID
for l in libpq clients diff; do
    echo "# layer $l"
    bash "tests/layers/$l.sh" 2>&1 | tee -a "$out"
done
echo "$(grep -c '^ok ' "$out") passed, $(grep -c '^not ok ' "$out") failed"
rm -f "$out"
