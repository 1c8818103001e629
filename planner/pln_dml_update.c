/*
 * pln_dml_update.c: UPDATE and DELETE, the writes that change rows already
 * there, bound as PostgreSQL 15's transformUpdateStmt and
 * transformDeleteStmt, in their order: the target (under its alias), the
 * FROM / USING items (PostgreSQL's table name twice is 42712), WHERE,
 * RETURNING, and for UPDATE its SET list (every value bound first, then
 * each target column found and the value coerced to it; DEFAULT; SET (a,
 * b) = ROW(...); a column set twice is 42601).
 *
 * The rows' plan reads the table (GET) as any query does, joins the other
 * items, filters by WHERE, and gives per row the old values, for UPDATE the
 * new ones, then RETURNING's values: RETURNING reads the new row (UPDATE)
 * or the deleted one (DELETE) under the target's name, and the other
 * items' columns. With FROM / USING a table row may meet several rows of
 * the others; PostgreSQL changes it once, with the first match, so the
 * plan keeps one row per distinct old row (DISTINCT ON the old values,
 * plan_write_t.each_value).
 */
#include "planner/pln_internal.h"

#include <string.h>

static plan_rel_t *project(pln_binder_t *b, plan_rel_t *input, ty_expr_t **exprs, int n)
{
    plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, input, n);
    p->exprs = exprs;
    for (int i = 0; i < n; i++)
        p->types[i] = exprs[i]->type;
    return p;
}

static ty_expr_t *column(pln_binder_t *b, ty_oid_t type, int32_t typmod, int index)
{
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, type, 0);
    c->typmod = typmod;
    c->index = index;
    return c;
}

/* COLUMN 0..n-1 of rel's row, with the table's types (the row's first n columns are the target's). */
static void old_columns(pln_binder_t *b, const plan_write_t *w, ty_expr_t **out)
{
    for (int i = 0; i < w->ncols; i++)
        out[i] = column(b, w->cols[i].type, w->cols[i].typmod, i);
}

/*
 * The target and the other items as one FROM clause: the target first (its
 * columns are 0..n-1 of the row), then each item, as the FROM list of a
 * query; WHERE over it.
 */
static bool rows_from(pln_binder_t *b, const pln_target_t *t, const sql_qname_t *name, const char *alias,
                      const sql_list_t *others, const sql_expr_t *where, pln_scope_t *scope, plan_rel_t **rel)
{
    sql_from_t *target = cm_arena_zalloc(b->arena, sizeof(*target));
    target->kind = SQL_FROM_RELATION;
    target->pos = name->pos;
    target->names = name->names;
    target->alias = alias;
    int n = sql_list_len(others);
    sql_list_t from = {.count = n + 1, .cap = n + 1};
    from.items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)(n + 1));
    from.items[0] = target;
    for (int i = 0; i < n; i++)
        from.items[i + 1] = others->items[i];
    scope->id = ++b->nscopes;
    scope->open_sublink = -1;
    b->scope = scope;
    b->write_from = target;
    bool bound = pln__bind_from(b, &from, scope, rel);
    b->write_from = NULL;
    if (!bound)
        return false;
    if (scope->nrtes < 1 || scope->rtes[0].ncols != t->w->ncols)
        return pln__error(b, name->pos, CM_ERRCODE_INTERNAL_ERROR, "the target of a write is not its first FROM item");
    if (where) {
        b->aggs = NULL;
        b->agg_forbidden = "WHERE";
        b->wins = NULL;
        b->win_forbidden = NULL;
        b->srfs = NULL;
        ty_expr_t *p = pln__bind_expr(b, where);
        b->agg_forbidden = NULL;
        if (!p || !(p = pln__coerce_bool(b, p, "WHERE")))
            return false;
        plan_rel_t *f = pln__rel_new(b, PLAN_REL_FILTER, *rel, (*rel)->ncols);
        memcpy(f->types, (*rel)->types, sizeof(ty_oid_t) * (size_t)(*rel)->ncols);
        f->pred = p;
        *rel = f;
    }
    return true;
}

/* One distinct row per old row value: PostgreSQL changes a row once whatever it was joined with. */
static plan_rel_t *each_old_row(pln_binder_t *b, const plan_write_t *w, plan_rel_t *rel)
{
    plan_rel_t *d = pln__rel_new(b, PLAN_REL_DISTINCT, rel, rel->ncols);
    memcpy(d->types, rel->types, sizeof(ty_oid_t) * (size_t)rel->ncols);
    d->nsort = w->ncols;
    d->sort = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(w->ncols ? w->ncols : 1));
    for (int i = 0; i < w->ncols; i++)
        d->sort[i] = (plan_sortkey_t){.col = i, .type = w->cols[i].type};
    return d;
}

