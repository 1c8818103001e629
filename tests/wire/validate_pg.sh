#!/usr/bin/env bash
# validate_pg.sh: runs every wire test against a fresh PostgreSQL 15 instead of
# eddy, to check that the tests assert PostgreSQL's actual behaviour.
#   tests/wire/validate_pg.sh
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
pg_start -c max_connections=4 -c superuser_reserved_connections=0 || exit 1
# A connection limit of 4 is too small for the general tests: use a second cluster.
LIMIT_PORT=$PG_PORT LIMIT_DATA=$PG_DATA LIMIT_DIR=$PG_DIR
echo "# test_maxconn.py"
MAXCONN_PORT=$LIMIT_PORT MAXCONN_LIMIT=4 /usr/bin/python3 tests/wire/test_maxconn.py
pg_stop
pg_start -c authentication_timeout=1s || exit 1
echo "# test_limits.py (authentication_timeout=1s)"
LIMITS_PORT=$PG_PORT AUTH_TIMEOUT_MS=1000 /usr/bin/python3 tests/wire/test_limits.py
pg_stop
pg_start || exit 1
for f in startup simple extended sql_prepare nasty cancel dml; do
    echo "# test_$f.py"
    TARGET_PORT=$PG_PORT REF_PORT=$PG_PORT TARGET_IS_PG=1 /usr/bin/python3 tests/wire/test_$f.py
done
pg__as "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE USER alice PASSWORD 's3cret pw'" postgres
for method in scram-sha-256 password; do
    sed -i -E "s/^(host.*)(trust|scram-sha-256|password)\$/\1$method/" "$PG_DATA/pg_hba.conf"
    pg__as "$PG_BIN/pg_ctl" -D "$PG_DATA" reload >/dev/null; sleep 0.3
    echo "# test_auth.py ($method)"
    AUTH_PORT=$PG_PORT AUTH_METHOD=${method%-sha-256} AUTH_USER=alice AUTH_PASSWORD='s3cret pw' \
        /usr/bin/python3 tests/wire/test_auth.py
done
