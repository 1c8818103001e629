/*
 * pln_select.c: binds one query level, as PostgreSQL's transformSelectStmt
 * and transformValuesClause, into a relational plan:
 *
 *   FROM -> FILTER (WHERE) -> REDUCE (GROUP BY, aggregates) -> FILTER (HAVING)
 *        -> PROJECT (targets, hidden ORDER BY values) -> SORT -> PROJECT (drop hidden)
 *        -> DISTINCT -> LIMIT
 *
 * with PostgreSQL's column names and types, the order in which it binds the
 * clauses (targets, WHERE, HAVING, ORDER BY, GROUP BY, LIMIT) so errors come
 * in the same order, and its rules for ORDER BY and GROUP BY names and
 * positions. Set operations are in pln_setop.c, FROM items in pln_scope.c.
 */
#include "planner/pln_internal.h"

#include <string.h>

plan_rel_t *pln__rel_new(pln_binder_t *b, plan_rel_kind_t kind, plan_rel_t *input, int ncols)
{
    plan_rel_t *r = cm_arena_zalloc(b->arena, sizeof(*r));
    r->kind = kind;
    r->input = input;
    r->ncols = ncols;
    r->types = cm_arena_zalloc(b->arena, sizeof(ty_oid_t) * (size_t)(ncols ? ncols : 1));
    return r;
}

static plan_rel_t *project(pln_binder_t *b, plan_rel_t *input, ty_expr_t **exprs, int n)
{
    plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, input, n);
    p->exprs = exprs;
    for (int i = 0; i < n; i++)
        p->types[i] = exprs[i]->type;
    return p;
}

static plan_rel_t *same_cols(pln_binder_t *b, plan_rel_kind_t kind, plan_rel_t *input)
{
    plan_rel_t *r = pln__rel_new(b, kind, input, input->ncols);
    memcpy(r->types, input->types, sizeof(ty_oid_t) * (size_t)input->ncols);
    return r;
}

/* A growable list of expressions with the names and positions they came with. */
typedef struct tlist {
    int n, cap;
    ty_expr_t **e;
    const char **names;
    int *pos;
} tlist_t;

static void tl_add(pln_binder_t *b, tlist_t *t, ty_expr_t *e, const char *name, int pos)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 8;
        ty_expr_t **e2 = cm_arena_alloc(b->arena, sizeof(*e2) * (size_t)cap);
        const char **n2 = cm_arena_alloc(b->arena, sizeof(*n2) * (size_t)cap);
        int *p2 = cm_arena_alloc(b->arena, sizeof(*p2) * (size_t)cap);
        if (t->n) {
            memcpy(e2, t->e, sizeof(*e2) * (size_t)t->n);
            memcpy(n2, t->names, sizeof(*n2) * (size_t)t->n);
            memcpy(p2, t->pos, sizeof(*p2) * (size_t)t->n);
        }
        t->e = e2;
        t->names = n2;
        t->pos = p2;
        t->cap = cap;
    }
    t->e[t->n] = e;
    t->names[t->n] = name;
    t->pos[t->n] = pos;
    t->n++;
}

/* Binds e with aggregates allowed (ctx) or forbidden in the clause `what`. */
static ty_expr_t *bind_in(pln_binder_t *b, const sql_expr_t *e, pln_aggctx_t *ctx, const char *what)
{
    pln_aggctx_t *saved = b->aggs;
    const char *saved_what = b->agg_forbidden;
    b->aggs = ctx;
    b->agg_forbidden = what;
    ty_expr_t *x = pln__bind_expr(b, e);
    b->aggs = saved;
    b->agg_forbidden = saved_what;
    return x;
}

static plan_rel_t *one_empty_row(pln_binder_t *b)
{
    plan_rel_t *v = pln__rel_new(b, PLAN_REL_VALUES, NULL, 0);
    v->nrows = 1;
    v->rows = cm_arena_zalloc(b->arena, sizeof(ty_expr_t **));
    return v;
}

/* ============================================================ ORDER BY */

