/*
 * pln_show.c: SHOW TABLES | SOURCES | VIEWS | MATERIALIZED VIEWS | INDEXES
 * | OBJECTS | SCHEMAS | DATABASES [FROM schema] [LIKE 'p' | WHERE e],
 * SHOW COLUMNS FROM x and SHOW CREATE <kind> x, with Materialize's column
 * names (name; name, type; name, nullable, type; name, create_sql).
 *
 * The rows are read from the snapshot at bind time and the statement is
 * bound as the query
 *   SELECT * FROM (VALUES rows) AS show(cols) [WHERE e | WHERE name LIKE p] ORDER BY name
 * so LIKE and WHERE have exactly the semantics of the rest of the SQL, and
 * Describe, portals and row limits work as for any query. A prepared SHOW
 * therefore answers from the catalog of its Parse; the server re-binds the
 * unnamed statement when the catalog moved.
 */
#include "planner/pln_internal.h"

#include <stdlib.h>
#include <string.h>

bool pln__is_show_catalog(const sql_stmt_t *s)
{
    return s && (s->kind == SQL_STMT_SHOW_OBJECTS || s->kind == SQL_STMT_SHOW_COLUMNS ||
                 s->kind == SQL_STMT_SHOW_CREATE);
}

/* The rows being collected: ncols cells per row, each a constant expression. */
typedef struct show_rows {
    pln_binder_t *b;
    int ncols;
    const char *const *names;
    const bool *is_bool;
    int n, cap;
    sql_expr_t ***rows;
} show_rows_t;

static sql_expr_t *node(pln_binder_t *b, sql_expr_kind_t kind)
{
    sql_expr_t *e = cm_arena_zalloc(b->arena, sizeof(*e));
    e->kind = kind;
    e->pos = -1;
    e->depth = 1;
    e->precision = -1;
    return e;
}

static sql_expr_t *text_const(pln_binder_t *b, const char *s)
{
    sql_expr_t *e = node(b, SQL_EXPR_CONST);
    e->const_kind = SQL_CONST_STRING;
    e->str = s;
    e->len = strlen(s);
    return e;
}

static sql_expr_t *bool_const(pln_binder_t *b, bool v)
{
    sql_expr_t *e = node(b, SQL_EXPR_CONST);
    e->const_kind = SQL_CONST_BOOL;
    e->boolval = v;
    e->str = v ? "true" : "false";
    return e;
}

static sql_list_t *list_new(pln_binder_t *b, int cap)
{
    sql_list_t *l = cm_arena_zalloc(b->arena, sizeof(*l));
    l->cap = cap ? cap : 1;
    l->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)l->cap);
    return l;
}

static void list_add(sql_list_t *l, void *item)
{
    CM_ASSERT(l->count < l->cap);
    l->items[l->count++] = item;
}

/* CAST(NULL AS type): the typed cell of the placeholder row of an empty result. */
static sql_expr_t *typed_null(pln_binder_t *b, bool is_bool)
{
    sql_expr_t *e = node(b, SQL_EXPR_CAST);
    e->arg = node(b, SQL_EXPR_CONST);
    e->arg->const_kind = SQL_CONST_NULL;
    e->cast_form = SQL_CAST_COLONS;
    e->type = cm_arena_zalloc(b->arena, sizeof(sql_typename_t));
    e->type->pos = -1;
    e->type->interval_precision = -1;
    e->type->names = list_new(b, 1);
    list_add(e->type->names, (void *)(is_bool ? "bool" : "text"));
    return e;
}

static void row_add(show_rows_t *r, const char *a, const char *c2, const char *c3)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        sql_expr_t ***rows = cm_arena_alloc(r->b->arena, sizeof(*rows) * (size_t)cap);
        if (r->n)
            memcpy(rows, r->rows, sizeof(*rows) * (size_t)r->n);
        r->rows = rows;
        r->cap = cap;
    }
    const char *v[3] = {a, c2, c3};
    sql_expr_t **row = cm_arena_alloc(r->b->arena, sizeof(*row) * (size_t)r->ncols);
    for (int i = 0; i < r->ncols; i++)
        row[i] = r->is_bool[i] ? bool_const(r->b, v[i] != NULL && strcmp(v[i], "t") == 0) : text_const(r->b, v[i]);
    r->rows[r->n++] = row;
}

