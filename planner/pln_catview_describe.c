/*
 * pln_catview_describe.c: the pg_catalog relations psql's \d family reads
 * beyond the core ones (pln_catview_pg.c): collations, ...
 */
#include "planner/pln_catview.h"

static const pln_catview_t views[] = {
    /* The collations every PostgreSQL has; eddy compares text bytewise, as "C" does. */
    {"pg_catalog", "pg_collation", 3456,
     "SELECT c.oid::oid AS oid, c.name::name AS collname, 11::oid AS collnamespace, 10::oid AS collowner,"
     " c.provider::\"char\" AS collprovider, true AS collisdeterministic, -1 AS collencoding,"
     " c.locale::text AS collcollate, c.locale::text AS collctype, NULL::text AS colliculocale,"
     " NULL::text AS collversion"
     " FROM (VALUES (100, 'default', 'd', NULL), (950, 'C', 'c', 'C'), (951, 'POSIX', 'c', 'POSIX'))"
     " c(oid, name, provider, locale)"},
};

const pln_catview_table_t pln__catviews_describe = {views, CM_ARRAY_LEN(views)};
