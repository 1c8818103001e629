/*
 * plan_maintain.c: whether the dataflow workers can keep a plan's result
 * up to date incrementally (a materialized view). The planner asks when
 * CREATE MATERIALIZED VIEW binds, so that a view the engine cannot maintain
 * is refused then (0A000 naming the operator) rather than installed and
 * silently wrong; the workers compile only what this accepts. It lives here,
 * beside the plan, because both sides must agree on the same list.
 */
#include "plan/plan.h"

#include <string.h>

static bool plan__refuse(cm_err_t *err, const char *what)
{
    return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "materialized views with %s are not supported yet",
                      what);
}

static bool plan__agg_ok(const plan_agg_t *a, cm_err_t *err)
{
    switch (a->op) {
    case PLAN_AGG_COUNT_STAR:
    case PLAN_AGG_COUNT:
    case PLAN_AGG_SUM:
    case PLAN_AGG_AVG:
    case PLAN_AGG_MIN:
    case PLAN_AGG_MAX:
    case PLAN_AGG_BOOL_AND:
    case PLAN_AGG_BOOL_OR:
    case PLAN_AGG_STRING_AGG:
    case PLAN_AGG_ARRAY_AGG:
    case PLAN_AGG_SINGLE:   /* a scalar subquery's value per key: a second row is the view's error (21000) */
        return true;
    }
    return plan__refuse(err, "this aggregate");
}

/* Whether a set-returning function's rows flow into r (their order is theirs, not the rows'). */
static bool plan__has_flatmap(const plan_rel_t *r)
{
    if (!r)
        return false;
    if (r->kind == PLAN_REL_FLATMAP)
        return true;
    for (int i = 0; r->kind == PLAN_REL_LET && i < r->nctes; i++)
        if (plan__has_flatmap(r->ctes[i]->def))
            return true;
    return plan__has_flatmap(r->input) || plan__has_flatmap(r->right);
}

/*
 * Whether r reads the worktable of c (1) or not (0); -1 (err set): an
 * operator on the path from the worktable that the workers cannot iterate.
 * The recursive term is iterated on deltas (dataflow/df_op_recursive.c),
 * which is PostgreSQL's iteration only while every operator between the
 * worktable and the term's result is linear in the worktable's rows: each
 * row's output independent of the other rows of its iteration. Filters,
 * projections, set-returning functions, UNION ALL and inner joins with
 * the other relations are; DISTINCT, grouping, windows, LIMIT, outer joins
 * and the other set operations are not (PostgreSQL refuses some of these
 * already, with its own messages, at bind).
 */
static int plan__rec_path(const plan_rel_t *r, const plan_cte_t *c, cm_err_t *err)
{
    if (!r)
        return 0;
    int l, rt;
    switch (r->kind) {
    case PLAN_REL_CTE:
        return r->cte == c && r->worktable;
    case PLAN_REL_GET:
    case PLAN_REL_VALUES:
    case PLAN_REL_SESSION:
        return 0;
    case PLAN_REL_FILTER:
    case PLAN_REL_PROJECT:
    case PLAN_REL_SORT:
    case PLAN_REL_FLATMAP:
        return plan__rec_path(r->input, c, err);
    case PLAN_REL_SETOP:
    case PLAN_REL_JOIN:
    case PLAN_REL_PRODUCT:
        if ((l = plan__rec_path(r->input, c, err)) < 0 || (rt = plan__rec_path(r->right, c, err)) < 0)
            return -1;
        if (!l && !rt)
            return 0;
        if (r->kind == PLAN_REL_SETOP && !(r->setop == PLAN_SETOP_UNION && r->all))
            return plan__refuse(err, "a recursive term reading its worktable under UNION, INTERSECT or EXCEPT"), -1;
        if (r->kind == PLAN_REL_JOIN && r->join != PLAN_JOIN_INNER && r->join != PLAN_JOIN_CROSS)
            return plan__refuse(err, "a recursive term reading its worktable under an outer join"), -1;
        if (l && rt)
            return plan__refuse(err, "a recursive term reading its worktable twice"), -1;
        return 1;
    case PLAN_REL_LET:
        for (int i = 0; i < r->nctes; i++) {
            if (r->ctes[i]->rec)
                return plan__refuse(err, "WITH RECURSIVE inside a recursive term"), -1;
            if ((l = plan__rec_path(r->ctes[i]->def, c, err)) != 0)
                return l < 0 ? -1 : (plan__refuse(err, "a WITH query reading the worktable in a recursive term"), -1);
        }
        return plan__rec_path(r->input, c, err);
    case PLAN_REL_REDUCE:
    case PLAN_REL_DISTINCT:
    case PLAN_REL_LIMIT:
    case PLAN_REL_WINDOW:
        if ((l = plan__rec_path(r->input, c, err)) <= 0)
            return l;
        return plan__refuse(err, "DISTINCT, GROUP BY, LIMIT or window functions over the worktable of a recursive term"), -1;
    }
    return plan__refuse(err, "this operator in a recursive term"), -1;
}

