#!/usr/bin/env bash
# psql.sh: the psql client against eddy, its output compared byte for byte with
# the same psql against PostgreSQL 15 (after replacing the port number).
# Covers -c, multi-statement strings, aligned/unaligned/expanded output, NULL
# display, \conninfo, \timing, syntax errors with LINE 1: and the caret
# (ASCII and multibyte), and the describe commands (\d and friends) over the
# same objects made on both servers in schema psql_describe. Where eddy cannot
# match PostgreSQL by design, `expect` checks eddy's own output and says why.
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
    # Generous: a loaded 2-core machine has taken over 20 s to answer one describe query.
    timeout 60 psql -X -h 127.0.0.1 -p "$port" -U anyone "$@" eddy 2>&1
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

# expect NAME -- PSQL-ARGS... <<WANT: eddy's output must be exactly the text on stdin.
expect() {
    local name=$1; shift 2
    cat >"$TMP/want.out"
    run_psql "$EDDY_PORT" "$@" | sed -E 's/\b'"$EDDY_PORT"'\b/PORT/g' >"$TMP/eddy.out"
    if cmp -s "$TMP/eddy.out" "$TMP/want.out"; then
        echo "ok $name"
    else
        echo "not ok $name"
        diff -u "$TMP/want.out" "$TMP/eddy.out" | sed 's/^/  /' | head -30
    fi
}

# ---- The describe commands over the same objects on both servers. psql adapts
# its catalog queries to server_version, which eddy reports as 15.
describe_setup="DROP SCHEMA IF EXISTS psql_describe CASCADE;
CREATE SCHEMA psql_describe;
CREATE TABLE psql_describe.t (a int NOT NULL, b text, c numeric(10,2), d varchar(20), e timestamptz, f int8[],
    g bool, h int DEFAULT 7);
