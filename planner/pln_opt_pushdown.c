/*
 * pln_opt_pushdown.c: predicate pushdown. Filters are split into their
 * conjuncts, and each conjunct moves down the plan as far as it keeps the
 * same rows: through projections (reading the projected expressions
 * instead of their columns), sorts, DISTINCT and set operations, below a
 * GROUP BY when it reads only grouping keys, and into the inputs of joins
 * whose columns it reads. A conjunct that reads both inputs of an inner
 * join (or a product) becomes part of the join's condition, so a filter
 * over a product is a join.
 *
 * What must not move, and so stays where it is:
 *  - anything through LIMIT/OFFSET (which rows are first would change),
 *    or through DISTINCT ON or a WINDOW unless it reads only the DISTINCT
 *    ON keys or the PARTITION BY columns (then it keeps or drops each group
 *    whole), or an operator kind this pass does not know;
 *  - below a GROUP BY a conjunct reading an aggregate, and below one
 *    without GROUP BY anything (it always makes one row);
 *  - into the nullable side of an outer join from WHERE (it would filter
 *    the padded rows' NULLs differently); WHERE conjuncts go only to the
 *    preserved side, and conjuncts of an outer join's ON only to the
 *    nullable side (on the preserved side they decide matches, not rows);
 *    nothing moves across a FULL JOIN. But a WHERE conjunct that is never
 *    true when the nullable side's columns are NULL (u.d = 'x', through
 *    strict functions and casts; IS NOT NULL) makes the outer join an
 *    inner one first (a FULL JOIN the other side's outer join), as
 *    PostgreSQL's reduce_outer_joins does;
 *  - into the right side of EXCEPT (rows equal for EXCEPT may differ for
 *    the predicate, e.g. 1.0 and 1.00);
 *  - a volatile conjunct (random(), clock_timestamp(), pg_sleep(): stable
 *    ones such as now() move), and every conjunct evaluated after one, so
 *    the volatile call sees the same rows in the same order; nor a conjunct
 *    reading a projected column whose expression is volatile.
 *
 * Errors: a conjunct that can fail (1/x > 0) is moved as PostgreSQL moves
 * it, to where its columns are produced, where it may see rows that a join
 * or another conjunct would have removed first; PostgreSQL's planner puts
 * restriction clauses on the scan in the same way. The conjuncts of one
 * place keep their written order, the lower filter's first, since AND
 * stops at the first false one (WHERE x <> 0 AND 1/x > 0 stays safe).
 */
#include "planner/pln_opt.h"

#include <limits.h>

typedef struct push {
    pln_binder_t *b;
} push_t;

static plan_rel_t *push(push_t *p, plan_rel_t *r, const plan_conj_t *preds);

static plan_rel_t *push_none(push_t *p, plan_rel_t *r)
{
    plan_conj_t none = {0};
    return push(p, r, &none);
}

/* The first volatile conjunct: it and all after it stay where they are. */
static int first_volatile(const plan_conj_t *l)
{
    for (int i = 0; i < l->n; i++)
        if (plan_expr_volatile(l->e[i]))
            return i;
    return l->n;
}

/* Which inputs of a join a conjunct reads. */
typedef enum side { SIDE_NONE, SIDE_LEFT, SIDE_RIGHT, SIDE_BOTH } side_t;

static side_t side_of(const ty_expr_t *e, int lw)
{
    int lo, hi;
    plan_expr_cols(e, &lo, &hi);
    if (lo > hi)
        return SIDE_NONE;
    if (hi < lw)
        return SIDE_LEFT;
    return lo >= lw ? SIDE_RIGHT : SIDE_BOTH;
}

/* Kids keep their own filters' work: the operator's inputs are pushed into with nothing from above. */
static plan_rel_t *wall(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    if (r->input)
        r->input = push_none(p, r->input);
    if (r->right)
        r->right = push_none(p, r->right);
    return pln__filter_over(p->b, r, preds->e, preds->n);
}

/* A conjunct true for every row, as substitution makes them (x IS NOT NULL where x is the constant true). */
static bool always_true(const ty_expr_t *e)
{
    if (e->kind == TY_EXPR_IS_NULL && e->negated && e->args[0]->kind == TY_EXPR_CONST)
        return !e->args[0]->value.isnull;
    return e->kind == TY_EXPR_CONST && e->type == TY_BOOL && !e->value.isnull && e->value.v.b;
}

