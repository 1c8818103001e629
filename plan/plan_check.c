/*
 * plan_check.c: a plan's column references are checked against the widths
 * of the rows they are evaluated over before anything runs or rewrites it:
 * a planner bug that leaves an expression reading a column its input does
 * not have then fails its statement with XX000 instead of reading past a
 * row (or an optimizer pass writing past an array) and taking the server
 * down with it.
 */
#include "plan/plan.h"

static bool expr_ok(const ty_expr_t *e, int width)
{
    if (!e)
        return true;
    if (e->kind == TY_EXPR_COLUMN && (e->index < 0 || e->index >= width))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!expr_ok(e->args[i], width))
            return false;
    return true;
}

static bool list_ok(ty_expr_t *const *es, int n, int width)
{
    for (int i = 0; i < n; i++)
        if (!expr_ok(es[i], width))
            return false;
    return true;
}

static bool window_ok(const plan_window_t *w, int width)
{
    if (!list_ok(w->part, w->npart, width) || !list_ok(w->order, w->norder, width) ||
        !expr_ok(w->frame.start_offset, width) || !expr_ok(w->frame.end_offset, width) ||
        !expr_ok(w->frame.start_bound, width) || !expr_ok(w->frame.end_bound, width))
        return false;
    for (int i = 0; i < w->nfuncs; i++) {
        const plan_wfunc_t *f = w->funcs[i];
        if (!list_ok(f->args, f->nargs, width))
            return false;
        if (f->agg && (!list_ok(f->agg->args, f->agg->nargs, width) || !expr_ok(f->agg->filter, width)))
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
    int in = r->input ? r->input->ncols : 0;
    switch (r->kind) {
    case PLAN_REL_VALUES:
        for (int i = 0; i < r->nrows; i++)
            if (!list_ok(r->rows[i], r->ncols, 0))
                return false;
        return true;
    case PLAN_REL_FILTER:
        return expr_ok(r->pred, in);
    case PLAN_REL_PROJECT:
        return list_ok(r->exprs, r->ncols, in);
    case PLAN_REL_JOIN:
        return expr_ok(r->pred, in + (r->right ? r->right->ncols : 0));
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
            if (r->sort[i].col < 0 || r->sort[i].col >= in)
                return false;
        return true;
    case PLAN_REL_LIMIT:
        return expr_ok(r->limit, 0) && expr_ok(r->offset, 0);
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
