/*
 * pln_catview_info.c: information_schema's views (SQL standard, as
 * PostgreSQL 15 defines them in information_schema.sql) over eddy_catalog
 * and the pg_catalog views of pln_catview_pg.c, with PostgreSQL's columns in
 * its order. The rows are the session database's schemas and the system
 * ones (PLN_CATVIEW_IN_DATABASE), as PostgreSQL shows one database.
 *
 * Types. PostgreSQL declares these columns with the domains sql_identifier
 * (over name), character_data (varchar), cardinal_number (int4), yes_or_no
 * (varchar(3)) and time_stamp (timestamptz(2)). eddy has no domains, so the
 * views cast to the underlying types; clients see no difference, because
 * PostgreSQL itself sends a domain's base type in RowDescription (psycopg and
 * libpq report 19, 1043, 23 and 1184 for these columns there too). Only
 * pg_typeof() of a column names the domain in PostgreSQL and the base type
 * here.
 *
 * What eddy has and has not. One superuser (OID 10, the session user) owns
 * every object, so the privilege views list what PostgreSQL lists for an
 * owner: every table privilege, grantable, granted by and to that role, and
 * no grants to PUBLIC; applicable_roles is empty (eddy has no role
 * memberships, not even PostgreSQL's implicit pg_database_owner). eddy has
 * no functions of users, sequences, triggers or domains: routines,
 * parameters, sequences and triggers are empty. Views are never updatable
 * (eddy keeps them up to date itself), sources are foreign tables that take
 * no INSERT. PRIMARY KEY, UNIQUE and CHECK come from
 * eddy_catalog.constraints (pln_constraint.c reads them from the stored
 * CREATE TABLE, as pg_constraint shows them, with the columns a CHECK reads
 * in conkey where PostgreSQL asks pg_depend); there are no foreign keys, so
 * referential_constraints is empty. NOT NULL is listed as
 * PostgreSQL 15 lists it, a CHECK constraint named
 * <schema oid>_<relation oid>_<attnum>_not_null in table_constraints and
 * check_constraints. Materialized views are absent from tables and columns,
 * as in PostgreSQL (pg_matviews lists them).
 */
#include "planner/pln_catview.h"

/* PostgreSQL's domains, spelled as the types eddy sends for them. */
#define IDENT "::name"
#define CHARS "::varchar"
#define CARD "::int4"
#define YESNO "::varchar(3)"
#define STAMP "::timestamptz(2)"

/* A schema's relations of the kinds information_schema shows: tables, views, foreign tables (sources). */
#define RELATIONS(kinds)                                                                                               \
    " FROM eddy_catalog.items i JOIN eddy_catalog.schemas s ON s.id = i.schema_id"                                  \
    " WHERE i.relkind IN (" kinds ") AND " PLN_CATVIEW_IN_DATABASE("s")

/* The same with their columns (c) and the column types (t). */
#define RELATION_COLUMNS(kinds)                                                                                        \
    " FROM eddy_catalog.columns c JOIN eddy_catalog.items i ON i.id = c.item_id"                                    \
    " JOIN eddy_catalog.schemas s ON s.id = i.schema_id JOIN eddy_catalog.types t ON t.oid = c.type_oid"            \
    " WHERE i.relkind IN (" kinds ") AND " PLN_CATVIEW_IN_DATABASE("s")

/* A table's PRIMARY KEY, UNIQUE and CHECK constraints (k), read from its stored CREATE TABLE (pln_constraint.c). */
#define CONSTRAINTS(kinds)                                                                                             \
    " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"                             \
    " JOIN eddy_catalog.schemas s ON s.id = i.schema_id"                                                            \
    " WHERE i.relkind IN (" kinds ") AND " PLN_CATVIEW_IN_DATABASE("s")

/* PostgreSQL's name for a NOT NULL column's constraint (information_schema.sql marks it XXX: no real object). */
#define NOT_NULL_NAME "(s.oid::text || '_' || i.oid::text || '_' || c.position::text || '_not_null')" IDENT

