#!/usr/bin/env bash
# clients.sh: real drivers against eddy: psycopg 3 (tests/clients/test_psycopg.py)
# and pgJDBC (tests/clients/JdbcTest.java, compiled into $BUILD/java). Their catalog
# introspection cases compare with the PostgreSQL 15 the harness starts.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
if [ -z "${EDDY_PORT:-}" ]; then
    echo "not ok psycopg: no eddy server"
    echo "not ok jdbc: no eddy server"
    exit 0
fi
echo "# psycopg $(/usr/bin/python3 -c 'import psycopg; print(psycopg.__version__)')"
/usr/bin/python3 tests/clients/test_psycopg.py "$EDDY_PORT" "${PG_PORT:-}" | sed 's/^\(\(not \)\?ok \)/\1psycopg_/'

JAR=/usr/share/java/postgresql.jar
out=${BUILD:-build}/java
mkdir -p "$out"
if [ ! -f "$out/JdbcTest.class" ] || [ tests/clients/JdbcTest.java -nt "$out/JdbcTest.class" ]; then
    javac -d "$out" -cp "$JAR" tests/clients/JdbcTest.java || { echo "not ok jdbc: javac failed"; exit 0; }
fi
echo "# pgJDBC $(basename "$(readlink -f "$JAR")")"
timeout 120 java -cp "$out:$JAR" JdbcTest "$EDDY_PORT" "${PG_PORT:-}" | sed 's/^\(\(not \)\?ok \)/\1jdbc_/'
exit 0
