/*
 * ty_func_catalog.c: the system information functions that clients call
 * when they introspect pg_catalog (psql's \d family, pgJDBC's
 * DatabaseMetaData, BI tools): visibility tests, pg_get_*def, format_type,
 * owners, privileges, comments and sizes.
 *
 * Those that need the catalog ask ty_ctx_t.catalog_fn, so this module keeps
 * no knowledge of it. The rest answer as eddy is: every session is the one
 * superuser that owns everything (OID 10), every privilege is held, nothing
 * has a comment, no relation takes space on disk, and there are no rules,
 * statistics objects or functions in pg_proc for pg_get_*def to print
 * (NULL, as PostgreSQL answers for an OID that names none). The planner knows
 * the ones that read the catalog as stable (pln_fold.c), so it does not
 * fold them against a catalog that may change before the statement runs
 * again.
 */
#include "types/ty_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TY__BOOTSTRAP_SUPERUSER 10u   /* PostgreSQL's OID for the role that owns the system */

static bool ty__ask(ty_ctx_t *c, ty_catfn_t fn, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (c->catalog_fn == NULL) {
        o->isnull = true;
        return true;
    }
    return c->catalog_fn(c->catalog_arg, (int)fn, a, n, c, o);
}

static bool ty__table_visible(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__ask(c, TY_CATFN_TABLE_IS_VISIBLE, a, 1, o);
}

static bool ty__indexdef(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    /* pg_get_indexdef(oid [, column, pretty]): column 0 is the whole definition. */
    return ty__ask(c, TY_CATFN_INDEXDEF, a, n, o);
}

static bool ty__publishable(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__ask(c, TY_CATFN_PUBLISHABLE, a, 1, o);
}

static bool ty__viewdef(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__ask(c, TY_CATFN_VIEWDEF, a, 1, o);
}

static bool ty__constraintdef(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__ask(c, TY_CATFN_CONSTRAINTDEF, a, 1, o);
}

static bool ty__current_schemas(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (c->catalog_fn == NULL) {
        *o = ty_array_build(c->arena, TY_NAME, 0, NULL, NULL, NULL);
        return true;
    }
    return ty__ask(c, TY_CATFN_CURRENT_SCHEMAS, a, 1, o);
}

static bool ty__visible_type(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty_oid_t oid = (ty_oid_t)a[0].v.i;
    if (ty_info(oid) == NULL) {
        o->isnull = true;   /* as PostgreSQL answers for an OID that names nothing */
        return true;
    }
    o->v.b = true;   /* every type lives in pg_catalog, which is always searched */
    return true;
}

/* format_type(oid, typmod): not strict; a NULL typmod means none, an unknown OID prints "???". */
static bool ty__format_type(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull) {
        o->isnull = true;
        return true;
    }
    ty_oid_t oid = (ty_oid_t)a[0].v.i;
    int32_t typmod = a[1].isnull ? -1 : (int32_t)a[1].v.i;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (ty_info(oid) == NULL || oid == TY_INVALID)
        cm_buf_put_str(&b, oid == TY_INVALID ? "-" : "???");
    else if (a[1].isnull && (oid == TY_BPCHAR || oid == TY_BPCHAR_ARRAY))
        /* bpchar with typmod -1 is unbounded, unlike CHARACTER (one character): only no typmod names it so. */
        cm_buf_put_str(&b, oid == TY_BPCHAR ? "character" : "character[]");
    else
        ty_format_type(oid, typmod, &b);
    *o = ty_text_datum(c->arena, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return true;
}

static bool ty__userbyid(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (c->catalog_fn != NULL)
        return ty__ask(c, TY_CATFN_USERBYID, a, 1, o);
    uint32_t oid = (uint32_t)a[0].v.i;
    char buf[48];
    const char *name = buf;
    if (oid == TY__BOOTSTRAP_SUPERUSER && c->user != NULL)
        name = c->user;
    else
        snprintf(buf, sizeof buf, "unknown (OID=%u)", oid);
    *o = ty_text_datum(c->arena, name, strlen(name));
    return true;
}

/*
 * has_{table,schema,database}_privilege in all six forms: the role by name,
 * by OID or the current user; the object by name or OID. The catalog answers
 * (TY_CATFN_PRIVILEGE) with args {form, role, object, privileges}: form is
 * the object kind * 16 + role shape * 4 + object shape (TY_PRIV_*).
 */
static bool ty__privilege(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o, int kind, int role, int obj)
{
    ty_datum_t args[4] = {{0}};
    args[0].v.i = kind * 16 + role * 4 + obj;
    int k = 0;
    if (role != TY_PRIV_CURRENT)
        args[1] = a[k++];
    args[2] = a[k++];
    args[3] = a[k];
    return ty__ask(c, TY_CATFN_PRIVILEGE, args, 4, o);
}