/*
 * The typmod arithmetic of information_schema.sql's _pg_char_max_length,
 * _pg_char_octet_length, _pg_numeric_precision, _pg_numeric_precision_radix,
 * _pg_numeric_scale, _pg_datetime_precision and _pg_interval_type, for a
 * column's type oid c.type_oid and typmod c.typmod. The database encoding is
 * always UTF8, whose longest character is 4 bytes.
 */
#define CHAR_MAX_LENGTH                                                                                                \
    "(CASE WHEN c.typmod = -1 THEN NULL WHEN c.type_oid IN (1042, 1043) THEN c.typmod - 4 END)" CARD
#define CHAR_OCTET_LENGTH                                                                                              \
    "(CASE WHEN c.type_oid IN (25, 1042, 1043) THEN CASE WHEN c.typmod = -1 THEN 1073741824"                          \
    " ELSE (c.typmod - 4) * 4 END END)" CARD
#define NUMERIC_PRECISION                                                                                              \
    "(CASE c.type_oid WHEN 21 THEN 16 WHEN 23 THEN 32 WHEN 20 THEN 64"                                               \
    " WHEN 1700 THEN CASE WHEN c.typmod = -1 THEN NULL ELSE ((c.typmod - 4) >> 16) & 65535 END"                      \
    " WHEN 700 THEN 24 WHEN 701 THEN 53 END)" CARD
#define NUMERIC_RADIX                                                                                                  \
    "(CASE WHEN c.type_oid IN (21, 23, 20, 700, 701) THEN 2 WHEN c.type_oid = 1700 THEN 10 END)" CARD
#define NUMERIC_SCALE                                                                                                  \
    "(CASE WHEN c.type_oid IN (21, 23, 20) THEN 0"                                                                   \
    " WHEN c.type_oid = 1700 THEN CASE WHEN c.typmod = -1 THEN NULL ELSE (c.typmod - 4) & 65535 END END)" CARD
#define DATETIME_PRECISION                                                                                             \
    "(CASE WHEN c.type_oid = 1082 THEN 0"                                                                            \
    " WHEN c.type_oid IN (1083, 1114, 1184, 1266) THEN CASE WHEN c.typmod < 0 THEN 6 ELSE c.typmod END"             \
    " WHEN c.type_oid = 1186 THEN CASE WHEN c.typmod < 0 OR c.typmod & 65535 = 65535 THEN 6"                         \
    " ELSE c.typmod & 65535 END END)" CARD
#define INTERVAL_TYPE                                                                                                  \
    "(CASE WHEN c.type_oid = 1186 THEN"                                                                              \
    " upper(substring(format_type(c.type_oid, c.typmod) from '^interval[()0-9]* (.*)$')) END)" CHARS

/* A column's data_type: ARRAY, else the type's SQL name without its typmod (every type lives in pg_catalog). */
#define DATA_TYPE(typ, oid)                                                                                            \
    "(CASE WHEN " typ ".element_oid <> 0 AND " typ ".len = -1 THEN 'ARRAY' ELSE format_type(" oid ", NULL) END)" CHARS

/* table_privileges' rows before its filter on whom they concern: aclexplode of each relation's
 * ACL for the privileges information_schema lists. */
#define TABLE_GRANTS                                                                                                   \
    "SELECT pg_get_userbyid(a.grantor_oid)" IDENT " AS grantor,"                                                     \
    " (CASE WHEN a.grantee_oid = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee_oid) END)" IDENT " AS grantee,"      \
    " current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"                                \
    " i.name" IDENT " AS table_name, a.privilege_type" CHARS " AS privilege_type,"                                   \
    " (CASE WHEN a.is_grantable THEN 'YES' ELSE 'NO' END)" YESNO " AS is_grantable,"                                 \
    " (CASE WHEN a.privilege_type = 'SELECT' THEN 'YES' ELSE 'NO' END)" YESNO " AS with_hierarchy"                  \
    " FROM eddy_catalog.acl_items a JOIN eddy_catalog.items i ON i.oid = a.object_oid"                              \
    " JOIN eddy_catalog.schemas s ON s.id = i.schema_id"                                                             \
    " WHERE a.class = 'r' AND i.relkind IN ('r', 'v', 'f')"                                                          \
    " AND a.privilege_type IN ('INSERT', 'SELECT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER')"