static int cmp_rows(const void *x, const void *y)
{
    const sql_expr_t *const *a = *(const sql_expr_t *const *const *)x;
    const sql_expr_t *const *b = *(const sql_expr_t *const *const *)y;
    return strcmp(a[0]->str, b[0]->str);
}

/*
 * Binds SELECT * FROM (VALUES rows) AS show(names) WHERE ... [ORDER BY the
 * first column]. By name, rows are sorted here too, so equal names keep
 * catalog order; otherwise (columns) they keep the order they came in.
 */
static bool bind_rows(pln_binder_t *b, show_rows_t *r, const sql_show_t *sh, bool by_name, pln_stmt_t *st)
{
    if (by_name && r->n > 1)   /* qsort's pointer must not be NULL, even for no rows */
        qsort(r->rows, (size_t)r->n, sizeof(*r->rows), cmp_rows);
    sql_select_t *vals = cm_arena_zalloc(b->arena, sizeof(*vals));
    vals->paren_pos = -1;
    vals->pos = -1;
    bool empty = r->n == 0;
    vals->values = list_new(b, empty ? 1 : r->n);
    for (int i = 0; i < (empty ? 1 : r->n); i++) {
        sql_list_t *row = list_new(b, r->ncols);
        for (int c = 0; c < r->ncols; c++)
            list_add(row, empty ? typed_null(b, r->is_bool[c]) : r->rows[i][c]);
        list_add(vals->values, row);
    }
    sql_from_t *f = cm_arena_zalloc(b->arena, sizeof(*f));
    f->kind = SQL_FROM_SUBQUERY;
    f->pos = -1;
    f->select = vals;
    f->alias = "show";
    f->col_aliases = list_new(b, r->ncols);
    for (int c = 0; c < r->ncols; c++)
        list_add(f->col_aliases, (void *)r->names[c]);
    sql_select_t *q = cm_arena_zalloc(b->arena, sizeof(*q));
    q->paren_pos = -1;
    q->pos = -1;
    q->from = list_new(b, 1);
    list_add(q->from, f);
    sql_target_t *star = cm_arena_zalloc(b->arena, sizeof(*star));
    star->pos = -1;
    star->expr = node(b, SQL_EXPR_STAR);
    q->targets = list_new(b, 1);
    list_add(q->targets, star);
    sql_expr_t *name = node(b, SQL_EXPR_COLUMN);
    name->names = list_new(b, 1);
    list_add(name->names, (void *)r->names[0]);
    if (sh && sh->like) {
        sql_expr_t *like = node(b, SQL_EXPR_LIKE);
        like->like_kind = SQL_LIKE;
        like->left = name;
        like->right = sh->like;
        q->where = like;
    } else if (sh && sh->where) {
        q->where = sh->where;
    }
    if (empty) {
        /* The placeholder row gives the columns their types; WHERE false drops it. */
        q->where = bool_const(b, false);
    }
    if (by_name) {
        sql_sort_t *key = cm_arena_zalloc(b->arena, sizeof(*key));
        key->expr = name;
        q->order_by = list_new(b, 1);
        list_add(q->order_by, key);
    }
    return pln__bind_query_stmt(b, q, st);
}

/* ------------------------------------------------------------ lookups */

static const cat_schema_t *show_schema(pln_binder_t *b, const sql_show_t *sh)
{
    cat_qname_t qn = {0};
    if (sh->from) {
        cat_qname_t w;
        if (!pln__qname(b, sh->from->names, sh->from->pos, &w))
            return NULL;
        qn = (cat_qname_t){.database = w.schema, .schema = w.name};
        const cat_database_t *db = cat_snap_database(b->cat->snap, qn.database ? qn.database : b->cat->search.database);
        const cat_schema_t *sc = db ? cat_snap_schema(b->cat->snap, db, qn.schema) : NULL;
        if (!sc)
            pln__error(b, sh->from->pos, "3F000", "schema \"%s\" does not exist", qn.schema);
        return sc;
    }
    return cat_resolve_schema(b->cat->snap, &b->cat->search, &qn, b->err);
}

