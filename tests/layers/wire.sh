#!/usr/bin/env bash
# wire.sh: the wire-level tests (tests/wire/test_*.py) against the shared eddy,
# compared with the shared PostgreSQL 15 where behaviour should match.
# Servers with special settings (auth, connection limit) are in wire_config.sh.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
for f in startup simple extended sql_prepare prepared_statements nasty cancel ddl explain rowdesc robust interrupt dml; do
    echo "# tests/wire/test_$f.py"
    /usr/bin/python3 tests/wire/test_$f.py
done
exit 0
