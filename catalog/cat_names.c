/*
 * cat_names.c: name resolution with a search_path, visibility, and object
 * descriptions in PostgreSQL's words.
 *
 * Messages name objects the way PostgreSQL's getObjectDescription does: a
 * relation is qualified with its schema only when its bare name would not
 * find it through the session's search_path, and identifiers are quoted by
 * quote_identifier's rules. That is why these functions take the session's
 * search view and not just the snapshot.
 */
#include "catalog/cat_int.h"

#include <string.h>

void cat__put_quoted(const char *ident, bool plain, cm_buf_t *out)
{
    if (plain) {
        cm_buf_put_str(out, ident);
        return;
    }
    cm_buf_put_u8(out, '"');
    for (const char *p = ident; *p; p++) {
        if (*p == '"')
            cm_buf_put_u8(out, '"');
        cm_buf_put_u8(out, (uint8_t)*p);
    }
    cm_buf_put_u8(out, '"');
}

static void cat__quote_default(const char *ident, cm_buf_t *out)
{
    bool plain = ident[0] && ((ident[0] >= 'a' && ident[0] <= 'z') || ident[0] == '_');
    for (const char *p = ident; plain && *p; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$';
    cat__put_quoted(ident, plain, out);
}

/* Set once at start-up before threads exist, read-only afterwards. */
static cat_quote_fn cat__quote = cat__quote_default;

void cat_set_quote_ident(cat_quote_fn fn)
{
    cat__quote = fn ? fn : cat__quote_default;
}

void cat_quote_ident(const char *ident, cm_buf_t *out)
{
    cat__quote(ident, out);
}

/* ------------------------------------------------------------- search */

/* The schemas an unqualified name is looked up in, in order: pg_catalog
 * first unless the path names it, then the path's existing schemas. */
static size_t cat__search_schemas(const cat_snap_t *s, const cat_search_t *search, bool for_create,
                                  const cat_schema_t **out, size_t max)
{
    const cat_database_t *db = search && search->database ? cat_snap_database(s, search->database) : NULL;
    size_t n = 0;
    bool listed_pg_catalog = false;
    for (size_t i = 0; search && i < search->npath; i++)
        listed_pg_catalog = listed_pg_catalog || strcmp(search->path[i], "pg_catalog") == 0;
    if (!listed_pg_catalog && !for_create) {
        const cat_schema_t *pc = cat_snap_schema(s, NULL, "pg_catalog");
        if (pc && n < max)
            out[n++] = pc;
    }
    for (size_t i = 0; search && i < search->npath && n < max; i++) {
        const char *name = search->path[i];
        if (strcmp(name, "$user") == 0) {
            if (!search->user)
                continue;
            name = search->user;
        }
        const cat_schema_t *sc = cat_snap_schema(s, db, name);
        /* recomputeNamespacePath: a schema the user may not use is not searched. */
        if (!sc || !cat_schema_usable(s, search, sc))
            continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++)
            dup = dup || out[j] == sc;
        if (!dup)
            out[n++] = sc;
    }
    return n;
}

size_t cat_search_schemas(const cat_snap_t *s, const cat_search_t *search, bool implicit, const cat_schema_t **out,
                          size_t max)
{
    return cat__search_schemas(s, search, !implicit, out, max);
}

#define CAT__PATH_MAX 64

const cat_schema_t *cat_resolve_schema(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                       cm_err_t *err)
{
    if (qn->schema) {
        const char *dbname = qn->database ? qn->database : search ? search->database : NULL;
        const cat_database_t *db = dbname ? cat_snap_database(s, dbname) : NULL;
        if (!db && qn->database) {
            cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", qn->database);
            return NULL;
        }
        const cat_schema_t *sc = cat_snap_schema(s, db, qn->schema);
        if (!sc)
            cm_err_set(err, CAT__ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", qn->schema);
        return sc;
    }
    const cat_schema_t *path[CAT__PATH_MAX];
    size_t n = cat__search_schemas(s, search, true, path, CAT__PATH_MAX);
    if (n == 0) {
        cm_err_set(err, CAT__ERRCODE_INVALID_SCHEMA_NAME, "no schema has been selected to create in");
        return NULL;
    }
    return path[0];
}

static void cat__written_name(const cat_qname_t *qn, cm_buf_t *out)
{
    if (qn->database)
        cm_buf_printf(out, "%s.", qn->database);
    if (qn->schema)
        cm_buf_printf(out, "%s.", qn->schema);
    cm_buf_put_str(out, qn->name);
    cm_buf_put_u8(out, 0);
}

const cat_item_t *cat_resolve_item(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                   cm_err_t *err)
{
    const cat_item_t *it = NULL;
    if (qn->schema) {
        /* As PostgreSQL's parser does, a missing schema or database is
         * reported as the relation (written as given) not existing. */
        cm_err_t ignore = {0};
        const cat_schema_t *sc = cat_resolve_schema(s, search, qn, &ignore);
        cm_err_clear(&ignore);
        if (sc && !cat_schema_usable(s, search, sc)) {
            cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", sc->name);
            return NULL;
        }
        it = cat_snap_item(s, sc, qn->name);
    } else {
        const cat_schema_t *path[CAT__PATH_MAX];
        size_t n = cat__search_schemas(s, search, false, path, CAT__PATH_MAX);
        for (size_t i = 0; !it && i < n; i++)
            it = cat_snap_item(s, path[i], qn->name);
    }
    if (!it) {
        cm_buf_t b;
        cm_buf_init(&b, 0);
        cat__written_name(qn, &b);
        cm_err_set(err, CM_ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", (const char *)b.data);
        cm_buf_free(&b);
    }
    return it;
}

const cat_item_t *cat_resolve_relation(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                       cm_err_t *err)
{
    if (qn->schema && !cat_resolve_schema(s, search, qn, err))
        return NULL;
    return cat_resolve_item(s, search, qn, err);
}

bool cat_item_visible(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *item)
{
    const cat_schema_t *path[CAT__PATH_MAX];
    size_t n = cat__search_schemas(s, search, false, path, CAT__PATH_MAX);
    for (size_t i = 0; i < n; i++) {
        const cat_item_t *found = cat_snap_item(s, path[i], item->name);
        if (found)
            return found == item;
    }
    return false;
}

void cat_describe_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *item, cm_buf_t *out)
{
    cm_buf_printf(out, "%s ", cat_item_kind_name(item->kind));
    if (!cat_item_visible(s, search, item)) {
        cat_quote_ident(item->schema->name, out);
        cm_buf_put_u8(out, '.');
    }
    cat_quote_ident(item->name, out);
}