static plan_rel_t *push_filter(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    /* The filter's own conjuncts run before those from above. */
    plan_conj_t all = {0}, own = {0};
    plan_conj_split(p->b->arena, &own, r->pred);
    for (int i = 0; i < own.n; i++)
        if (!always_true(own.e[i]))
            plan_conj_add(p->b->arena, &all, own.e[i]);
    for (int i = 0; i < preds->n; i++)
        plan_conj_add(p->b->arena, &all, preds->e[i]);
    int v = first_volatile(&all);
    plan_conj_t down = {.n = v, .cap = v, .e = all.e};
    plan_rel_t *in = push(p, r->input, &down);
    return pln__filter_over(p->b, in, all.e + v, all.n - v);
}

static plan_rel_t *push_project(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    plan_conj_t down = {0}, stay = {0};
    bool *used = cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(r->ncols ? r->ncols : 1));
    for (int i = 0; i < preds->n; i++) {
        for (int c = 0; c < r->ncols; c++)
            used[c] = false;
        plan_expr_mark(preds->e[i], used);
        bool ok = true;
        for (int c = 0; c < r->ncols && ok; c++)
            ok = !used[c] || !plan_expr_volatile(r->exprs[c]);
        ty_expr_t *e = ok ? plan_expr_subst(p->b->arena, preds->e[i], r->exprs) : NULL;
        if (e && always_true(e))
            continue;
        if (ok)
            plan_conj_add(p->b->arena, &down, e);
        else
            plan_conj_add(p->b->arena, &stay, preds->e[i]);
    }
    r->input = push(p, r->input, &down);
    return pln__filter_over(p->b, r, stay.e, stay.n);
}

static plan_rel_t *push_reduce(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    plan_conj_t down = {0}, stay = {0};
    for (int i = 0; i < preds->n; i++) {
        int lo, hi;
        plan_expr_cols(preds->e[i], &lo, &hi);
        bool keys_only = r->nkeys > 0 && hi < r->nkeys;
        for (int k = 0; keys_only && k < r->nkeys; k++)
            keys_only = !plan_expr_volatile(r->keys[k]);
        if (keys_only)
            plan_conj_add(p->b->arena, &down, plan_expr_subst(p->b->arena, preds->e[i], r->keys));
        else
            plan_conj_add(p->b->arena, &stay, preds->e[i]);
    }
    r->input = push(p, r->input, &down);
    return pln__filter_over(p->b, r, stay.e, stay.n);
}

/*
 * DISTINCT ON keeps the first row of each group of equal keys: a conjunct
 * reading only the keys keeps or drops a group whole, so it may go below;
 * one reading other columns could drop the first row and keep a later one.
 */
static plan_rel_t *push_distinct_on(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    plan_conj_t down = {0}, stay = {0};
    bool *key = cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(r->ncols ? r->ncols : 1));
    bool *used = cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(r->ncols ? r->ncols : 1));
    for (int i = 0; i < r->nsort; i++)
        key[r->sort[i].col] = true;
    for (int i = 0; i < preds->n; i++) {
        for (int c = 0; c < r->ncols; c++)
            used[c] = false;
        plan_expr_mark(preds->e[i], used);
        bool keys_only = true;
        for (int c = 0; c < r->ncols && keys_only; c++)
            keys_only = !used[c] || key[c];
        plan_conj_add(p->b->arena, keys_only ? &down : &stay, preds->e[i]);
    }
    r->input = push(p, r->input, &down);
    return pln__filter_over(p->b, r, stay.e, stay.n);
}

/*
 * A window's functions see the whole partition, so a filter below would
 * change them, except one that reads only columns the window partitions
 * by: it keeps or drops each partition whole, as PostgreSQL pushes it.
 */
static plan_rel_t *push_window(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    plan_conj_t down = {0}, stay = {0};
    const plan_window_t *w = r->window;
    bool *part = cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(r->ncols ? r->ncols : 1));
    bool *used = cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(r->ncols ? r->ncols : 1));
    for (int i = 0; w && i < w->npart; i++)
        if (w->part[i]->kind == TY_EXPR_COLUMN && w->part[i]->index >= 0 && w->part[i]->index < r->input->ncols)
            part[w->part[i]->index] = true;
    for (int i = 0; i < preds->n; i++) {
        for (int c = 0; c < r->ncols; c++)
            used[c] = false;
        plan_expr_mark(preds->e[i], used);
        bool parts_only = true;
        for (int c = 0; c < r->ncols && parts_only; c++)
            parts_only = !used[c] || part[c];
        plan_conj_add(p->b->arena, parts_only ? &down : &stay, preds->e[i]);
    }
    r->input = push(p, r->input, &down);
    return pln__filter_over(p->b, r, stay.e, stay.n);
}

