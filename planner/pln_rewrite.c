/*
 * pln_rewrite.c: the stored SQL of items re-deparsed under new names, for
 * ALTER ... RENAME of items, columns, schemas and databases.
 *
 * Stored create_sql names every relation fully qualified, so a rename
 * changes the text of the renamed object and of everything that names it.
 * PostgreSQL does not have this problem (views refer by OID and are deparsed
 * when shown); eddy keeps SQL, so a rename re-writes it in the same catalog
 * commit: a view's query is bound against the current catalog, which tells
 * which FROM node reads which item and which column reference reads which
 * column; those nodes get the new names and the statement is deparsed again.
 * Output column names never change for a reader (PostgreSQL's rule: a view
 * over `SELECT a FROM t` becomes `SELECT b AS a FROM t` when t.a becomes
 * t.b), so a renamed reference that named an output gets the old name as its
 * alias. Shapes whose names cannot be kept that way (a renamed column seen
 * through * inside a subquery, or through JOIN USING / NATURAL) answer
 * 0A000 instead of storing SQL that would no longer read the same.
 */
#include "planner/pln_internal.h"

#include <string.h>

typedef struct rewriter {
    pln_binder_t *b;
    const pln_renames_t *r;
    const sql_expr_t **renamed;   /* column references given the new column name */
    int nrenamed;
} rewriter_t;

