/*
 * pln_rename.c: ALTER {TABLE | VIEW | MATERIALIZED VIEW | SOURCE | INDEX}
 * [IF EXISTS] x RENAME TO y as a catalog change. The item keeps its ID and
 * OID; its create_sql is re-parsed and deparsed under the new name so SHOW
 * CREATE stays true.
 *
 * Items that other items read are refused (0A000): a dependent view's (or
 * index's) stored SQL names the item, and rewriting that SQL is not built
 * yet. Renaming one without the other would leave create_sql that no
 * longer parses against the catalog.
 */
#include "planner/pln_internal.h"

#include <string.h>

static sql_qname_t *renamed(pln_binder_t *b, const sql_qname_t *q, const char *new_name)
{
    sql_qname_t *r = cm_arena_zalloc(b->arena, sizeof(*r));
    *r = *q;
    sql_list_t *l = cm_arena_zalloc(b->arena, sizeof(*l));
    int n = sql_list_len(q->names);
    l->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        l->items[i] = q->names->items[i];
    if (n)
        l->items[n - 1] = (void *)new_name;
    l->count = l->cap = n;
    r->names = l;
    return r;
}

/* The item's create_sql with its own name replaced (all else as stored). */
static bool rewrite_create_sql(pln_binder_t *b, const cat_item_t *it, const char *new_name, const char **out)
{
    sql_stmt_list_t list;
    cm_err_t e = {0};
    if (!sql_parse(b->arena, it->create_sql, strlen(it->create_sql), &list, &e) || list.count != 1) {
        cm_err_clear(&e);
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "stored definition of \"%s\" does not parse", it->name);
    }
    sql_stmt_t ns = *list.items[0];
    switch (ns.kind) {
    case SQL_STMT_CREATE_TABLE: {
        sql_create_table_t *t = cm_arena_alloc(b->arena, sizeof(*t));
        *t = *ns.create_table;
        t->name = renamed(b, t->name, new_name);
        ns.create_table = t;
        break;
    }
    case SQL_STMT_CREATE_SOURCE: {
        sql_create_source_t *t = cm_arena_alloc(b->arena, sizeof(*t));
        *t = *ns.create_source;
        t->name = renamed(b, t->name, new_name);
        ns.create_source = t;
        break;
    }
    case SQL_STMT_CREATE_VIEW: {
        sql_create_view_t *t = cm_arena_alloc(b->arena, sizeof(*t));
        *t = *ns.create_view;
        t->name = renamed(b, t->name, new_name);
        ns.create_view = t;
        break;
    }
    case SQL_STMT_CREATE_INDEX: {
        sql_create_index_t *t = cm_arena_alloc(b->arena, sizeof(*t));
        *t = *ns.create_index;
        /* A DEFAULT INDEX is written without a name; the item's name is kept apart. */
        if (!t->is_default)
            t->name = new_name;
        ns.create_index = t;
        break;
    }
    default:
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "stored definition of \"%s\" is not a CREATE", it->name);
    }
    cm_buf_t buf;
    cm_buf_init(&buf, 0);
    sql_deparse_stmt(&ns, &buf);
    *out = cm_arena_strndup(b->arena, buf.len ? (const char *)buf.data : "", buf.len);
    cm_buf_free(&buf);
    return true;
}

static bool has_dependents(const cat_snap_t *snap, const cat_item_t *it)
{
    for (size_t i = 0;; i++) {
        const cat_item_t *x = cat_snap_item_at(snap, i);
        if (!x)
            return false;
        for (uint32_t d = 0; d < x->ndeps; d++)
            if (x->deps[d] == it->id)
                return true;
    }
}

bool pln__plan_rename(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_alter_rename_t *r = s->alter_rename;
    if (r->column)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "ALTER TABLE ... RENAME COLUMN is not supported yet");
    static const cat_item_kind_t kinds[] = {CAT_ITEM_TABLE, CAT_ITEM_SOURCE, CAT_ITEM_VIEW, CAT_ITEM_MATVIEW,
                                            CAT_ITEM_INDEX};
    if (r->object > SQL_OBJ_INDEX)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s ... RENAME is not supported yet",
                          sql_stmt_name(s));
    cat_qname_t qn;
    if (!pln__qname(b, r->name->names, r->name->pos, &qn))
        return false;
    const cat_snap_t *snap = b->cat->snap;
    const cat_item_t *it = cat_resolve_item(snap, &b->cat->search, &qn, b->err);
    if (!it) {
        if (r->if_exists && strcmp(b->err->sqlstate, CM_ERRCODE_UNDEFINED_TABLE) == 0) {
            cm_err_clear(b->err);
            cat_plan_rename_missing(snap, qn.name, out);
            return true;
        }
        return false;
    }
    /* PostgreSQL 15's RenameRelation: ALTER TABLE and ALTER INDEX take any
     * relation; ALTER VIEW / MATERIALIZED VIEW (and eddy's SOURCE) only their own kind. */
    if (r->object != SQL_OBJ_TABLE && r->object != SQL_OBJ_INDEX && it->kind != kinds[r->object])
        return pln__error(b, -1, "42809", "\"%s\" is not %s %s", it->name, r->object == SQL_OBJ_INDEX ? "an" : "a",
                          cat_item_kind_name(kinds[r->object]));
    if (has_dependents(snap, it))
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "cannot rename %s \"%s\" because other objects depend on it (not supported yet)",
                          cat_item_kind_name(it->kind), it->name);
    const char *create_sql = NULL;
    if (!rewrite_create_sql(b, it, r->new_name, &create_sql))
        return false;
    return cat_plan_rename_item(snap, it, r->new_name, create_sql, out, b->err);
}