#define TY__PRIV_FORMS(kind, lower)                                                                              \
    static bool ty__##lower##_name_name(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                  \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_BY_NAME, TY_PRIV_BY_NAME);                                 \
    }                                                                                                            \
    static bool ty__##lower##_name_id(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                    \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_BY_NAME, TY_PRIV_BY_OID);                                  \
    }                                                                                                            \
    static bool ty__##lower##_id_name(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                    \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_BY_OID, TY_PRIV_BY_NAME);                                  \
    }                                                                                                            \
    static bool ty__##lower##_id_id(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                      \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_BY_OID, TY_PRIV_BY_OID);                                   \
    }                                                                                                            \
    static bool ty__##lower##_name(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                       \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_CURRENT, TY_PRIV_BY_NAME);                                 \
    }                                                                                                            \
    static bool ty__##lower##_id(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                         \
    {                                                                                                            \
        return ty__privilege(c, a, n, o, kind, TY_PRIV_CURRENT, TY_PRIV_BY_OID);                                  \
    }

TY__PRIV_FORMS(TY_PRIV_TABLE, table)
TY__PRIV_FORMS(TY_PRIV_SCHEMA, schema)
TY__PRIV_FORMS(TY_PRIV_DATABASE, database)
TY__PRIV_FORMS(TY_PRIV_ANY_COLUMN, any_column)

/*
 * has_column_privilege's twelve forms: as above, with the column (args[4]) by name or by
 * attnum between the table and the privileges.
 */
static bool ty__column_privilege(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o, int role, int obj, bool attnum)
{
    ty_datum_t args[5] = {{0}};
    args[0].v.i = TY_PRIV_COLUMN * 16 + role * 4 + obj + (attnum ? TY_PRIV_BY_ATTNUM : 0);
    int k = 0;
    if (role != TY_PRIV_CURRENT)
        args[1] = a[k++];
    args[2] = a[k++];
    args[4] = a[k++];
    args[3] = a[k];
    return ty__ask(c, TY_CATFN_PRIVILEGE, args, 5, o);
}

#define TY__COLPRIV_FORM(suffix, role, obj, attnum)                                                              \
    static bool ty__column_##suffix(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)                      \
    {                                                                                                            \
        return ty__column_privilege(c, a, n, o, role, obj, attnum);                                              \
    }
TY__COLPRIV_FORM(name_name_name, TY_PRIV_BY_NAME, TY_PRIV_BY_NAME, false)
TY__COLPRIV_FORM(name_name_num, TY_PRIV_BY_NAME, TY_PRIV_BY_NAME, true)
TY__COLPRIV_FORM(name_id_name, TY_PRIV_BY_NAME, TY_PRIV_BY_OID, false)
TY__COLPRIV_FORM(name_id_num, TY_PRIV_BY_NAME, TY_PRIV_BY_OID, true)
TY__COLPRIV_FORM(id_name_name, TY_PRIV_BY_OID, TY_PRIV_BY_NAME, false)
TY__COLPRIV_FORM(id_name_num, TY_PRIV_BY_OID, TY_PRIV_BY_NAME, true)
TY__COLPRIV_FORM(id_id_name, TY_PRIV_BY_OID, TY_PRIV_BY_OID, false)
TY__COLPRIV_FORM(id_id_num, TY_PRIV_BY_OID, TY_PRIV_BY_OID, true)
TY__COLPRIV_FORM(name_name, TY_PRIV_CURRENT, TY_PRIV_BY_NAME, false)
TY__COLPRIV_FORM(name_num, TY_PRIV_CURRENT, TY_PRIV_BY_NAME, true)
TY__COLPRIV_FORM(id_name, TY_PRIV_CURRENT, TY_PRIV_BY_OID, false)
TY__COLPRIV_FORM(id_num, TY_PRIV_CURRENT, TY_PRIV_BY_OID, true)

/* pg_get_expr(expr, relation [, pretty]): eddy keeps an expression as its SQL text already. */
static bool ty__get_expr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    *o = ty_text_datum(c->arena, a[0].v.s.p, a[0].v.s.len);
    return true;
}

static bool ty__encoding_name(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *name = a[0].v.i == 6 ? "UTF8" : a[0].v.i == 0 ? "SQL_ASCII" : "";
    *o = ty_text_datum(c->arena, name, strlen(name));
    return true;
}

static bool ty__null(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->isnull = true;
    return true;
}

static bool ty__true(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = true;
    return true;
}

static bool ty__zero(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = 0;
    return true;
}

