-- information_schema.sql: information_schema as drivers, BI tools and dbt read it, against PostgreSQL 15
-- (tests/diff/diff.py compares column names, type OIDs and values). One statement per line, run in
-- order; the objects live in schemas isdiff and isdiff2, made here and dropped at the end.
-- Where eddy differs by design the queries leave it out, and say so:
--   * pg_get_viewdef prints eddy's own canonical SQL, so views.view_definition is not compared;
--   * eddy's views are never updatable: the views here are ones PostgreSQL cannot update either
--     (tests/unit/test_planner_catview.c checks eddy's answer for a simple view);
--   * NOT NULL constraints are named after OIDs, which differ: they are matched by PostgreSQL's naming;
--   * a CHECK clause is eddy's canonical SQL ('' where PostgreSQL prints ''::text, BETWEEN and IN as
--     written where PostgreSQL expands them), so the clauses compared have neither (c3 is left out);
--   * one role: the grants are the owner's own, and PostgreSQL's predefined roles are left out;
--   * eddy's database collates as "C" while the reference cluster runs initdb --locale=C.UTF-8, so
--     character_sets' default collation differs; collations are compared on the ones both have.
DROP SCHEMA IF EXISTS isdiff CASCADE
DROP SCHEMA IF EXISTS isdiff2 CASCADE
CREATE SCHEMA isdiff
CREATE SCHEMA isdiff2
CREATE TABLE isdiff.t (a int NOT NULL, b text DEFAULT 'x'::text, c numeric(10,2), d varchar(20), e timestamptz, f int8[], g bool DEFAULT true, h int DEFAULT 7, i bytea, j "char", k name, l smallint NOT NULL, m bigint, n oid, o json, p real, q double precision, r char(5), s date, t time, u timestamp, v interval, w numeric, x regclass, y regtype, z uuid, aa jsonb, ab regproc, ac time(3), ad timestamp(0), ae timestamptz(4), af interval(2), ag interval day to second(3), ah interval year, ai varchar, aj char, ak numeric(5), al text[], am varchar(10)[], an numeric(4,1)[], ao bool[], ap bytea[], aq name[], ar smallint[], as_ int[], at_ bpchar[], au real[], av float8[], aw oid[], ax timestamp[], ay date[], az time[], ba timestamptz[], bb interval[], bc regtype[], bd uuid[], be json[], bf jsonb[], bg char(3)[], bh bpchar, bi character varying(1), bj numeric(1000, 500), bk decimal(7,-2), bl interval minute to second, bm interval hour to second(0), bn timestamp(6) with time zone, bo float(10), bp float(30), bq time(0) without time zone)
CREATE TABLE isdiff."Mixed Case" ("Col A" int NOT NULL, "b""q" text NOT NULL, c int PRIMARY KEY, d text DEFAULT now()::text)
CREATE TABLE isdiff.d (a int DEFAULT 7, b int DEFAULT -1, c bigint DEFAULT 7, d numeric DEFAULT 1.5, e numeric DEFAULT 100, f float8 DEFAULT 1.5, g text DEFAULT 'x', h varchar(10) DEFAULT 'y', i bool DEFAULT true, j timestamptz DEFAULT now(), k timestamptz DEFAULT CURRENT_TIMESTAMP, l date DEFAULT '2020-1-1', m int DEFAULT 1 + 2, n text DEFAULT NULL, o int[] DEFAULT '{1,2}', p jsonb DEFAULT '{}', q int8 DEFAULT -5, s interval DEFAULT '1 day', t char(3) DEFAULT 'ab', u numeric(5,2) DEFAULT 2, v smallint DEFAULT 3, w float4 DEFAULT 2.5, x uuid DEFAULT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', z bool DEFAULT 't', aa int DEFAULT '5', ab timestamp DEFAULT localtimestamp, ac date DEFAULT current_date, ad text DEFAULT current_user, ae int DEFAULT (2), af numeric DEFAULT -1.5, ah bigint DEFAULT 9999999999, ai numeric DEFAULT 1e3, aj text DEFAULT E'a\\b''c', ak numeric(6,2) DEFAULT '1.5', al float8 DEFAULT 'NaN', am text DEFAULT 'x'::varchar, an varchar(3) DEFAULT 'x'::varchar(3), ao numeric DEFAULT 12345678901234567890, ap int8 DEFAULT -9999999999, aq interval(2) DEFAULT '1 day 01:02:03.456', ar interval year DEFAULT '3 years 2 months', at_ text DEFAULT NULL::text, au real DEFAULT '1.5', av timestamptz DEFAULT '2020-01-01 10:00', aw bool DEFAULT 'yes', ax int DEFAULT 1.5, ay text DEFAULT 5, az date DEFAULT date '2021-02-03', ba int DEFAULT -2147483648)
CREATE TABLE isdiff.k (a int PRIMARY KEY, b int CHECK (b > 0), c int UNIQUE, d int, e text, CONSTRAINT two UNIQUE (e, d), CONSTRAINT ch CHECK (d > b AND a < 100), CONSTRAINT c3 CHECK (CASE WHEN c BETWEEN b AND d THEN true ELSE a IN (d, 3) END), CONSTRAINT c4 CHECK (1 > 0))
CREATE TABLE isdiff.k2 (x int, y int, PRIMARY KEY (y, x), UNIQUE (x))
CREATE VIEW isdiff.v AS SELECT DISTINCT a, b, f FROM isdiff.t
CREATE VIEW isdiff.agg (n, top) AS SELECT count(*), max(c) FROM isdiff.t
CREATE TABLE isdiff2.u (id bigint NOT NULL, note varchar(200))
CREATE VIEW isdiff2.w AS SELECT u.id, t.a FROM isdiff2.u JOIN isdiff.t ON t.a = u.id
-- information_schema_catalog_name, schemata
SELECT * FROM information_schema.information_schema_catalog_name
SELECT * FROM information_schema.schemata WHERE schema_name IN ('isdiff', 'isdiff2', 'pg_catalog', 'information_schema') ORDER BY schema_name
SELECT catalog_name = current_database(), schema_owner = current_user FROM information_schema.schemata WHERE schema_name = 'isdiff'
-- tables: what BI tools list
SELECT * FROM information_schema.tables WHERE table_schema IN ('isdiff', 'isdiff2') ORDER BY table_schema, table_name
SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema LIKE 'isdiff%' ORDER BY 1, 2
SELECT table_name FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = 'isdiff' AND table_type = 'BASE TABLE' ORDER BY 1
SELECT t.table_schema, t.table_type, count(*) FROM information_schema.tables t WHERE t.table_schema LIKE 'isdiff%' GROUP BY 1, 2 ORDER BY 1, 2
-- columns: every type eddy has, with its typmods
SELECT * FROM information_schema.columns WHERE table_schema IN ('isdiff', 'isdiff2') ORDER BY table_schema, table_name, ordinal_position
SELECT column_name, data_type, character_maximum_length, numeric_precision, numeric_scale FROM INFORMATION_SCHEMA.columns WHERE table_name = 't' AND table_schema = 'isdiff' ORDER BY ordinal_position
SELECT column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'isdiff' AND table_name = 'Mixed Case' ORDER BY ordinal_position
SELECT c.table_name, count(*), max(c.ordinal_position), sum(CASE WHEN c.is_nullable = 'NO' THEN 1 ELSE 0 END) FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE t.table_schema LIKE 'isdiff%' GROUP BY 1 ORDER BY 1
SELECT c.column_name, a.atttypid = (SELECT oid FROM pg_type WHERE typname = c.udt_name) AS same_type FROM information_schema.columns c JOIN pg_attribute a ON a.attrelid = 'isdiff.t'::regclass AND a.attname = c.column_name WHERE c.table_schema = 'isdiff' AND c.table_name = 't' ORDER BY c.ordinal_position
-- column_default: literals as pg_get_expr prints PostgreSQL's stored constant, a NULL default is none
-- (an expression over literals, 'a' || 'b', keeps eddy's SQL: PostgreSQL labels the inner literals)
SELECT column_name, column_default, is_nullable FROM information_schema.columns WHERE table_schema = 'isdiff' AND table_name = 'd' ORDER BY ordinal_position
SELECT a.attname, a.atthasdef, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = 'isdiff.d'::regclass AND a.attnum > 0 ORDER BY a.attnum
-- views (view_definition: see the header)
SELECT table_catalog, table_schema, table_name, check_option, is_updatable, is_insertable_into, is_trigger_updatable, is_trigger_deletable, is_trigger_insertable_into FROM information_schema.views WHERE table_schema LIKE 'isdiff%' ORDER BY 2, 3
SELECT table_name, view_definition IS NOT NULL FROM information_schema.views WHERE table_schema = 'isdiff' ORDER BY 1
-- constraints: NOT NULL as PostgreSQL 15 names it, <schema oid>_<relation oid>_<attnum>_not_null
SELECT c.table_schema, c.table_name, c.column_name, tc.constraint_catalog = current_database(), tc.constraint_schema, tc.constraint_type, tc.is_deferrable, tc.initially_deferred, tc.enforced, tc.nulls_distinct FROM information_schema.columns c JOIN pg_namespace n ON n.nspname = c.table_schema JOIN pg_class r ON r.relnamespace = n.oid AND r.relname = c.table_name JOIN information_schema.table_constraints tc ON tc.table_schema = c.table_schema AND tc.table_name = c.table_name AND tc.constraint_name = n.oid::text || '_' || r.oid::text || '_' || c.ordinal_position::text || '_not_null' WHERE c.table_schema LIKE 'isdiff%' ORDER BY 1, 2, 3
SELECT table_schema, table_name, count(*) FROM information_schema.table_constraints WHERE table_schema LIKE 'isdiff%' AND constraint_type = 'CHECK' AND constraint_name LIKE '%not_null' GROUP BY 1, 2 ORDER BY 1, 2
SELECT cc.constraint_schema, cc.check_clause FROM information_schema.check_constraints cc JOIN information_schema.table_constraints tc USING (constraint_schema, constraint_name) WHERE tc.table_schema LIKE 'isdiff%' AND cc.constraint_name <> 'c3' ORDER BY 1, 2
-- PRIMARY KEY, UNIQUE and CHECK, read from the stored CREATE TABLE
SELECT * FROM information_schema.table_constraints WHERE table_schema LIKE 'isdiff%' AND constraint_name NOT LIKE '%not_null' ORDER BY table_name, constraint_name
SELECT * FROM information_schema.check_constraints WHERE constraint_schema LIKE 'isdiff%' AND constraint_name NOT LIKE '%not_null' AND constraint_name <> 'c3' ORDER BY constraint_name
SELECT * FROM information_schema.key_column_usage WHERE table_schema LIKE 'isdiff%' ORDER BY table_name, constraint_name, ordinal_position
SELECT kcu.table_name, kcu.column_name, kcu.ordinal_position FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.constraint_schema = tc.constraint_schema WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = 'isdiff' ORDER BY 1, 3
SELECT * FROM information_schema.constraint_column_usage WHERE table_schema LIKE 'isdiff%' ORDER BY table_name, constraint_name, column_name
SELECT conname, conkey FROM pg_constraint WHERE conrelid = 'isdiff.k'::regclass ORDER BY conname
SELECT * FROM information_schema.referential_constraints WHERE constraint_schema LIKE 'isdiff%'
-- privileges: the owner's, as PostgreSQL lists them for a superuser that owns the relations
SELECT grantor = current_user, grantee = current_user, table_catalog, table_schema, table_name, privilege_type, is_grantable, with_hierarchy FROM information_schema.table_privileges WHERE table_schema LIKE 'isdiff%' ORDER BY 4, 5, 6
SELECT grantor = current_user, grantee = current_user, table_schema, table_name, column_name, privilege_type, is_grantable FROM information_schema.column_privileges WHERE table_schema LIKE 'isdiff%' ORDER BY 3, 4, 5, 6
SELECT count(*) FROM information_schema.table_privileges WHERE table_schema LIKE 'isdiff%' AND grantee = 'PUBLIC'
-- element_types: the arrays' elements
SELECT * FROM information_schema.element_types WHERE object_schema LIKE 'isdiff%' ORDER BY object_schema, object_name, collection_type_identifier::int
SELECT c.column_name, e.data_type, e.udt_name FROM information_schema.columns c JOIN information_schema.element_types e ON (c.table_catalog, c.table_schema, c.table_name, 'TABLE', c.dtd_identifier) = (e.object_catalog, e.object_schema, e.object_name, e.object_type, e.collection_type_identifier) WHERE c.table_schema = 'isdiff' AND c.table_name = 't' ORDER BY c.ordinal_position
-- what eddy has none of: routines, parameters, sequences, triggers (the columns and types still compare)
SELECT * FROM information_schema.routines WHERE routine_schema LIKE 'isdiff%'
SELECT * FROM information_schema.parameters WHERE specific_schema LIKE 'isdiff%'
SELECT * FROM information_schema.sequences WHERE sequence_schema LIKE 'isdiff%'
SELECT * FROM information_schema.triggers WHERE event_object_schema LIKE 'isdiff%'
-- roles, character sets, collations
SELECT * FROM information_schema.enabled_roles WHERE role_name = current_user
SELECT * FROM information_schema.applicable_roles WHERE grantee = current_user AND role_name <> 'pg_database_owner'
SELECT character_set_catalog, character_set_schema, character_set_name, character_repertoire, form_of_use, default_collate_catalog FROM information_schema.character_sets
SELECT * FROM information_schema.collations WHERE collation_name IN ('default', 'C', 'POSIX') ORDER BY collation_name
-- errors
SELECT * FROM information_schema.nosuchview
SELECT nosuchcolumn FROM information_schema.tables
DROP SCHEMA isdiff2 CASCADE
DROP SCHEMA isdiff CASCADE
SELECT count(*) FROM information_schema.tables WHERE table_schema LIKE 'isdiff%'
