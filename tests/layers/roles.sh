#!/usr/bin/env bash
# roles.sh: roles in the catalog. The role statements of tests/diff/roles.py and the logins
# of tests/diff/role_limits.py (CONNECTION LIMIT, ALTER ROLE SET defaults) on an eddy of its
# own (a fresh catalog) and on PostgreSQL 15, answers compared; then logins against catalog
# roles on an eddy with --auth scram whose --users file seeded its superuser
# (tests/wire/test_roles_login.py), and failed-login throttling on an eddy with --auth
# password and --auth-fail-delay-ms (tests/wire/test_auth_delay.py). The same catalog under
# ZooKeeper is in tests/zk/cluster.py.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
servers_need pg
if ! eddy_is_server; then echo "not ok roles: $EDDY_BIN is not the server yet"; exit 0; fi
eddy_start || { echo "not ok roles: eddy did not start"; exit 0; }
/usr/bin/python3 tests/diff/roles.py "$EDDY_PORT" "$PG_PORT"
/usr/bin/python3 tests/diff/role_limits.py "$EDDY_PORT" "$PG_PORT"
eddy_stop "$EDDY_PID"

dir=$(mktemp -d)
trap 'servers_stop_all; rm -rf "$dir"' EXIT
printf 'root pw\n' | "$EDDY_BIN" --hash-password >"$dir/v" 2>/dev/null || { echo "not ok roles: --hash-password failed"; exit 0; }
printf 'root:%s\n' "$(cat "$dir/v")" >"$dir/users"
eddy_start --auth scram --users "$dir/users" || { echo "not ok roles: eddy --auth scram did not start"; exit 0; }
ROLES_PORT=$EDDY_PORT /usr/bin/python3 tests/wire/test_roles_login.py
eddy_stop "$EDDY_PID"
# One event loop, so that a waiting login and the session served meanwhile share it.
eddy_start --auth password --users "$dir/users" --io-threads 1 --auth-fail-delay-ms 400 \
    --auth-fail-delay-max-ms 1000 || { echo "not ok roles: eddy --auth-fail-delay-ms did not start"; exit 0; }
AUTH_DELAY_PORT=$EDDY_PORT AUTH_DELAY_BASE_MS=400 AUTH_DELAY_MAX_MS=1000 /usr/bin/python3 tests/wire/test_auth_delay.py
eddy_stop "$EDDY_PID"
exit 0