/* column_privileges' rows before its filter on whom they concern: a relation's ACL over each
 * column ('r') and each column's own ('c'), duplicates merged as PostgreSQL's UNION does. */
#define COLUMN_GRANTS                                                                                                  \
    "SELECT DISTINCT pg_get_userbyid(a.grantor_oid)" IDENT " AS grantor,"                                            \
    " (CASE WHEN a.grantee_oid = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(a.grantee_oid) END)" IDENT " AS grantee,"      \
    " current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"                                \
    " i.name" IDENT " AS table_name, c.name" IDENT " AS column_name,"                                                 \
    " a.privilege_type" CHARS " AS privilege_type,"                                                                  \
    " (CASE WHEN a.is_grantable THEN 'YES' ELSE 'NO' END)" YESNO " AS is_grantable"                                  \
    " FROM eddy_catalog.acl_items a JOIN eddy_catalog.items i ON i.oid = a.object_oid"                              \
    " JOIN eddy_catalog.columns c ON c.item_id = i.id AND (a.class = 'r' OR c.position = a.attnum)"                 \
    " JOIN eddy_catalog.schemas s ON s.id = i.schema_id"                                                             \
    " WHERE a.class IN ('r', 'c') AND a.privilege_type IN ('INSERT', 'SELECT', 'UPDATE', 'REFERENCES')"             \
    " AND i.relkind IN ('r', 'v', 'f')"

