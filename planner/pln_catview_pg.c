/*
 * pln_catview_pg.c: pg_catalog's core relations (namespaces, relations,
 * attributes, types, databases, roles, access methods, indexes, defaults;
 * the indexes behind PRIMARY KEY and UNIQUE come from eddy_catalog.constraints)
 * and the views PostgreSQL defines over them (pg_tables, pg_views,
 * pg_matviews, pg_indexes), written over eddy_catalog. pln_catview.c says
 * how they are found and bound.
 */
#include "planner/pln_catview.h"

static const pln_catview_t views[] = {
    {"pg_catalog", "pg_namespace", 2615,
     "SELECT s.oid AS oid, s.name::name AS nspname, s.owner_oid AS nspowner, s.acl AS nspacl"
     " FROM eddy_catalog.schemas s WHERE " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_class", 1259,
     "SELECT i.oid AS oid, i.name::name AS relname, s.oid AS relnamespace, 0::oid AS reltype,"
     " 0::oid AS reloftype, i.owner_oid AS relowner,"
     " (CASE i.relkind WHEN 'i' THEN 403 WHEN 'r' THEN 2 WHEN 'm' THEN 2 ELSE 0 END)::oid AS relam,"
     " CASE WHEN i.relkind IN ('v', 'f') THEN 0::oid ELSE i.oid END AS relfilenode, 0::oid AS reltablespace,"
     " 0 AS relpages, (-1)::float4 AS reltuples, 0 AS relallvisible, 0::oid AS reltoastrelid,"
     " i.has_index OR coalesce(ci.indexed, false) AS relhasindex, false AS relisshared,"
     " 'p'::\"char\" AS relpersistence,"
     " i.relkind AS relkind, i.ncolumns AS relnatts,"
     " coalesce(ci.checks, 0)::int2 AS relchecks, i.relkind = 'v' AS relhasrules, false AS relhastriggers,"
     " false AS relhassubclass, false AS relrowsecurity, false AS relforcerowsecurity, true AS relispopulated,"
     " (CASE WHEN i.relkind IN ('r', 'm') THEN 'd' ELSE 'n' END)::\"char\" AS relreplident,"
     " false AS relispartition, 0::oid AS relrewrite, 0::oid AS relfrozenxid, 0::oid AS relminmxid,"
     " i.acl AS relacl, NULL::text[] AS reloptions, NULL::text AS relpartbound"
     " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " LEFT JOIN (SELECT relation_id, bool_or(index_oid <> 0) AS indexed,"
     " count(*) FILTER (WHERE type = 'c') AS checks FROM eddy_catalog.constraints GROUP BY relation_id) ci"
     " ON ci.relation_id = i.id WHERE " PLN_CATVIEW_IN_DATABASE("s")
     /* The indexes behind PRIMARY KEY and UNIQUE constraints (pln_constraint.c). */
     " UNION ALL SELECT k.index_oid, k.name::name, s.oid, 0::oid, 0::oid, i.owner_oid, 403::oid, k.index_oid,"
     " 0::oid, 0, (-1)::float4, 0, 0::oid, false, false, 'p'::\"char\", 'i'::\"char\","
     " array_length(k.keys, 1)::int2, 0::int2, false, false, false, false, false, true, 'n'::\"char\","
     " false, 0::oid, 0::oid, 0::oid, NULL::text[], NULL::text[], NULL::text"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id WHERE k.index_oid <> 0 AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_attribute", 1249,
     "SELECT i.oid AS attrelid, c.name::name AS attname, c.type_oid AS atttypid, -1 AS attstattarget,"
     " t.len AS attlen, c.position::int2 AS attnum, (CASE WHEN t.category = 'A' THEN 1 ELSE 0 END) AS attndims,"
     " -1 AS attcacheoff, c.typmod AS atttypmod, t.byval AS attbyval, t.align AS attalign,"
     " t.storage AS attstorage, ''::\"char\" AS attcompression, NOT c.nullable AS attnotnull,"
     " c.\"default\" IS NOT NULL AS atthasdef, false AS atthasmissing, ''::\"char\" AS attidentity,"
     " ''::\"char\" AS attgenerated, false AS attisdropped, true AS attislocal, 0 AS attinhcount,"
     " t.collation AS attcollation, c.acl AS attacl, NULL::text[] AS attoptions,"
     " NULL::text[] AS attfdwoptions, NULL::text AS attmissingval"
     " FROM eddy_catalog.columns c JOIN eddy_catalog.items i ON i.id = c.item_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id LEFT JOIN eddy_catalog.types t ON t.oid = c.type_oid"
     " WHERE " PLN_CATVIEW_IN_DATABASE("s")
     /* The key columns of the indexes behind PRIMARY KEY and UNIQUE constraints. */
     " UNION ALL SELECT k.index_oid, c.name::name, c.type_oid, -1, t.len, u.n::int2,"
     " (CASE WHEN t.category = 'A' THEN 1 ELSE 0 END), -1, c.typmod, t.byval, t.align, t.storage,"
     " ''::\"char\", false, false, false, ''::\"char\", ''::\"char\", false, true, 0, t.collation,"
     " NULL::text[], NULL::text[], NULL::text[], NULL::text"
     " FROM eddy_catalog.constraints k, unnest(k.keys) WITH ORDINALITY u(attnum, n), eddy_catalog.columns c,"
     " eddy_catalog.types t, eddy_catalog.items i, eddy_catalog.schemas s"
     " WHERE k.index_oid <> 0 AND c.item_id = k.relation_id AND c.position = u.attnum AND t.oid = c.type_oid"
     " AND i.id = k.relation_id AND s.id = i.schema_id AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_type", 1247,
     "SELECT t.oid AS oid, t.name::name AS typname, 11::oid AS typnamespace, 10::oid AS typowner,"
     " t.len AS typlen, t.byval AS typbyval,"
     " (CASE WHEN t.category IN ('P', 'X') THEN 'p' ELSE 'b' END)::\"char\" AS typtype,"
     " t.category AS typcategory, t.preferred AS typispreferred, true AS typisdefined,"
     " ','::\"char\" AS typdelim, 0::oid AS typrelid, t.subscript::regproc AS typsubscript, t.element_oid AS typelem,"
     " t.array_oid AS typarray, t.input::regproc AS typinput, t.output::regproc AS typoutput,"
     " t.receive::regproc AS typreceive, t.send::regproc AS typsend, t.modin::regproc AS typmodin,"
     " t.modout::regproc AS typmodout, t.analyze::regproc AS typanalyze,"
     " t.align AS typalign, t.storage AS typstorage, false AS typnotnull, 0::oid AS typbasetype,"
     " -1 AS typtypmod, 0 AS typndims, t.collation AS typcollation, NULL::text AS typdefaultbin,"
     " NULL::text AS typdefault, NULL::text[] AS typacl"
     " FROM eddy_catalog.types t WHERE t.oid <> 0"},

    {"pg_catalog", "pg_database", 1262,
     "SELECT d.oid AS oid, d.name::name AS datname, d.owner_oid AS datdba, 6 AS encoding,"
     " 'c'::\"char\" AS datlocprovider, false AS datistemplate, true AS datallowconn, -1 AS datconnlimit,"
     " 0::oid AS datfrozenxid, 0::oid AS datminmxid, 1663::oid AS dattablespace, 'C'::text AS datcollate,"
     " 'C'::text AS datctype, NULL::text AS daticulocale, NULL::text AS datcollversion, d.acl AS datacl"
     " FROM eddy_catalog.databases d"},

    /* The catalog's roles; a session whose user is no role (trust before any role
     * existed) sees itself as the superuser it acts as, OID 10 as PostgreSQL's
     * bootstrap superuser, which owns the built-ins and what such sessions create. */
    {"pg_catalog", "pg_authid", 1260,
     "SELECT r.oid AS oid, r.name::name AS rolname, r.superuser AS rolsuper, r.inherit AS rolinherit,"
     " r.createrole AS rolcreaterole, r.createdb AS rolcreatedb, r.login AS rolcanlogin,"
     " r.replication AS rolreplication, r.bypassrls AS rolbypassrls, r.conn_limit AS rolconnlimit,"
     " r.password AS rolpassword, r.valid_until AS rolvaliduntil"
     " FROM eddy_catalog.roles r"
     " UNION ALL SELECT 10::oid, session_user::name, true, true, true, true, true, true, true, -1,"
     " NULL::text, NULL::timestamptz"
     " WHERE NOT EXISTS (SELECT 1 FROM eddy_catalog.roles x WHERE x.name = session_user)"},

    {"pg_catalog", "pg_roles", 0,
     "SELECT a.rolname, a.rolsuper, a.rolinherit, a.rolcreaterole, a.rolcreatedb, a.rolcanlogin,"
     " a.rolreplication, a.rolconnlimit, '********'::text AS rolpassword, a.rolvaliduntil, a.rolbypassrls,"
     " NULL::text[] AS rolconfig, a.oid FROM pg_catalog.pg_authid a"},

    {"pg_catalog", "pg_user", 0,
     "SELECT a.rolname AS usename, a.oid AS usesysid, a.rolcreatedb AS usecreatedb, a.rolsuper AS usesuper,"
     " a.rolreplication AS userepl, a.rolbypassrls AS usebypassrls, '********'::text AS passwd,"
     " a.rolvaliduntil AS valuntil, NULL::text[] AS useconfig FROM pg_catalog.pg_authid a WHERE a.rolcanlogin"},

    /* ALTER DEFAULT PRIVILEGES' entries of this database. */
    {"pg_catalog", "pg_default_acl", 826,
     "SELECT (row_number() OVER (ORDER BY a.database_id, a.schema_oid, a.role_oid, a.objtype))::oid AS oid,"
     " a.role_oid AS defaclrole, a.schema_oid AS defaclnamespace, a.objtype AS defaclobjtype,"
     " a.acl AS defaclacl FROM eddy_catalog.default_acls a WHERE " PLN_CATVIEW_IN_DATABASE("a")},

    {"pg_catalog", "pg_am", 2601,
     "SELECT a.oid::oid AS oid, a.amname::name AS amname, 0::regproc AS amhandler, a.amtype::\"char\" AS amtype"
     " FROM (VALUES (2, 'heap', 't'), (403, 'btree', 'i')) a(oid, amname, amtype)"},

    {"pg_catalog", "pg_index", 2610,
     "SELECT x.oid AS indexrelid, r.oid AS indrelid, k.n::int2 AS indnatts, k.n::int2 AS indnkeyatts,"
     " false AS indisunique, false AS indnullsnotdistinct, false AS indisprimary, false AS indisexclusion,"
     " true AS indimmediate, false AS indisclustered, true AS indisvalid, false AS indcheckxmin,"
     " true AS indisready, true AS indislive, false AS indisreplident, k.keys AS indkey,"
     " NULL::oid[] AS indcollation, NULL::oid[] AS indclass, NULL::int2[] AS indoption,"
     " NULL::text AS indexprs, NULL::text AS indpred"
     " FROM (SELECT index_id, min(relation_id) AS relation_id, count(*) AS n,"
     " array_agg(attnum ORDER BY position) AS keys FROM eddy_catalog.index_keys GROUP BY index_id) k"
     " JOIN eddy_catalog.items x ON x.id = k.index_id JOIN eddy_catalog.items r ON r.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = x.schema_id WHERE " PLN_CATVIEW_IN_DATABASE("s")
     " UNION ALL SELECT k.index_oid, i.oid, array_length(k.keys, 1)::int2, array_length(k.keys, 1)::int2,"
     " true, false, k.type = 'p', false, true, false, true, false, true, true, false, k.keys,"
     " NULL::oid[], NULL::oid[], NULL::int2[], NULL::text, NULL::text"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id WHERE k.index_oid <> 0 AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_attrdef", 2604,
     "SELECT 0::oid AS oid, i.oid AS adrelid, c.position::int2 AS adnum, c.\"default\" AS adbin"
     " FROM eddy_catalog.columns c JOIN eddy_catalog.items i ON i.id = c.item_id"
     " WHERE c.\"default\" IS NOT NULL"},

    {"pg_catalog", "pg_description", 2609,
     "SELECT 0::oid AS objoid, 0::oid AS classoid, 0 AS objsubid, ''::text AS description WHERE false"},

    /* eddy has no range types; drivers join pg_type with it to find them (psycopg's RangeInfo). */
    {"pg_catalog", "pg_range", 3541,
     "SELECT 0::oid AS rngtypid, 0::oid AS rngsubtype, 0::oid AS rngmultitypid, 0::oid AS rngcollation,"
     " 0::oid AS rngsubopc, 0::regproc AS rngcanonical, 0::regproc AS rngsubdiff WHERE false"},

    {"pg_catalog", "pg_inherits", 2611,
     "SELECT 0::oid AS inhrelid, 0::oid AS inhparent, 0 AS inhseqno, false AS inhdetachpending WHERE false"},

    {"pg_catalog", "pg_tables", 0,
     "SELECT s.name::name AS schemaname, i.name::name AS tablename, pg_get_userbyid(i.owner_oid) AS tableowner,"
     " NULL::name AS tablespace, i.has_index OR ci.relation_id IS NOT NULL AS hasindexes,"
     " false AS hasrules, false AS hastriggers, false AS rowsecurity"
     " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " LEFT JOIN (SELECT DISTINCT relation_id FROM eddy_catalog.constraints WHERE index_oid <> 0) ci"
     " ON ci.relation_id = i.id WHERE i.relkind = 'r' AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_views", 0,
     "SELECT s.name::name AS schemaname, i.name::name AS viewname, pg_get_userbyid(i.owner_oid) AS viewowner,"
     " pg_get_viewdef(i.oid) AS definition"
     " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " WHERE i.relkind = 'v' AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_matviews", 0,
     "SELECT s.name::name AS schemaname, i.name::name AS matviewname, pg_get_userbyid(i.owner_oid) AS matviewowner,"
     " NULL::name AS tablespace,"
     " i.has_index AS hasindexes,"
     " true AS ispopulated, pg_get_viewdef(i.oid) AS definition"
     " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " WHERE i.relkind = 'm' AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"pg_catalog", "pg_indexes", 0,
     "SELECT s.name::name AS schemaname, r.name::name AS tablename, x.name::name AS indexname,"
     " NULL::name AS tablespace, pg_get_indexdef(x.oid) AS indexdef"
     " FROM (SELECT DISTINCT index_id, relation_id FROM eddy_catalog.index_keys) k"
     " JOIN eddy_catalog.items x ON x.id = k.index_id JOIN eddy_catalog.items r ON r.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = r.schema_id WHERE " PLN_CATVIEW_IN_DATABASE("s")
     " UNION ALL SELECT s.name::name, i.name::name, k.name::name, NULL::name, pg_get_indexdef(k.index_oid)"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id WHERE k.index_oid <> 0 AND " PLN_CATVIEW_IN_DATABASE("s")},
};

const pln_catview_table_t pln__catviews_pg = {views, CM_ARRAY_LEN(views)};
