/*
 * pln_catview_info.c: information_schema's views (SQL standard, as
 * PostgreSQL 15 defines them) over eddy_catalog.
 */
#include "planner/pln_catview.h"

static const pln_catview_t views[] = {
    {"information_schema", "schemata", 0,
     "SELECT current_database()::text AS catalog_name, s.name::text AS schema_name,"
     " current_user::text AS schema_owner, NULL::text AS default_character_set_catalog,"
     " NULL::text AS default_character_set_schema, NULL::text AS default_character_set_name,"
     " NULL::text AS sql_path"
     " FROM eddy_catalog.schemas s WHERE " PLN_CATVIEW_IN_DATABASE("s")},
};

const pln_catview_table_t pln__catviews_info = {views, CM_ARRAY_LEN(views)};