static const pln_catview_t views[] = {
    {"information_schema", "information_schema_catalog_name", 0,
     "SELECT current_database()" IDENT " AS catalog_name"},

    {"information_schema", "schemata", 0,
     "SELECT current_database()" IDENT " AS catalog_name, s.name" IDENT " AS schema_name,"
     " pg_get_userbyid(s.owner_oid)" IDENT " AS schema_owner, NULL" IDENT " AS default_character_set_catalog,"
     " NULL" IDENT " AS default_character_set_schema, NULL" IDENT " AS default_character_set_name,"
     " NULL" CHARS " AS sql_path"
     " FROM eddy_catalog.schemas s WHERE " PLN_CATVIEW_IN_DATABASE("s")},

    {"information_schema", "tables", 0,
     "SELECT current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"
     " i.name" IDENT " AS table_name,"
     " (CASE i.relkind WHEN 'r' THEN 'BASE TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN' END)" CHARS
     " AS table_type, NULL" IDENT " AS self_referencing_column_name, NULL" CHARS " AS reference_generation,"
     " NULL" IDENT " AS user_defined_type_catalog, NULL" IDENT " AS user_defined_type_schema,"
     " NULL" IDENT " AS user_defined_type_name,"
     " (CASE WHEN i.relkind = 'r' THEN 'YES' ELSE 'NO' END)" YESNO " AS is_insertable_into,"
     " 'NO'" YESNO " AS is_typed, NULL" CHARS " AS commit_action" RELATIONS("'r', 'v', 'f'")},

    {"information_schema", "columns", 0,
     "SELECT current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"
     " i.name" IDENT " AS table_name, c.name" IDENT " AS column_name, c.position" CARD " AS ordinal_position,"
     " pg_get_expr(c.\"default\", i.oid)" CHARS " AS column_default,"
     " (CASE WHEN c.nullable THEN 'YES' ELSE 'NO' END)" YESNO " AS is_nullable,"
     " " DATA_TYPE("t", "c.type_oid") " AS data_type,"
     " " CHAR_MAX_LENGTH " AS character_maximum_length, " CHAR_OCTET_LENGTH " AS character_octet_length,"
     " " NUMERIC_PRECISION " AS numeric_precision, " NUMERIC_RADIX " AS numeric_precision_radix,"
     " " NUMERIC_SCALE " AS numeric_scale, " DATETIME_PRECISION " AS datetime_precision,"
     " " INTERVAL_TYPE " AS interval_type, NULL" CARD " AS interval_precision,"
     " NULL" IDENT " AS character_set_catalog, NULL" IDENT " AS character_set_schema,"
     " NULL" IDENT " AS character_set_name,"
     " (CASE WHEN co.collname IS NOT NULL THEN current_database() END)" IDENT " AS collation_catalog,"
     " (CASE WHEN co.collname IS NOT NULL THEN 'pg_catalog' END)" IDENT " AS collation_schema,"
     " co.collname" IDENT " AS collation_name,"
     " NULL" IDENT " AS domain_catalog, NULL" IDENT " AS domain_schema, NULL" IDENT " AS domain_name,"
     " current_database()" IDENT " AS udt_catalog, 'pg_catalog'" IDENT " AS udt_schema,"
     " t.name" IDENT " AS udt_name, NULL" IDENT " AS scope_catalog, NULL" IDENT " AS scope_schema,"
     " NULL" IDENT " AS scope_name, NULL" CARD " AS maximum_cardinality,"
     " c.position::text" IDENT " AS dtd_identifier, 'NO'" YESNO " AS is_self_referencing,"
     " 'NO'" YESNO " AS is_identity, NULL" CHARS " AS identity_generation, NULL" CHARS " AS identity_start,"
     " NULL" CHARS " AS identity_increment, NULL" CHARS " AS identity_maximum,"
     " NULL" CHARS " AS identity_minimum, 'NO'" YESNO " AS identity_cycle, 'NEVER'" CHARS " AS is_generated,"
     " NULL" CHARS " AS generation_expression,"
     " (CASE WHEN i.relkind = 'r' THEN 'YES' ELSE 'NO' END)" YESNO " AS is_updatable"
     " FROM eddy_catalog.columns c JOIN eddy_catalog.items i ON i.id = c.item_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id JOIN eddy_catalog.types t ON t.oid = c.type_oid"
     " LEFT JOIN pg_catalog.pg_collation co ON co.oid = t.collation AND co.collname <> 'default'"
     " WHERE i.relkind IN ('r', 'v', 'f') AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"information_schema", "views", 0,
     "SELECT current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"
     " i.name" IDENT " AS table_name, pg_get_viewdef(i.oid)" CHARS " AS view_definition,"
     " 'NONE'" CHARS " AS check_option, 'NO'" YESNO " AS is_updatable, 'NO'" YESNO " AS is_insertable_into,"
     " 'NO'" YESNO " AS is_trigger_updatable, 'NO'" YESNO " AS is_trigger_deletable,"
     " 'NO'" YESNO " AS is_trigger_insertable_into" RELATIONS("'v'")},

    /* PRIMARY KEY, UNIQUE and CHECK (pg_constraint's), then NOT NULL as PostgreSQL 15 lists it. */
    {"information_schema", "table_constraints", 0,
     "SELECT current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " k.name" IDENT " AS constraint_name, current_database()" IDENT " AS table_catalog,"
     " s.name" IDENT " AS table_schema, i.name" IDENT " AS table_name,"
     " (CASE k.type WHEN 'c' THEN 'CHECK' WHEN 'f' THEN 'FOREIGN KEY' WHEN 'p' THEN 'PRIMARY KEY'"
     " WHEN 'u' THEN 'UNIQUE' END)" CHARS " AS constraint_type,"
     " 'NO'" YESNO " AS is_deferrable, 'NO'" YESNO " AS initially_deferred, 'YES'" YESNO " AS enforced,"
     " (CASE WHEN k.type = 'u' THEN 'YES' END)" YESNO " AS nulls_distinct" CONSTRAINTS("'r'")
     " UNION ALL "
     "SELECT current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " " NOT_NULL_NAME " AS constraint_name, current_database()" IDENT " AS table_catalog,"
     " s.name" IDENT " AS table_schema, i.name" IDENT " AS table_name, 'CHECK'" CHARS " AS constraint_type,"
     " 'NO'" YESNO " AS is_deferrable, 'NO'" YESNO " AS initially_deferred, 'YES'" YESNO " AS enforced,"
     " NULL" YESNO " AS nulls_distinct" RELATION_COLUMNS("'r'") " AND NOT c.nullable"},

    /* The clause is pg_get_constraintdef's past "CHECK ", as PostgreSQL cuts it. */
    {"information_schema", "check_constraints", 0,
     "SELECT current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " k.name" IDENT " AS constraint_name, substring(k.definition from 7)" CHARS " AS check_clause"
         CONSTRAINTS("'r'") " AND k.type = 'c'"
     " UNION "
     "SELECT current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " " NOT_NULL_NAME " AS constraint_name, (c.name || ' IS NOT NULL')" CHARS " AS check_clause"
         RELATION_COLUMNS("'r'") " AND NOT c.nullable"},

    /* A key's columns in key order. */
    {"information_schema", "key_column_usage", 0,
     "SELECT current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " k.name" IDENT " AS constraint_name, current_database()" IDENT " AS table_catalog,"
     " s.name" IDENT " AS table_schema, i.name" IDENT " AS table_name, c.name" IDENT " AS column_name,"
     " x.n" CARD " AS ordinal_position, NULL" CARD " AS position_in_unique_constraint"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id CROSS JOIN unnest(k.keys) WITH ORDINALITY x(attnum, n)"
     " JOIN eddy_catalog.columns c ON c.item_id = i.id AND c.position = x.attnum"
     " WHERE k.type IN ('p', 'u', 'f') AND i.relkind = 'r' AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"information_schema", "referential_constraints", 0,
     "SELECT NULL" IDENT " AS constraint_catalog, NULL" IDENT " AS constraint_schema,"
     " NULL" IDENT " AS constraint_name, NULL" IDENT " AS unique_constraint_catalog,"
     " NULL" IDENT " AS unique_constraint_schema, NULL" IDENT " AS unique_constraint_name,"
     " NULL" CHARS " AS match_option, NULL" CHARS " AS update_rule, NULL" CHARS " AS delete_rule WHERE false"},

    /* The columns a key covers or a CHECK reads (conkey; PostgreSQL finds a CHECK's in pg_depend, the same set). */
    {"information_schema", "constraint_column_usage", 0,
     "SELECT DISTINCT current_database()" IDENT " AS table_catalog, s.name" IDENT " AS table_schema,"
     " i.name" IDENT " AS table_name, c.name" IDENT " AS column_name,"
     " current_database()" IDENT " AS constraint_catalog, s.name" IDENT " AS constraint_schema,"
     " k.name" IDENT " AS constraint_name"
     " FROM eddy_catalog.constraints k JOIN eddy_catalog.items i ON i.id = k.relation_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id"
     " JOIN eddy_catalog.columns c ON c.item_id = i.id AND c.position = ANY (k.keys)"
     " WHERE k.type IN ('p', 'u', 'c') AND i.relkind = 'r' AND " PLN_CATVIEW_IN_DATABASE("s")},

    {"information_schema", "routines", 0,
     "SELECT NULL" IDENT " AS specific_catalog, NULL" IDENT " AS specific_schema, NULL" IDENT " AS specific_name,"
     " NULL" IDENT " AS routine_catalog, NULL" IDENT " AS routine_schema, NULL" IDENT " AS routine_name,"
     " NULL" CHARS " AS routine_type, NULL" IDENT " AS module_catalog, NULL" IDENT " AS module_schema,"
     " NULL" IDENT " AS module_name, NULL" IDENT " AS udt_catalog, NULL" IDENT " AS udt_schema,"
     " NULL" IDENT " AS udt_name, NULL" CHARS " AS data_type, NULL" CARD " AS character_maximum_length,"
     " NULL" CARD " AS character_octet_length, NULL" IDENT " AS character_set_catalog,"
     " NULL" IDENT " AS character_set_schema, NULL" IDENT " AS character_set_name,"
     " NULL" IDENT " AS collation_catalog, NULL" IDENT " AS collation_schema, NULL" IDENT " AS collation_name,"
     " NULL" CARD " AS numeric_precision, NULL" CARD " AS numeric_precision_radix, NULL" CARD " AS numeric_scale,"
     " NULL" CARD " AS datetime_precision, NULL" CHARS " AS interval_type, NULL" CARD " AS interval_precision,"
     " NULL" IDENT " AS type_udt_catalog, NULL" IDENT " AS type_udt_schema, NULL" IDENT " AS type_udt_name,"
     " NULL" IDENT " AS scope_catalog, NULL" IDENT " AS scope_schema, NULL" IDENT " AS scope_name,"
     " NULL" CARD " AS maximum_cardinality, NULL" IDENT " AS dtd_identifier, NULL" CHARS " AS routine_body,"
     " NULL" CHARS " AS routine_definition, NULL" CHARS " AS external_name, NULL" CHARS " AS external_language,"
     " NULL" CHARS " AS parameter_style, NULL" YESNO " AS is_deterministic, NULL" CHARS " AS sql_data_access,"
     " NULL" YESNO " AS is_null_call, NULL" CHARS " AS sql_path, NULL" YESNO " AS schema_level_routine,"
     " NULL" CARD " AS max_dynamic_result_sets, NULL" YESNO " AS is_user_defined_cast,"
     " NULL" YESNO " AS is_implicitly_invocable, NULL" CHARS " AS security_type,"
     " NULL" IDENT " AS to_sql_specific_catalog, NULL" IDENT " AS to_sql_specific_schema,"
     " NULL" IDENT " AS to_sql_specific_name, NULL" YESNO " AS as_locator, NULL" STAMP " AS created,"
     " NULL" STAMP " AS last_altered, NULL" YESNO " AS new_savepoint_level, NULL" YESNO " AS is_udt_dependent,"
     " NULL" CHARS " AS result_cast_from_data_type, NULL" YESNO " AS result_cast_as_locator,"
     " NULL" CARD " AS result_cast_char_max_length, NULL" CARD " AS result_cast_char_octet_length,"
     " NULL" IDENT " AS result_cast_char_set_catalog, NULL" IDENT " AS result_cast_char_set_schema,"
     " NULL" IDENT " AS result_cast_char_set_name, NULL" IDENT " AS result_cast_collation_catalog,"
     " NULL" IDENT " AS result_cast_collation_schema, NULL" IDENT " AS result_cast_collation_name,"
     " NULL" CARD " AS result_cast_numeric_precision, NULL" CARD " AS result_cast_numeric_precision_radix,"
     " NULL" CARD " AS result_cast_numeric_scale, NULL" CARD " AS result_cast_datetime_precision,"
     " NULL" CHARS " AS result_cast_interval_type, NULL" CARD " AS result_cast_interval_precision,"
     " NULL" IDENT " AS result_cast_type_udt_catalog, NULL" IDENT " AS result_cast_type_udt_schema,"
     " NULL" IDENT " AS result_cast_type_udt_name, NULL" IDENT " AS result_cast_scope_catalog,"
     " NULL" IDENT " AS result_cast_scope_schema, NULL" IDENT " AS result_cast_scope_name,"
     " NULL" CARD " AS result_cast_maximum_cardinality, NULL" IDENT " AS result_cast_dtd_identifier"
     " WHERE false"},

    {"information_schema", "parameters", 0,
     "SELECT NULL" IDENT " AS specific_catalog, NULL" IDENT " AS specific_schema, NULL" IDENT " AS specific_name,"
     " NULL" CARD " AS ordinal_position, NULL" CHARS " AS parameter_mode, NULL" YESNO " AS is_result,"
     " NULL" YESNO " AS as_locator, NULL" IDENT " AS parameter_name, NULL" CHARS " AS data_type,"
     " NULL" CARD " AS character_maximum_length, NULL" CARD " AS character_octet_length,"
     " NULL" IDENT " AS character_set_catalog, NULL" IDENT " AS character_set_schema,"
     " NULL" IDENT " AS character_set_name, NULL" IDENT " AS collation_catalog,"
     " NULL" IDENT " AS collation_schema, NULL" IDENT " AS collation_name, NULL" CARD " AS numeric_precision,"
     " NULL" CARD " AS numeric_precision_radix, NULL" CARD " AS numeric_scale,"
     " NULL" CARD " AS datetime_precision, NULL" CHARS " AS interval_type, NULL" CARD " AS interval_precision,"
     " NULL" IDENT " AS udt_catalog, NULL" IDENT " AS udt_schema, NULL" IDENT " AS udt_name,"
     " NULL" IDENT " AS scope_catalog, NULL" IDENT " AS scope_schema, NULL" IDENT " AS scope_name,"
     " NULL" CARD " AS maximum_cardinality, NULL" IDENT " AS dtd_identifier, NULL" CHARS " AS parameter_default"
     " WHERE false"},

    {"information_schema", "sequences", 0,
     "SELECT NULL" IDENT " AS sequence_catalog, NULL" IDENT " AS sequence_schema, NULL" IDENT " AS sequence_name,"
     " NULL" CHARS " AS data_type, NULL" CARD " AS numeric_precision, NULL" CARD " AS numeric_precision_radix,"
     " NULL" CARD " AS numeric_scale, NULL" CHARS " AS start_value, NULL" CHARS " AS minimum_value,"
     " NULL" CHARS " AS maximum_value, NULL" CHARS " AS increment, NULL" YESNO " AS cycle_option WHERE false"},

    {"information_schema", "triggers", 0,
     "SELECT NULL" IDENT " AS trigger_catalog, NULL" IDENT " AS trigger_schema, NULL" IDENT " AS trigger_name,"
     " NULL" CHARS " AS event_manipulation, NULL" IDENT " AS event_object_catalog,"
     " NULL" IDENT " AS event_object_schema, NULL" IDENT " AS event_object_table, NULL" CARD " AS action_order,"
     " NULL" CHARS " AS action_condition, NULL" CHARS " AS action_statement, NULL" CHARS " AS action_orientation,"
     " NULL" CHARS " AS action_timing, NULL" IDENT " AS action_reference_old_table,"
     " NULL" IDENT " AS action_reference_new_table, NULL" IDENT " AS action_reference_old_row,"
     " NULL" IDENT " AS action_reference_new_row, NULL" STAMP " AS created WHERE false"},

    /* PostgreSQL's join of the database's collation with pg_collation, over eddy's "C" database. */
    {"information_schema", "character_sets", 0,
     "SELECT NULL" IDENT " AS character_set_catalog, NULL" IDENT " AS character_set_schema,"
     " 'UTF8'" IDENT " AS character_set_name, 'UCS'" IDENT " AS character_repertoire,"
     " 'UTF8'" IDENT " AS form_of_use, current_database()" IDENT " AS default_collate_catalog,"
     " (CASE WHEN c.collname IS NOT NULL THEN 'pg_catalog' END)" IDENT " AS default_collate_schema,"
     " c.collname" IDENT " AS default_collate_name"
     " FROM pg_catalog.pg_database d LEFT JOIN pg_catalog.pg_collation c"
     " ON d.datcollate = c.collcollate AND d.datctype = c.collctype WHERE d.datname = current_database()"
     " ORDER BY char_length(c.collname) DESC, c.collname LIMIT 1"},

    {"information_schema", "collations", 0,
     "SELECT current_database()" IDENT " AS collation_catalog, 'pg_catalog'" IDENT " AS collation_schema,"
     " c.collname" IDENT " AS collation_name, 'NO PAD'" CHARS " AS pad_attribute"
     " FROM pg_catalog.pg_collation c WHERE c.collencoding IN (-1, 6)"},

    {"information_schema", "enabled_roles", 0, "SELECT current_user" IDENT " AS role_name"},

    {"information_schema", "applicable_roles", 0,
     "SELECT NULL" IDENT " AS grantee, NULL" IDENT " AS role_name, NULL" YESNO " AS is_grantable WHERE false"},

    /* aclexplode over relacl (or acldefault), as information_schema.sql: rows the current user
     * grants or is granted (having that role's privileges) or that go to PUBLIC. */
    {"information_schema", "table_privileges", 0,
     TABLE_GRANTS
     " AND (a.grantor_usage OR a.grantee_usage OR a.grantee_oid = 0) AND " PLN_CATVIEW_IN_DATABASE("s")},

    /* table_privileges where the grantor or the grantee is an enabled role (not PUBLIC). */
    {"information_schema", "role_table_grants", 0,
     TABLE_GRANTS
     " AND (a.grantor_usage OR a.grantee_usage) AND " PLN_CATVIEW_IN_DATABASE("s")},

    /* column_privileges: a relation's privileges cover each of its columns for the four
     * privileges a column has, joined (as PostgreSQL's UNION) with the columns' own. */
    {"information_schema", "column_privileges", 0,
     COLUMN_GRANTS " AND (a.grantor_usage OR a.grantee_usage OR a.grantee_oid = 0) AND " PLN_CATVIEW_IN_DATABASE("s")},

    /* column_privileges where the grantor or the grantee is an enabled role (not PUBLIC). */
    {"information_schema", "role_column_grants", 0,
     COLUMN_GRANTS " AND (a.grantor_usage OR a.grantee_usage) AND " PLN_CATVIEW_IN_DATABASE("s")},

    /* The element types of array columns (the only collections eddy has). */
    {"information_schema", "element_types", 0,
     "SELECT current_database()" IDENT " AS object_catalog, s.name" IDENT " AS object_schema,"
     " i.name" IDENT " AS object_name, 'TABLE'" CHARS " AS object_type,"
     " c.position::text" IDENT " AS collection_type_identifier,"
     " format_type(e.oid, NULL)" CHARS " AS data_type, NULL" CARD " AS character_maximum_length,"
     " NULL" CARD " AS character_octet_length, NULL" IDENT " AS character_set_catalog,"
     " NULL" IDENT " AS character_set_schema, NULL" IDENT " AS character_set_name,"
     " (CASE WHEN co.collname IS NOT NULL THEN current_database() END)" IDENT " AS collation_catalog,"
     " (CASE WHEN co.collname IS NOT NULL THEN 'pg_catalog' END)" IDENT " AS collation_schema,"
     " co.collname" IDENT " AS collation_name, NULL" CARD " AS numeric_precision,"
     " NULL" CARD " AS numeric_precision_radix, NULL" CARD " AS numeric_scale,"
     " NULL" CARD " AS datetime_precision, NULL" CHARS " AS interval_type, NULL" CARD " AS interval_precision,"
     " NULL" CHARS " AS domain_default, current_database()" IDENT " AS udt_catalog,"
     " 'pg_catalog'" IDENT " AS udt_schema, e.name" IDENT " AS udt_name, NULL" IDENT " AS scope_catalog,"
     " NULL" IDENT " AS scope_schema, NULL" IDENT " AS scope_name, NULL" CARD " AS maximum_cardinality,"
     " ('a' || c.position::text)" IDENT " AS dtd_identifier"
     " FROM eddy_catalog.columns c JOIN eddy_catalog.items i ON i.id = c.item_id"
     " JOIN eddy_catalog.schemas s ON s.id = i.schema_id JOIN eddy_catalog.types t ON t.oid = c.type_oid"
     " JOIN eddy_catalog.types e ON e.oid = t.element_oid"
     " LEFT JOIN pg_catalog.pg_collation co ON co.oid = t.collation AND co.collname <> 'default'"
     " WHERE t.element_oid <> 0 AND t.len = -1 AND i.relkind IN ('r', 'v', 'f') AND "
         PLN_CATVIEW_IN_DATABASE("s")},
};

const pln_catview_table_t pln__catviews_info = {views, CM_ARRAY_LEN(views)};