static int output_named(const pln_bound_t *q, const char *name, int *hits)
{
    int found = -1;
    *hits = 0;
    for (int i = 0; i < q->ncols; i++)
        if (strcmp(q->cols[i].name, name) == 0) {
            if (found < 0)
                found = i;
            (*hits)++;
        }
    return found;
}

bool pln__bind_sort(pln_binder_t *b, const sql_list_t *order, pln_bound_t *q, bool only_outputs,
                    ty_expr_t ***hidden, int *nhidden, plan_sortkey_t **keys)
{
    int n = sql_list_len(order);
    *keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(n ? n : 1));
    *hidden = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    *nhidden = 0;
    for (int i = 0; i < n; i++) {
        const sql_sort_t *o = order->items[i];
        const sql_expr_t *e = o->expr;
        plan_sortkey_t *k = &(*keys)[i];
        k->desc = o->dir == SQL_SORT_DESC;
        k->nulls_first = o->nulls == SQL_NULLS_DEFAULT ? k->desc : o->nulls == SQL_NULLS_FIRST;
        int hits = 0, col = -1;
        if (e->kind == SQL_EXPR_CONST && e->const_kind == SQL_CONST_INTEGER) {
            if (e->ival < 1 || e->ival > q->ncols)
                return pln__error(b, e->pos, "42P10",
                                  "ORDER BY position %lld is not in select list", (long long)e->ival);
            col = (int)e->ival - 1;
        } else if (e->kind == SQL_EXPR_COLUMN && e->names->count == 1 && !e->star &&
                   (col = output_named(q, e->names->items[0], &hits)) >= 0) {
            if (hits > 1)
                return pln__error(b, e->pos, CM_ERRCODE_AMBIGUOUS_COLUMN, "ORDER BY \"%s\" is ambiguous",
                                  (const char *)e->names->items[0]);
        } else if (only_outputs) {
            /* Set operations sort their result, which has only its columns: bind to say why it fails. */
            pln_rte_t result = {.ncols = q->ncols, .cols = q->cols};
            pln_scope_t none = {.nrtes = 1, .rtes = &result, .ncols = q->ncols};
            pln_scope_t *saved = b->scope;
            b->scope = &none;
            ty_expr_t *x = bind_in(b, e, NULL, "ORDER BY");
            b->scope = saved;
            if (!x)
                return false;
            const sql_expr_t *first = e;
            while (first->kind == SQL_EXPR_OP && first->left)
                first = first->left;   /* PostgreSQL points at the expression's start */
            pln__error(b, first->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
            cm_err_set_hint(b->err, "Add the expression/function to every SELECT, or move the UNION into a FROM clause.");
            return false;
        } else {
            col = -1;   /* an expression over the FROM row: a hidden column unless it equals a target */
        }
        if (col < 0) {
            (*hidden)[*nhidden] = NULL;   /* filled in by the caller, which knows the aggregate context */
            k->col = -1 - (*nhidden)++;
            (void)e;
        } else {
            k->col = col;
            k->type = q->cols[col].type;
        }
    }
    return true;
}

void pln__finish_sort(pln_binder_t *b, pln_bound_t *q, plan_sortkey_t *keys, int nkeys)
{
    plan_rel_t *s = q->rel;
    if (nkeys > 0) {
        s = same_cols(b, PLAN_REL_SORT, q->rel);
        s->nsort = nkeys;
        s->sort = keys;
        q->rel = s;
    } else if (s->kind != PLAN_REL_DISTINCT) {
        return;   /* nothing sorted, nothing hidden (DISTINCT ON calls it to drop its hidden columns) */
    }
    if (s->ncols > q->ncols) {
        ty_expr_t **cols = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(q->ncols ? q->ncols : 1));
        for (int i = 0; i < q->ncols; i++) {
            cols[i] = ty_expr_new(b->arena, TY_EXPR_COLUMN, q->cols[i].type, 0);
            cols[i]->typmod = q->cols[i].typmod;
            cols[i]->index = i;
        }
        q->rel = project(b, s, cols, q->ncols);
    }
}