static sql_list_t *list_of(cm_arena_t *a, int n, const char *const *items)
{
    sql_list_t *l = cm_arena_zalloc(a, sizeof(*l));
    l->items = cm_arena_alloc(a, sizeof(void *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        l->items[i] = (void *)items[i];
    l->count = l->cap = n;
    return l;
}

static const char *db_name(const pln_renames_t *r, const cat_database_t *d)
{
    return r->db && d->id == r->db ? r->db_name : d->name;
}

static const char *schema_name(const pln_renames_t *r, const cat_schema_t *sc)
{
    return r->schema && sc->id == r->schema ? r->schema_name : sc->name;
}

static const char *item_name(const pln_renames_t *r, const cat_item_t *it)
{
    return r->item && it->id == r->item ? r->item_name : it->name;
}

/* database.schema.name of an item as the renames leave it. */
static sql_list_t *names_after(cm_arena_t *a, const pln_renames_t *r, const cat_item_t *it)
{
    const char *parts[3] = {db_name(r, it->schema->database), schema_name(r, it->schema), item_name(r, it)};
    return list_of(a, 3, parts);
}

static sql_qname_t *qname_after(cm_arena_t *a, const pln_renames_t *r, const cat_item_t *it, int pos)
{
    sql_qname_t *q = cm_arena_zalloc(a, sizeof(*q));
    q->pos = pos;
    q->names = names_after(a, r, it);
    return q;
}

static bool col_renamed(const pln_renames_t *r, const cat_item_t *it, const char *name)
{
    return r->col_item && it->id == r->col_item && strcmp(name, r->col_old) == 0;
}

static bool cannot(pln_binder_t *b, const cat_item_t *it, const char *why)
{
    return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot rewrite the definition of %s \"%s\": %s",
                      cat_item_kind_name(it->kind), it->name, why);
}

/* ------------------------------------------------------------ views */

static bool was_renamed(const rewriter_t *w, const sql_expr_t *e)
{
    for (int i = 0; i < w->nrenamed; i++)
        if (w->renamed[i] == e)
            return true;
    return false;
}

static bool fix_select(rewriter_t *w, const cat_item_t *it, sql_select_t *s, bool top);

/* FROM subqueries keep their output names; joins over a renamed column by name cannot be kept. */
static bool fix_from(rewriter_t *w, const cat_item_t *it, sql_from_t *f)
{
    switch (f->kind) {
    case SQL_FROM_SUBQUERY:
        return fix_select(w, it, f->select, false);
    case SQL_FROM_JOIN:
        if (w->r->col_item && (f->natural || sql_list_len(f->using_cols) > 0)) {
            for (int i = 0; i < sql_list_len(f->using_cols); i++)
                if (strcmp(f->using_cols->items[i], w->r->col_old) == 0)
                    return cannot(w->b, it, "it joins USING the renamed column (not supported yet)");
            if (f->natural)
                return cannot(w->b, it, "it has a NATURAL join (not supported yet)");
        }
        return fix_from(w, it, f->larg) && fix_from(w, it, f->rarg);
    default:
        return true;
    }
}

static bool fix_select(rewriter_t *w, const cat_item_t *it, sql_select_t *s, bool top)
{
    if (s->op != SQL_SETOP_NONE)
        return fix_select(w, it, s->larg, top) && fix_select(w, it, s->rarg, top);
    for (int i = 0; i < sql_list_len(s->from); i++)
        if (!fix_from(w, it, s->from->items[i]))
            return false;
    for (int i = 0; i < sql_list_len(s->targets); i++) {
        sql_target_t *t = s->targets->items[i];
        if (t->alias)
            continue;
        if (t->expr->kind == SQL_EXPR_STAR || (t->expr->kind == SQL_EXPR_COLUMN && t->expr->star)) {
            /* The top level keeps its names through the view's column list. */
            if (!top && w->r->col_item)
                return cannot(w->b, it, "a subquery reads the renamed column through * (not supported yet)");
            continue;
        }
        if (t->expr->kind == SQL_EXPR_COLUMN && was_renamed(w, t->expr))
            t->alias = w->r->col_old;
    }
    return true;
}

static bool rewrite_view(rewriter_t *w, const cat_item_t *it, sql_stmt_t *ns)
{
    pln_binder_t *b = w->b;
    const pln_renames_t *r = w->r;
    sql_create_view_t *v = cm_arena_alloc(b->arena, sizeof(*v));
    *v = *ns->create_view;
    ns->create_view = v;
    /* Bound against the catalog as it is (every name in it is qualified), noting what each node reads. */
    pln_catalog_t cat = {.snap = b->cat->snap, .search = {.database = it->schema->database->name}};
    pln_binder_t sub = {.arena = b->arena, .sql = it->create_sql, .sql_len = strlen(it->create_sql), .err = b->err,
                        .settings = b->settings, .settings_known = b->settings_known, .cat = &cat,
                        .note_cols = true};
    sub.ctx.arena = b->arena;
    sub.ctx.settings = &sub.settings;
    sub.ctx.err = b->err;
    pln_bound_t q;
    if (!pln__bind_select(&sub, v->query, &q)) {
        char *why = cm_arena_strdup(b->arena, b->err->message ? b->err->message : "it does not bind");
        cm_err_clear(b->err);
        return cannot(b, it, why);
    }
    for (int i = 0; i < sub.nrels; i++)
        ((sql_from_t *)sub.rel_from[i])->names = names_after(b->arena, r, sub.rel_item[i]);
    w->renamed = cm_arena_alloc(b->arena, sizeof(*w->renamed) * (size_t)(sub.ncolrefs ? sub.ncolrefs : 1));
    w->nrenamed = 0;
    for (int i = 0; i < sub.ncolrefs; i++) {
        const cat_item_t *src = sub.colref_item[i];
        if (!col_renamed(r, src, src->columns[sub.colref_col[i]].name))
            continue;
        sql_expr_t *e = (sql_expr_t *)sub.colref_expr[i];
        int n = e->names->count;
        const char **parts = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)n);
        for (int k = 0; k < n; k++)
            parts[k] = e->names->items[k];
        parts[n - 1] = r->col_new;
        e->names = list_of(b->arena, n, parts);
        w->renamed[w->nrenamed++] = e;
    }
    if (!fix_select(w, it, v->query, true))
        return false;
    /* The view's own column renamed (ALTER VIEW v RENAME COLUMN), and readers' names kept at the top:
     * the output names are the stored columns', written as a column list where aliases cannot say it. */
    int ncols = (int)it->ncolumns;
    const char **want = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++)
        want[i] = col_renamed(r, it, it->columns[i].name) ? r->col_new : it->columns[i].name;
    bool need_list = false;
    int nlist = sql_list_len(v->columns);
    const sql_select_t *plain = v->query->op == SQL_SETOP_NONE && !v->query->values ? v->query : NULL;
    int at = 0;
    for (int i = 0; plain && i < sql_list_len(plain->targets) && at < ncols; i++, at++) {
        sql_target_t *t = plain->targets->items[i];
        if (t->expr->kind == SQL_EXPR_STAR || (t->expr->kind == SQL_EXPR_COLUMN && t->expr->star))
            break;
        if (at < nlist)
            continue;
        const char *name = t->alias ? t->alias : pln__colname(t->expr);
        if (strcmp(name, want[at]) != 0)
            t->alias = want[at];
    }
    if (!plain || at < ncols) {
        /* Outputs past `at` come from *, VALUES or a set operation: compare what they would be called. */
        for (int i = at; i < ncols && !need_list; i++) {
            const char *now = i < nlist ? v->columns->items[i] : q.cols[i].name;
            bool renamed_src = r->col_item != 0 && strcmp(now, r->col_old) == 0 && !(i < nlist);
            need_list = strcmp(now, want[i]) != 0 || renamed_src;
        }
    }
    if (need_list) {
        v->columns = list_of(b->arena, ncols, want);
    } else if (nlist > 0) {
        const char **cols = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)nlist);
        for (int i = 0; i < nlist; i++)
            cols[i] = i < ncols ? want[i] : v->columns->items[i];
        v->columns = list_of(b->arena, nlist, cols);
    }
    v->name = qname_after(b->arena, r, it, v->name->pos);
    return true;
}

