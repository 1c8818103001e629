/*
 * pln_catview_describe.c: the pg_catalog relations psql's \d family reads
 * beyond the core ones (pln_catview_pg.c): collations, tablespaces, the
 * foreign servers and tables that stand for eddy's sources, and the
 * relations of what eddy does not have (role memberships, functions, enums,
 * extensions, row security policies, extended statistics, publications,
 * rewrite rules),
 * empty with PostgreSQL 15's columns so that psql's queries over them bind
 * and find nothing, as they do on a PostgreSQL without such objects.
 */
#include "planner/pln_catview.h"

/*
 * The foreign server a source's rows come from: one per connector, found
 * in its normalized CREATE SOURCE after the qualified name (identifiers
 * there are bare or double-quoted, so a name never hides " FROM KAFKA ").
 */
#define SOURCE_CONNECTOR(i)                                                                                            \
    "regexp_replace(" i ".create_sql, '^CREATE SOURCE ([^\" ]|\"([^\"]|\"\")*\")+ FROM (FILE|LOAD GENERATOR|KAFKA) .*$',"   \
    " '\\3')"

static const pln_catview_t views[] = {
    /* The collations every PostgreSQL has; eddy compares text bytewise, as "C" does. */
    {"pg_catalog", "pg_collation", 3456,
     "SELECT c.oid::oid AS oid, c.name::name AS collname, 11::oid AS collnamespace, 10::oid AS collowner,"
     " c.provider::\"char\" AS collprovider, true AS collisdeterministic, -1 AS collencoding,"
     " c.locale::text AS collcollate, c.locale::text AS collctype, NULL::text AS colliculocale,"
     " NULL::text AS collversion"
     " FROM (VALUES (100, 'default', 'd', NULL), (950, 'C', 'c', 'C'), (951, 'POSIX', 'c', 'POSIX'))"
     " c(oid, name, provider, locale)"},

    /* PostgreSQL's two built-in tablespaces; pg_database.dattablespace names pg_default. */
    {"pg_catalog", "pg_tablespace", 1213,
     "SELECT t.oid::oid AS oid, t.name::name AS spcname, 10::oid AS spcowner, NULL::text[] AS spcacl,"
     " NULL::text[] AS spcoptions FROM (VALUES (1663, 'pg_default'), (1664, 'pg_global')) t(oid, name)"},

    /*
     * A source is a foreign table (relkind 'f') whose server is its
     * connector: file, kafka or load_generator. They belong to no foreign
     * data wrapper (srvfdw 0) and have no options.
     */
    {"pg_catalog", "pg_foreign_server", 1417,
     "SELECT s.oid::oid AS oid, s.name::name AS srvname, 10::oid AS srvowner, 0::oid AS srvfdw,"
     " NULL::text AS srvtype, NULL::text AS srvversion, NULL::text[] AS srvacl, NULL::text[] AS srvoptions"
     " FROM (VALUES (12200, 'file'), (12201, 'kafka'), (12202, 'load_generator')) s(oid, name)"},

    {"pg_catalog", "pg_foreign_table", 3118,
     "SELECT i.oid AS ftrelid,"
     " (CASE " SOURCE_CONNECTOR("i") " WHEN 'FILE' THEN 12200 WHEN 'KAFKA' THEN 12201 ELSE 12202 END)::oid"
     " AS ftserver, NULL::text[] AS ftoptions"
     " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " WHERE i.relkind = 'f' AND " PLN_CATVIEW_IN_DATABASE("s")},

    /* eddy's functions are built in and not listed: PostgreSQL's \df lists only the user's. */
    {"pg_catalog", "pg_proc", 1255,
     "SELECT 0::oid AS oid, ''::name AS proname, 0::oid AS pronamespace, 10::oid AS proowner, 0::oid AS prolang,"
     " 0::float4 AS procost, 0::float4 AS prorows, 0::oid AS provariadic, 0::regproc AS prosupport,"
     " 'f'::\"char\" AS prokind, false AS prosecdef, false AS proleakproof, false AS proisstrict,"
     " false AS proretset, 'i'::\"char\" AS provolatile, 's'::\"char\" AS proparallel, 0::int2 AS pronargs,"
     " 0::int2 AS pronargdefaults, 0::oid AS prorettype, NULL::oid[] AS proargtypes,"
     " NULL::oid[] AS proallargtypes, NULL::\"char\"[] AS proargmodes, NULL::text[] AS proargnames,"
     " NULL::text AS proargdefaults, NULL::oid[] AS protrftypes, ''::text AS prosrc, NULL::text AS probin,"
     " NULL::text AS prosqlbody, NULL::text[] AS proconfig, NULL::text[] AS proacl WHERE false"},

    /* Memberships between the catalog's roles (psql's \du); eddy records no grantor. */
    {"pg_catalog", "pg_auth_members", 1261,
     "SELECT m.role_oid AS roleid, m.member_oid AS member, 10::oid AS grantor, false AS admin_option"
     " FROM eddy_catalog.role_members m"},

    {"pg_catalog", "pg_enum", 3501,
     "SELECT 0::oid AS oid, 0::oid AS enumtypid, 0::float4 AS enumsortorder, ''::name AS enumlabel WHERE false"},

    {"pg_catalog", "pg_extension", 3079,
     "SELECT 0::oid AS oid, ''::name AS extname, 10::oid AS extowner, 0::oid AS extnamespace,"
     " false AS extrelocatable, ''::text AS extversion, NULL::oid[] AS extconfig, NULL::text[] AS extcondition"
     " WHERE false"},

    {"pg_catalog", "pg_policy", 3256,
     "SELECT 0::oid AS oid, ''::name AS polname, 0::oid AS polrelid, '*'::\"char\" AS polcmd,"
     " true AS polpermissive, NULL::oid[] AS polroles, NULL::text AS polqual, NULL::text AS polwithcheck"
     " WHERE false"},

    {"pg_catalog", "pg_statistic_ext", 3381,
     "SELECT 0::oid AS oid, 0::oid AS stxrelid, ''::name AS stxname, 0::oid AS stxnamespace,"
     " 10::oid AS stxowner, -1 AS stxstattarget, NULL::int2[] AS stxkeys, NULL::\"char\"[] AS stxkind,"
     " NULL::text AS stxexprs WHERE false"},

    {"pg_catalog", "pg_publication", 6104,
     "SELECT 0::oid AS oid, ''::name AS pubname, 10::oid AS pubowner, false AS puballtables, true AS pubinsert,"
     " true AS pubupdate, true AS pubdelete, true AS pubtruncate, false AS pubviaroot WHERE false"},

    {"pg_catalog", "pg_publication_namespace", 6237,
     "SELECT 0::oid AS oid, 0::oid AS pnpubid, 0::oid AS pnnspid WHERE false"},

    {"pg_catalog", "pg_publication_rel", 6106,
     "SELECT 0::oid AS oid, 0::oid AS prpubid, 0::oid AS prrelid, NULL::text AS prqual, NULL::int2[] AS prattrs"
     " WHERE false"},

    /* A view's query is its definition (pg_get_viewdef), not a rule: eddy has no rewrite rules. */
    {"pg_catalog", "pg_rewrite", 2618,
     "SELECT 0::oid AS oid, ''::name AS rulename, 0::oid AS ev_class, '1'::\"char\" AS ev_type,"
     " 'O'::\"char\" AS ev_enabled, true AS is_instead, NULL::text AS ev_qual, NULL::text AS ev_action"
     " WHERE false"},
};

const pln_catview_table_t pln__catviews_describe = {views, CM_ARRAY_LEN(views)};