/*
 * A copy of scope in which the target's columns are read from `at` (where
 * the new row is in the rows' plan) and every other item's moved by `shift`.
 */
static pln_scope_t *scope_moved(pln_binder_t *b, const pln_scope_t *scope, int at, int shift)
{
    pln_scope_t *s = cm_arena_alloc(b->arena, sizeof(*s));
    *s = *scope;
    s->id = ++b->nscopes;
    s->open_sublink = -1;
    s->rtes = cm_arena_alloc(b->arena, sizeof(pln_rte_t) * (size_t)(scope->nrtes ? scope->nrtes : 1));
    for (int r = 0; r < scope->nrtes; r++) {
        pln_rte_t *t = &s->rtes[r];
        *t = scope->rtes[r];
        if (r == 0) {
            t->offset = at;
            t->index = NULL;
            continue;
        }
        t->offset += shift;
        if (t->index) {
            int *ix = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(t->ncols ? t->ncols : 1));
            for (int c = 0; c < t->ncols; c++)
                ix[c] = t->index[c] + shift;
            t->index = ix;
        }
    }
    s->ncols = scope->ncols + shift;
    return s;
}

/* One column's assignment of SET, in the order written. */
typedef struct set_item {
    const char *column;
    const char *field;
    int pos;                      /* the column's */
    ty_expr_t *x;                 /* NULL: DEFAULT */
    int vpos;                     /* the value's */
} set_item_t;

/*
 * transformTargetList over SET: every value bound in order, a multiple
 * assignment's source being a ROW (each element its column's value, or
 * DEFAULT; 42601 when the counts differ) and nothing else yet.
 */
static bool bind_set_values(pln_binder_t *b, const sql_list_t *set, set_item_t **items, int *nitems)
{
    int n = 0;
    for (int i = 0; i < sql_list_len(set); i++) {
        const sql_assign_t *a = set->items[i];
        n += a->columns ? a->columns->count : 1;
    }
    set_item_t *it = cm_arena_zalloc(b->arena, sizeof(*it) * (size_t)(n ? n : 1));
    int k = 0;
    b->aggs = NULL;
    b->agg_forbidden = "UPDATE";
    b->wins = NULL;
    b->win_forbidden = NULL;
    b->srfs = NULL;
    for (int i = 0; i < sql_list_len(set); i++) {
        const sql_assign_t *a = set->items[i];
        const sql_expr_t *v = a->value;
        if (!a->columns) {
            it[k] = (set_item_t){.column = a->column, .field = a->field, .pos = a->pos, .vpos = pln__leftmost(v)};
            if (v->kind != SQL_EXPR_DEFAULT && !(it[k].x = pln__bind_expr(b, v)))
                return false;
            k++;
            continue;
        }
        if (v->kind == SQL_EXPR_SUBQUERY && v->sublink == SQL_SUBLINK_EXPR)
            return pln__error(b, v->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "a sub-SELECT as the source of a multiple-column UPDATE item is not supported yet");
        if (v->kind != SQL_EXPR_ROW)
            return pln__error(b, pln__leftmost(v), CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression");
        int m = sql_list_len(v->args);
        ty_expr_t **xs = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(m ? m : 1));
        for (int j = 0; j < m; j++) {
            const sql_expr_t *e = v->args->items[j];
            if (e->kind != SQL_EXPR_DEFAULT && !(xs[j] = pln__bind_expr(b, e)))
                return false;
        }
        if (m != a->columns->count)
            return pln__error(b, v->pos, CM_ERRCODE_SYNTAX_ERROR, "number of columns does not match number of values");
        for (int j = 0; j < m; j++) {
            const sql_assign_t *c = a->columns->items[j];
            it[k++] = (set_item_t){.column = c->column, .pos = c->pos, .x = xs[j],
                                   .vpos = pln__leftmost(v->args->items[j])};
        }
    }
    b->agg_forbidden = NULL;
    *items = it;
    *nitems = k;
    return true;
}

