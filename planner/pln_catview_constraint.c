/*
 * pln_catview_constraint.c: pg_constraint. eddy keeps NOT NULL on the
 * column (as PostgreSQL 15 does, outside pg_constraint); PRIMARY KEY and
 * CHECK live only in the stored CREATE TABLE so far, so the relation is
 * empty with PostgreSQL 15's columns.
 */
#include "planner/pln_catview.h"

static const pln_catview_t views[] = {
    {"pg_catalog", "pg_constraint", 2606,
     "SELECT 0::oid AS oid, ''::name AS conname, 0::oid AS connamespace, ''::\"char\" AS contype,"
     " false AS condeferrable, false AS condeferred, true AS convalidated, 0::oid AS conrelid,"
     " 0::oid AS contypid, 0::oid AS conindid, 0::oid AS conparentid, 0::oid AS confrelid,"
     " ''::\"char\" AS confupdtype, ''::\"char\" AS confdeltype, ''::\"char\" AS confmatchtype,"
     " true AS conislocal, 0 AS coninhcount, false AS connoinherit, NULL::int2[] AS conkey,"
     " NULL::int2[] AS confkey, NULL::oid[] AS conpfeqop, NULL::oid[] AS conppeqop, NULL::oid[] AS conffeqop,"
     " NULL::int2[] AS confdelsetcols, NULL::oid[] AS conexclop, NULL::text AS conbin WHERE false"},

};

const pln_catview_table_t pln__catviews_constraint = {views, CM_ARRAY_LEN(views)};
