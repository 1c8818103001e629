/*
 * plan_expr.c: helpers over a plan's expressions and predicates that the
 * planner's optimizer passes and the plan printer share (plan.h): lists of
 * conjuncts, the columns an expression reads, and expressions rewritten
 * over other columns. Rewrites copy the nodes they change and share the
 * rest, since one node may sit in several trees of a plan.
 */
#include "plan/plan.h"

#include <limits.h>
#include <string.h>

/* ============================================================ conjuncts */

void plan_conj_add(cm_arena_t *a, plan_conj_t *l, ty_expr_t *e)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        ty_expr_t **g = cm_arena_alloc(a, sizeof(*g) * (size_t)cap);
        if (l->n)
            memcpy(g, l->e, sizeof(*g) * (size_t)l->n);
        l->e = g;
        l->cap = cap;
    }
    l->e[l->n++] = e;
}

void plan_conj_split(cm_arena_t *a, plan_conj_t *l, ty_expr_t *p)
{
    if (!p)
        return;
    if (p->kind == TY_EXPR_AND) {
        for (int i = 0; i < p->nargs; i++)
            plan_conj_split(a, l, p->args[i]);
        return;
    }
    plan_conj_add(a, l, p);
}

ty_expr_t *plan_conj_and(cm_arena_t *a, ty_expr_t *const *es, int n)
{
    if (n == 0)
        return NULL;
    if (n == 1)
        return es[0];
    ty_expr_t *and = ty_expr_new(a, TY_EXPR_AND, TY_BOOL, n);
    for (int i = 0; i < n; i++)
        and->args[i] = es[i];
    return and;
}

/* ============================================================ expressions */

/* A column of the input row; the binder's placeholders for aggregates not yet regrouped never reach a finished plan. */
static bool is_col(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_COLUMN && e->index >= 0;
}

static void cols_of(const ty_expr_t *e, int *lo, int *hi)
{
    if (is_col(e)) {
        if (e->index < *lo)
            *lo = e->index;
        if (e->index > *hi)
            *hi = e->index;
    }
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i])
            cols_of(e->args[i], lo, hi);
}

void plan_expr_cols(const ty_expr_t *e, int *lo, int *hi)
{
    *lo = INT_MAX;
    *hi = -1;
    if (e)
        cols_of(e, lo, hi);
}

void plan_expr_mark(const ty_expr_t *e, bool *used)
{
    if (!e)
        return;
    if (is_col(e))
        used[e->index] = true;
    for (int i = 0; i < e->nargs; i++)
        plan_expr_mark(e->args[i], used);
}

bool plan_expr_volatile(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_VOLATILE | TY_FN_BLOCKING);
}

ty_expr_t *plan_expr_column(cm_arena_t *a, int index, ty_oid_t type)
{
    ty_expr_t *c = ty_expr_new(a, TY_EXPR_COLUMN, type, 0);
    c->index = index;
    return c;
}

/* How a rewrite replaces a column: by another column (map, or shift by delta) or by an expression. */
typedef struct rewrite {
    const int *map;
    int delta;
    ty_expr_t *const *with;
} rewrite_t;

static bool reads_columns(const ty_expr_t *e)
{
    int lo, hi;
    plan_expr_cols(e, &lo, &hi);
    return lo <= hi;
}

static ty_expr_t *rewrite(cm_arena_t *a, ty_expr_t *e, const rewrite_t *how)
{
    if (!e || !reads_columns(e))
        return e;   /* nothing below changes: the node is shared */
    if (is_col(e)) {
        if (how->with)
            return how->with[e->index];
        ty_expr_t *c = cm_arena_alloc(a, sizeof(*c));
        *c = *e;
        c->index = how->map ? how->map[e->index] : e->index + how->delta;
        return c;
    }
    ty_expr_t *c = cm_arena_alloc(a, sizeof(*c));
    *c = *e;
    c->args = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)(e->nargs ? e->nargs : 1));
    for (int i = 0; i < e->nargs; i++)
        c->args[i] = rewrite(a, e->args[i], how);
    return c;
}

ty_expr_t *plan_expr_remap(cm_arena_t *a, ty_expr_t *e, const int *map)
{
    rewrite_t how = {.map = map};
    return rewrite(a, e, &how);
}

ty_expr_t *plan_expr_shift(cm_arena_t *a, ty_expr_t *e, int delta)
{
    rewrite_t how = {.delta = delta};
    return delta ? rewrite(a, e, &how) : e;
}

ty_expr_t *plan_expr_subst(cm_arena_t *a, ty_expr_t *e, ty_expr_t *const *with)
{
    rewrite_t how = {.with = with};
    return rewrite(a, e, &how);
}

/* An "=" of one type with itself: transitive, so its operands can form classes. */
static bool same_type_eq(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_CALL && e->func && e->nargs == 2 && (e->func->flags & TY_FN_OPERATOR) &&
           strcmp(e->func->name, "=") == 0 && e->args[0]->type == e->args[1]->type &&
           e->func->args[0] == e->args[0]->type && e->func->args[1] == e->args[1]->type;
}

bool plan_expr_col_eq(const ty_expr_t *e, int *l, int *r)
{
    if (!same_type_eq(e) || !is_col(e->args[0]) || !is_col(e->args[1]))
        return false;
    *l = e->args[0]->index;
    *r = e->args[1]->index;
    return true;
}

bool plan_expr_col_const(const ty_expr_t *e, int *col, ty_expr_t **value)
{
    if (!same_type_eq(e))
        return false;
    for (int side = 0; side < 2; side++) {
        ty_expr_t *c = e->args[side], *k = e->args[1 - side];
        if (is_col(c) && k->kind == TY_EXPR_CONST && !k->value.isnull) {
            *col = c->index;
            *value = k;
            return true;
        }
    }
    return false;
}

ty_expr_t *plan_expr_eq(cm_arena_t *a, const ty_func_t *eq, ty_expr_t *l, ty_expr_t *r)
{
    ty_expr_t *e = ty_expr_new(a, TY_EXPR_CALL, TY_BOOL, 2);
    e->func = eq;
    e->args[0] = l;
    e->args[1] = r;
    return e;
}