bool pln__bind_update(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *t, pln_stmt_t *st)
{
    const sql_update_t *u = s->update;
    plan_write_t *w = t->w;
    int n = w->ncols;
    pln_scope_t *scope = cm_arena_zalloc(b->arena, sizeof(*scope));
    plan_rel_t *rel;
    if (!rows_from(b, t, u->table, u->alias, u->from, u->where, scope, &rel))
        return false;
    int nfrom = scope->ncols - n;
    /* RETURNING reads the new row where the rows' plan will have it, after the old one. */
    ty_expr_t **ret = NULL;
    plan_column_t *rcols = NULL;
    int nret = 0;
    if (u->returning) {
        b->scope = scope_moved(b, scope, n, n);
        bool ok = pln__bind_returning(b, u->returning, &ret, &rcols, &nret);
        b->scope = scope;
        if (!ok)
            return false;
    }
    set_item_t *items = NULL;
    int nitems = 0;
    if (!bind_set_values(b, u->set, &items, &nitems))
        return false;
    /* The row: old values, new values, the other items' columns (what RETURNING reads beside the new row). */
    int width = 2 * n + nfrom;
    ty_expr_t **row = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(width ? width : 1));
    old_columns(b, w, row);
    old_columns(b, w, row + n);
    for (int i = 0; i < nfrom; i++)
        row[2 * n + i] = column(b, rel->types[n + i], -1, n + i);
    for (int k = 0; k < nitems; k++) {
        const set_item_t *it = &items[k];
        int c = pln__write_column(w, it->column);
        if (c < 0)
            return pln__no_write_column(b, w, it->column, it->pos);
        pln__perm_mark(b, b->write_perm, c + 1, CAT_PRIV_UPDATE);
        if (it->field)
            return pln__error(b, it->pos, CM_ERRCODE_DATATYPE_MISMATCH,
                              "cannot assign to field \"%s\" of column \"%s\" because its type %s is not a composite type",
                              it->field, it->column, pln__type_name(b, w->cols[c].type));
        ty_expr_t *x = it->x ? pln__assign(b, w, c, it->x, it->vpos) : pln__column_default(b, w, c);
        if (!x)
            return false;
        row[n + c] = x;
    }
    /* PostgreSQL's rewriter refuses a column set twice, once every value is analysed. */
    bool *set = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(n ? n : 1));
    for (int k = 0; k < nitems; k++) {
        int c = pln__write_column(w, items[k].column);
        if (set[c])
            return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "multiple assignments to same column \"%s\"",
                              items[k].column);
        set[c] = true;
    }
    b->scope = NULL;
    rel = project(b, rel, row, width);
    w->each_value = sql_list_len(u->from) > 0;
    if (w->each_value)
        rel = each_old_row(b, w, rel);
    int ncols = 2 * n + nret;
    ty_expr_t **out = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(ncols ? ncols : 1));
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    old_columns(b, w, out);
    for (int i = 0; i < n; i++) {
        out[n + i] = column(b, w->cols[i].type, w->cols[i].typmod, n + i);
        cols[i] = cols[n + i] = w->cols[i];
    }
    for (int i = 0; i < nret; i++) {
        out[2 * n + i] = ret[i];
        cols[2 * n + i] = rcols[i];
    }
    rel = project(b, rel, out, ncols);
    w->nreturning = nret;
    w->returning = rcols;
    st->ncols = nret;
    st->cols = rcols;
    return pln__write_plan(b, t, rel, ncols, cols, st);
}

bool pln__bind_delete(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *t, pln_stmt_t *st)
{
    const sql_delete_t *d = s->delete_;
    plan_write_t *w = t->w;
    int n = w->ncols;
    pln_scope_t *scope = cm_arena_zalloc(b->arena, sizeof(*scope));
    plan_rel_t *rel;
    if (!rows_from(b, t, d->table, d->alias, d->using_from, d->where, scope, &rel))
        return false;
    ty_expr_t **ret = NULL;
    plan_column_t *rcols = NULL;
    int nret = 0;
    if (d->returning && !pln__bind_returning(b, d->returning, &ret, &rcols, &nret))
        return false;
    b->scope = NULL;
    w->each_value = sql_list_len(d->using_from) > 0;
    if (w->each_value)
        rel = each_old_row(b, w, rel);
    int ncols = n + nret;
    ty_expr_t **out = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(ncols ? ncols : 1));
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    old_columns(b, w, out);
    for (int i = 0; i < n; i++)
        cols[i] = w->cols[i];
    for (int i = 0; i < nret; i++) {
        out[n + i] = ret[i];
        cols[n + i] = rcols[i];
    }
    rel = project(b, rel, out, ncols);
    w->nreturning = nret;
    w->returning = rcols;
    st->ncols = nret;
    st->cols = rcols;
    return pln__write_plan(b, t, rel, ncols, cols, st);
}