/* The first column reference in e, or NULL (an enclosing query's columns are constants here). */
static const ty_expr_t *first_column(const ty_expr_t *e)
{
    if (e->kind == TY_EXPR_COLUMN && e->index < PLN_OUTER_BASE)
        return e;
    for (int i = 0; i < e->nargs; i++) {
        const ty_expr_t *c = e->args[i] ? first_column(e->args[i]) : NULL;
        if (c)
            return c;
    }
    return NULL;
}

static ty_expr_t *bind_bound(pln_binder_t *b, const sql_expr_t *e, const char *what)
{
    /* LIMIT and OFFSET see the FROM clause only to refuse its columns: PostgreSQL's
     * checkExprIsVarFree answers 42P10 for LIMIT id, not 42703. */
    ty_expr_t *x = bind_in(b, e, NULL, what);
    if (!x)
        return NULL;
    const ty_expr_t *col = first_column(x);
    if (col) {
        pln__error(b, col->location, "42P10", "argument of %s must not contain variables", what);
        return NULL;
    }
    if (x->type != TY_INT8 && x->type != TY_UNKNOWN && !pln__can_coerce(x->type, TY_INT8, PLN_CC_ASSIGNMENT)) {
        pln__error(b, e->pos, CM_ERRCODE_DATATYPE_MISMATCH, "argument of %s must be type %s, not type %s", what,
                   "bigint", pln__type_name(b, x->type));
        return NULL;
    }
    return pln__coerce(b, x, TY_INT8, -1, PLN_CC_ASSIGNMENT, -1);
}

bool pln__bind_limit(pln_binder_t *b, const sql_select_t *s, pln_bound_t *q)
{
    if (!s->limit && !s->offset)
        return true;
    plan_rel_t *l = same_cols(b, PLAN_REL_LIMIT, q->rel);
    if (s->offset && !(l->offset = bind_bound(b, s->offset, "OFFSET")))
        return false;
    if (s->limit && !(l->limit = bind_bound(b, s->limit, "LIMIT")))
        return false;
    q->rel = l;
    return true;
}

/* ============================================================ VALUES */

static bool bind_values(pln_binder_t *b, const sql_select_t *s, pln_bound_t *out)
{
    int nrows = s->values->count;
    int ncols = sql_list_len(s->values->items[0]);
    plan_rel_t *v = pln__rel_new(b, PLAN_REL_VALUES, NULL, ncols);
    v->nrows = nrows;
    v->rows = cm_arena_alloc(b->arena, sizeof(ty_expr_t **) * (size_t)nrows);
    for (int r = 0; r < nrows; r++) {
        const sql_list_t *row = s->values->items[r];
        if (row->count != ncols) {
            const sql_expr_t *first = row->items[0];
            return pln__error(b, first->pos, CM_ERRCODE_SYNTAX_ERROR, "VALUES lists must all be the same length");
        }
        v->rows[r] = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(ncols ? ncols : 1));
        for (int c = 0; c < ncols; c++)
            if (!(v->rows[r][c] = bind_in(b, row->items[c], NULL, "VALUES")))
                return false;
    }
    /* Each column's rows share one type, chosen as for UNION. */
    out->ncols = ncols;
    out->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    ty_expr_t **col = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)nrows);
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)nrows);
    for (int c = 0; c < ncols; c++) {
        for (int r = 0; r < nrows; r++) {
            col[r] = v->rows[r][c];
            pos[r] = ((const sql_expr_t *)((const sql_list_t *)s->values->items[r])->items[c])->pos;
        }
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, col, nrows, pos, "VALUES", &type, &typmod) ||
            !pln__coerce_all(b, col, nrows, type, typmod, "VALUES"))
            return false;
        for (int r = 0; r < nrows; r++)
            v->rows[r][c] = col[r];
        out->cols[c] = (plan_column_t){cm_arena_printf(b->arena, "column%d", c + 1), type, typmod};
        v->types[c] = type;
    }
    out->rel = v;
    out->nvalues_rows = nrows;
    ty_expr_t **hidden;
    int nhidden;
    plan_sortkey_t *keys;
    int nsort = sql_list_len(s->order_by);
    if (!pln__bind_sort(b, s->order_by, out, false, &hidden, &nhidden, &keys))
        return false;
    if (nhidden > 0) {
        /* ORDER BY expressions over the VALUES columns: computed beside them, then dropped. */
        pln_rte_t self = {.ncols = ncols, .cols = out->cols};
        pln_scope_t sc = {.nrtes = 1, .rtes = &self, .ncols = ncols, .outer = b->scope ? b->scope->outer : NULL,
                          .id = ++b->nscopes, .open_sublink = -1};
        pln_scope_t *saved = b->scope;
        b->scope = &sc;
        ty_expr_t **exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(ncols + nhidden));
        for (int c = 0; c < ncols; c++) {
            exprs[c] = ty_expr_new(b->arena, TY_EXPR_COLUMN, out->cols[c].type, 0);
            exprs[c]->typmod = out->cols[c].typmod;
            exprs[c]->index = c;
        }
        for (int i = 0, h = 0; i < nsort; i++) {
            if (keys[i].col >= 0)
                continue;
            const sql_sort_t *o = s->order_by->items[i];
            ty_expr_t *x = bind_in(b, o->expr, NULL, "ORDER BY");
            if (!x || !(x = pln__resolve_unknown(b, x))) {
                b->scope = saved;
                return false;
            }
            exprs[ncols + h] = x;
            keys[i].col = ncols + h++;
            keys[i].type = x->type;
        }
        b->scope = saved;
        out->rel = project(b, v, exprs, ncols + nhidden);
    }
    pln__finish_sort(b, out, keys, nsort);
    return pln__bind_limit(b, s, out);
}