static const cat_item_t *show_item(pln_binder_t *b, const sql_qname_t *q)
{
    cat_qname_t qn;
    if (!pln__qname(b, q->names, q->pos, &qn))
        return NULL;
    const cat_item_t *it = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, b->err);
    if (!it)
        b->err->position = pln__char_pos(b->sql, q->pos);
    return it;
}

static const char *type_text(pln_binder_t *b, const cat_column_t *c)
{
    cm_buf_t t;
    cm_buf_init(&t, 0);
    ty_format_type(c->type, c->typmod, &t);
    const char *s = cm_arena_strndup(b->arena, (const char *)t.data, t.len);
    cm_buf_free(&t);
    return s;
}

static const char *qualified(pln_binder_t *b, const cat_item_t *it)
{
    cm_buf_t t;
    cm_buf_init(&t, 0);
    if (it->schema->database) {
        cat_quote_ident(it->schema->database->name, &t);
        cm_buf_put_str(&t, ".");
    }
    cat_quote_ident(it->schema->name, &t);
    cm_buf_put_str(&t, ".");
    cat_quote_ident(it->name, &t);
    const char *s = cm_arena_strndup(b->arena, (const char *)t.data, t.len);
    cm_buf_free(&t);
    return s;
}

static bool kind_matches(sql_object_kind_t want, cat_item_kind_t k)
{
    switch (want) {
    case SQL_OBJ_TABLE: return k == CAT_ITEM_TABLE;
    case SQL_OBJ_SOURCE: return k == CAT_ITEM_SOURCE;
    case SQL_OBJ_VIEW: return k == CAT_ITEM_VIEW;
    case SQL_OBJ_MATERIALIZED_VIEW: return k == CAT_ITEM_MATVIEW;
    case SQL_OBJ_INDEX: return k == CAT_ITEM_INDEX;
    case SQL_OBJ_OBJECT: return true;
    default: return false;
    }
}

/* ------------------------------------------------------------ statements */