/* pg_size_pretty(bigint) as PostgreSQL 15: each unit to 20 * 1024 - 1 of it, half rounded. */
static bool ty__size_pretty(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    static const struct {
        const char *name;
        int64_t limit;
        bool round;
        int bits;
    } units[] = {
        {"bytes", 10 * 1024, false, 0}, {"kB", 20 * 1024 - 1, true, 10}, {"MB", 20 * 1024 - 1, true, 20},
        {"GB", 20 * 1024 - 1, true, 30}, {"TB", 20 * 1024 - 1, true, 40}, {"PB", 20 * 1024 - 1, true, 50},
    };
    int64_t size = a[0].v.i;
    char buf[64];
    size_t nunits = CM_ARRAY_LEN(units);
    for (size_t u = 0; u < nunits; u++) {
        int64_t mag = size < 0 ? -size : size;
        if (u + 1 == nunits || mag < units[u].limit) {
            if (units[u].round)
                size = (size + (size < 0 ? -1 : 1)) / 2;
            snprintf(buf, sizeof buf, "%lld %s", (long long)size, units[u].name);
            break;
        }
        int bits = units[u + 1].bits - units[u].bits - (units[u + 1].round ? 1 : 0) + (units[u].round ? 1 : 0);
        size /= (int64_t)1 << bits;
    }
    *o = ty_text_datum(c->arena, buf, strlen(buf));
    return true;
}

#define S TY_FN_STRICT
#define ANY TY_INVALID