/* ============================================================ SELECT */

static bool bind_targets(pln_binder_t *b, const sql_select_t *s, pln_aggctx_t *actx, bool resolve, tlist_t *tl)
{
    for (int i = 0; i < sql_list_len(s->targets); i++) {
        const sql_target_t *t = s->targets->items[i];
        const sql_expr_t *e = t->expr;
        if (e->kind == SQL_EXPR_STAR || (e->kind == SQL_EXPR_COLUMN && e->star)) {
            ty_expr_t **xs;
            const char **names;
            int n;
            if (!pln__expand_star(b, e, &xs, &names, &n))
                return false;
            for (int k = 0; k < n; k++)
                tl_add(b, tl, xs[k], names[k], e->pos);
            continue;
        }
        ty_expr_t *x = bind_in(b, e, actx, NULL);
        if (!x || (resolve && !(x = pln__resolve_unknown(b, x))))
            return false;
        tl_add(b, tl, x, t->alias ? t->alias : pln__colname(e), t->pos);
    }
    return true;
}

static bool bind_group(pln_binder_t *b, const sql_select_t *s, const tlist_t *tl, tlist_t *keys)
{
    for (int i = 0; i < sql_list_len(s->group_by); i++) {
        const sql_expr_t *e = s->group_by->items[i];
        ty_expr_t *x = NULL;
        if (e->kind == SQL_EXPR_CONST && e->const_kind == SQL_CONST_INTEGER) {
            if (e->ival < 1 || e->ival > tl->n)
                return pln__error(b, e->pos, "42P10",
                                  "GROUP BY position %lld is not in select list", (long long)e->ival);
            x = tl->e[e->ival - 1];
        } else if (e->kind == SQL_EXPR_COLUMN && e->names->count == 1 && !e->star) {
            /* A bare name is an input column first, an output column's alias otherwise. */
            x = bind_in(b, e, NULL, "GROUP BY");
            if (!x && strcmp(b->err->sqlstate, CM_ERRCODE_UNDEFINED_COLUMN) == 0) {
                for (int k = 0; k < tl->n && !x; k++)
                    if (strcmp(tl->names[k], e->names->items[0]) == 0)
                        x = tl->e[k];
                if (x)
                    cm_err_clear(b->err);
            }
        } else {
            x = bind_in(b, e, NULL, "GROUP BY");
        }
        if (!x)
            return false;
        if (!(x = pln__resolve_unknown(b, x)))
            return false;
        tl_add(b, keys, x, NULL, e->pos);
    }
    return true;
}