/* ------------------------------------------------------------ the others */

static sql_list_t *renamed_names(cm_arena_t *a, const sql_list_t *names, const char *from, const char *to)
{
    int n = sql_list_len(names);
    const char **parts = cm_arena_alloc(a, sizeof(char *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        parts[i] = strcmp(names->items[i], from) == 0 ? to : names->items[i];
    return list_of(a, n, parts);
}

/* A CHECK condition's references to the renamed column (stored unqualified: pln_check.c). */
static void rename_in_expr(cm_arena_t *a, sql_expr_t *e, const char *from, const char *to)
{
    if (!e)
        return;
    if (e->kind == SQL_EXPR_COLUMN && !e->star && e->names->count == 1 && strcmp(e->names->items[0], from) == 0)
        e->names = list_of(a, 1, &to);
    rename_in_expr(a, e->arg, from, to);
    rename_in_expr(a, e->left, from, to);
    rename_in_expr(a, e->right, from, to);
    rename_in_expr(a, e->def, from, to);
    for (int i = 0; i < sql_list_len(e->args); i++)
        rename_in_expr(a, e->args->items[i], from, to);
}

static void rename_in_constraints(cm_arena_t *a, const sql_list_t *cons, const char *from, const char *to)
{
    for (int i = 0; i < sql_list_len(cons); i++) {
        const sql_constraint_t *c = cons->items[i];
        if (c->kind == SQL_CONSTR_CHECK)
            rename_in_expr(a, c->expr, from, to);
    }
}

static void rewrite_table(rewriter_t *w, const cat_item_t *it, sql_stmt_t *ns)
{
    cm_arena_t *a = w->b->arena;
    const pln_renames_t *r = w->r;
    sql_create_table_t *t = cm_arena_alloc(a, sizeof(*t));
    *t = *ns->create_table;
    ns->create_table = t;
    t->name = qname_after(a, r, it, t->name->pos);
    if (t->source && it->ndeps)   /* FROM SOURCE: deps[0] is the source */
        t->source = qname_after(a, r, cat_snap_item_by_id(w->b->cat->snap, it->deps[0]), t->source->pos);
    if (!r->col_item || r->col_item != it->id)
        return;
    int n = sql_list_len(t->columns);
    sql_list_t *cols = list_of(a, n, (const char *const *)t->columns->items);
    for (int i = 0; i < n; i++) {
        const sql_column_def_t *cd = cols->items[i];
        if (strcmp(cd->name, r->col_old) != 0)
            continue;
        sql_column_def_t *c = cm_arena_alloc(a, sizeof(*c));
        *c = *cd;
        c->name = r->col_new;
        cols->items[i] = c;
    }
    t->columns = cols;
    /* The parse is this rewrite's own, so its CHECK conditions are renamed in place. */
    for (int i = 0; i < n; i++)
        rename_in_constraints(a, ((const sql_column_def_t *)cols->items[i])->constraints, r->col_old, r->col_new);
    rename_in_constraints(a, t->constraints, r->col_old, r->col_new);
    int nc = sql_list_len(t->constraints);
    sql_list_t *cons = list_of(a, nc, (const char *const *)(nc ? t->constraints->items : NULL));
    for (int i = 0; i < nc; i++) {
        sql_constraint_t *c = cm_arena_alloc(a, sizeof(*c));
        *c = *(const sql_constraint_t *)cons->items[i];
        c->columns = c->columns ? renamed_names(a, c->columns, r->col_old, r->col_new) : NULL;
        cons->items[i] = c;
    }
    t->constraints = nc ? cons : t->constraints;
}

static void rewrite_index(rewriter_t *w, const cat_item_t *it, sql_stmt_t *ns)
{
    cm_arena_t *a = w->b->arena;
    const pln_renames_t *r = w->r;
    sql_create_index_t *x = cm_arena_alloc(a, sizeof(*x));
    *x = *ns->create_index;
    ns->create_index = x;
    const cat_item_t *on = cat_snap_item_by_id(w->b->cat->snap, it->deps[0]);
    x->on = qname_after(a, r, on, x->on->pos);
    if (!x->is_default && r->item == it->id)
        x->name = r->item_name;
    if (!r->col_item || r->col_item != on->id || x->is_default)
        return;
    int n = sql_list_len(x->keys);
    sql_list_t *keys = list_of(a, n, (const char *const *)(n ? x->keys->items : NULL));
    for (int i = 0; i < n; i++) {
        const sql_sort_t *k = keys->items[i];
        if (k->expr->kind != SQL_EXPR_COLUMN || k->expr->names->count != 1 ||
            strcmp(k->expr->names->items[0], r->col_old) != 0)
            continue;
        sql_sort_t *nk = cm_arena_alloc(a, sizeof(*nk));
        *nk = *k;
        sql_expr_t *e = cm_arena_alloc(a, sizeof(*e));
        *e = *k->expr;
        e->names = renamed_names(a, e->names, r->col_old, r->col_new);
        nk->expr = e;
        keys->items[i] = nk;
    }
    x->keys = keys;
}

/* The item's create_sql under the renames. */
static bool rewrite_sql(rewriter_t *w, const cat_item_t *it, const char **out)
{
    pln_binder_t *b = w->b;
    sql_stmt_list_t list;
    cm_err_t e = {0};
    if (!sql_parse(b->arena, it->create_sql, strlen(it->create_sql), &list, &e) || list.count != 1) {
        cm_err_clear(&e);
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "stored definition of \"%s\" does not parse", it->name);
    }
    sql_stmt_t ns = *list.items[0];
    switch (ns.kind) {
    case SQL_STMT_CREATE_TABLE:
        if (ns.create_table->source && w->r->col_item == it->id)
            return cannot(b, it, "its columns are those of the source's relation");
        rewrite_table(w, it, &ns);
        break;
    case SQL_STMT_CREATE_SOURCE: {
        sql_create_source_t *t = cm_arena_alloc(b->arena, sizeof(*t));
        *t = *ns.create_source;
        t->name = qname_after(b->arena, w->r, it, t->name->pos);
        ns.create_source = t;
        break;
    }
    case SQL_STMT_CREATE_VIEW:
        if (!rewrite_view(w, it, &ns))
            return false;
        break;
    case SQL_STMT_CREATE_INDEX:
        rewrite_index(w, it, &ns);
        break;
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

/* ------------------------------------------------------------ which items */

/* Whether the renames touch x's stored SQL: it is renamed, lives in a renamed
 * container, or reads (or indexes) something that is. */
static bool touched(const cat_snap_t *snap, const pln_renames_t *r, const cat_item_t *x)
{
    if (!x->schema->database)
        return false;
    if ((r->item && x->id == r->item) || (r->col_item && x->id == r->col_item) ||
        (r->schema && x->schema->id == r->schema) || (r->db && x->schema->database->id == r->db))
        return true;
    for (uint32_t d = 0; d < x->ndeps; d++) {
        const cat_item_t *dep = cat_snap_item_by_id(snap, x->deps[d]);
        if (dep && dep->schema->database &&
            ((r->item && dep->id == r->item) || (r->col_item && dep->id == r->col_item) ||
             (r->schema && dep->schema->id == r->schema) || (r->db && dep->schema->database->id == r->db)))
            return true;
    }
    return false;
}

bool pln__rewrite_renamed(pln_binder_t *b, const pln_renames_t *r, cat_change_t *out)
{
    const cat_snap_t *snap = b->cat->snap;
    rewriter_t w = {.b = b, .r = r};
    for (size_t i = 0;; i++) {
        const cat_item_t *x = cat_snap_item_at(snap, i);
        if (!x)
            break;
        if (!touched(snap, r, x))
            continue;
        const char *sql = NULL;
        if (!rewrite_sql(&w, x, &sql))
            return false;
        cat_item_def_t def = {.kind = x->kind, .name = {.name = item_name(r, x)}, .create_sql = sql};
        /* A renamed column changes the columns of its relation and of the indexes on it. */
        const cat_item_t *owner = x->kind == CAT_ITEM_INDEX ? cat_snap_item_by_id(snap, x->deps[0]) : x;
        if (r->col_item && owner->id == r->col_item) {
            cat_column_t *cols = cm_arena_alloc(b->arena, sizeof(cat_column_t) * (x->ncolumns ? x->ncolumns : 1));
            for (uint32_t c = 0; c < x->ncolumns; c++) {
                cols[c] = x->columns[c];
                if (strcmp(cols[c].name, r->col_old) == 0)
                    cols[c].name = r->col_new;
            }
            def.columns = cols;
            def.ncolumns = x->ncolumns;
            def.deps = x->deps;
            def.ndeps = x->ndeps;
        } else if (strcmp(sql, x->create_sql) == 0 && strcmp(def.name.name, x->name) == 0) {
            continue;   /* nothing it says changes */
        }
        if (!cat_plan_alter_item(snap, x, &def, out, b->err))
            return false;
    }
    return true;
}
