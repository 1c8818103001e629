/*
 * plan_split.c: cutting a query's plan where the workers can compute it.
 *
 * A read of tables ships their rows to the server, which runs the plan over
 * them. When the plan reduces its input (a GROUP BY, an aggregate, a
 * DISTINCT) the workers can compute that part instead, as a materialized
 * view's hydration would, each over its own shards, and send only the
 * result: a million rows in a thousand groups cross as a thousand. The plan
 * is cut at its topmost reduction reached through single-input operators
 * (projections, filters, sorts, limits, DISTINCT ON); below the cut goes to
 * the workers, above it runs on the server over a Get of the computed rows.
 *
 * Only reductions the workers accumulate (count, sum and avg of integers
 * and intervals, DISTINCT) are cut, and only what the workers evaluate
 * exactly as the server would: a part
 * plan_maintainable accepts, without parameters or subqueries, whose
 * expressions call operators only (a function may need the session: its
 * user, its clock, the catalog), and no casts from or to the catalog's
 * reference types. The caller checks that the session's settings are the
 * defaults the workers evaluate with.
 */
#include "plan/plan.h"

#include <string.h>

static bool plan__reg_type(ty_oid_t t)
{
    return t == TY_OID || t == TY_REGPROC || t == TY_REGCLASS || t == TY_REGTYPE || t == TY_REGNAMESPACE ||
           t == TY_REGTYPE_ARRAY;
}

/* Whether e needs what only the session has: a function call, a parameter, a catalog cast. */
static bool plan__needs_session(const ty_expr_t *e)
{
    if (e == NULL)
        return false;
    if (e->kind == TY_EXPR_PARAM)
        return true;
    if (e->kind == TY_EXPR_CALL && (e->func == NULL || !(e->func->flags & TY_FN_OPERATOR)))
        return true;
    if (e->kind == TY_EXPR_CAST && (plan__reg_type(e->type) || (e->nargs > 0 && plan__reg_type(e->args[0]->type))))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (plan__needs_session(e->args[i]))
            return true;
    return false;
}

static bool plan__reduces(const plan_rel_t *r)
{
    return r->kind == PLAN_REL_REDUCE || (r->kind == PLAN_REL_DISTINCT && r->nsort == 0);
}

/* The workers keep a running state per group for these (df_op_accum.c); the other aggregates
 * would arrange every input row first, which costs more than sending them. */
static bool plan__accumulates(const plan_rel_t *r)
{
    for (int i = 0; r->kind == PLAN_REL_REDUCE && i < r->naggs; i++)
        if (!plan_agg_accumulates(r->aggs[i]))
            return false;
    return true;
}

static bool plan__passes(const plan_rel_t *r)
{
    switch (r->kind) {
    case PLAN_REL_PROJECT:
    case PLAN_REL_FILTER:
    case PLAN_REL_SORT:
    case PLAN_REL_LIMIT:
    case PLAN_REL_DISTINCT:
        return true;
    default:
        return false;
    }
}

static bool plan__reads_relation(const plan_rel_t *r)
{
    if (r == NULL)
        return false;
    if (r->kind == PLAN_REL_GET)
        return true;
    return plan__reads_relation(r->input) || plan__reads_relation(r->right);
}

/* A WITH RECURSIVE below: a query's recursion stops at the session's max_recursive_iterations, not the workers' limit. */
static bool plan__recursive(const plan_rel_t *r)
{
    if (r == NULL)
        return false;
    for (int i = 0; r->kind == PLAN_REL_LET && i < r->nctes; i++)
        if (r->ctes[i]->rec || plan__recursive(r->ctes[i]->def))
            return true;
    return plan__recursive(r->input) || plan__recursive(r->right);
}

static bool plan__sorts(const plan_rel_t *r)
{
    return r != NULL && (r->kind == PLAN_REL_SORT || plan__sorts(r->input) || plan__sorts(r->right));
}

/* The path from r down to the cut, each node copied with its input the next copy; the cut a Get. */
static plan_rel_t *plan__rest(cm_arena_t *a, const plan_rel_t *r, const plan_rel_t *cut, plan_rel_t *get)
{
    if (r == cut)
        return get;
    plan_rel_t *c = cm_arena_alloc(a, sizeof *c);
    *c = *r;
    c->input = plan__rest(a, r->input, cut, get);
    return c;
}

bool plan_split_computed(const plan_t *p, cm_arena_t *a, uint64_t item, plan_t **sub, plan_t **rest)
{
    if (p->nparams > 0 || p->nsublinks > 0 || p->error != NULL || p->root == NULL)
        return false;
    const plan_rel_t *r = p->root;
    while (!plan__reduces(r) && plan__passes(r) && r->input != NULL)
        r = r->input;
    if (!plan__reduces(r) || !plan__accumulates(r) || !plan__reads_relation(r) || plan__recursive(r) ||
        plan_rel_any(r, plan__needs_session))
        return false;
    plan_t *s = cm_arena_alloc(a, sizeof *s);
    *s = *p;
    s->root = (plan_rel_t *)r;
    s->ncols = r->ncols;
    s->cols = cm_arena_zalloc(a, sizeof *s->cols * (size_t)(r->ncols ? r->ncols : 1));
    for (int i = 0; i < r->ncols; i++)
        s->cols[i] = (plan_column_t){.name = "?column?", .type = r->types[i], .typmod = -1};
    cm_err_t err = {0};
    bool ok = plan_maintainable(s, &err);
    cm_err_clear(&err);
    if (!ok)
        return false;
    /* A DISTINCT's rows come in the order of the sort below it, which the workers do not keep:
     * that sort runs here, over the computed rows (the same columns). Any other sort below
     * the cut orders nothing anyone sees. */
    const plan_rel_t *resort = NULL;
    if (r->kind == PLAN_REL_DISTINCT && r->input->kind == PLAN_REL_SORT)
        resort = r->input;
    if (r->kind == PLAN_REL_DISTINCT && plan__sorts(resort ? resort->input : r->input))
        return false;
    plan_rel_t *get = cm_arena_zalloc(a, sizeof *get);
    get->kind = PLAN_REL_GET;
    get->ncols = r->ncols;
    get->types = r->types;
    get->relname = "(computed by the workers)";
    get->item = item;
    plan_rel_t *top = get;
    if (resort) {
        top = cm_arena_alloc(a, sizeof *top);
        *top = *resort;
        top->input = get;
    }
    plan_t *q = cm_arena_alloc(a, sizeof *q);
    *q = *p;
    q->root = plan__rest(a, p->root, r, top);
    *sub = s;
    *rest = q;
    return true;
}