static const ty_func_t ty__catalog[] = {
    {"pg_table_is_visible", 1, {TY_OID}, TY_BOOL, S, ty__table_visible, 2079},
    {"pg_type_is_visible", 1, {TY_OID}, TY_BOOL, S, ty__visible_type, 2080},
    {"pg_function_is_visible", 1, {TY_OID}, TY_BOOL, S, ty__true, 2081},
    {"pg_get_indexdef", 1, {TY_OID}, TY_TEXT, S, ty__indexdef, 1643},
    {"pg_get_indexdef", 3, {TY_OID, TY_INT4, TY_BOOL}, TY_TEXT, S, ty__indexdef, 2507},
    {"pg_get_viewdef", 1, {TY_OID}, TY_TEXT, S, ty__viewdef, 1641},
    {"pg_get_viewdef", 2, {TY_OID, TY_BOOL}, TY_TEXT, S, ty__viewdef, 2506},
    {"pg_get_constraintdef", 1, {TY_OID}, TY_TEXT, S, ty__constraintdef, 1387},
    {"pg_get_constraintdef", 2, {TY_OID, TY_BOOL}, TY_TEXT, S, ty__constraintdef, 2508},
    {"pg_get_ruledef", 1, {TY_OID}, TY_TEXT, S, ty__null, 1573},
    {"pg_get_ruledef", 2, {TY_OID, TY_BOOL}, TY_TEXT, S, ty__null, 2504},
    {"pg_get_statisticsobjdef_columns", 1, {TY_OID}, TY_TEXT, S, ty__null, 6174},
    {"pg_get_function_result", 1, {TY_OID}, TY_TEXT, S, ty__null, 2165},
    {"pg_get_function_arguments", 1, {TY_OID}, TY_TEXT, S, ty__null, 2162},
    {"pg_get_function_identity_arguments", 1, {TY_OID}, TY_TEXT, S, ty__null, 2232},
    {"pg_relation_is_publishable", 1, {TY_REGCLASS}, TY_BOOL, S, ty__publishable, 6121},
    {"pg_get_expr", 2, {TY_TEXT, TY_OID}, TY_TEXT, S, ty__get_expr, 1716},
    {"pg_get_expr", 3, {TY_TEXT, TY_OID, TY_BOOL}, TY_TEXT, S, ty__get_expr, 2509},
    {"current_schemas", 1, {TY_BOOL}, TY_NAME_ARRAY, S, ty__current_schemas, 1403},
    {"format_type", 2, {TY_OID, TY_INT4}, TY_TEXT, 0, ty__format_type, 1081},
    {"pg_get_userbyid", 1, {TY_OID}, TY_NAME, S, ty__userbyid, 1642},
    {"pg_encoding_to_char", 1, {TY_INT4}, TY_NAME, S, ty__encoding_name, 1597},
    {"obj_description", 1, {TY_OID}, TY_TEXT, S, ty__null, 1348},
    {"obj_description", 2, {TY_OID, TY_NAME}, TY_TEXT, S, ty__null, 1215},
    {"col_description", 2, {TY_OID, TY_INT4}, TY_TEXT, S, ty__null, 1216},
    {"shobj_description", 2, {TY_OID, TY_NAME}, TY_TEXT, S, ty__null, 1993},
    {"has_table_privilege", 3, {TY_NAME, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__table_name_name, 1922},
    {"has_table_privilege", 3, {TY_NAME, TY_OID, TY_TEXT}, TY_BOOL, S, ty__table_name_id, 1923},
    {"has_table_privilege", 3, {TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__table_id_name, 1924},
    {"has_table_privilege", 3, {TY_OID, TY_OID, TY_TEXT}, TY_BOOL, S, ty__table_id_id, 1925},
    {"has_table_privilege", 2, {TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__table_name, 1926},
    {"has_table_privilege", 2, {TY_OID, TY_TEXT}, TY_BOOL, S, ty__table_id, 1927},
    {"has_schema_privilege", 3, {TY_NAME, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__schema_name_name, 2268},
    {"has_schema_privilege", 3, {TY_NAME, TY_OID, TY_TEXT}, TY_BOOL, S, ty__schema_name_id, 2269},
    {"has_schema_privilege", 3, {TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__schema_id_name, 2270},
    {"has_schema_privilege", 3, {TY_OID, TY_OID, TY_TEXT}, TY_BOOL, S, ty__schema_id_id, 2271},
    {"has_schema_privilege", 2, {TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__schema_name, 2272},
    {"has_schema_privilege", 2, {TY_OID, TY_TEXT}, TY_BOOL, S, ty__schema_id, 2273},
    {"has_database_privilege", 3, {TY_NAME, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__database_name_name, 2250},
    {"has_database_privilege", 3, {TY_NAME, TY_OID, TY_TEXT}, TY_BOOL, S, ty__database_name_id, 2251},
    {"has_database_privilege", 3, {TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__database_id_name, 2252},
    {"has_database_privilege", 3, {TY_OID, TY_OID, TY_TEXT}, TY_BOOL, S, ty__database_id_id, 2253},
    {"has_database_privilege", 2, {TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__database_name, 2254},
    {"has_database_privilege", 2, {TY_OID, TY_TEXT}, TY_BOOL, S, ty__database_id, 2255},
    {"has_column_privilege", 4, {TY_NAME, TY_TEXT, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_name_name_name, 3012},
    {"has_column_privilege", 4, {TY_NAME, TY_TEXT, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_name_name_num, 3013},
    {"has_column_privilege", 4, {TY_NAME, TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_name_id_name, 3014},
    {"has_column_privilege", 4, {TY_NAME, TY_OID, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_name_id_num, 3015},
    {"has_column_privilege", 4, {TY_OID, TY_TEXT, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_id_name_name, 3016},
    {"has_column_privilege", 4, {TY_OID, TY_TEXT, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_id_name_num, 3017},
    {"has_column_privilege", 4, {TY_OID, TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_id_id_name, 3018},
    {"has_column_privilege", 4, {TY_OID, TY_OID, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_id_id_num, 3019},
    {"has_column_privilege", 3, {TY_TEXT, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_name_name, 3020},
    {"has_column_privilege", 3, {TY_TEXT, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_name_num, 3021},
    {"has_column_privilege", 3, {TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__column_id_name, 3022},
    {"has_column_privilege", 3, {TY_OID, TY_INT2, TY_TEXT}, TY_BOOL, S, ty__column_id_num, 3023},
    {"has_any_column_privilege", 3, {TY_NAME, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__any_column_name_name, 3024},
    {"has_any_column_privilege", 3, {TY_NAME, TY_OID, TY_TEXT}, TY_BOOL, S, ty__any_column_name_id, 3025},
    {"has_any_column_privilege", 3, {TY_OID, TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__any_column_id_name, 3026},
    {"has_any_column_privilege", 3, {TY_OID, TY_OID, TY_TEXT}, TY_BOOL, S, ty__any_column_id_id, 3027},
    {"has_any_column_privilege", 2, {TY_TEXT, TY_TEXT}, TY_BOOL, S, ty__any_column_name, 3028},
    {"has_any_column_privilege", 2, {TY_OID, TY_TEXT}, TY_BOOL, S, ty__any_column_id, 3029},
    {"pg_has_role", 2, {ANY, TY_TEXT}, TY_BOOL, S, ty__true, 2710},
    {"pg_has_role", 3, {ANY, ANY, TY_TEXT}, TY_BOOL, S, ty__true, 2705},
    {"pg_relation_size", 1, {TY_REGCLASS}, TY_INT8, S, ty__zero, 2325},
    {"pg_table_size", 1, {TY_REGCLASS}, TY_INT8, S, ty__zero, 2997},
    {"pg_indexes_size", 1, {TY_REGCLASS}, TY_INT8, S, ty__zero, 2998},
    {"pg_total_relation_size", 1, {TY_REGCLASS}, TY_INT8, S, ty__zero, 2286},
    {"pg_database_size", 1, {ANY}, TY_INT8, S, ty__zero, 2168},
    {"pg_size_pretty", 1, {TY_INT8}, TY_TEXT, S, ty__size_pretty, 2288},
};

const ty_func_table_t ty_funcs_catalog = {ty__catalog, CM_ARRAY_LEN(ty__catalog)};
