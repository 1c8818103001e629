/*
 * pln_sysrel.c: the session relations of pg_catalog (planner.h): their
 * columns as PostgreSQL 15 declares the views, and which FROM names mean
 * them. They are not catalog items because their rows are the session's,
 * not the catalog's; the name lookup still follows PostgreSQL's rule that
 * pg_catalog is searched first unless search_path lists it, in which case
 * a relation of the same name in a schema listed before it wins.
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

static const pln_sysrel_t sysrels[] = {
    {PLN_PREPARED_STATEMENTS, cols_prepared_statements, CM_ARRAY_LEN(cols_prepared_statements)},
};

/* Whether a schema the path lists before pg_catalog holds a relation of this name. */
static bool shadowed(const pln_binder_t *b, const char *name)
{
    const cat_search_t *search = &b->cat->search;
    bool listed = false;
    for (size_t i = 0; i < search->npath && !listed; i++)
        listed = strcmp(search->path[i], "pg_catalog") == 0;
    if (!listed)
        return false;   /* pg_catalog is then searched first */
    const cat_database_t *db = search->database ? cat_snap_database(b->cat->snap, search->database) : NULL;
    for (size_t i = 0; i < search->npath; i++) {
        const char *schema = search->path[i];
        if (strcmp(schema, "pg_catalog") == 0)
            return false;
        if (strcmp(schema, "$user") == 0) {
            if (!search->user)
                continue;
            schema = search->user;
        }
        const cat_schema_t *sc = cat_snap_schema(b->cat->snap, db, schema);
        if (sc && cat_snap_item(b->cat->snap, sc, name))
            return true;
    }
    return false;
}

const pln_sysrel_t *pln__sysrel_find(const pln_binder_t *b, const cat_qname_t *qn)
{
    const pln_sysrel_t *rel = NULL;
    for (size_t i = 0; i < CM_ARRAY_LEN(sysrels) && !rel; i++)
        if (strcmp(sysrels[i].name, qn->name) == 0)
            rel = &sysrels[i];
    if (!rel)
        return NULL;
    if (qn->schema)
        return strcmp(qn->schema, "pg_catalog") == 0 ? rel : NULL;
    if (b->cat && b->cat->snap && shadowed(b, qn->name))
        return NULL;
    return rel;
}