static bool plan__rel_ok(const plan_rel_t *r, cm_err_t *err)
{
    switch (r->kind) {
    case PLAN_REL_GET:
    case PLAN_REL_VALUES:
        return true;
    case PLAN_REL_FILTER:
    case PLAN_REL_PROJECT:
    case PLAN_REL_SORT:   /* a relation has no order: ORDER BY of a view is the reader's to ask for */
        return plan__rel_ok(r->input, err);
    case PLAN_REL_REDUCE:
        for (int i = 0; i < r->naggs; i++) {
            const plan_agg_t *a = r->aggs[i];
            if (!plan__agg_ok(a, err))
                return false;
            /* A view's groups are recomputed from rows in no order; a query's array_agg over a
             * function's rows (ARRAY(SELECT ... FROM unnest(...))) shows them in the function's. */
            if ((a->op == PLAN_AGG_ARRAY_AGG || a->op == PLAN_AGG_STRING_AGG) && a->norder == 0 &&
                plan__has_flatmap(r->input))
                return plan__refuse(err, "array_agg or string_agg without ORDER BY over a set-returning function");
        }
        return plan__rel_ok(r->input, err);
    case PLAN_REL_DISTINCT:
        /* DISTINCT ON takes the order of the sort right below it (df_op_topk.c). */
        if (r->nsort > 0 && r->input->kind == PLAN_REL_PROJECT && r->input->input->kind == PLAN_REL_SORT)
            return plan__refuse(err, "DISTINCT ON over a projection of its ORDER BY");
        return plan__rel_ok(r->input, err);
    case PLAN_REL_LIMIT:
    case PLAN_REL_FLATMAP:
        return plan__rel_ok(r->input, err);
    case PLAN_REL_SETOP:
        return plan__rel_ok(r->input, err) && plan__rel_ok(r->right, err);
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:   /* maintained by the delta rule (dataflow/df_op_join.c) */
        return plan__rel_ok(r->input, err) && plan__rel_ok(r->right, err);
    case PLAN_REL_WINDOW:   /* touched partitions recomputed (dataflow/df_op_window.c) */
        for (int i = 0; i < r->window->nfuncs; i++)
            if (r->window->funcs[i]->agg && !plan__agg_ok(r->window->funcs[i]->agg, err))
                return false;
        return plan__rel_ok(r->input, err);
    case PLAN_REL_LET:
        for (int i = 0; i < r->nctes; i++) {
            const plan_cte_t *c = r->ctes[i];
            if (!plan__rel_ok(c->def, err) || (c->rec && !plan__rel_ok(c->rec, err)))
                return false;
            if (c->rec && plan__rec_path(c->rec, c, err) < 0)
                return false;
        }
        return plan__rel_ok(r->input, err);
    case PLAN_REL_CTE:
        return true;   /* its query was checked with its WITH; a worktable, with its recursive term */
    case PLAN_REL_SESSION:
        return plan__refuse(err, "reads of session relations");
    }
    return plan__refuse(err, "this operator");
}

/*
 * Calls whose value is the moment's or the session's, not the row's: a view
 * kept up to date would hold, for each row, the value of whenever a worker
 * computed it (and a row's retraction would compute another value, which
 * cancels nothing), so such views are refused, as Materialize refuses them.
 * Functions that only read a setting (to_char of a timestamptz) run with the
 * default settings on the workers and stay allowed.
 */
static const char *const plan__contextual_calls[] = {
    "now", "transaction_timestamp", "current_timestamp", "statement_timestamp", "clock_timestamp",
    "current_date", "current_time", "localtimestamp", "localtime", "timeofday",
    "current_user", "session_user", "user", "current_role", "current_setting", "current_schema",
    "current_schemas", "pg_backend_pid",
    /* They read the catalog, which the workers do not have. */
    "pg_table_is_visible", "pg_get_indexdef", "pg_get_viewdef", "pg_get_userbyid", "pg_get_constraintdef",
    "pg_relation_is_publishable",
};

/* The first contextual call plan__contextual found (one plan is checked at a time per thread). */
static _Thread_local const char *plan__contextual_name;

static bool plan__contextual(const ty_expr_t *e)
{
    if (e == NULL)
        return false;
    if (e->func != NULL)
        for (size_t i = 0; i < CM_ARRAY_LEN(plan__contextual_calls); i++)
            if (strcmp(e->func->name, plan__contextual_calls[i]) == 0) {
                plan__contextual_name = e->func->name;
                return true;
            }
    for (int i = 0; i < e->nargs; i++)
        if (plan__contextual(e->args[i]))
            return true;
    return false;
}

bool plan_maintainable(const plan_t *p, cm_err_t *err)
{
    /* A subquery the planner decorrelated is joins in the plan itself; one run on its own is refused. */
    for (int i = 0; i < p->nsublinks; i++)
        if (!p->sublinks[i].joined)
            return plan__refuse(err, "subqueries");
    if (p->nparams > 0)
        return plan__refuse(err, "parameters");
    if (plan_rel_any(p->root, plan_expr_volatile))
        return plan__refuse(err, "volatile functions");
    if (plan_rel_any(p->root, plan__contextual)) {
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot materialize call to %s()", plan__contextual_name);
        cm_err_set_detail(err, "A materialized view is kept up to date as rows change, and the value of %s() "
                               "depends on when and by whom it is computed.", plan__contextual_name);
        return false;
    }
    return plan__rel_ok(p->root, err);
}
