-- catalog.sql: pg_catalog as clients read it, against PostgreSQL 15 (tests/diff/diff.py).
-- One statement per line, run in order; the objects live in schema catdiff, made here and
-- dropped at the end. Only what eddy models is compared: eddy has no system relations in
-- pg_class, its own system schemas in pg_namespace, and no TOAST, triggers or rules.
DROP SCHEMA IF EXISTS catdiff CASCADE
CREATE SCHEMA catdiff
CREATE TABLE catdiff.t (a int NOT NULL, b text, c numeric(10,2), d varchar(20), e timestamptz, f int8[], g bool, h int DEFAULT 7)
CREATE VIEW catdiff.v AS SELECT a, b FROM catdiff.t
CREATE TABLE catdiff."Mixed Case" (x int)
CREATE TABLE catdiff.k (id int PRIMARY KEY, code text NOT NULL UNIQUE CHECK (length(code) > 1), n int, m int, CONSTRAINT nm UNIQUE (n, m), CHECK (n > 0 AND m < 10))
-- pg_class and pg_namespace
SELECT c.relname, c.relkind, c.relnatts, c.relpersistence, c.relhasrules, c.relreplident, c.relispartition, c.relchecks, c.relowner = 10 AS owner_is_superuser FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'catdiff' ORDER BY c.relname
SELECT c.relname, am.amname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_am am ON am.oid = c.relam WHERE n.nspname = 'catdiff' ORDER BY 1
SELECT nspname FROM pg_namespace WHERE nspname IN ('pg_catalog', 'public', 'catdiff', 'information_schema') ORDER BY 1
SELECT n.nspname, n.nspowner FROM pg_namespace n WHERE n.nspname = 'catdiff'
-- pg_attribute: what psql's \d and drivers read of a column
SELECT a.attname, a.attnum, a.atttypid, a.atttypmod, a.attnotnull, a.atthasdef, a.attlen, a.attbyval, a.attalign, a.attstorage, a.attndims, a.attisdropped, a.attidentity, a.attgenerated FROM pg_attribute a WHERE a.attrelid = 'catdiff.t'::regclass AND a.attnum > 0 ORDER BY a.attnum
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attcollation FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'catdiff.t'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
SELECT a.attname, a.atttypid FROM pg_attribute a WHERE a.attrelid = 'catdiff.v'::regclass AND a.attnum > 0 ORDER BY a.attnum
SELECT pg_get_expr(d.adbin, d.adrelid), d.adnum FROM pg_attrdef d WHERE d.adrelid = 'catdiff.t'::regclass ORDER BY d.adnum
-- constraints and the indexes behind PRIMARY KEY and UNIQUE
SELECT conname, contype, condeferrable, convalidated, pg_get_constraintdef(oid), conindid <> 0 AS has_index, conrelid = 'catdiff.k'::regclass FROM pg_constraint WHERE connamespace = (SELECT oid FROM pg_namespace WHERE nspname = 'catdiff') ORDER BY conname
SELECT conname, conkey FROM pg_constraint WHERE conrelid = 'catdiff.k'::regclass AND contype IN ('p', 'u') ORDER BY conname
SELECT c.relname, c.relkind, c.relnatts, am.amname, i.indisprimary, i.indisunique, i.indnatts, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid = 'catdiff.k'::regclass ORDER BY 1
SELECT c2.relname, con.conname, con.contype FROM pg_index i JOIN pg_class c2 ON c2.oid = i.indexrelid LEFT JOIN pg_constraint con ON conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p', 'u', 'x') WHERE i.indrelid = 'catdiff.k'::regclass ORDER BY i.indisprimary DESC, c2.relname
SELECT a.attname, a.attnum, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'catdiff.nm'::regclass ORDER BY a.attnum
SELECT 'catdiff.k_pkey'::regclass, pg_table_is_visible('catdiff.k_pkey'::regclass), c.relhasindex FROM pg_class c WHERE c.oid = 'catdiff.k'::regclass
SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'catdiff' ORDER BY indexname
CREATE TABLE catdiff.a_table_name_long_enough_that_postgres_cuts_its_index_name_hard (a_column_name_that_is_also_rather_long_to_read int PRIMARY KEY, b int UNIQUE)
SELECT c.relname, pg_get_indexdef(c.oid), pg_get_constraintdef(con.oid) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conindid WHERE con.conrelid = 'catdiff.a_table_name_long_enough_that_postgres_cuts_its_index_name_hard'::regclass ORDER BY 1
-- pg_type: the types eddy has
SELECT t.oid, t.typname, t.typlen, t.typbyval, t.typtype, t.typcategory, t.typispreferred, t.typelem, t.typarray, t.typalign, t.typstorage, t.typcollation, t.typnamespace FROM pg_type t WHERE t.oid IN (16, 17, 18, 19, 20, 21, 23, 25, 26, 114, 700, 701, 1042, 1043, 1082, 1083, 1114, 1184, 1186, 1700, 2950, 3802) ORDER BY t.oid
SELECT t.oid, t.typname, t.typlen, t.typelem, t.typcategory, t.typalign FROM pg_type t WHERE t.oid IN (1000, 1005, 1007, 1009, 1016, 1021, 1022, 1115, 1182, 1231) ORDER BY t.oid
SELECT typname FROM pg_type WHERE oid = 'int4'::regtype
SELECT t.typname, t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout, t.typanalyze, t.typsubscript FROM pg_type t WHERE t.oid IN (16, 17, 18, 19, 20, 21, 23, 24, 25, 26, 114, 700, 701, 705, 1042, 1043, 1082, 1083, 1114, 1184, 1186, 1700, 2205, 2206, 2249, 2278, 2950, 3802, 4089) ORDER BY t.oid
SELECT t.typname, t.typinput::oid, t.typoutput::oid, t.typreceive::oid, t.typsend::oid, t.typmodin::oid, t.typanalyze::oid, t.typsubscript::oid FROM pg_type t WHERE t.oid IN (199, 1000, 1001, 1003, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1115, 1182, 1183, 1185, 1187, 1231, 2211, 2951, 3807, 1002) ORDER BY t.oid
SELECT typinput = 'pg_catalog.array_in'::regproc AS is_array, typtype, typname FROM pg_catalog.pg_type WHERE oid IN (23, 1007, 3807, 2249) ORDER BY oid
-- regclass
SELECT 'catdiff.t'::regclass, 'catdiff."Mixed Case"'::regclass, 'CATDIFF.T'::regclass
SELECT 'pg_class'::regclass::oid, 'pg_namespace'::regclass::oid, 'pg_type'::regclass::oid, 'pg_attribute'::regclass::oid, 'pg_catalog.pg_database'::regclass::oid
SELECT 'catdiff.nope'::regclass
SELECT 'nope'::regclass
SELECT 'a.b.c.d'::regclass
SELECT '"unterminated'::regclass
SELECT 0::regclass, 0::regproc
SELECT pg_table_is_visible('catdiff.t'::regclass), pg_table_is_visible(0)
SET search_path = catdiff, public
SELECT pg_table_is_visible('catdiff.t'::regclass), 't'::regclass, current_schemas(false), current_schemas(true), current_schema()
SELECT 't'::regclass::oid = 'catdiff.t'::regclass::oid
RESET search_path
SET search_path = nosuchschema
SELECT current_schemas(false), current_schemas(true), current_schema()
RESET search_path
SELECT current_schemas(false), current_schema()
-- system information functions
SELECT format_type(23, -1), format_type(1043, 24), format_type(1700, 655366), format_type(1042, 14), format_type(1184, 7)
SELECT format_type(0, -1), format_type(NULL, 1), format_type(25, NULL), format_type(1007, -1), format_type(1185, 3), format_type(1015, 10485764)
SELECT pg_size_pretty(0::bigint), pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(123456789::bigint), pg_size_pretty(-987654321012::bigint), pg_size_pretty(9223372036854775807)
SELECT pg_encoding_to_char(6), pg_encoding_to_char(0)
SELECT obj_description('catdiff.t'::regclass, 'pg_class'), obj_description('catdiff.t'::regclass), col_description('catdiff.t'::regclass, 1)
SELECT pg_type_is_visible(23), pg_type_is_visible(0)
SELECT pg_get_userbyid(n.nspowner) = current_user FROM pg_namespace n WHERE n.nspname = 'catdiff'
SELECT pg_get_userbyid(c.relowner) = current_user FROM pg_class c WHERE c.oid = 'catdiff.t'::regclass
-- the views over the catalog
SELECT schemaname, tablename, hasindexes, hasrules, hastriggers, rowsecurity FROM pg_tables WHERE schemaname = 'catdiff' ORDER BY 2
SELECT schemaname, viewname FROM pg_views WHERE schemaname = 'catdiff'
SELECT datname, encoding, datallowconn, datistemplate FROM pg_database WHERE datname = current_database()
SELECT rolname = current_user, rolsuper, rolcanlogin FROM pg_roles WHERE rolname = current_user
SELECT amname, amtype FROM pg_am WHERE oid IN (2, 403) ORDER BY 1
SELECT collname, collprovider FROM pg_collation WHERE oid IN (100, 950, 951) ORDER BY oid
-- a view or table has no record column (42P16); a field of one is a column like any other
CREATE VIEW catdiff.vr AS SELECT ROW(1, 2) AS r
CREATE VIEW catdiff.vr AS SELECT 1 AS a, information_schema._pg_expandarray(ARRAY[1])
CREATE MATERIALIZED VIEW catdiff.vr AS SELECT ROW(1, 'a') AS r
CREATE TABLE catdiff.tr AS SELECT ROW(1, 2) AS r WITH NO DATA
CREATE VIEW catdiff.vf AS SELECT (information_schema._pg_expandarray(ARRAY[5, 6])).n, (k).x FROM (SELECT information_schema._pg_expandarray(ARRAY['a']) AS k) s
SELECT a.attname, a.atttypid, a.attnum FROM pg_attribute a WHERE a.attrelid = 'catdiff.vf'::regclass ORDER BY a.attnum
DROP SCHEMA catdiff CASCADE
-- pg_settings: the session's parameters (pgJDBC's getImportedKeys reads max_index_keys)
SELECT name, setting, unit, context, vartype, source, min_val, max_val, enumvals, boot_val, reset_val, pending_restart FROM pg_settings WHERE name IN ('max_index_keys', 'statement_timeout', 'lock_timeout', 'integer_datetimes', 'default_transaction_isolation') ORDER BY name
SELECT setting FROM pg_catalog.pg_settings WHERE name = 'max_index_keys'
-- pg_get_keywords: the parser's keywords (pgJDBC's getSQLKeywords)
SELECT * FROM pg_get_keywords()
SELECT catcode, barelabel, count(*) FROM pg_catalog.pg_get_keywords() GROUP BY 1, 2 ORDER BY 1, 2
SELECT (pg_get_keywords()).word LIMIT 3
