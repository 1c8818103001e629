/*
 * pln_opt.c: the optimizer, run on every bound and folded query plan
 * (what a query runs over constant rows in pln_exec.c and what EXPLAIN
 * prints, so the differential tests check that the passes keep results
 * right). The passes rewrite the tree of plan_rel_t; each keeps the root's
 * columns, their order and types:
 *
 *   pushdown   filters move down to the operators whose columns they read
 *              (pln_opt_pushdown.c); a filter over a product becomes a join
 *   equiv      equalities of inner joins become classes of equal columns,
 *              from which each join takes its keys and each input the
 *              constants (pln_opt_equiv.c)
 *   pushdown   again, for the filters equiv derived
 *   prune      columns no operator above reads are not computed, and
 *              projections that change nothing go (pln_opt_prune.c)
 *
 * They run before constant folding (pln_fold.c), so an expression that
 * pruning drops is never evaluated, as PostgreSQL never evaluates the
 * unused outputs of a subquery it pulls up (SELECT x FROM (SELECT 1 AS x,
 * 1/0) s answers 1).
 *
 * This file also holds the expression helpers the passes share (pln_opt.h).
 * Every pass names each operator kind in a switch and treats a kind it
 * does not know as a wall: nothing moves through it and its inputs keep
 * all their columns, so a new kind is correct before a pass learns it.
 */
#include "planner/pln_opt.h"

#include <limits.h>
#include <string.h>

void pln__optimize(pln_binder_t *b, plan_rel_t **root)
{
    plan_rel_t *r = *root;
    int ncols = r->ncols;
    ty_oid_t *types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)(ncols ? ncols : 1));
    memcpy(types, r->types, sizeof(ty_oid_t) * (size_t)ncols);
    r = pln__opt_pushdown(b, r);
    r = pln__opt_equiv(b, r);
    r = pln__opt_pushdown(b, r);
    r = pln__opt_prune(b, r);
    /* The result's columns are the query's: a pass that changed them is a bug, not bad input. */
    CM_ASSERT(r->ncols == ncols && memcmp(r->types, types, sizeof(ty_oid_t) * (size_t)ncols) == 0);
    *root = r;
}

/* ============================================================ conjuncts */

void pln__conj_add(cm_arena_t *a, pln_conj_t *l, ty_expr_t *e)
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

void pln__conj_split(cm_arena_t *a, pln_conj_t *l, ty_expr_t *p)
{
    if (!p)
        return;
    if (p->kind == TY_EXPR_AND) {
        for (int i = 0; i < p->nargs; i++)
            pln__conj_split(a, l, p->args[i]);
        return;
    }
    pln__conj_add(a, l, p);
}

ty_expr_t *pln__conj_and(cm_arena_t *a, ty_expr_t *const *es, int n)
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

plan_rel_t *pln__filter_over(pln_binder_t *b, plan_rel_t *r, ty_expr_t *const *es, int n)
{
    if (n == 0)
        return r;
    plan_rel_t *f = pln__rel_new(b, PLAN_REL_FILTER, r, r->ncols);
    memcpy(f->types, r->types, sizeof(ty_oid_t) * (size_t)r->ncols);
    f->pred = pln__conj_and(b->arena, es, n);
    return f;
}

/* ============================================================ expressions */

/* A COLUMN at or beyond PLN_AGG_BASE is an aggregate not yet regrouped: never in a finished plan. */
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

void pln__expr_cols(const ty_expr_t *e, int *lo, int *hi)
{
    *lo = INT_MAX;
    *hi = -1;
    if (e)
        cols_of(e, lo, hi);
}

void pln__expr_mark(const ty_expr_t *e, bool *used)
{
    if (!e)
        return;
    if (is_col(e))
        used[e->index] = true;
    for (int i = 0; i < e->nargs; i++)
        pln__expr_mark(e->args[i], used);
}

bool pln__expr_volatile(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_VOLATILE | TY_FN_BLOCKING);
}

ty_expr_t *pln__expr_column(cm_arena_t *a, int index, ty_oid_t type)
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
    pln__expr_cols(e, &lo, &hi);
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

ty_expr_t *pln__expr_remap(cm_arena_t *a, ty_expr_t *e, const int *map)
{
    rewrite_t how = {.map = map};
    return rewrite(a, e, &how);
}

ty_expr_t *pln__expr_shift(cm_arena_t *a, ty_expr_t *e, int delta)
{
    rewrite_t how = {.delta = delta};
    return delta ? rewrite(a, e, &how) : e;
}

ty_expr_t *pln__expr_subst(cm_arena_t *a, ty_expr_t *e, ty_expr_t *const *with)
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

bool pln__expr_col_eq(const ty_expr_t *e, int *l, int *r)
{
    if (!same_type_eq(e) || !is_col(e->args[0]) || !is_col(e->args[1]))
        return false;
    *l = e->args[0]->index;
    *r = e->args[1]->index;
    return true;
}

bool pln__expr_col_const(const ty_expr_t *e, int *col, ty_expr_t **value)
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

ty_expr_t *pln__expr_eq(cm_arena_t *a, const ty_func_t *eq, ty_expr_t *l, ty_expr_t *r)
{
    ty_expr_t *e = ty_expr_new(a, TY_EXPR_CALL, TY_BOOL, 2);
    e->func = eq;
    e->args[0] = l;
    e->args[1] = r;
    return e;
}
