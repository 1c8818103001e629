/*
 * pln_catview_constraint.c: pg_constraint over eddy_catalog.constraints
 * (pln_constraint.c): PRIMARY KEY, UNIQUE and CHECK, with the OIDs that
 * file explains. NOT NULL lives on the column (pg_attribute.attnotnull),
 * outside pg_constraint, as in PostgreSQL 15.
 */
#include "planner/pln_catview.h"

static const pln_catview_t views[] = {
    {"pg_catalog", "pg_constraint", 2606,
     "SELECT k.oid AS oid, k.name::name AS conname, s.oid AS connamespace, k.type AS contype,"
     " false AS condeferrable, false AS condeferred, true AS convalidated, i.oid AS conrelid,"
     " 0::oid AS contypid, k.index_oid AS conindid, 0::oid AS conparentid, 0::oid AS confrelid,"
     " ' '::\"char\" AS confupdtype, ' '::\"char\" AS confdeltype, ' '::\"char\" AS confmatchtype,"
     " true AS conislocal, 0 AS coninhcount, false AS connoinherit, k.keys AS conkey,"
     " NULL::int2[] AS confkey, NULL::oid[] AS conpfeqop, NULL::oid[] AS conppeqop, NULL::oid[] AS conffeqop,"
     " NULL::int2[] AS confdelsetcols, NULL::oid[] AS conexclop,"
     " CASE WHEN k.type = 'c' THEN k.definition END AS conbin"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id WHERE " PLN_CATVIEW_IN_DATABASE("s")},
};

const pln_catview_table_t pln__catviews_constraint = {views, CM_ARRAY_LEN(views)};