CREATE TABLE psql_describe.tab2 (\"Mixed Case\" int, y float8);
CREATE VIEW psql_describe.v AS SELECT a, b FROM psql_describe.t WHERE a > 1;
CREATE MATERIALIZED VIEW psql_describe.m AS SELECT a, count(*) AS n FROM psql_describe.t GROUP BY a;
CREATE INDEX ti ON psql_describe.t (a);
CREATE INDEX ti2 ON psql_describe.t (b, a);
CREATE INDEX mi ON psql_describe.m (n);
CREATE TABLE psql_describe.keys (id int PRIMARY KEY, v text UNIQUE);
CREATE TABLE psql_describe.dflt (s text DEFAULT 'x', d date DEFAULT '2020-1-1', n int DEFAULT -3,
    v varchar(20) DEFAULT 'y', f bool DEFAULT true, m numeric DEFAULT 1.5, z text DEFAULT NULL,
    b bigint DEFAULT 3000000000, t timestamptz DEFAULT now());"
# setup_both NAME SQL: the same objects on both servers.
setup_both() {
    local port
    for port in "$PG_PORT" "$EDDY_PORT"; do
        run_psql "$port" -q -c "$2" >"$TMP/setup.out"
        if grep -q ERROR "$TMP/setup.out"; then
            echo "not ok $1 on port $port"
            sed 's/^/  /' "$TMP/setup.out"
        fi
    done
}
setup_both describe_setup "$describe_setup"
# Objects PostgreSQL has no counterpart for, or that eddy describes its own way (below).
run_psql "$EDDY_PORT" -q -c "DROP SCHEMA IF EXISTS psql_describe_eddy CASCADE;
CREATE SCHEMA psql_describe_eddy;
CREATE TABLE psql_describe_eddy.chk (id int PRIMARY KEY, v text CHECK (v <> ''), w int DEFAULT 1 + 2,
    s text DEFAULT 'x');
CREATE SOURCE psql_describe_eddy.gen FROM LOAD GENERATOR COUNTER;" >"$TMP/setup.out"
if grep -q ERROR "$TMP/setup.out"; then
    echo "not ok describe_setup_eddy"
    sed 's/^/  /' "$TMP/setup.out"
fi
in_schema=(-c "SET search_path = psql_describe")
same describe_relations -- "${in_schema[@]}" -c '\d'
same describe_tables -- "${in_schema[@]}" -c '\dt'
same describe_views -- "${in_schema[@]}" -c '\dv'
same describe_matviews -- "${in_schema[@]}" -c '\dm'
same describe_indexes -- "${in_schema[@]}" -c '\di'
same describe_table -- "${in_schema[@]}" -c '\d t'
same describe_table_plus -- "${in_schema[@]}" -c '\d+ t'
same describe_table_quoted_column -- "${in_schema[@]}" -c '\d tab2'
same describe_table_keys -- "${in_schema[@]}" -c '\d keys'
same describe_table_defaults -- "${in_schema[@]}" -c '\d dflt'
same describe_key_index -- "${in_schema[@]}" -c '\d+ keys_pkey'
same describe_view -- "${in_schema[@]}" -c '\d v'
same describe_matview -- "${in_schema[@]}" -c '\d m'
same describe_index -- "${in_schema[@]}" -c '\d ti2'
same describe_index_plus -- "${in_schema[@]}" -c '\d+ ti'
same describe_qualified -- -c '\d psql_describe.ti'
same describe_pattern -- "${in_schema[@]}" -c "\\d 't*'"
same describe_tables_qualified_pattern -- -c '\dt psql_describe.*'
same describe_tables_system_pattern -- -c '\dtS psql_describe.*'
same describe_missing -- "${in_schema[@]}" -c '\d nope'
same describe_types -- "${in_schema[@]}" -c '\dT'
same describe_types_plus -- "${in_schema[@]}" -c '\dT+'
same describe_functions -- "${in_schema[@]}" -c '\df'
same describe_schema -- -c '\dn psql_describe'
same describe_schema_plus -- -c '\dn+ psql_describe'
# Privileges: the same grants on both servers (relations' and columns'), shown by \dp / \z and \dn+.
priv_setup="DROP SCHEMA IF EXISTS psql_priv CASCADE;
DROP ROLE IF EXISTS psql_reader;
CREATE ROLE psql_reader;
CREATE SCHEMA psql_priv;
CREATE TABLE psql_priv.t (a int);
CREATE VIEW psql_priv.v AS SELECT a FROM psql_priv.t;
CREATE MATERIALIZED VIEW psql_priv.m AS SELECT a FROM psql_priv.t;
CREATE TABLE psql_priv.u (b text);
GRANT SELECT, INSERT ON psql_priv.t TO psql_reader;
GRANT ALL ON psql_priv.v TO psql_reader WITH GRANT OPTION;
GRANT SELECT ON psql_priv.u TO PUBLIC;
REVOKE TRUNCATE ON psql_priv.u FROM anyone;
GRANT SELECT (a), UPDATE (a) ON psql_priv.t TO psql_reader;
GRANT INSERT (b), REFERENCES (b) ON psql_priv.u TO PUBLIC;
GRANT SELECT (a) ON psql_priv.v TO psql_reader WITH GRANT OPTION;
CREATE TABLE psql_priv.x (p int, q int, r int);
GRANT SELECT (r, p), UPDATE (q) ON psql_priv.x TO psql_reader;
GRANT INSERT (q) ON psql_priv.x TO PUBLIC;
GRANT USAGE ON SCHEMA psql_priv TO psql_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA psql_priv GRANT SELECT ON TABLES TO psql_reader;
ALTER DEFAULT PRIVILEGES FOR ROLE psql_reader REVOKE ALL ON TABLES FROM psql_reader;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO psql_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA psql_priv GRANT SELECT, USAGE ON SEQUENCES TO psql_reader;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON TYPES TO psql_reader WITH GRANT OPTION;
CREATE TABLE psql_priv.w (c int);"
setup_both privileges_setup "$priv_setup"
same describe_privileges -- -c '\dp psql_priv.*'
same describe_privileges_z -- -c '\z psql_priv.t'
same describe_privileges_pattern -- -c '\dp psql_priv.?'
same describe_schema_privileges -- -c '\dn+ psql_priv'
same describe_default_privileges -- -c '\ddp'
# eddy lists its own schemas, which the bootstrap superuser (named as the session user that
# is no catalog role) owns; public is pg_database_owner's with PostgreSQL 15's grants (there
# with a comment, eddy has none); system schemas grant USAGE to everyone as pg_catalog does.
expect describe_schemas -- -c '\dn eddy*|public|psql_describe*' <<'WANT'
            List of schemas
        Name        |       Owner       
--------------------+-------------------
 eddy_catalog       | anyone
 eddy_internal      | anyone
 psql_describe      | anyone
 psql_describe_eddy | anyone
 public             | pg_database_owner
(5 rows)

[exit 0]
WANT
expect describe_schemas_plus -- -c '\dn+ eddy*|public|psql_describe*' <<'WANT'
                                        List of schemas
        Name        |       Owner       |           Access privileges            | Description 
--------------------+-------------------+----------------------------------------+-------------
 eddy_catalog       | anyone            | anyone=UC/anyone                      +| 
                    |                   | =U/anyone                              | 
 eddy_internal      | anyone            | anyone=UC/anyone                      +| 
                    |                   | =U/anyone                              | 
 psql_describe      | anyone            |                                        | 
 psql_describe_eddy | anyone            |                                        | 
 public             | pg_database_owner | pg_database_owner=UC/pg_database_owner+| 
                    |                   | =U/pg_database_owner                   | 
(5 rows)

[exit 0]
WANT
# One database, owned by the one superuser (named as the session user), whose text
# compares bytewise ("C"), and which takes no space on disk.
expect describe_databases -- -c '\l eddy' <<'WANT'
                                       List of databases
 Name | Owner  | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges 
------+--------+----------+---------+-------+------------+-----------------+-------------------
 eddy | anyone | UTF8     | C       | C     |            | libc            | 
(1 row)

[exit 0]
WANT
expect describe_databases_plus -- -c '\l+ eddy' <<'WANT'
                                                         List of databases
 Name | Owner  | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges |  Size   | Tablespace | Description 
------+--------+----------+---------+-------+------------+-----------------+-------------------+---------+------------+-------------
 eddy | anyone | UTF8     | C       | C     |            | libc            |                   | 0 bytes | pg_default | 
(1 row)

[exit 0]
WANT
# eddy's own system relations are listed and described like PostgreSQL's (\dvS pg_catalog.*):
# eddy_internal's are views in pg_class and pg_attribute, as pg_stat_* are.
expect describe_eddy_internal -- -c '\dvS eddy_internal.*' <<'WANT'
                  List of relations
    Schema     |        Name         | Type | Owner  
---------------+---------------------+------+--------
 eddy_internal | arrangement_sharing | view | anyone
 eddy_internal | arrangements        | view | anyone
 eddy_internal | cluster             | view | anyone
 eddy_internal | commands            | view | anyone
 eddy_internal | dataflow_operators  | view | anyone
 eddy_internal | dataflows           | view | anyone
 eddy_internal | frontiers           | view | anyone
 eddy_internal | metrics             | view | anyone
 eddy_internal | role_sessions       | view | anyone
 eddy_internal | worker_commands     | view | anyone
 eddy_internal | workers             | view | anyone
(11 rows)

[exit 0]
WANT
expect describe_eddy_internal_relation -- -c '\d eddy_internal.frontiers' <<'WANT'
              View "eddy_internal.frontiers"
    Column     |  Type   | Collation | Nullable | Default 
---------------+---------+-----------+----------+---------
 worker        | integer |           |          | 
 epoch         | bigint  |           |          | 
 frontier      | bigint  |           |          | 
 catalog_index | bigint  |           |          | 

[exit 0]
WANT
expect describe_eddy_internal_on_path -- -c 'SET search_path = eddy_internal' -c '\dv work*' <<'WANT'
SET
                List of relations
    Schema     |      Name       | Type | Owner  
---------------+-----------------+------+--------
 eddy_internal | worker_commands | view | anyone
 eddy_internal | workers         | view | anyone
(2 rows)

[exit 0]
WANT
# No extensions (PostgreSQL always has plpgsql).
expect describe_extensions -- -c '\dx' <<'WANT'
     List of installed extensions
 Name | Version | Schema | Description 
------+---------+--------+-------------
(0 rows)

[exit 0]
WANT
# The session's superuser, named as the session user, with every attribute, and the role the
# privileges above were granted to (\du reads memberships through a correlated ARRAY(subquery)).
expect describe_roles -- -c '\du' <<'WANT'
                                    List of roles
  Role name  |                         Attributes                         | Member of 
-------------+------------------------------------------------------------+-----------
 anyone      | Superuser, Create role, Create DB, Replication, Bypass RLS | {}
 psql_reader | Cannot login                                               | {}

[exit 0]
WANT
# pg_class holds no system relations of pg_catalog: with S only the user's relations show.
expect describe_relations_system -- "${in_schema[@]}" -c '\dS' <<'WANT'
SET
                 List of relations
    Schema     | Name |       Type        | Owner  
---------------+------+-------------------+--------
 psql_describe | dflt | table             | anyone
 psql_describe | keys | table             | anyone
 psql_describe | m    | materialized view | anyone
 psql_describe | t    | table             | anyone
 psql_describe | tab2 | table             | anyone
 psql_describe | v    | view              | anyone
(6 rows)

[exit 0]
WANT
expect describe_tables_system -- "${in_schema[@]}" -c '\dtS' <<'WANT'
SET
           List of relations
    Schema     | Name | Type  | Owner  
---------------+------+-------+--------
 psql_describe | dflt | table | anyone
 psql_describe | keys | table | anyone
 psql_describe | t    | table | anyone
 psql_describe | tab2 | table | anyone
(4 rows)

[exit 0]
WANT
# Tables and indexes hold no rows yet: every size is 0 bytes (PostgreSQL: a page per index).
expect describe_tables_plus -- "${in_schema[@]}" -c '\dt+' <<'WANT'
SET
                                      List of relations
    Schema     | Name | Type  | Owner  | Persistence | Access method |  Size   | Description 
---------------+------+-------+--------+-------------+---------------+---------+-------------
 psql_describe | dflt | table | anyone | permanent   | heap          | 0 bytes | 
 psql_describe | keys | table | anyone | permanent   | heap          | 0 bytes | 
 psql_describe | t    | table | anyone | permanent   | heap          | 0 bytes | 
 psql_describe | tab2 | table | anyone | permanent   | heap          | 0 bytes | 
(4 rows)

[exit 0]
WANT
expect describe_indexes_plus -- "${in_schema[@]}" -c '\di+' <<'WANT'
SET
                                             List of relations
    Schema     |    Name    | Type  | Owner  | Table | Persistence | Access method |  Size   | Description 
---------------+------------+-------+--------+-------+-------------+---------------+---------+-------------
 psql_describe | keys_pkey  | index | anyone | keys  | permanent   | btree         | 0 bytes | 
 psql_describe | keys_v_key | index | anyone | keys  | permanent   | btree         | 0 bytes | 
 psql_describe | mi         | index | anyone | m     | permanent   | btree         | 0 bytes | 
 psql_describe | ti         | index | anyone | t     | permanent   | btree         | 0 bytes | 
 psql_describe | ti2        | index | anyone | t     | permanent   | btree         | 0 bytes | 
(5 rows)

[exit 0]
WANT
# A view's definition is its query as eddy normalized it, not PostgreSQL's rule deparsed.
expect describe_view_plus -- "${in_schema[@]}" -c '\d+ v' <<'WANT'
SET
                           View "psql_describe.v"
 Column |  Type   | Collation | Nullable | Default | Storage  | Description 
--------+---------+-----------+----------+---------+----------+-------------
 a      | integer |           |          |         | plain    | 
 b      | text    |           |          |         | extended | 
View definition:
 SELECT a, b FROM eddy.psql_describe.t WHERE (a > 1);

[exit 0]
WANT
expect describe_matview_plus -- "${in_schema[@]}" -c '\d+ m' <<'WANT'
SET
                                  Materialized view "psql_describe.m"
 Column |  Type   | Collation | Nullable | Default | Storage | Compression | Stats target | Description 
--------+---------+-----------+----------+---------+---------+-------------+--------------+-------------
 a      | integer |           |          |         | plain   |             |              | 
 n      | bigint  |           |          |         | plain   |             |              | 
Indexes:
    "mi" btree (n)
View definition:
 SELECT a, count(*) AS n FROM eddy.psql_describe.t GROUP BY a;
Access method: heap

[exit 0]
WANT
# eddy keeps a CHECK condition and a default other than a literal as the SQL text they were
# written in (normalized); PostgreSQL deparses the expression it stored: CHECK (v <> ''::text), 1 + 2.
expect describe_check_and_defaults -- -c '\d psql_describe_eddy.chk' <<'WANT'
           Table "psql_describe_eddy.chk"
 Column |  Type   | Collation | Nullable |  Default  
--------+---------+-----------+----------+-----------
 id     | integer |           | not null | 
 v      | text    |           |          | 
 w      | integer |           |          | (1 + 2)
 s      | text    |           |          | 'x'::text
Indexes:
    "chk_pkey" PRIMARY KEY, btree (id)
Check constraints:
    "chk_v_check" CHECK ((v <> ''))

[exit 0]
WANT
# A source is a foreign table whose server is its connector (file, kafka or load_generator).
expect describe_source -- -c '\d psql_describe_eddy.gen' <<'WANT'
             Foreign table "psql_describe_eddy.gen"
 Column  |  Type  | Collation | Nullable | Default | FDW options 
---------+--------+-----------+----------+---------+-------------
 counter | bigint |           |          |         | 
Server: load_generator

[exit 0]
WANT
expect describe_source_plus -- -c '\d+ psql_describe_eddy.gen' <<'WANT'
                                 Foreign table "psql_describe_eddy.gen"
 Column  |  Type  | Collation | Nullable | Default | FDW options | Storage | Stats target | Description 
---------+--------+-----------+----------+---------+-------------+---------+--------------+-------------
 counter | bigint |           |          |         |             | plain   |              | 
Server: load_generator

[exit 0]
WANT
# \copy ... from: psql's own COPY FROM STDIN, from files and a program's output, and its errors.
printf '1\tone\n2\t\\N\n3\tth\\tree\n' >"$TMP/copy.txt"
printf 'a,b\n4,"four, 4"\n5,\n' >"$TMP/copy.csv"
printf '6\tsix\n6\tagain\n' >"$TMP/copy_dup.txt"
COPY_SETUP=(-c "DROP SCHEMA IF EXISTS psql_copy CASCADE" -c "CREATE SCHEMA psql_copy"
            -c "CREATE TABLE psql_copy.t (a int PRIMARY KEY, b text)")
same copy_from_files 's/^NOTICE:.*$//' -- "${COPY_SETUP[@]}" -c "\\copy psql_copy.t from '$TMP/copy.txt'" \
    -c "\\copy psql_copy.t (a, b) from '$TMP/copy.csv' with (format csv, header)" \
    -c "\\copy psql_copy.t from '$TMP/copy_dup.txt'" -c "SELECT * FROM psql_copy.t ORDER BY a"
same copy_from_program 's/^NOTICE:.*$//' -- "${COPY_SETUP[@]}" -c "\\copy psql_copy.t from program 'cat $TMP/copy.txt'" \
    -c "SELECT count(*) FROM psql_copy.t"
exit 0