/*
 * DISTINCT ON (exprs): each is an output (by name or position), an
 * expression equal to a target or to an ORDER BY one, or a new hidden
 * column. As PostgreSQL's transformDistinctOnClause, the ORDER BY items
 * that are DISTINCT ON keys must come first, and the keys ORDER BY lacks
 * are sorted on after it (only possible when it has nothing else).
 */
static bool bind_distinct_on(pln_binder_t *b, const sql_select_t *s, pln_aggctx_t *actx, tlist_t *tl,
                             ty_expr_t ***hidden, int *nhidden, plan_sortkey_t **keys, int *nsort, plan_sortkey_t **on)
{
    int non = sql_list_len(s->distinct_on);
    ty_expr_t **hid = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(*nhidden + non));
    memcpy(hid, *hidden, sizeof(ty_expr_t *) * (size_t)*nhidden);
    *on = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)non);
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)non);
    for (int i = 0; i < non; i++) {
        const sql_expr_t *e = s->distinct_on->items[i];
        pos[i] = e->pos;
        int col = -1, hits = 0;
        if (e->kind == SQL_EXPR_CONST && e->const_kind == SQL_CONST_INTEGER) {
            if (e->ival < 1 || e->ival > tl->n)
                return pln__error(b, e->pos, "42P10", "DISTINCT ON position %lld is not in select list", (long long)e->ival);
            col = (int)e->ival - 1;
        } else if (e->kind == SQL_EXPR_COLUMN && e->names->count == 1 && !e->star) {
            for (int k = 0; k < tl->n; k++)
                if (strcmp(tl->names[k], e->names->items[0]) == 0 && hits++ == 0)
                    col = k;
            if (hits > 1)
                return pln__error(b, e->pos, CM_ERRCODE_AMBIGUOUS_COLUMN, "DISTINCT ON \"%s\" is ambiguous",
                                  (const char *)e->names->items[0]);
        }
        if (col < 0) {
            ty_expr_t *x = bind_in(b, e, actx, NULL);
            if (!x || !(x = pln__resolve_unknown(b, x)))
                return false;
            for (int k = 0; k < tl->n && col < 0; k++)
                if (pln__expr_equal(x, tl->e[k]))
                    col = k;
            for (int k = 0; k < *nhidden && col < 0; k++)
                if (pln__expr_equal(x, hid[k]))
                    col = tl->n + k;
            if (col < 0) {
                hid[*nhidden] = x;
                col = tl->n + (*nhidden)++;
            }
        }
        (*on)[i].col = col;
        (*on)[i].type = col < tl->n ? tl->e[col]->type : hid[col - tl->n]->type;
    }
    *hidden = hid;
    /* The ORDER BY keys that are DISTINCT ON keys must lead. */
    bool skipped = false;
    bool *covered = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)non);
    for (int i = 0; i < *nsort; i++) {
        bool in = false;
        for (int k = 0; k < non; k++)
            if ((*on)[k].col == (*keys)[i].col) {
                in = true;
                if (skipped)
                    return pln__error(b, pos[k], "42P10",
                                      "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
                covered[k] = true;
            }
        skipped |= !in;
    }
    plan_sortkey_t *all = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(*nsort + non));
    memcpy(all, *keys, sizeof(plan_sortkey_t) * (size_t)*nsort);
    int n = *nsort;
    for (int k = 0; k < non; k++) {
        if (covered[k])
            continue;
        if (skipped)
            return pln__error(b, pos[k], "42P10", "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup |= all[i].col == (*on)[k].col;
        if (!dup)
            all[n++] = (*on)[k];
    }
    *keys = all;
    *nsort = n;
    return true;
}

