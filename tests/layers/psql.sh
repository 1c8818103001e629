#!/usr/bin/env bash
# psql.sh: the psql client against eddy, its output compared byte for byte with
# the same psql against PostgreSQL 15 (after replacing the port number).
# Covers -c, multi-statement strings, aligned/unaligned/expanded output, NULL
# display, \conninfo, \timing, and syntax errors with LINE 1: and the caret
# (ASCII and multibyte).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
if [ -z "${EDDY_PORT:-}" ] || [ -z "${PG_PORT:-}" ]; then
    echo "not ok psql: needs eddy (${EDDY_PORT:-none}) and PostgreSQL (${PG_PORT:-none})"
    exit 0
fi
# The role psql logs in as must exist in PostgreSQL; eddy takes any user under trust.
psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -qAtX \
    -c "DO \$\$BEGIN CREATE ROLE anyone LOGIN SUPERUSER; EXCEPTION WHEN duplicate_object THEN END\$\$" \
    >/dev/null 2>&1
TMP=$(mktemp -d /tmp/eddy-psql.XXXXXX)
trap 'servers_stop_all; rm -rf "$TMP"' EXIT
export PGCONNECT_TIMEOUT=5 PGTZ=UTC PAGER= PSQL_PAGER= PGCLIENTENCODING=UTF8 LC_ALL=C.UTF-8

run_psql() {   # run_psql PORT ARGS...: stdout+stderr and exit status, port scrubbed
    local port=$1; shift
    timeout 20 psql -X -h 127.0.0.1 -p "$port" -U anyone "$@" eddy 2>&1
    echo "[exit $?]"
}

# same NAME [SED-SCRIPT] -- PSQL-ARGS...: the outputs must be identical.
same() {
    local name=$1; shift
    local norm='s/\b'"$EDDY_PORT"'\b/PORT/g; s/\b'"$PG_PORT"'\b/PORT/g'
    if [ "$1" != "--" ]; then norm="$norm; $1"; shift; fi
    shift
    run_psql "$EDDY_PORT" "$@" | sed -E "$norm" >"$TMP/eddy.out"
    run_psql "$PG_PORT" "$@" | sed -E "$norm" >"$TMP/pg.out"
    if grep -q 'psql: error: connection' "$TMP/pg.out"; then
        echo "not ok $name"
        echo "  the reference PostgreSQL run could not connect: $(head -1 "$TMP/pg.out")"
    elif cmp -s "$TMP/eddy.out" "$TMP/pg.out"; then
        echo "ok $name"
    else
        echo "not ok $name"
        diff -u "$TMP/pg.out" "$TMP/eddy.out" | sed 's/^/  /' | head -30
    fi
}

same select_one -- -c "SELECT 1"
same select_aligned -- -c "SELECT 1 AS a, 'x' AS b, NULL::text AS c, 1.50 AS d, true AS e"
same select_unaligned -- -At -c "SELECT 1, 'two', 3.0"
same select_csv -- --csv -c "SELECT 1 AS a, 'x,y' AS \"b c\", NULL AS n"
same multi_statement -- -c "SELECT 1 AS a; SELECT 2 AS b"
same multi_row_values -- -c "VALUES (1, 'one'), (2, 'two'), (3, NULL)"
same expanded -- -x -c "SELECT 1 AS a, 'long text value' AS b"
same null_display -- -P null=NULL -c "SELECT NULL AS n, 'x' AS v"
same unicode_alignment -- -c "SELECT 'äöü' AS a, '€uro' AS b, 'x' AS c"
same wide_numbers -- -c "SELECT 123456789012::int8 AS big, -1.5::float8 AS f, 1e20::numeric AS n"
same set_and_show -- -c "SET DateStyle = 'German'" -c "SHOW DateStyle"
same empty_result -- -c "SELECT 1 AS a WHERE false"
same no_columns -- -c "SELECT"
same command_tags -- -c "BEGIN" -c "COMMIT" -c "SET application_name = 'x'"
same syntax_error -- -c "SELECT 1 +* FROM"
same syntax_error_caret_middle -- -c "SELECT 1, 2, 3 FRUM nowhere"
same syntax_error_multibyte -- -c "SELECT 'äöü€' AS x, 'ü' FRUM y"
same syntax_error_multiline -- -c "SELECT 1,
  2 FRUM z"
same runtime_error -- -c "SELECT 1/0"
same error_stops_rest -- -v ON_ERROR_STOP=1 -c "SELECT 1" -c "SELECT 1/0" -c "SELECT 3"
same error_continues_without_stop -- -c "SELECT 1/0" -c "SELECT 3"
same failed_transaction -- -c "BEGIN" -c "SELECT 1/0" -c "SELECT 1" -c "ROLLBACK"
same conninfo -- -c '\conninfo'
same timing 's/[0-9]+\.[0-9]+ ms/N ms/g; s/ \([0-9:.]+\)$//' -- -c '\timing on' -c "SELECT 1 AS t"
same echo_variables -- -v foo=bar -c '\echo :foo' -c "SELECT :'foo' AS v"
printf 'SELECT 1 AS a;\nSELECT\n  2 AS b;\n\\echo done\nSELECT 3 AS c\n' >"$TMP/script.sql"
same script_file -- -f "$TMP/script.sql"
printf 'SELECT 1;\nSELEC 2;\nSELECT 3;\n' >"$TMP/bad.sql"
same script_file_error_line -- -f "$TMP/bad.sql"
same gset -- -c "SELECT 42 AS answer \\gset" -c '\echo :answer'
exit 0
