/*
 * pln_sysrel.c: the session relations (planner.h) of pg_catalog, with their
 * columns as PostgreSQL 15 declares the views, and which FROM names mean
 * them. They are not catalog items because their rows are the process's
 * state when the query runs, not the catalog's. (eddy_internal's and
 * eddy_catalog.constraints, session relations too, are described by the
 * catalog, catalog/cat_builtin_session.c, so that pg_class lists them.) The name lookup follows PostgreSQL's
 * rules: pg_catalog is searched first unless search_path lists it; any
 * other schema only where the path lists it; a relation of the same name
 * in a schema listed earlier wins.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define COL(n, t) {.name = n, .type = t, .typmod = -1}

static const cat_column_t cols_prepared_statements[] = {
    COL("name", TY_TEXT),
    COL("statement", TY_TEXT),
    COL("prepare_time", TY_TIMESTAMPTZ),
    COL("parameter_types", TY_REGTYPE_ARRAY),
    COL("from_sql", TY_BOOL),
    COL("generic_plans", TY_INT8),
    COL("custom_plans", TY_INT8),
};

static const cat_column_t cols_stat_ssl[] = {
    COL("pid", TY_INT4),
    COL("ssl", TY_BOOL),
    COL("version", TY_TEXT),
    COL("cipher", TY_TEXT),
    COL("bits", TY_INT4),
    COL("client_dn", TY_TEXT),
    COL("client_serial", TY_NUMERIC),
    COL("issuer_dn", TY_TEXT),
};

static const cat_column_t cols_settings[] = {
    COL("name", TY_TEXT),
    COL("setting", TY_TEXT),
    COL("unit", TY_TEXT),
    COL("category", TY_TEXT),
    COL("short_desc", TY_TEXT),
    COL("extra_desc", TY_TEXT),
    COL("context", TY_TEXT),
    COL("vartype", TY_TEXT),
    COL("source", TY_TEXT),
    COL("min_val", TY_TEXT),
    COL("max_val", TY_TEXT),
    COL("enumvals", TY_TEXT_ARRAY),
    COL("boot_val", TY_TEXT),
    COL("reset_val", TY_TEXT),
    COL("sourcefile", TY_TEXT),
    COL("sourceline", TY_INT4),
    COL("pending_restart", TY_BOOL),
};

#define REL(schema, name, session, cols) {schema, name, session, cols, CM_ARRAY_LEN(cols)}

static const pln_sysrel_t sysrels[] = {
    REL("pg_catalog", "pg_prepared_statements", PLN_PREPARED_STATEMENTS, cols_prepared_statements),
    REL("pg_catalog", "pg_settings", PLN_SETTINGS, cols_settings),
    REL("pg_catalog", "pg_stat_ssl", PLN_STAT_SSL, cols_stat_ssl),
};

static bool path_lists(const cat_search_t *search, const char *schema)
{
    for (size_t i = 0; i < search->npath; i++)
        if (strcmp(search->path[i], schema) == 0)
            return true;
    return false;
}

/* Whether the unqualified name finds the relation of `rel_schema`: it must be
 * searched (pg_catalog always is) and no schema searched before it may hold
 * a relation of this name. */
bool pln__sysrel_unqualified(const pln_binder_t *b, const char *rel_schema, const char *name)
{
    bool is_pg = strcmp(rel_schema, "pg_catalog") == 0;
    if (!b->cat || !b->cat->snap)
        return is_pg;   /* no catalog: nothing can shadow pg_catalog, nothing else is searched */
    const cat_search_t *search = &b->cat->search;
    if (!path_lists(search, rel_schema))
        return is_pg;   /* pg_catalog is then searched first; other schemas not at all */
    const cat_database_t *db = search->database ? cat_snap_database(b->cat->snap, search->database) : NULL;
    for (size_t i = 0; i < search->npath; i++) {
        const char *schema = search->path[i];
        if (strcmp(schema, rel_schema) == 0)
            return true;
        if (strcmp(schema, "$user") == 0) {
            if (!search->user)
                continue;
            schema = search->user;
        }
        const cat_schema_t *sc = cat_snap_schema(b->cat->snap, db, schema);
        if (sc && cat_snap_item(b->cat->snap, sc, name))
            return false;
    }
    return true;
}

const pln_sysrel_t *pln__sysrel_find(const pln_binder_t *b, const cat_qname_t *qn)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(sysrels); i++) {
        const pln_sysrel_t *rel = &sysrels[i];
        if (strcmp(rel->name, qn->name) != 0)
            continue;
        if (qn->schema ? strcmp(qn->schema, rel->schema) == 0 : pln__sysrel_unqualified(b, rel->schema, qn->name))
            return rel;
    }
    return NULL;
}

bool pln__session_columns(const char *session, const cat_column_t **cols, uint32_t *ncols)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(sysrels); i++)
        if (strcmp(sysrels[i].session, session) == 0) {
            *cols = sysrels[i].columns;
            *ncols = sysrels[i].ncolumns;
            return true;
        }
    /* The built-in relations of eddy_catalog and eddy_internal are read as "schema.name". */
    const char *dot = strchr(session, '.');
    if (dot == NULL || (size_t)(dot - session) >= 64)
        return false;
    char schema[64];
    memcpy(schema, session, (size_t)(dot - session));
    schema[dot - session] = 0;
    const cat_builtin_t *bt = cat_builtin_find(schema, dot + 1);
    if (bt == NULL)
        return false;
    *cols = bt->columns;
    *ncols = bt->ncolumns;
    return true;
}