static bool bind_simple(pln_binder_t *b, const sql_select_t *s, bool resolve, pln_bound_t *out)
{
    plan_rel_t *rel = NULL;
    if (s->from && !pln__bind_from(b, s->from, b->scope, &rel))
        return false;
    if (!rel)
        rel = one_empty_row(b);

    pln_aggctx_t actx = {0};
    tlist_t tl = {0};
    /* Window functions may appear in the targets and ORDER BY (and DISTINCT ON) only. */
    pln_winctx_t *wctx = pln__window_ctx(b, s);
    b->wins = wctx;
    struct pln_srfctx *sctx = pln__srf_ctx(b);   /* set-returning functions: the targets only */
    b->srfs = sctx;
    bool ok = bind_targets(b, s, &actx, resolve, &tl) && pln__srf_check(b, sctx, tl.e, tl.n);
    b->srfs = NULL;
    b->wins = NULL;
    if (!ok)
        return false;
    ty_expr_t *where = NULL, *having = NULL;
    if (s->where) {
        if (!(where = bind_in(b, s->where, NULL, "WHERE")) || !(where = pln__coerce_bool(b, where, "WHERE")))
            return false;
    }
    if (s->having) {
        b->win_forbidden = "HAVING";
        having = bind_in(b, s->having, &actx, NULL);
        b->win_forbidden = NULL;
        if (!having || !(having = pln__coerce_bool(b, having, "HAVING")))
            return false;
    }
    out->ncols = tl.n;
    out->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * (size_t)(tl.n ? tl.n : 1));
    for (int i = 0; i < tl.n; i++) {
        out->cols[i] = (plan_column_t){tl.names[i], tl.e[i]->type, tl.e[i]->typmod};
        pln__column_origin(b->scope, tl.e[i], &out->cols[i]);
    }

    /* ORDER BY: output names and positions, else expressions over the FROM row (hidden columns). */
    ty_expr_t **hidden;
    int nhidden;
    plan_sortkey_t *keys;
    int nsort = sql_list_len(s->order_by);
    if (!pln__bind_sort(b, s->order_by, out, false, &hidden, &nhidden, &keys))
        return false;
    int h = 0;
    for (int i = 0; i < nsort; i++) {
        if (keys[i].col >= 0)
            continue;
        const sql_sort_t *o = s->order_by->items[i];
        b->wins = wctx;
        ty_expr_t *x = bind_in(b, o->expr, &actx, NULL);
        b->wins = NULL;
        if (!x || !(x = pln__resolve_unknown(b, x)))
            return false;
        int same = -1;
        for (int k = 0; k < tl.n && same < 0; k++)
            if (pln__expr_equal(x, tl.e[k]))
                same = k;   /* an expression that is a target sorts by that target, as in PostgreSQL */
        if (same >= 0) {
            keys[i].col = same;
            keys[i].type = tl.e[same]->type;
            continue;
        }
        if (s->distinct && !s->distinct_on)
            return pln__error(b, o->expr->pos, "42P10",
                              "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
        hidden[h] = x;
        keys[i].col = tl.n + h++;
        keys[i].type = x->type;
    }
    nhidden = h;   /* those equal to a target took its column */
    int non = sql_list_len(s->distinct_on);
    plan_sortkey_t *on = NULL;
    b->wins = wctx;
    ok = !non || bind_distinct_on(b, s, &actx, &tl, &hidden, &nhidden, &keys, &nsort, &on);
    b->wins = NULL;
    if (!ok)
        return false;
    tlist_t groups = {0};
    if (!bind_group(b, s, &tl, &groups))
        return false;
    /* The windows' PARTITION BY and ORDER BY may hold aggregates, which make the query grouped. */
    pln_aggctx_t *saved_aggs = b->aggs;
    b->aggs = &actx;
    ok = pln__window_bind_defs(b, wctx);
    b->aggs = saved_aggs;
    if (!ok)
        return false;

    if (where) {
        plan_rel_t *f = same_cols(b, PLAN_REL_FILTER, rel);
        f->pred = where;
        rel = f;
    }
    int nout = tl.n + nhidden;
    ty_expr_t **exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nout ? nout : 1));
    for (int i = 0; i < tl.n; i++)
        exprs[i] = tl.e[i];
    for (int i = 0; i < nhidden; i++)
        exprs[tl.n + i] = hidden[i];
    if (actx.naggs > 0 || groups.n > 0 || having) {
        plan_rel_t *red = pln__rel_new(b, PLAN_REL_REDUCE, rel, groups.n + actx.naggs);
        red->nkeys = groups.n;
        red->keys = groups.e;
        red->naggs = actx.naggs;
        red->aggs = actx.aggs;
        for (int i = 0; i < groups.n; i++)
            red->types[i] = groups.e[i]->type;
        for (int i = 0; i < actx.naggs; i++)
            red->types[groups.n + i] = actx.aggs[i]->type;
        rel = red;
        /* Above the REDUCE only grouped expressions and aggregate results exist. */
        for (int i = 0; i < nout; i++)
            if (!(exprs[i] = pln__regroup(b, exprs[i], groups.e, groups.n)))
                return false;
        if (!pln__window_regroup(b, wctx, groups.e, groups.n))
            return false;
        if (having) {
            if (!(having = pln__regroup(b, having, groups.e, groups.n)))
                return false;
            plan_rel_t *f = same_cols(b, PLAN_REL_FILTER, rel);
            f->pred = having;
            rel = f;
        }
    }
    rel = pln__window_plan(b, wctx, rel, exprs, nout);
    bool grouped = actx.naggs > 0 || groups.n > 0 || having;
    if (!(rel = pln__srf_plan(b, sctx, rel, exprs, nout, groups.e, groups.n, grouped)))
        return false;
    out->rel = project(b, rel, exprs, nout);
    out->targets = exprs;
    if (non) {
        /* DISTINCT ON keeps the first row of each set of keys in the sort's order, then drops hidden columns. */
        if (nsort) {
            plan_rel_t *st = same_cols(b, PLAN_REL_SORT, out->rel);
            st->nsort = nsort;
            st->sort = keys;
            out->rel = st;
        }
        plan_rel_t *d = same_cols(b, PLAN_REL_DISTINCT, out->rel);
        d->nsort = non;
        d->sort = on;
        out->rel = d;
        pln__finish_sort(b, out, NULL, 0);
    } else {
        pln__finish_sort(b, out, keys, nsort);
    }
    if (s->distinct && !non)
        out->rel = same_cols(b, PLAN_REL_DISTINCT, out->rel);
    if (!pln__bind_limit(b, s, out))
        return false;
    /* Subqueries that read this level's columns become joins of its plan. */
    return (out->rel = pln__decorrelate(b, out->rel)) != NULL;
}