static plan_rel_t *push_setop(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    plan_conj_t none = {0};
    switch (r->setop) {
    case PLAN_SETOP_UNION:
    case PLAN_SETOP_INTERSECT:
        r->input = push(p, r->input, preds);
        r->right = push(p, r->right, preds);
        return r;
    case PLAN_SETOP_EXCEPT:
        r->input = push(p, r->input, preds);
        r->right = push(p, r->right, &none);
        return r;
    case PLAN_SETOP_NONE:
        break;
    }
    return wall(p, r, preds);
}

/* e is NULL whenever every column in [lo, hi) is: a column there under strict functions and casts. */
static bool strict_in(const ty_expr_t *e, int lo, int hi)
{
    switch (e->kind) {
    case TY_EXPR_COLUMN:
        return e->index >= lo && e->index < hi;
    case TY_EXPR_CAST:
        return strict_in(e->args[0], lo, hi);
    case TY_EXPR_CALL:
        if (!e->func || !(e->func->flags & TY_FN_STRICT))
            return false;
        for (int i = 0; i < e->nargs; i++)
            if (strict_in(e->args[i], lo, hi))
                return true;
        return false;
    default:
        return false;
    }
}

/* A WHERE conjunct that is never true for a row whose columns in [lo, hi) are all NULL. */
static bool rejects_nulls(const ty_expr_t *e, int lo, int hi)
{
    switch (e->kind) {
    case TY_EXPR_AND:
        for (int i = 0; i < e->nargs; i++)
            if (rejects_nulls(e->args[i], lo, hi))
                return true;
        return false;
    case TY_EXPR_OR:
        for (int i = 0; i < e->nargs; i++)
            if (!rejects_nulls(e->args[i], lo, hi))
                return false;
        return e->nargs > 0;
    case TY_EXPR_NOT:
        return strict_in(e->args[0], lo, hi);
    case TY_EXPR_IS_NULL:
        return e->negated && strict_in(e->args[0], lo, hi);   /* IS NOT NULL */
    default:
        return e->type == TY_BOOL && strict_in(e, lo, hi);
    }
}

/*
 * PostgreSQL's reduce_outer_joins: a WHERE conjunct that rejects the NULLs
 * an outer join pads its nullable side with removes exactly the rows that
 * side was padded for, so that side is not preserved any more: LEFT and
 * RIGHT become inner, FULL becomes the outer join of the other side.
 */
static plan_join_t reduce_outer(const plan_rel_t *r, const plan_conj_t *preds)
{
    int lw = r->input->ncols, w = r->ncols;
    bool left_nulls = r->join == PLAN_JOIN_RIGHT || r->join == PLAN_JOIN_FULL;   /* the left side may be padded */
    bool right_nulls = r->join == PLAN_JOIN_LEFT || r->join == PLAN_JOIN_FULL;
    for (int i = 0; i < preds->n; i++) {
        if (left_nulls && rejects_nulls(preds->e[i], 0, lw))
            left_nulls = false;
        if (right_nulls && rejects_nulls(preds->e[i], lw, w))
            right_nulls = false;
    }
    if (left_nulls && right_nulls)
        return PLAN_JOIN_FULL;
    if (left_nulls)
        return PLAN_JOIN_RIGHT;
    return right_nulls ? PLAN_JOIN_LEFT : PLAN_JOIN_INNER;
}

/*
 * Joins and products. The conjuncts of an inner join's condition and those
 * from above are one list; each goes to the input it reads, the ones that
 * read both stay as the condition. An outer join keeps its condition's
 * conjuncts that read the preserved side, and the filter above keeps those
 * that read the nullable side.
 */