static bool show_objects(pln_binder_t *b, const sql_show_t *sh, pln_stmt_t *st)
{
    static const char *const name_only[] = {"name"};
    static const char *const name_type[] = {"name", "type"};
    static const char *const index_cols[] = {"name", "on", "key"};
    static const bool no_bool[3] = {false, false, false};
    const cat_snap_t *snap = b->cat->snap;
    show_rows_t r = {.b = b, .ncols = 1, .names = name_only, .is_bool = no_bool};
    if (sh->object == SQL_OBJ_DATABASE) {
        for (size_t i = 0; cat_snap_database_at(snap, i); i++)
            row_add(&r, cat_snap_database_at(snap, i)->name, NULL, NULL);
        return bind_rows(b, &r, sh, true, st);
    }
    if (sh->object == SQL_OBJ_SCHEMA) {
        const char *dbname = b->cat->search.database;
        if (sh->from)
            dbname = sh->from->names->items[sh->from->names->count - 1];
        const cat_database_t *db = cat_snap_database(snap, dbname);
        if (!db)
            return pln__error(b, sh->from ? sh->from->pos : -1, CM_ERRCODE_INVALID_CATALOG_NAME,
                              "database \"%s\" does not exist", dbname);
        for (size_t i = 0; cat_snap_schema_at(snap, i); i++) {
            const cat_schema_t *sc = cat_snap_schema_at(snap, i);
            if (sc->database == NULL || sc->database == db)
                row_add(&r, sc->name, NULL, NULL);
        }
        return bind_rows(b, &r, sh, true, st);
    }
    const cat_item_t *on = NULL;
    const cat_schema_t *sc = NULL;
    if (sh->object == SQL_OBJ_INDEX && sh->on) {
        if (!(on = show_item(b, sh->on)))
            return false;
    } else if (!(sc = show_schema(b, sh))) {
        return false;
    }
    if (sh->object == SQL_OBJ_OBJECT || sh->object == SQL_OBJ_SOURCE) {
        r.ncols = 2;
        r.names = name_type;
    } else if (sh->object == SQL_OBJ_INDEX) {
        r.ncols = 3;
        r.names = index_cols;
    }
    for (size_t i = 0; cat_snap_item_at(snap, i); i++) {
        const cat_item_t *it = cat_snap_item_at(snap, i);
        if (!kind_matches(sh->object, it->kind) || (sc && it->schema != sc))
            continue;
        if (sh->object == SQL_OBJ_INDEX) {
            const cat_item_t *rel = it->ndeps ? cat_snap_item_by_id(snap, it->deps[0]) : NULL;
            if (on && rel != on)
                continue;
            cm_buf_t key;
            cm_buf_init(&key, 0);
            cm_buf_put_str(&key, "{");
            for (uint32_t c = 0; c < it->ncolumns; c++) {
                if (c)
                    cm_buf_put_str(&key, ",");
                cm_buf_put_str(&key, it->columns[c].name);
            }
            cm_buf_put_str(&key, "}");
            row_add(&r, it->name, rel ? rel->name : "", cm_arena_strndup(b->arena, (const char *)key.data, key.len));
            cm_buf_free(&key);
        } else {
            row_add(&r, it->name, r.ncols > 1 ? cat_item_kind_name(it->kind) : NULL, NULL);
        }
    }
    return bind_rows(b, &r, sh, true, st);
}

static bool show_columns(pln_binder_t *b, const sql_show_t *sh, pln_stmt_t *st)
{
    static const char *const names[] = {"name", "nullable", "type"};
    static const bool is_bool[] = {false, true, false};
    const cat_item_t *it = show_item(b, sh->on);
    if (!it)
        return false;
    show_rows_t r = {.b = b, .ncols = 3, .names = names, .is_bool = is_bool};
    for (uint32_t i = 0; i < it->ncolumns; i++)
        row_add(&r, it->columns[i].name, it->columns[i].not_null ? "f" : "t", type_text(b, &it->columns[i]));
    /* Columns keep their declared order, not the name order. */
    return bind_rows(b, &r, sh, false, st);
}

static bool show_create(pln_binder_t *b, const sql_show_t *sh, pln_stmt_t *st)
{
    static const char *const names[] = {"name", "create_sql"};
    static const bool no_bool[] = {false, false};
    const cat_item_t *it = show_item(b, sh->on);
    if (!it)
        return false;
    if (!kind_matches(sh->object, it->kind))
        return pln__error(b, sh->on->pos, "42809", "\"%s\" is not a %s", qualified(b, it),
                          sh->object == SQL_OBJ_MATERIALIZED_VIEW ? "materialized view"
                          : sh->object == SQL_OBJ_VIEW            ? "view"
                          : sh->object == SQL_OBJ_SOURCE          ? "source"
                          : sh->object == SQL_OBJ_INDEX           ? "index"
                                                                  : "table");
    show_rows_t r = {.b = b, .ncols = 2, .names = names, .is_bool = no_bool};
    row_add(&r, qualified(b, it), it->create_sql, NULL);
    return bind_rows(b, &r, NULL, false, st);
}

bool pln__bind_show(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    if (!b->cat || !b->cat->snap)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s needs a catalog", sql_stmt_name(s));
    bool ok;
    switch (s->kind) {
    case SQL_STMT_SHOW_OBJECTS:
        ok = show_objects(b, s->show, st);
        break;
    case SQL_STMT_SHOW_COLUMNS:
        ok = show_columns(b, s->show, st);
        break;
    default:
        ok = show_create(b, s->show, st);
        break;
    }
    return ok;
}
