/*
 * plan_check.c: a plan's column references are checked against the rows
 * they are evaluated over before anything runs or rewrites it: each column
 * must exist in the row and be read as the type the row holds there. A
 * planner bug that leaves an expression reading a column its input does not
 * have, or reading one datum as another type (a numeric's pointer as an
 * integer), then fails its statement with XX000 instead of reading past a
 * row or printing garbage, or an optimizer pass writing past an array and
 * taking the server down with it.
 */
#include "plan/plan.h"

/* The row an expression is evaluated over: a left part and, for a join's condition, a right one. */
typedef struct row_shape {
    int nl, nr;
    const ty_oid_t *tl, *tr;
} row_shape_t;

static row_shape_t shape_of(const plan_rel_t *r)
{
    row_shape_t s = {0};
    if (r != NULL) {
        s.nl = r->ncols;
        s.tl = r->types;
    }
    return s;
}

static bool expr_ok(const ty_expr_t *e, row_shape_t row)
{
    if (!e)
        return true;
    if (e->kind == TY_EXPR_COLUMN) {
        int i = e->index;
        if (i < 0 || i >= row.nl + row.nr)
            return false;
        ty_oid_t held = i < row.nl ? (row.tl ? row.tl[i] : e->type) : (row.tr ? row.tr[i - row.nl] : e->type);
        /* Read as another type than the row holds, one datum would be taken for another. */
        if (held != e->type && held != TY_INVALID && e->type != TY_INVALID)
            return false;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!expr_ok(e->args[i], row))
            return false;
    return true;
}

static bool list_ok(ty_expr_t *const *es, int n, row_shape_t row)
{
    for (int i = 0; i < n; i++)
        if (!expr_ok(es[i], row))
            return false;
    return true;
}

static bool window_ok(const plan_window_t *w, row_shape_t row)
{
    if (!list_ok(w->part, w->npart, row) || !list_ok(w->order, w->norder, row) ||
        !expr_ok(w->frame.start_offset, row) || !expr_ok(w->frame.end_offset, row))
        return false;
    for (int i = 0; i < w->nfuncs; i++) {
        const plan_wfunc_t *f = w->funcs[i];
        if (!list_ok(f->args, f->nargs, row))
            return false;
        if (f->agg && (!list_ok(f->agg->args, f->agg->nargs, row) || !expr_ok(f->agg->filter, row)))
            return false;
    }
    return true;
}

bool plan_rel_columns_ok(const plan_rel_t *r)
{
    if (!r)
        return true;
    if (!plan_rel_columns_ok(r->input) || !plan_rel_columns_ok(r->right))
        return false;
    for (int i = 0; i < r->nctes; i++)
        if (!plan_rel_columns_ok(r->ctes[i]->def) || !plan_rel_columns_ok(r->ctes[i]->rec))
            return false;
    row_shape_t in = shape_of(r->input), none = {0};
    switch (r->kind) {
    case PLAN_REL_VALUES:
        for (int i = 0; i < r->nrows; i++)
            if (!list_ok(r->rows[i], r->ncols, none))
                return false;
        return true;
    case PLAN_REL_FILTER:
        return expr_ok(r->pred, in);
    case PLAN_REL_PROJECT:
        return list_ok(r->exprs, r->ncols, in);
    case PLAN_REL_JOIN: {
        row_shape_t both = in;
        if (r->right != NULL) {
            both.nr = r->right->ncols;
            both.tr = r->right->types;
        }
        return expr_ok(r->pred, both);
    }
    case PLAN_REL_REDUCE:
        if (!list_ok(r->keys, r->nkeys, in))
            return false;
        for (int i = 0; i < r->naggs; i++) {
            const plan_agg_t *a = r->aggs[i];
            if (!list_ok(a->args, a->nargs, in) || !expr_ok(a->filter, in) || !list_ok(a->order, a->norder, in))
                return false;
        }
        return true;
    case PLAN_REL_SORT:
    case PLAN_REL_DISTINCT:
        for (int i = 0; i < r->nsort; i++)
            if (r->sort[i].col < 0 || r->sort[i].col >= in.nl)
                return false;
        return true;
    case PLAN_REL_LIMIT:
        return expr_ok(r->limit, none) && expr_ok(r->offset, none);
    case PLAN_REL_WINDOW:
        return !r->window || window_ok(r->window, in);
    case PLAN_REL_FLATMAP:
        for (int i = 0; i < r->nfuncs; i++)
            if (!list_ok(r->funcs[i]->args, r->funcs[i]->nargs, in) || !expr_ok(r->funcs[i]->expr, in))
                return false;
        return true;
    default:
        return true;
    }
}