static plan_rel_t *push_join(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    cm_arena_t *a = p->b->arena;
    int lw = r->input->ncols;
    if (r->kind == PLAN_REL_JOIN && r->join != PLAN_JOIN_INNER && r->join != PLAN_JOIN_CROSS)
        r->join = reduce_outer(r, preds);
    plan_join_t kind = r->kind == PLAN_REL_PRODUCT ? PLAN_JOIN_INNER : r->join;
    plan_conj_t on = {0}, left = {0}, right = {0}, cond = {0}, above = {0};
    plan_conj_split(a, &on, r->pred);
    bool inner = kind == PLAN_JOIN_INNER || kind == PLAN_JOIN_CROSS;
    if (inner)
        for (int i = 0; i < preds->n; i++)
            plan_conj_add(a, &on, preds->e[i]);
    int v = first_volatile(&on);
    bool keep_left = kind == PLAN_JOIN_LEFT, keep_right = kind == PLAN_JOIN_RIGHT;
    for (int i = 0; i < v; i++) {
        ty_expr_t *e = on.e[i];
        side_t s = side_of(e, lw);
        if (inner && (s == SIDE_LEFT || s == SIDE_NONE))
            plan_conj_add(a, &left, e);
        else if ((inner || keep_left) && s == SIDE_RIGHT)
            plan_conj_add(a, &right, plan_expr_shift(a, e, -lw));
        else if (keep_left && s == SIDE_NONE)
            plan_conj_add(a, &right, e);
        else if (keep_right && (s == SIDE_LEFT || s == SIDE_NONE))
            plan_conj_add(a, &left, e);
        else
            plan_conj_add(a, &cond, e);
    }
    for (int i = v; i < on.n; i++)
        plan_conj_add(a, &cond, on.e[i]);
    if (!inner) {
        /* WHERE over an outer join: only into the preserved side. */
        for (int i = 0; i < preds->n; i++) {
            ty_expr_t *e = preds->e[i];
            side_t s = side_of(e, lw);
            if (keep_left && (s == SIDE_LEFT || s == SIDE_NONE))
                plan_conj_add(a, &left, e);
            else if (keep_right && s == SIDE_RIGHT)
                plan_conj_add(a, &right, plan_expr_shift(a, e, -lw));
            else if (keep_right && s == SIDE_NONE)
                plan_conj_add(a, &right, e);
            else
                plan_conj_add(a, &above, e);
        }
    }
    r->input = push(p, r->input, &left);
    r->right = push(p, r->right, &right);
    r->pred = plan_conj_and(a, cond.e, cond.n);
    if (inner) {
        /* A product with a condition is a join, and a join without one a product. */
        r->kind = r->pred ? PLAN_REL_JOIN : PLAN_REL_PRODUCT;
        r->join = PLAN_JOIN_INNER;
    }
    return pln__filter_over(p->b, r, above.e, above.n);
}

/* Returns a plan with the rows of Filter(preds) over r, each conjunct as low as it may go. */
static plan_rel_t *push(push_t *p, plan_rel_t *r, const plan_conj_t *preds)
{
    if (plan_rel_is_read(r))
        return pln__filter_over(p->b, r, preds->e, preds->n);   /* a catalog or session relation */
    switch (r->kind) {
    case PLAN_REL_FILTER:
        return push_filter(p, r, preds);
    case PLAN_REL_PROJECT:
        return push_project(p, r, preds);
    case PLAN_REL_REDUCE:
        return push_reduce(p, r, preds);
    case PLAN_REL_SORT:
        r->input = push(p, r->input, preds);
        return r;
    case PLAN_REL_DISTINCT:
        if (r->nsort > 0)
            return push_distinct_on(p, r, preds);
        r->input = push(p, r->input, preds);
        return r;
    case PLAN_REL_SETOP:
        return push_setop(p, r, preds);
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:
        return push_join(p, r, preds);
    case PLAN_REL_WINDOW:
        return push_window(p, r, preds);
    case PLAN_REL_LIMIT:
    case PLAN_REL_VALUES:
    case PLAN_REL_SESSION:
    case PLAN_REL_GET:
    case PLAN_REL_CTE:      /* other readers of the CTE want all its rows */
    case PLAN_REL_FLATMAP:
        return wall(p, r, preds);
    case PLAN_REL_LET:
        /* The query's rows are the LET's; each CTE is optimized as a query of its own. */
        for (int i = 0; i < r->nctes; i++) {
            r->ctes[i]->def = pln__opt_pushdown(p->b, r->ctes[i]->def);
            if (r->ctes[i]->rec)
                r->ctes[i]->rec = pln__opt_pushdown(p->b, r->ctes[i]->rec);
        }
        r->input = push(p, r->input, preds);
        return r;
    }
    return wall(p, r, preds);   /* a kind this pass does not know: nothing moves through it */
}

plan_rel_t *pln__opt_pushdown(pln_binder_t *b, plan_rel_t *r)
{
    push_t p = {.b = b};
    return push_none(&p, r);
}