bool pln__bind_select(pln_binder_t *b, const sql_select_t *s, pln_bound_t *out)
{
    memset(out, 0, sizeof(*out));
    if (++b->depth > PLN_BIND_DEPTH_MAX)
        return pln__error(b, -1, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    /* Only a statement's first SELECT may say INTO (sql__stmt_select_into made it CREATE TABLE AS). */
    if (s->into != NULL) {
        b->depth--;
        return pln__error(b, s->into->pos, CM_ERRCODE_SYNTAX_ERROR, "SELECT ... INTO is not allowed here");
    }
    /* WITH queries are bound first, in the enclosing level's scope (pln_cte.c). */
    if (s->with && !pln__with_begin(b, s)) {
        b->depth--;
        return false;
    }
    /* Each query level has its own FROM names; the enclosing level's stay visible as outer ones. */
    pln_scope_t scope = {.outer = b->scope, .id = ++b->nscopes, .open_sublink = -1};
    pln_scope_t *saved = b->scope;
    /* Window functions belong to the level they are written in: a subquery starts without. */
    pln_winctx_t *saved_wins = b->wins;
    const char *saved_win_forbidden = b->win_forbidden;
    struct pln_srfctx *saved_srfs = b->srfs;   /* a subquery's set-returning functions are its own */
    b->srfs = NULL;
    b->wins = NULL;
    b->win_forbidden = NULL;
    bool resolve = !b->setop_leaf;
    b->setop_leaf = false;
    b->scope = &scope;
    bool ok;
    if (s->op != SQL_SETOP_NONE)
        ok = pln__bind_setop(b, s, out);
    else if (s->values)
        ok = bind_values(b, s, out);
    else
        ok = bind_simple(b, s, resolve, out);
    b->scope = saved;
    b->wins = saved_wins;
    b->win_forbidden = saved_win_forbidden;
    b->srfs = saved_srfs;
    if (s->with)
        ok = pln__with_end(b, s, out, ok);
    b->depth--;
    return ok;
}
