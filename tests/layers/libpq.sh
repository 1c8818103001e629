#!/usr/bin/env bash
# libpq.sh: the libpq C tests (build/tools/libpq_test, from tests/tools/libpq_test.c):
# PQexec, PQexecParams text/binary, PQprepare/PQdescribePrepared, pipeline mode, PQcancel.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
bin=${BUILD:-build}/tools/libpq_test
[ -x "$bin" ] || { echo "not ok libpq_test: $bin not built"; exit 0; }
if [ -z "${EDDY_PORT:-}" ]; then echo "not ok libpq: no eddy server"; exit 0; fi
"$bin" "host=127.0.0.1 port=$EDDY_PORT user=postgres dbname=eddy connect_timeout=5"
exit 0
