/*
 * plan_walk.c: questions asked of a whole plan tree, by whoever holds one
 * (the planner when it binds, the codec when it decodes, the workers when
 * they install): does an expression anywhere in it have some property, and
 * how many operators does it hold.
 */
#include "plan/plan.h"

static bool any_list(ty_expr_t *const *es, int n, bool (*pred)(const ty_expr_t *e))
{
    for (int i = 0; i < n; i++)
        if (es[i] && pred(es[i]))
            return true;
    return false;
}

static bool window_any(const plan_window_t *w, bool (*pred)(const ty_expr_t *e))
{
    if (any_list(w->part, w->npart, pred) || any_list(w->order, w->norder, pred) ||
        any_list(&w->frame.start_offset, 1, pred) || any_list(&w->frame.end_offset, 1, pred) ||
        any_list(&w->frame.start_bound, 1, pred) || any_list(&w->frame.end_bound, 1, pred))
        return true;
    for (int i = 0; i < w->nfuncs; i++) {
        const plan_wfunc_t *f = w->funcs[i];
        if (any_list(f->args, f->nargs, pred))
            return true;
        if (f->agg && (any_list(f->agg->args, f->agg->nargs, pred) || any_list(&f->agg->filter, 1, pred)))
            return true;
    }
    return false;
}

bool plan_rel_any(const plan_rel_t *r, bool (*pred)(const ty_expr_t *e))
{
    if (!r)
        return false;
    if (plan_rel_any(r->input, pred) || plan_rel_any(r->right, pred))
        return true;
    for (int i = 0; i < r->nctes; i++)
        if (plan_rel_any(r->ctes[i]->def, pred) || plan_rel_any(r->ctes[i]->rec, pred))
            return true;
    for (int i = 0; i < r->nfuncs; i++)
        if (any_list(r->funcs[i]->args, r->funcs[i]->nargs, pred) || any_list(&r->funcs[i]->expr, 1, pred))
            return true;
    for (int i = 0; i < r->nrows; i++)
        if (any_list(r->rows[i], r->ncols, pred))
            return true;
    if (r->kind == PLAN_REL_PROJECT && any_list(r->exprs, r->ncols, pred))
        return true;
    if (any_list(&r->pred, 1, pred) || any_list(r->keys, r->nkeys, pred))
        return true;
    if (r->kind == PLAN_REL_WINDOW && r->window && window_any(r->window, pred))
        return true;
    for (int i = 0; i < r->naggs; i++)
        if (any_list(r->aggs[i]->args, r->aggs[i]->nargs, pred) || any_list(&r->aggs[i]->filter, 1, pred) ||
            any_list(r->aggs[i]->order, r->aggs[i]->norder, pred))
            return true;
    return any_list(&r->offset, 1, pred) || any_list(&r->limit, 1, pred);
}

static int64_t rel_count(const plan_rel_t *r)
{
    if (!r)
        return 0;
    int64_t n = 1 + rel_count(r->input) + rel_count(r->right);
    for (int i = 0; i < r->nctes; i++)
        n += rel_count(r->ctes[i]->def) + rel_count(r->ctes[i]->rec);
    return n;
}

int64_t plan_operator_count(const plan_t *p)
{
    int64_t n = rel_count(p->root);
    for (int i = 0; i < p->nsublinks; i++)
        if (!p->sublinks[i].joined)
            n += rel_count(p->sublinks[i].rel);
    return n;
}

/* Adds r's relations to items (distinct); false once more than max are found. */
static bool plan__rel_items(const plan_rel_t *r, uint64_t *items, int *n, int max)
{
    if (!r)
        return true;
    if (r->kind == PLAN_REL_GET) {
        bool seen = false;
        for (int i = 0; i < *n && !seen; i++)
            seen = items[i] == r->item;
        if (!seen) {
            if (*n == max)
                return false;
            items[(*n)++] = r->item;
        }
    }
    if (!plan__rel_items(r->input, items, n, max) || !plan__rel_items(r->right, items, n, max))
        return false;
    for (int i = 0; i < r->nctes; i++)
        if (!plan__rel_items(r->ctes[i]->def, items, n, max) || !plan__rel_items(r->ctes[i]->rec, items, n, max))
            return false;
    return true;
}

int plan_read_items(const plan_t *p, uint64_t *items, int max)
{
    int n = 0;
    bool ok = plan__rel_items(p->root, items, &n, max);
    for (int i = 0; ok && i < p->nsublinks; i++)
        if (!p->sublinks[i].joined)
            ok = plan__rel_items(p->sublinks[i].rel, items, &n, max);
    return ok ? n : -1;
}

bool plan_reads_relations(const plan_t *p)
{
    uint64_t one;
    return plan_read_items(p, &one, 1) != 0;
}
